import { randomInt } from 'node:crypto';
import type { MerchantCodeAnswer, PortalMerchant, PortalPeriodQuery, PortalRedemptionsQuery, PortalSummary } from '../../contract/portal.ts';
import { PORTAL_PAGE_DEFAULT } from '../../contract/portal.ts';
import { isUuid } from '../../contract/common.ts';
import { decodeCursor, encodeCursor } from '../cursor.ts';
import type { Db } from '../db/index.ts';
import { HttpError, badRequest, notFound } from '../errors.ts';
import { normaliseSwedishMobile } from '../auth/phone.ts';
import { setMerchantCode } from '../merchant/admin.ts';
import type { Deps } from '../services.ts';
import type { UserRow } from '../auth/queries.ts';
import { requireUser, userGone } from '../auth/authenticate.ts';
import * as q from './queries.ts';

/**
 * The merchant portal's rules (API.md "Merchant portal"; decision 102).
 * - Who: a person works for a merchant when the operator linked their number to it
 *   (`merchant_staff`), as its owner or staff. Anybody else gets 404 on every call about that
 *   merchant, as if it did not exist; staff get 403 OWNER_ONLY on the owner's calls (the
 *   settlement file, a new till code).
 * - The summary (one merchant's vouchers and redemptions, öre): issued = vouchers paid (issued)
 *   within the period, not cancelled and not donated away; redeemed = redemptions within the period
 *   that were not undone; outstanding = unexpired vouchers with a balance and those balances, now;
 *   expired = expired vouchers with a balance and what was left. A period's days are
 *   Europe/Stockholm days, from `from`'s start to `to`'s start.
 * - A new till code is shown once and stored only as its hash; the redeem compares the typed code
 *   with the hash the merchant has at that moment, in every process, so the old one stops at once.
 */

type PortalDeps = Pick<Deps, 'db'> & { services: Pick<Deps['services'], 'now'> };

/**
 * The caller's role at the merchant: 404 when they do not work for it, 403 OWNER_ONLY when `need`
 * is owner and they are staff. Read from the signed-in user's `merchants`, which `app.authenticate`
 * read from `merchant_staff` in this same request with the user's row (one round trip, not two;
 * decision 123): a link removed before the request is not there, as with a query of its own.
 */
export function requireRole(user: Pick<UserRow, 'merchants'> | null, merchantId: string, need: q.Role | 'any'): q.Role {
  const role = user?.merchants.find((m) => m.id === merchantId)?.role;
  if (!role) throw notFound('MERCHANT_NOT_FOUND');
  if (need === 'owner' && role !== 'owner') throw new HttpError(403, 'OWNER_ONLY');
  return role;
}

/** GET /portal/merchants: the signed-in user's `merchants`, by name, as `app.authenticate` read them. */
export function myMerchants(user: Pick<UserRow, 'merchants'> | null): PortalMerchant[] {
  return user?.merchants ?? [];
}

/** A valid calendar day, `2026-11-26`, or false. */
function isDay(day: string): boolean {
  const at = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(at.getTime()) && at.toISOString().slice(0, 10) === day;
}

/** The query's period, checked: real days, `to` not before `from` (400 PERIOD_INVALID). */
export function periodOf(query: PortalPeriodQuery): q.Period {
  const from = query.from ?? null;
  const to = query.to ?? null;
  for (const [field, day] of [['from', from], ['to', to]] as const) {
    if (day !== null && !isDay(day)) throw badRequest('VALIDATION_FAILED', {}, [{ field: `querystring.${field}`, problem: 'format' }]);
  }
  if (from !== null && to !== null && to < from) throw badRequest('PERIOD_INVALID', {}, [{ field: 'querystring.to', problem: 'beforeFrom' }]);
  return { from, to };
}

/**
 * The gate of a read whose statement did the sign-in check and the role (decision 144): 401
 * INVALID_TOKEN when the token's user is gone, 404 when they do not work for the merchant; the
 * same answers `app.authenticate` and `requireRole` give, from the same tables, in this request.
 */
function passGate(row: q.GateRow): void {
  if (!row.signed_in) throw userGone();
  if (!row.role) throw notFound('MERCHANT_NOT_FOUND');
}

/**
 * A portal read's checks of its query string, after the user check `app.authenticate` would have
 * made first (a removed account gets 401, not 400); the user check costs a round trip of its own
 * only on this refusal.
 */
async function checked<T>(deps: Pick<Deps, 'db'>, userId: string, check: () => T): Promise<T> {
  try {
    return check();
  } catch (err) {
    await requireUser(deps.db, userId);
    throw err;
  }
}

/** GET /portal/merchants/{id}/summary: one statement, the sign-in check and the role in it (decision 144). */
export async function summary(deps: PortalDeps, userId: string, merchantId: string, query: PortalPeriodQuery): Promise<PortalSummary> {
  const period = await checked(deps, userId, () => periodOf(query));
  const s = await q.portalSummaryOf(deps.db, userId, merchantId, period, deps.services.now());
  passGate(s);
  return {
    issued: { count: s.issued_count, amount: s.issued_amount },
    redeemed: { count: s.redeemed_count, amount: s.redeemed_amount },
    outstanding: { count: s.outstanding_count, amount: s.outstanding_amount },
    expired: { count: s.expired_count, amount: s.expired_amount },
  };
}

