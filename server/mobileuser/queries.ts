import { sql } from 'kysely';
import type { Db, Tx } from '../db/index.ts';
import type { UserRow } from '../auth/queries.ts';
import { USER_COLUMNS } from '../auth/rules.ts';

/** SQL of the profile. The person's row is mobile_user (created at first sign-in, server/auth). */

export interface ProfileChange {
  name?: string;
  allowMarketing?: boolean;
}

/**
 * Writes the fields given, in one statement, and returns the row as it is now; undefined when the
 * person no longer exists. Nothing given: the row as it is.
 */
export async function updateProfile(db: Db, userId: string, change: ProfileChange): Promise<UserRow | undefined> {
  const set = {
    ...(change.name !== undefined ? { name: change.name } : {}),
    ...(change.allowMarketing !== undefined ? { allow_marketing: change.allowMarketing } : {}),
  };
  if (Object.keys(set).length === 0) {
    return db.selectFrom('mobile_user').select(USER_COLUMNS).where('id', '=', userId).executeTakeFirst();
  }
  return db.updateTable('mobile_user').set(set).where('id', '=', userId).returning(USER_COLUMNS).executeTakeFirst();
}

// ---- Export (GET /mobileuser/export) ----

/** The payments of the caller's greeties, without the provider's tokens and addresses. */
export function paymentsOf(db: Db, userId: string) {
  return db
    .selectFrom('payment as p')
    .innerJoin('greetie as g', 'g.id', 'p.greetie_id')
    .select(['p.id', 'p.greetie_id', 'p.provider', 'p.status', 'p.amount', 'p.payer_alias', 'p.error_code', 'p.created_at', 'p.updated_at'])
    .where('g.sender_id', '=', userId)
    .orderBy('p.created_at', 'desc')
    .orderBy('p.id', 'desc')
    .execute();
}

/** One row per sign-in (a refresh-token family): its device and times, never a token or its hash. */
export function sessionsOf(db: Db, userId: string) {
  return db
    .selectFrom('auth_refresh_token')
    .select((eb) => [
      'family_id',
      'device_id',
      eb.fn.min('created_at').as('signed_in_at'),
      eb.fn.max('created_at').as('last_refreshed_at'),
      eb.fn.max('expires_at').as('expires_at'),
      eb.fn.max('revoked_at').as('revoked_at'),
    ])
    .where('user_id', '=', userId)
    .groupBy(['family_id', 'device_id'])
    .orderBy('signed_in_at', 'desc')
    .execute();
}

/** The caller's attempts at redeeming vouchers (the shop and the outcome). */
export function redeemAttemptsOf(db: Db, userId: string) {
  return db
    .selectFrom('redeem_attempt as a')
    .innerJoin('merchant as m', 'm.id', 'a.merchant_id')
    .select(['a.voucher_id', 'm.name as merchant_name', 'a.outcome', 'a.at'])
    .where('a.user_id', '=', userId)
    .orderBy('a.at', 'desc')
    .execute();
}

/** Whether a table exists (the notification and push tables come with migration 011). */
export async function tableExists(db: Db | Tx, name: string): Promise<boolean> {
  const r = await sql<{ t: string | null }>`SELECT to_regclass(${`public.${name}`})::text AS t`.execute(db);
  return r.rows[0]?.t != null;
}

/** Rows of an optional table (named by us, never by the caller) that belong to the user, as JSON. */
export async function optionalRows(db: Db, table: 'notification' | 'expo_push_token' | 'webpush_subscription', columns: string[], userId: string) {
  if (!(await tableExists(db, table))) return [];
  const r = await sql<Record<string, unknown>>`SELECT ${sql.join(columns.map((c) => sql.ref(c)))} FROM ${sql.table(table)} WHERE user_id = ${userId} ORDER BY 1`.execute(db);
  return r.rows;
}

// ---- Removal (DELETE /mobileuser/remove) ----

/** The caller's row, locked for the removal; undefined when already gone. */
export function lockUser(tx: Tx, userId: string) {
  return tx.selectFrom('mobile_user').select(['id', 'mobile_number']).where('id', '=', userId).forUpdate().executeTakeFirst();
}

/** The caller's greeties, locked: drafts and those awaiting payment go, the rest stay. */
export function lockOwnGreeties(tx: Tx, userId: string) {
  return tx.selectFrom('greetie').select(['id', 'status']).where('sender_id', '=', userId).forUpdate().execute();
}

