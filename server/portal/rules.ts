import { randomInt } from 'node:crypto';
import type { MerchantCodeAnswer, PortalMerchant, PortalPeriodQuery, PortalRedemption, PortalRedemptionsQuery, PortalSummary } from '../../contract/portal.ts';
import { PORTAL_PAGE_DEFAULT } from '../../contract/portal.ts';
import type { RedemptionVia } from '../../contract/voucher.ts';
import { isUuid } from '../../contract/common.ts';
import { decodeCursor, encodeCursor } from '../cursor.ts';
import type { Db } from '../db/index.ts';
import { HttpError, badRequest, notFound } from '../errors.ts';
import { normaliseSwedishMobile } from '../auth/phone.ts';
import { setMerchantCode } from '../merchant/admin.ts';
import type { Deps } from '../services.ts';
import type { UserRow } from '../auth/queries.ts';
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

/** GET /portal/merchants/{id}/summary. */
export async function summary(deps: PortalDeps, user: Pick<UserRow, 'merchants'> | null, merchantId: string, query: PortalPeriodQuery): Promise<PortalSummary> {
  const period = periodOf(query);
  requireRole(user, merchantId, 'any');
  const s = await q.summaryOf(deps.db, merchantId, period, deps.services.now());
  return {
    issued: { count: s.issued_count, amount: s.issued_amount },
    redeemed: { count: s.redeemed_count, amount: s.redeemed_amount },
    outstanding: { count: s.outstanding_count, amount: s.outstanding_amount },
    expired: { count: s.expired_count, amount: s.expired_amount },
  };
}

const EXACT_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

function toRedemption(r: q.RedemptionListRow): PortalRedemption {
  return {
    id: r.id,
    voucherId: r.voucher_id,
    productName: r.product_name,
    amount: r.amount,
    redeemedAt: r.redeemed_at.toISOString(),
    via: r.via as RedemptionVia,
    undone: r.undone,
  };
}

/** GET /portal/merchants/{id}/redemptions: a page, newest first, and the next page's cursor. */
export async function redemptions(
  deps: Pick<Deps, 'db'>,
  user: Pick<UserRow, 'merchants'> | null,
  merchantId: string,
  query: PortalRedemptionsQuery,
): Promise<{ items: PortalRedemption[]; nextCursor: string | null; limit: number }> {
  const period = periodOf(query);
  const limit = query.limit ?? PORTAL_PAGE_DEFAULT;
  let after: { at: string; id: string } | undefined;
  if (query.cursor !== undefined) {
    const k = decodeCursor(query.cursor, (at) => EXACT_TIME.test(at) && !Number.isNaN(Date.parse(at)));
    if (!k) throw badRequest('INVALID_CURSOR', {}, [{ field: 'querystring.cursor', problem: 'cursor' }]);
    after = { at: k.key, id: k.id };
  }
  requireRole(user, merchantId, 'any');
  const rows = await q.redemptionPage(deps.db, merchantId, period, after, limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { items: page.map(toRedemption), nextCursor: rows.length > limit && last ? encodeCursor(last.at, last.id) : null, limit };
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