const EXACT_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/**
 * GET /portal/merchants/{id}/redemptions: a page, newest first, as the answer's JSON bytes (PostgreSQL
 * writes each PortalRedemption; decision 144), and the next page's cursor. One statement, the
 * sign-in check and the role in it.
 */
export async function redemptions(
  deps: Pick<Deps, 'db'>,
  userId: string,
  merchantId: string,
  query: PortalRedemptionsQuery,
): Promise<{ json: Buffer; nextCursor: string | null; limit: number }> {
  const { period, after } = await checked(deps, userId, () => {
    const period = periodOf(query);
    let after: { at: string; id: string } | undefined;
    if (query.cursor !== undefined) {
      const k = decodeCursor(query.cursor, (at) => EXACT_TIME.test(at) && !Number.isNaN(Date.parse(at)));
      if (!k) throw badRequest('INVALID_CURSOR', {}, [{ field: 'querystring.cursor', problem: 'cursor' }]);
      after = { at: k.key, id: k.id };
    }
    return { period, after };
  });
  const limit = query.limit ?? PORTAL_PAGE_DEFAULT;
  const page = await q.portalPage(deps.db, userId, merchantId, period, after, limit);
  passGate(page);
  // Bytes, not a string (decision 155): the answer is ≈ 12 kB at the default page, and as a string
  // node copied it three times more on the young heap (flattened for its length, joined to the
  // headers, encoded for the socket); a Buffer is written after the headers as it is.
  return { json: Buffer.from(page.items), nextCursor: page.next_at !== null && page.next_id !== null ? encodeCursor(page.next_at, page.next_id) : null, limit };
}

/**
 * Every redemption of the period for the settlement file, newest first, read in pages of
 * `pageSize` (keyset), so a merchant with many redemptions is streamed, never held at once. The
 * caller has checked the role.
 */
export async function* allRedemptions(db: Db, merchantId: string, period: q.Period, pageSize = 1000): AsyncGenerator<q.RedemptionListRow> {
  let after: { at: string; id: string } | undefined;
  for (;;) {
    const rows = await q.redemptionPage(db, merchantId, period, after, pageSize);
    yield* rows;
    if (rows.length < pageSize) return;
    const last = rows.at(-1)!;
    after = { at: last.at, id: last.id };
  }
}

/** What a new till code is made of: no 0/O or 1/I, which are misread at a till. */
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const CODE_LENGTH = 8;

export function newTillCode(): string {
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i += 1) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
}

/** POST /portal/merchants/{id}/code (owner): a new till code, stored hashed, answered this once. */
export async function rotateCode(deps: Pick<Deps, 'db'>, user: Pick<UserRow, 'merchants'> | null, merchantId: string): Promise<MerchantCodeAnswer> {
  requireRole(user, merchantId, 'owner');
  const merchantCode = newTillCode();
  await setMerchantCode(deps.db, merchantId, merchantCode);
  return { merchantCode };
}

// ---- The operator's staff command (npm run admin -- merchant staff …) ----

export interface StaffMember {
  merchantId: string;
  mobileNumber: string;
  role: q.Role;
  /** Whether the number has signed in (and so is linked to its account). */
  signedIn: boolean;
}

function checkMerchantId(id: string): void {
  if (!isUuid(id)) throw badRequest('VALIDATION_FAILED', {}, [{ field: 'merchant', problem: 'format' }]);
}

function mobileOf(number: string): string {
  const e164 = normaliseSwedishMobile(number);
  if (!e164) throw badRequest('INVALID_MOBILE_NUMBER', {}, [{ field: 'number', problem: 'format' }]);
  return e164;
}

async function requireMerchant(db: Db, merchantId: string): Promise<void> {
  checkMerchantId(merchantId);
  if (!(await q.merchantExists(db, merchantId))) throw notFound('MERCHANT_NOT_FOUND');
}

const toMember = (r: q.StaffRow): StaffMember => ({ merchantId: r.merchant_id, mobileNumber: r.mobile_number, role: r.role, signedIn: r.user_id !== null });

/** Links a number to a merchant as owner or staff (a linked number gets the new role). */
export async function addStaff(db: Db, merchantId: string, number: string, role: string): Promise<StaffMember> {
  if (role !== 'owner' && role !== 'staff') throw badRequest('VALIDATION_FAILED', {}, [{ field: 'role', problem: 'enum' }]);
  const mobileNumber = mobileOf(number);
  await requireMerchant(db, merchantId);
  return toMember(await q.upsertStaff(db, merchantId, mobileNumber, role));
}

export async function removeStaff(db: Db, merchantId: string, number: string): Promise<void> {
  const mobileNumber = mobileOf(number);
  await requireMerchant(db, merchantId);
  if (!(await q.deleteStaff(db, merchantId, mobileNumber))) throw notFound('STAFF_NOT_FOUND');
}

export async function listStaff(db: Db, merchantId: string): Promise<StaffMember[]> {
  await requireMerchant(db, merchantId);
  return (await q.staffOf(db, merchantId)).map(toMember);
}
