import { sql, type Expression, type SqlBool } from 'kysely';
import type { Db, Tx } from '../db/index.ts';

/**
 * Vouchers' SQL (migrations 007, 010 and 020). Ownership is one predicate everywhere: the voucher's
 * greetie is delivered to the caller's mobile number (`ownedBy`); a donated voucher is nobody's
 * any more. Redeeming is one conditional UPDATE of the balance under the row's lock; the attempt
 * limit reads the partial index `redeem_attempt_wrong`.
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
  product_description: string;
  sender_name: string | null;
  merchant_street: string | null;
  merchant_postal_code: string | null;
  merchant_city: string | null;
  merchant_opening_hours: string | null;
  source: string;
  kind: string;
  amount: number;
  balance: number;
  code: string | null;
  is_redeemed: boolean;
  redeemed_at: Date | null;
  expires_at: Date | null;
  created_at: Date;
  /** Oldest first, as json (timestamps as text); null when there are none. */
  redemptions: RedemptionJson[] | null;
}

export interface RedemptionJson {
  id: string;
  amount: number;
  redeemedAt: string;
  via: string;
  undone: boolean;
}

/** A voucher's redemptions as json, oldest first (null when none). */
const redemptionsOf = sql<RedemptionJson[] | null>`(
  SELECT json_agg(json_build_object('id', r.id, 'amount', r.amount, 'redeemedAt', r.redeemed_at,
                                    'via', r.via, 'undone', r.undone_at IS NOT NULL) ORDER BY r.seq)
    FROM voucher_redemption r WHERE r.voucher_id = v.id)`;

/** Every answer's Voucher row (GET, the lists, the redeems by code and by QR): the one builder. */
function voucherSelect(db: Executor, { donated = false } = {}) {
  const q = db
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
      'p.description as product_description',
      'm.street as merchant_street',
      'm.postal_code as merchant_postal_code',
      'm.city as merchant_city',
      'm.opening_hours as merchant_opening_hours',
      sql<string | null>`(SELECT u.name FROM mobile_user u WHERE u.id = g.sender_id)`.as('sender_name'),
      'v.source',
      'v.kind',
      'v.amount',
      'v.balance',
      'v.code',
      'v.is_redeemed',
      'v.redeemed_at',
      'v.expires_at',
      'v.created_at',
      redemptionsOf.as('redemptions'),
    ]);
  return donated ? q : q.where('v.donated_at', 'is', null);
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
  greetie_id: string;
  gift_id: string | null;
  merchant_id: string;
  source: string;
  kind: string;
  amount: number;
  balance: number;
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
    .select(['v.id', 'v.greetie_id', 'v.gift_id', 'v.merchant_id', 'v.source', 'v.kind', 'v.amount', 'v.balance', 'v.is_redeemed', 'v.expires_at', 'm.code_hash'])
    .where('v.id', '=', id)
    .where('v.donated_at', 'is', null)
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

export type RedeemOutcome =
  | 'redeemed'
  | 'wrongCode'
  | 'alreadyRedeemed'
  | 'expired'
  | 'locked'
  | 'amountNotAllowed'
  | 'balanceTooLow'
  | 'undone'
  | 'undoTooLate'
  | 'alreadyUndone';

export async function recordAttempt(
  tx: Executor,
  a: { voucherId: string; merchantId: string; userId: string; outcome: RedeemOutcome; at: Date },
): Promise<void> {
  await tx
    .insertInto('redeem_attempt')
    .values({ voucher_id: a.voucherId, merchant_id: a.merchantId, user_id: a.userId, ok: a.outcome === 'redeemed' || a.outcome === 'undone', outcome: a.outcome, at: a.at })
    .execute();
}

