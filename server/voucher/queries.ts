import { sql, type Expression, type SqlBool } from 'kysely';
import type { Db, Tx } from '../db/index.ts';

/**
 * Vouchers' SQL (migrations 007 and 010). Ownership is one predicate everywhere: the voucher's
 * greetie is delivered to the caller's mobile number (`ownedBy`). Redeeming is one conditional
 * UPDATE; the attempt limit reads the partial index `redeem_attempt_wrong`.
 */

type Executor = Db | Tx;

export interface VoucherRow {
  id: string;
  greetie_id: string;
  merchant_id: string;
  merchant_name: string;
  merchant_logo_url: string;
  product_id: string;
  product_name: string;
  source: string;
  amount: number;
  code: string | null;
  is_redeemed: boolean;
  redeemed_at: Date | null;
  expires_at: Date | null;
  created_at: Date;
}

function voucherSelect(db: Executor) {
  return db
    .selectFrom('voucher as v')
    .innerJoin('merchant as m', 'm.id', 'v.merchant_id')
    .innerJoin('product as p', 'p.id', 'v.product_id')
    .innerJoin('greetie as g', 'g.id', 'v.greetie_id')
    .select([
      'v.id',
      'v.greetie_id',
      'v.merchant_id',
      'm.name as merchant_name',
      'm.logo_url as merchant_logo_url',
      'v.product_id',
      'p.name as product_name',
      'v.source',
      'v.amount',
      'v.code',
      'v.is_redeemed',
      'v.redeemed_at',
      'v.expires_at',
      'v.created_at',
    ]);
}

/** The voucher's greetie (`g`) is delivered to the number of user `userId`. */
function ownedBy(userId: string): Expression<SqlBool> {
  return sql<SqlBool>`g.status = 'delivered' AND g.recipient_number = (SELECT u.mobile_number FROM mobile_user u WHERE u.id = ${userId})`;
}

/**
 * GET /voucher: the caller's vouchers, the usable ones first (not redeemed, not expired at `now`),
 * then the rest; newest first within each.
 */
export function ownedVouchers(db: Executor, userId: string, now: Date): Promise<VoucherRow[]> {
  return voucherSelect(db)
    .where(ownedBy(userId))
    .orderBy(sql`(v.is_redeemed OR coalesce(v.expires_at <= ${now}, false))`)
    .orderBy('v.created_at', 'desc')
    .orderBy('v.id', 'desc')
    .execute();
}

export function ownedVoucher(db: Executor, userId: string, id: string): Promise<VoucherRow | undefined> {
  return voucherSelect(db).where('v.id', '=', id).where(ownedBy(userId)).executeTakeFirst();
}

/** The vouchers of greeties, in their gifts' order. */
export function vouchersOfGreeties(db: Executor, greetieIds: string[]): Promise<(VoucherRow & { position: number })[]> {
  if (greetieIds.length === 0) return Promise.resolve([]);
  return voucherSelect(db)
    .innerJoin('greetie_gift as gg', 'gg.id', 'v.gift_id')
    .select('gg.position')
    .where('v.greetie_id', 'in', greetieIds)
    .orderBy('v.greetie_id')
    .orderBy('gg.position')
    .execute();
}

export interface RedeemTarget {
  id: string;
  merchant_id: string;
  is_redeemed: boolean;
  expires_at: Date | null;
  code_hash: string;
}

/**
 * The caller's voucher and its merchant's code hash, locked for this redeem: redeems of one
 * voucher take turns, so its wrong codes are counted before the next is checked (at most 5 are
 * ever checked in a window, however many arrive at once). Other vouchers are not held up.
 */
export function lockForRedeem(tx: Tx, userId: string, id: string): Promise<RedeemTarget | undefined> {
  return tx
    .selectFrom('voucher as v')
    .innerJoin('greetie as g', 'g.id', 'v.greetie_id')
    .innerJoin('merchant as m', 'm.id', 'v.merchant_id')
    .select(['v.id', 'v.merchant_id', 'v.is_redeemed', 'v.expires_at', 'm.code_hash'])
    .where('v.id', '=', id)
    .where(ownedBy(userId))
    .forUpdate('v')
    .executeTakeFirst();
}

/** The times of the newest `limit` wrong codes for the voucher since `since`, newest first. */
export async function recentWrongCodes(tx: Executor, voucherId: string, since: Date, limit: number): Promise<Date[]> {
  const rows = await tx
    .selectFrom('redeem_attempt')
    .select('at')
    .where('voucher_id', '=', voucherId)
    .where('outcome', '=', 'wrongCode')
    .where('at', '>', since)
    .orderBy('at', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => r.at);
}

export type RedeemOutcome = 'redeemed' | 'wrongCode' | 'alreadyRedeemed' | 'expired' | 'locked';

export async function recordAttempt(
  tx: Executor,
  a: { voucherId: string; merchantId: string; userId: string; outcome: RedeemOutcome; at: Date },
): Promise<void> {
  await tx
    .insertInto('redeem_attempt')
    .values({ voucher_id: a.voucherId, merchant_id: a.merchantId, user_id: a.userId, ok: a.outcome === 'redeemed', outcome: a.outcome, at: a.at })
    .execute();
}

/**
 * The one write that redeems: only a voucher not yet redeemed and not expired at `now` changes,
 * so of any number of concurrent redeems exactly one gets its row back.
 */
export async function redeemOnce(tx: Executor, id: string, now: Date): Promise<boolean> {
  const row = await tx
    .updateTable('voucher')
    .set({ is_redeemed: true, redeemed_at: now })
    .where('id', '=', id)
    .where('is_redeemed', '=', false)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * POST /voucher/redeemed: the owner marks a Code or Charity voucher used, in one conditional
 * UPDATE (owned, of such a source, not redeemed, not expired); false when nothing changed.
 */
export async function markUsedOnce(db: Executor, userId: string, id: string, now: Date): Promise<boolean> {
  const row = await db
    .updateTable('voucher as v')
    .from('greetie as g')
    .set({ is_redeemed: true, redeemed_at: now })
    .whereRef('g.id', '=', 'v.greetie_id')
    .where('v.id', '=', id)
    .where(ownedBy(userId))
    .where('v.source', 'in', ['Code', 'Charity'])
    .where('v.is_redeemed', '=', false)
    .where((eb) => eb.or([eb('v.expires_at', 'is', null), eb('v.expires_at', '>', now)]))
    .returning('v.id')
    .executeTakeFirst();
  return row !== undefined;
}
