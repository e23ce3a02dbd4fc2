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
export function ownedVouchersQuery(db: Executor, userId: string, now: Date) {
  return voucherSelect(db)
    .where(ownedBy(userId))
    .orderBy(sql`(v.is_redeemed OR coalesce(v.expires_at <= ${now}, false))`)
    .orderBy('v.created_at', 'desc')
    .orderBy('v.id', 'desc');
}

export function ownedVouchers(db: Executor, userId: string, now: Date): Promise<VoucherRow[]> {
  return ownedVouchersQuery(db, userId, now).execute();
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

/** The caller's voucher and its merchant's code hash: what a redeem looks at first. */
function selectRedeemTarget(db: Executor, userId: string, id: string) {
  return db
    .selectFrom('voucher as v')
    .innerJoin('greetie as g', 'g.id', 'v.greetie_id')
    .innerJoin('merchant as m', 'm.id', 'v.merchant_id')
    .select(['v.id', 'v.merchant_id', 'v.is_redeemed', 'v.expires_at', 'm.code_hash'])
    .where('v.id', '=', id)
    .where(ownedBy(userId));
}

/** The caller's voucher and its merchant's code hash, read without a lock (the redeem's first look). */
export function redeemTarget(db: Executor, userId: string, id: string): Promise<RedeemTarget | undefined> {
  return selectRedeemTarget(db, userId, id).executeTakeFirst();
}

/**
 * The caller's voucher and its merchant's code hash, locked for this redeem: redeems of one
 * voucher take turns, so its wrong codes are counted before the next is checked (at most 5 are
 * ever checked in a window, however many arrive at once). Other vouchers are not held up.
 */
export function lockForRedeem(tx: Tx, userId: string, id: string): Promise<RedeemTarget | undefined> {
  return selectRedeemTarget(tx, userId, id).forUpdate('v').executeTakeFirst();
}

/**
 * The times of the newest `limit` wrong codes for the voucher since `since`, newest first. A
 * statement of its own after the lock, not a subquery of the locking one: under READ COMMITTED a
 * statement reads the snapshot it started with, so a subquery would miss the wrong codes committed
 * while it waited for the lock (and more than 5 would be checked).
 */
export function recentWrongCodesQuery(db: Executor, voucherId: string, since: Date, limit: number) {
  return db
    .selectFrom('redeem_attempt')
    .select('at')
    .where('voucher_id', '=', voucherId)
    .where('outcome', '=', 'wrongCode')
    .where('at', '>', since)
    .orderBy('at', 'desc')
    .limit(limit);
}

export async function recentWrongCodes(tx: Executor, voucherId: string, since: Date, limit: number): Promise<Date[]> {
  return (await recentWrongCodesQuery(tx, voucherId, since, limit).execute()).map((r) => r.at);
}

/**
 * Serialises the redeems of one person at one merchant for the rest of the transaction
 * (an advisory lock on the pair), so their wrong codes at that merchant, over all its vouchers,
 * are counted in turn: at most REDEEM_MAX_WRONG_AT_MERCHANT are ever checked in a window, in any
 * number of processes (decision 023). Taken after the voucher's row lock, always.
 */
export async function lockPersonAtMerchant(tx: Tx, userId: string, merchantId: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext('redeem-person-merchant'), hashtext(${`${userId}/${merchantId}`}))`.execute(tx);
}

/**
 * The times of the newest `limit` wrong codes by the person at the merchant since `since`, newest
 * first (the partial index `redeem_attempt_person_wrong`, migration 015). A statement of its own
 * after `lockPersonAtMerchant`, for the same reason as recentWrongCodesQuery's.
 */
export function recentWrongCodesAtMerchantQuery(db: Executor, userId: string, merchantId: string, since: Date, limit: number) {
  return db
    .selectFrom('redeem_attempt')
    .select('at')
    .where('user_id', '=', userId)
    .where('merchant_id', '=', merchantId)
    .where('outcome', '=', 'wrongCode')
    .where('at', '>', since)
    .orderBy('at', 'desc')
    .limit(limit);
}

export async function recentWrongCodesAtMerchant(tx: Executor, userId: string, merchantId: string, since: Date, limit: number): Promise<Date[]> {
  return (await recentWrongCodesAtMerchantQuery(tx, userId, merchantId, since, limit).execute()).map((r) => r.at);
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
 * The one write that redeems, with its attempt and the answer's row in the same statement: only
 * a voucher not yet redeemed and not expired at `now` changes, so of any number of concurrent
 * redeems exactly one gets its row back (undefined: nothing changed).
 */
export async function redeemOnce(tx: Executor, id: string, userId: string, now: Date): Promise<VoucherRow | undefined> {
  const { rows } = await sql<VoucherRow>`
    WITH r AS (
      UPDATE voucher SET is_redeemed = true, redeemed_at = ${now}
       WHERE id = ${id} AND is_redeemed = false AND (expires_at IS NULL OR expires_at > ${now})
      RETURNING *
    ), attempt AS (
      INSERT INTO redeem_attempt (voucher_id, merchant_id, user_id, ok, outcome, at)
      SELECT r.id, r.merchant_id, ${userId}, true, 'redeemed', ${now} FROM r
    )
    SELECT r.id, r.greetie_id, r.merchant_id, m.name AS merchant_name, m.logo_url AS merchant_logo_url,
           r.product_id, p.name AS product_name, r.source, r.amount, r.code, r.is_redeemed, r.redeemed_at,
           r.expires_at, r.created_at
      FROM r JOIN merchant m ON m.id = r.merchant_id JOIN product p ON p.id = r.product_id`.execute(tx);
  return rows[0];
}

/**
 * The redeem of a code this process already knows to be right (decision 034): one call of
 * `voucher_redeem_known` (migration 012), no transaction, no read before it. Besides redeemOnce's
 * conditions, the caller must own the voucher, its merchant's stored code hash must be one of
 * `codeHashes` (those the typed code is known to match) and the voucher must have fewer than
 * `maxWrong` wrong codes since `since`, and the person fewer than `maxWrongAtMerchant` at its
 * merchant (migration 015), so a locked voucher stays locked. A wrong code is never
 * known to match the voucher's merchant, so it never redeems this way; it takes the locked path,
 * where it is counted in turn. Undefined: nothing changed (the locked path says why).
 */
export async function redeemKnownCode(
  db: Executor,
  a: { id: string; userId: string; codeHashes: string[]; now: Date; since: Date; maxWrong: number; maxWrongAtMerchant: number },
): Promise<VoucherRow | undefined> {
  const { rows } = await sql<VoucherRow>`
    SELECT * FROM voucher_redeem_known(${a.id}::uuid, ${a.userId}::uuid, ${a.codeHashes}::text[], ${a.now}, ${a.since}, ${a.maxWrong}, ${a.maxWrongAtMerchant})`.execute(db);
  return rows[0];
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