/**
 * The redeem of a code this process already knows to be right (decision 034): one call of
 * `voucher_redeem_known` (migrations 020, 028), no transaction, no read before it. It takes `amount`
 * (absent: the whole balance) from the balance when it fits (1 ≤ amount ≤ balance; a "fixed"
 * voucher only whole), the voucher is not donated and not expired at `now`, under the row's lock,
 * so concurrent redeems never take more than the balance; it records the redemption and the
 * attempt and answers the voucher's id. The caller must own the voucher, its merchant's stored code hash must be one of
 * `codeHashes` (those the typed code is known to match) and the voucher must have fewer than
 * `maxWrong` wrong codes since `since`, and the person fewer than `maxWrongAtMerchant` at its
 * merchant (migration 015), so a locked voucher stays locked. A wrong code is never
 * known to match the voucher's merchant, so it never redeems this way; it takes the locked path,
 * where it is counted in turn. Undefined: nothing changed (the locked path says why). The answer
 * is read after it with `redeemedVoucher`.
 */
export async function redeemKnownCode(
  db: Executor,
  a: { id: string; userId: string; codeHashes: string[]; now: Date; since: Date; maxWrong: number; maxWrongAtMerchant: number; amount: number | null },
): Promise<string | undefined> {
  const { rows } = await sql<{ id: string }>`
    SELECT id FROM voucher_redeem_known(${a.id}::uuid, ${a.userId}::uuid, ${a.codeHashes}::text[], ${a.now}, ${a.since}, ${a.maxWrong},
                                        ${a.maxWrongAtMerchant}, ${a.amount}::integer)`.execute(db);
  return rows[0]?.id;
}

/**
 * A voucher just redeemed, as every answer shows it. Read even when it was donated a moment after
 * the redeem committed (the redeem happened; its answer says what it took).
 */
export async function redeemedVoucher(db: Executor, id: string): Promise<VoucherRow> {
  const row = await voucherSelect(db, { donated: true }).where('v.id', '=', id).executeTakeFirst();
  if (!row) throw new Error(`voucher ${id} was redeemed but cannot be read`);
  return row;
}

/**
 * POST /voucher/redeemed: the owner marks a Code or Charity voucher used, in one statement: the
 * owned voucher of such a source with a balance, not expired, locked (`FOR UPDATE`: of two at
 * once the second reads the balance the first left, 0, and changes nothing), its balance taken
 * whole and recorded as one redemption. False when nothing changed.
 */
export async function markUsedOnce(db: Executor, userId: string, id: string, now: Date): Promise<boolean> {
  const { rows } = await sql<{ id: string }>`
    WITH target AS (
      SELECT v.id, v.balance, v.merchant_id FROM voucher v JOIN greetie g ON g.id = v.greetie_id
       WHERE v.id = ${id} AND ${ownedBy(userId)} AND v.donated_at IS NULL AND v.source IN ('Code', 'Charity')
         AND v.balance > 0 AND (v.expires_at IS NULL OR v.expires_at > ${now})
         FOR UPDATE OF v
    ), used AS (
      UPDATE voucher SET balance = 0, redeemed_at = ${now} FROM target WHERE voucher.id = target.id
      RETURNING target.id, target.balance, target.merchant_id
    )
    INSERT INTO voucher_redemption (voucher_id, merchant_id, user_id, amount, via, redeemed_at)
    SELECT used.id, used.merchant_id, ${userId}, used.balance, 'code', ${now} FROM used
    RETURNING voucher_id AS id`.execute(db);
  return rows.length > 0;
}

export interface RedemptionRow {
  id: string;
  voucher_id: string;
  amount: number;
  redeemed_at: Date;
  undone_at: Date | null;
}

/** One redemption of one voucher (the caller holds the voucher's lock). */
export function redemptionOf(db: Executor, voucherId: string, redemptionId: string): Promise<RedemptionRow | undefined> {
  return db
    .selectFrom('voucher_redemption')
    .select(['id', 'voucher_id', 'amount', 'redeemed_at', 'undone_at'])
    .where('id', '=', redemptionId)
    .where('voucher_id', '=', voucherId)
    .executeTakeFirst();
}

/**
 * Undoes a redemption once: marks it undone only if it is not yet, and puts its amount back on
 * the voucher's balance in the same statement (the balance is no longer 0, so `redeemed_at` goes).
 * False when it was undone already.
 */