/** Ids of the caller's greeties awaiting payment (their open payments are cancelled first). */
export async function awaitingPaymentOf(db: Db, userId: string): Promise<string[]> {
  const rows = await db.selectFrom('greetie').select('id').where('sender_id', '=', userId).where('status', '=', 'awaitingPayment').execute();
  return rows.map((r) => r.id);
}

/** Which of these greeties have an open (created or pending) payment. */
export async function withOpenPayment(tx: Tx, greetieIds: string[]): Promise<string[]> {
  if (greetieIds.length === 0) return [];
  const rows = await tx.selectFrom('payment').select('greetie_id').where('greetie_id', 'in', greetieIds).where('status', 'in', ['created', 'pending']).execute();
  return rows.map((r) => r.greetie_id);
}

/** Deletes these greeties (gifts, media rows, payments and vouchers go with them) and answers their storage keys. */
export async function deleteGreeties(tx: Tx, ids: string[]): Promise<Map<string, string[]>> {
  const keys = new Map<string, string[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return keys;
  const media = await tx.selectFrom('media_file').select(['greetie_id', 'storage_key']).where('greetie_id', 'in', ids).execute();
  for (const m of media) keys.get(m.greetie_id)?.push(m.storage_key);
  await tx.deleteFrom('greetie').where('id', 'in', ids).execute();
  return keys;
}

/**
 * Forgets the person's number wherever it is held outside their own row: as the payer of any
 * payment, on greeties delivered to it (they stay with their senders, addressed to nobody; their
 * vouchers are given up), on deliveries already done (kept for the senders' sending limits),
 * sign-in codes and the sandbox's outboxes. Rate-limit events are keyed by a keyed hash of the
 * number, never the number, and stay for their windows (`keepNumberLimits` in server/auth/rules.ts
 * turns the sign-in codes that still count into such events first; decision 024). Greeties still on their
 * way to the number (scheduled by somebody else) keep it: they are their senders' and must reach it.
 */
export async function forgetNumber(tx: Tx, number: string): Promise<void> {
  await tx.updateTable('payment').set({ payer_alias: null }).where('payer_alias', '=', number).execute();
  await tx.updateTable('greetie').set({ recipient_number: null }).where('recipient_number', '=', number).where('status', '=', 'delivered').execute();
  await tx.updateTable('delivery').set({ recipient_number: '' }).where('recipient_number', '=', number).where('state', 'in', ['sent', 'failed']).execute();
  // Corrections to it: kept (a day) for the senders' limits, without the number.
  await tx.updateTable('recipient_change').set({ recipient_number: '' }).where('recipient_number', '=', number).execute();
  await tx.deleteFrom('auth_verification').where('mobile_number', '=', number).execute();
  await tx.deleteFrom('sandbox_sms').where('to_number', '=', number).execute();
  // Swish's alias form: the number without "+".
  await tx.updateTable('sandbox_payment_request').set({ payer_alias: null }).where('payer_alias', '=', number.slice(1)).execute();
}

/** The payer of the person's own greeties' payments (a number they typed: maybe somebody else's). */
export async function forgetPayersOf(tx: Tx, userId: string): Promise<void> {
  await tx
    .updateTable('payment')
    .set({ payer_alias: null })
    .where('greetie_id', 'in', (eb) => eb.selectFrom('greetie').select('id').where('sender_id', '=', userId))
    .where('payer_alias', 'is not', null)
    .execute();
}

/**
 * The person's name in other people's notifications about greeties they sent ("Anna har skickat en
 * greetie till dig"): set to null, so those read "Någon har skickat…". Before the row goes (the
 * greeties still name their sender).
 */
export async function forgetNameInNotifications(tx: Tx, userId: string): Promise<void> {
  if (!(await tableExists(tx, 'notification'))) return;
  await sql`
    UPDATE notification SET params = params || '{"senderName": null}'::jsonb
    WHERE params ? 'senderName' AND greetie_id IN (SELECT id FROM greetie WHERE sender_id = ${userId})`.execute(tx);
}

/**
 * The person's row. Refresh tokens, notifications and push registrations go with it (ON DELETE
 * CASCADE); their greeties, deliveries and redeem attempts keep no sender (ON DELETE SET NULL).
 */
export async function deleteUser(tx: Tx, userId: string): Promise<void> {
  await tx.deleteFrom('mobile_user').where('id', '=', userId).execute();
}
