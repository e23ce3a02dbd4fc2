import type { MobileUser } from '../../contract/auth.ts';
import { NAME_MAX_LENGTH, checkName, type ProfileBody } from '../../contract/mobileuser.ts';
import { keepNumberLimits, signedInUser, toMobileUser } from '../auth/rules.ts';
import type { UserRow } from '../auth/queries.ts';
import type { AccountExport } from '../../contract/account.ts';
import { transaction } from '../db/index.ts';
import { badRequest, conflict, notFound, unauthorized } from '../errors.ts';
import { greetiesForExport, listGreeties } from '../greetie/rules.ts';
import { cancelBeforeDelete, type PaymentDeps } from '../payment/rules.ts';
import type { Deps } from '../services.ts';
import { listOwn } from '../voucher/rules.ts';
import * as q from './queries.ts';

/**
 * The rules of one's own profile (API.md, "Mobile user"): a person reads and changes only
 * themselves; naming anybody else's id is 404, never a hint that the id exists.
 */

/** The caller's own profile (the row app.authenticate read), or 404 for any other id. */
export function profile(caller: UserRow, id: string): MobileUser {
  if (id.toLowerCase() !== caller.id) throw notFound();
  return toMobileUser(caller);
}

/** Completes or changes the caller's profile: a name (checked by contract's checkName) and/or the marketing consent. */
export async function updateProfile(deps: Pick<Deps, 'db'>, callerId: string, body: ProfileBody): Promise<MobileUser> {
  let name: string | undefined;
  if (body.name !== undefined) {
    const checked = checkName(body.name);
    if (!checked.ok) throw badRequest(checked.problem, { max: NAME_MAX_LENGTH }, [{ field: 'body.name', problem: checked.problem }]);
    name = checked.name;
  }
  const row = await q.updateProfile(deps.db, callerId, { name, allowMarketing: body.allowMarketing });
  if (!row) throw notFound();
  return toMobileUser(row);
}

/** The same change for the profile at `id`, which must be the caller's own. */
export async function updateOwnProfile(deps: Pick<Deps, 'db'>, callerId: string, id: string, body: ProfileBody): Promise<MobileUser> {
  if (id.toLowerCase() !== callerId) throw notFound();
  return updateProfile(deps, callerId, body);
}

/** Gives or withdraws the marketing consent. */
export async function setMarketingConsent(deps: Pick<Deps, 'db'>, callerId: string, isAllowed: boolean): Promise<MobileUser> {
  return updateProfile(deps, callerId, { allowMarketing: isAllowed });
}

// ---- The lists (GET /mobileuser/greeties, /sentgreeties, /receivedgreeties) ----

/** One page of the caller's greeties: both (as GET /greetie), only sent, or only received. */
export function listOwnGreeties(
  deps: Pick<Deps, 'db' | 'config' | 'services'>,
  callerId: string,
  query: { limit?: number; cursor?: string },
  which: 'all' | 'sent' | 'received',
) {
  return listGreeties(deps, callerId, query, which);
}

// ---- Export ----

const iso = (d: Date | string | null): string | null => (d === null ? null : new Date(d).toISOString());