export async function undoOnce(db: Executor, voucherId: string, redemptionId: string, now: Date): Promise<boolean> {
  const { rows } = await sql<{ id: string }>`
    WITH undone AS (
      UPDATE voucher_redemption SET undone_at = ${now}
       WHERE id = ${redemptionId} AND voucher_id = ${voucherId} AND undone_at IS NULL
      RETURNING voucher_id, amount
    )
    UPDATE voucher v SET balance = v.balance + undone.amount, redeemed_at = NULL
      FROM undone WHERE v.id = undone.voucher_id
    RETURNING v.id`.execute(db);
  return rows.length > 0;
}

export interface CharityProduct {
  id: string;
  merchant_id: string;
  source: string;
  price: number | null;
  min_amount: number | null;
  max_amount: number | null;
  valid_days: number;
}

/** An active product of an active merchant, for a donation. */
export function activeProduct(db: Executor, productId: string): Promise<CharityProduct | undefined> {
  return db
    .selectFrom('product as p')
    .innerJoin('merchant as m', 'm.id', 'p.merchant_id')
    .select(['p.id', 'p.merchant_id', 'p.source', 'p.price', 'p.min_amount', 'p.max_amount', 'p.valid_days'])
    .where('p.id', '=', productId)
    .where('p.active', '=', true)
    .where('m.active', '=', true)
    .executeTakeFirst();
}

/**
 * The donation's writes (the caller holds the old voucher's lock and has checked it): the old
 * voucher gives its gift to a new Charity voucher of the same amount in the same greetie, valid
 * the charity product's validDays counted from the greetie's delivery, and is marked donated (it
 * answers 404 from then on). Answers the new voucher's id.
 */
export async function donateVoucher(tx: Tx, old: RedeemTarget, product: CharityProduct, now: Date): Promise<string> {
  await sql`UPDATE voucher SET donated_at = ${now}, gift_id = NULL WHERE id = ${old.id}`.execute(tx);
  const { rows } = await sql<{ id: string }>`
    INSERT INTO voucher (greetie_id, gift_id, merchant_id, product_id, source, amount, expires_at, created_at)
    SELECT ${old.greetie_id}, ${old.gift_id}, ${product.merchant_id}, ${product.id}, 'Charity', ${old.amount},
           coalesce(g.delivered_at + make_interval(days => ${product.valid_days}), ${old.expires_at}::timestamptz), ${now}
      FROM greetie g WHERE g.id = ${old.greetie_id}
    RETURNING id`.execute(tx);
  const newId = rows[0]!.id;
  await sql`UPDATE voucher SET donated_to = ${newId} WHERE id = ${old.id}`.execute(tx);
  return newId;
}

// ---- The voucher's QR token and the till's redeem by it (migration 023; server/voucher/qr.ts) ----

/** Any voucher by id (not donated), for the till's answers: the till is not its owner. */
export function voucherById(db: Executor, id: string): Promise<VoucherRow | undefined> {
  return voucherSelect(db).where('v.id', '=', id).executeTakeFirst();
}

/**
 * A new QR token for a voucher (the caller holds the voucher's row lock): the live one ends now,
 * the voucher's tokens older than a day go, and the new one's hash is stored.
 */
export async function replaceQrToken(tx: Tx, voucherId: string, tokenHash: string, now: Date, expiresAt: Date): Promise<void> {
  await tx.updateTable('voucher_qr_token').set({ ended_at: now }).where('voucher_id', '=', voucherId).where('ended_at', 'is', null).execute();
  await tx
    .deleteFrom('voucher_qr_token')
    .where('voucher_id', '=', voucherId)
    .where('created_at', '<', new Date(now.getTime() - 24 * 60 * 60_000))
    .execute();
  await tx.insertInto('voucher_qr_token').values({ token_hash: tokenHash, voucher_id: voucherId, created_at: now, expires_at: expiresAt }).execute();
}

export interface QrTokenTarget {
  voucher_id: string;
  merchant_id: string;
  kind: string;
  amount: number;
  balance: number;
  expires_at: Date | null;
  donated_at: Date | null;
  token_expires_at: Date;
  token_ended_at: Date | null;
}

function selectQrToken(db: Executor, tokenHash: string) {
  return db
    .selectFrom('voucher_qr_token as t')
    .innerJoin('voucher as v', 'v.id', 't.voucher_id')
    .select(['t.voucher_id', 'v.merchant_id', 'v.kind', 'v.amount', 'v.balance', 'v.expires_at', 'v.donated_at', 't.expires_at as token_expires_at', 't.ended_at as token_ended_at'])
    .where('t.token_hash', '=', tokenHash);
}

/** The token's row and its voucher, unlocked (a scan redeems nothing). */
export function qrToken(db: Executor, tokenHash: string): Promise<QrTokenTarget | undefined> {
  return selectQrToken(db, tokenHash).executeTakeFirst();
}

/**
 * The token's row and its voucher, both locked for this redeem: redeems of one voucher (by token or
 * by code) take turns, and one that waited reads the token as the one before left it (ended).
 */
export function lockQrToken(tx: Tx, tokenHash: string): Promise<QrTokenTarget | undefined> {
  return selectQrToken(tx, tokenHash).forUpdate(['t', 'v']).executeTakeFirst();
}

/** Ends a token by the redemption it made. */
export async function endQrToken(tx: Tx, tokenHash: string, now: Date, redemptionId: string): Promise<void> {
  await tx.updateTable('voucher_qr_token').set({ ended_at: now, redemption_id: redemptionId }).where('token_hash', '=', tokenHash).execute();
}

/**
 * Takes `take` öre from the balance of a voucher whose row the caller holds locked, when it fits
 * (1 ≤ take ≤ balance; a "fixed" voucher only whole; not donated, not expired at `now`: the same
 * conditions as `voucher_redeem_known`), and records the redemption (`via`) and the attempt by
 * `userId`, in one statement. The redemption's id, or undefined when nothing changed.
 */
export async function takeFromBalance(
  tx: Tx,
  a: { voucherId: string; userId: string; take: number; via: 'code' | 'qr'; now: Date },
): Promise<string | undefined> {
  const { rows } = await sql<{ id: string }>`
    WITH taken AS (
      UPDATE voucher v SET balance = v.balance - ${a.take}::integer,
                           redeemed_at = CASE WHEN v.balance = ${a.take}::integer THEN ${a.now}::timestamptz END
       WHERE v.id = ${a.voucherId} AND v.donated_at IS NULL AND ${a.take}::integer >= 1 AND v.balance >= ${a.take}::integer
         AND (v.kind = 'value' OR ${a.take}::integer = v.amount)
         AND (v.expires_at IS NULL OR v.expires_at > ${a.now})
      RETURNING v.id, v.merchant_id
    ), redemption AS (
      INSERT INTO voucher_redemption (voucher_id, merchant_id, user_id, amount, via, redeemed_at)
      SELECT taken.id, taken.merchant_id, ${a.userId}, ${a.take}::integer, ${a.via}, ${a.now} FROM taken
      RETURNING id, voucher_id, merchant_id
    ), attempt AS (
      INSERT INTO redeem_attempt (voucher_id, merchant_id, user_id, ok, outcome, at)
      SELECT redemption.voucher_id, redemption.merchant_id, ${a.userId}, true, 'redeemed', ${a.now} FROM redemption
    )
    SELECT id FROM redemption`.execute(tx);
  return rows[0]?.id;
}

/** A redemption at a merchant: which voucher it took from (the portal's undo). */
export function merchantRedemption(db: Executor, merchantId: string, redemptionId: string): Promise<{ voucher_id: string } | undefined> {
  return db.selectFrom('voucher_redemption').select('voucher_id').where('id', '=', redemptionId).where('merchant_id', '=', merchantId).executeTakeFirst();
}

/** Locks a voucher's row (any owner's): the portal's undo takes turns with redeems and other undos of it. */
export async function lockVoucher(tx: Tx, voucherId: string): Promise<{ id: string; merchant_id: string } | undefined> {
  return tx.selectFrom('voucher').select(['id', 'merchant_id']).where('id', '=', voucherId).forUpdate().executeTakeFirst();
}