/** GET /mobileuser/export: everything held about the caller, with no secret in it. */
export async function exportAccount(deps: Pick<Deps, 'db' | 'config' | 'services'>, callerId: string): Promise<AccountExport> {
  const user = await signedInUser(deps.db, callerId);
  const [greeties, vouchers, payments, attempts, sessions, notifications, expo, webpush] = await Promise.all([
    greetiesForExport(deps, callerId),
    listOwn(deps, callerId),
    q.paymentsOf(deps.db, callerId),
    q.redeemAttemptsOf(deps.db, callerId),
    q.sessionsOf(deps.db, callerId),
    q.optionalRows(deps.db, 'notification', ['id', 'type', 'greetie_id', 'voucher_id', 'params', 'read_at', 'created_at'], callerId),
    q.optionalRows(deps.db, 'expo_push_token', ['device_id', 'updated_at'], callerId),
    q.optionalRows(deps.db, 'webpush_subscription', ['endpoint', 'created_at'], callerId),
  ]);
  return {
    exportedAt: deps.services.now().toISOString(),
    profile: user,
    consents: { marketing: user.allowMarketing },
    greeties,
    vouchers,
    payments: payments.map((p) => ({
      id: p.id,
      greetieId: p.greetie_id,
      provider: p.provider,
      status: p.status,
      amount: p.amount,
      payerAlias: p.payer_alias,
      errorCode: p.error_code,
      createdAt: p.created_at.toISOString(),
      updatedAt: p.updated_at.toISOString(),
    })),
    redeemAttempts: attempts.map((a) => ({ voucherId: a.voucher_id, merchantName: a.merchant_name, outcome: a.outcome, at: a.at.toISOString() })),
    sessions: sessions.map((s) => ({
      deviceId: s.device_id,
      signedInAt: iso(s.signed_in_at)!,
      lastRefreshedAt: iso(s.last_refreshed_at)!,
      expiresAt: iso(s.expires_at)!,
      revokedAt: iso(s.revoked_at),
    })),
    notifications: notifications.map(jsonTimes),
    pushRegistrations: [
      ...expo.map((e) => ({ kind: 'expo', deviceId: e.device_id, updatedAt: iso(e.updated_at as Date) })),
      // The push service's address (the browser's endpoint), never its keys.
      ...webpush.map((w) => ({ kind: 'webpush', endpoint: w.endpoint, createdAt: iso(w.created_at as Date) })),
    ],
  };
}

/** Column names in camelCase and Dates as ISO strings, for rows read without a schema. */
function jsonTimes(row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(row).map(([k, v]) => [k.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase()), v instanceof Date ? v.toISOString() : v]),
  );
}

/** The export's file name: dated, so several downloads do not overwrite each other. */
export function exportFileName(now: Date): string {
  return `greetie-mina-uppgifter-${now.toISOString().slice(0, 10)}.json`;
}

// ---- Removal ----

/**
 * DELETE /mobileuser/remove: the account and its personal data, in one transaction
 * (docs/decisions/090-account-removal.md).
 * - Open payments of greeties awaiting payment are cancelled with the provider first; one paid
 *   meanwhile makes its greetie scheduled, and it then stays (it was paid for). A payment opened
 *   again while this runs refuses the removal (409 ACCOUNT_PAYMENT_PENDING), changing nothing.
 * - Drafts and greeties awaiting payment go, with their media (storage after the commit).
 * - Greeties already paid or sent stay with their recipients, with no sender (sender_id NULL):
 *   they are shown as from "en tidigare användare".
 * - The number is forgotten everywhere (q.forgetNumber); what its sign-in limits need for their
 *   windows stays under a keyed hash of it (keepNumberLimits, decision 024), so removing the
 *   account does not reset them. The row goes, and with it refresh tokens,
 *   notifications and push registrations. An access token issued before answers 401 at once
 *   (server/auth/authenticate.ts finds no user).
 */
export async function removeAccount(
  deps: PaymentDeps & { services: Pick<Deps['services'], 'media'> },
  callerId: string,
  onCleanupError: (err: unknown) => void,
): Promise<void> {
  for (const greetieId of await q.awaitingPaymentOf(deps.db, callerId)) {
    await cancelBeforeDelete(deps, callerId, greetieId);
  }
  const storage = await transaction(deps.db, async (tx) => {
    const user = await q.lockUser(tx, callerId);
    if (!user) throw unauthorized('INVALID_TOKEN');
    const own = await q.lockOwnGreeties(tx, callerId);
    const going = own.filter((g) => g.status === 'draft' || g.status === 'awaitingPayment').map((g) => g.id);
    if ((await q.withOpenPayment(tx, going)).length > 0) throw conflict('ACCOUNT_PAYMENT_PENDING');
    const keys = await q.deleteGreeties(tx, going);
    await q.forgetPayersOf(tx, callerId);
    await q.forgetNameInNotifications(tx, callerId);
    // The number's rate limits outlive the account, kept under a keyed hash (decision 024).
    await keepNumberLimits(tx, deps, user.mobile_number);
    await q.forgetNumber(tx, user.mobile_number);
    await q.deleteUser(tx, callerId);
    return keys;
  });
  for (const [greetieId, storageKeys] of storage) {
    if (storageKeys.length === 0) continue;
    try {
      await deps.services.media.deleteForGreetie({ greetieId, storageKeys });
    } catch (err) {
      onCleanupError(err);
    }
  }
}
