import { sql } from 'kysely';
import { transaction, type Db, type Tx } from '../db/index.ts';
import { HttpError, conflict, notFound } from '../errors.ts';

/**
 * Code pools (migration 009; decision 080 "Code pools"). A "Code" product's voucher carries one
 * code of its product's pool:
 * - the operator loads codes (`npm run admin -- codes load`, `loadCodes`);
 * - a draft may only hold as many gifts of a Code product as its pool has free codes
 *   (`checkCodePools`, PATCH /greetie/{id} and POST /greetie/createv2);
 * - startpayment *reserves* one code per Code gift for its payment (`reserveCodes`), in the
 *   transaction that writes the payment: the pool's counter row is the gate (a conditional
 *   UPDATE `free >= n`), so concurrent starts can never promise one code twice, and a pool that
 *   ran out answers 409 GIFT_CODE_POOL_EMPTY with nothing changed;
 * - the paid transaction *takes* the reserved codes into the vouchers (`takeCodes`);
 * - a payment that ends unpaid (declined, error, cancelled, expired) releases them (`releaseCodes`);
 * - a cancelled greetie's Code vouchers give their codes up (`giveUpCodes`): back to the pool when
 *   nobody can have seen them (never delivered, never corrected), else void for good.
 * So the pool cannot run out between startpayment and PAID: what was paid for was set aside first.
 * Codes are secrets: nothing here logs one.
 */

type Executor = Db | Tx;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** How many codes each Code product among `gifts` needs (product id → count). */
export function codesNeeded(gifts: readonly { product_id: string; source: string }[]): Map<string, number> {
  const needs = new Map<string, number>();
  for (const g of gifts) if (g.source === 'Code') needs.set(g.product_id, (needs.get(g.product_id) ?? 0) + 1);
  return needs;
}

/** Free codes of each Code product among `productIds` (0 for a product with no pool yet). */
export async function freeCodes(db: Executor, productIds: readonly string[]): Promise<Map<string, number>> {
  const ids = [...new Set(productIds.filter((id) => UUID.test(id)).map((id) => id.toLowerCase()))];
  if (ids.length === 0) return new Map();
  const { rows } = await sql<{ id: string; free: number }>`
    SELECT p.id, coalesce(cp.free, 0)::int AS free
      FROM product p LEFT JOIN code_pool cp ON cp.product_id = p.id
     WHERE p.id = ANY(${ids}::uuid[]) AND p.source = 'Code'`.execute(db);
  return new Map(rows.map((r) => [r.id, r.free]));
}

/**
 * A draft's gifts (product ids, one per gift) against the pools: 409 GIFT_CODE_POOL_EMPTY when a
 * Code product is named more often than its pool has free codes. A hint for the sender, not a
 * promise: the promise is made by `reserveCodes` at startpayment.
 */
export async function checkCodePools(db: Executor, productIds: readonly string[]): Promise<void> {
  const free = await freeCodes(db, productIds);
  if (free.size === 0) return;
  const needs = new Map<string, number>();
  for (const raw of productIds) {
    const id = raw.toLowerCase();
    if (free.has(id)) needs.set(id, (needs.get(id) ?? 0) + 1);
  }
  for (const [id, n] of needs) if ((free.get(id) ?? 0) < n) throw conflict('GIFT_CODE_POOL_EMPTY');
}

/**
 * Sets aside `needs` codes for a payment, product by product in id order (so two payments never
 * wait for each other's pools in opposite orders). 409 GIFT_CODE_POOL_EMPTY when a pool has fewer
 * free codes than needed; the caller's transaction then rolls back whatever was set aside.
 */
export async function reserveCodes(tx: Tx, paymentId: string, needs: Map<string, number>, now: Date): Promise<void> {
  for (const productId of [...needs.keys()].sort()) {
    const n = needs.get(productId)!;
    const gate = await sql<{ free: number }>`
      UPDATE code_pool SET free = free - ${n}, updated_at = ${now}
       WHERE product_id = ${productId} AND free >= ${n}
      RETURNING free`.execute(tx);
    if (gate.rows.length === 0) throw conflict('GIFT_CODE_POOL_EMPTY');
    const held = await sql<{ id: string }>`
      UPDATE product_code SET payment_id = ${paymentId}
       WHERE id IN (SELECT id FROM product_code
                     WHERE product_id = ${productId} AND payment_id IS NULL AND taken_at IS NULL
                     ORDER BY created_at, id
                     LIMIT ${n}
                     FOR UPDATE SKIP LOCKED)
      RETURNING id`.execute(tx);
    // The counter said there were; fewer means the counter and the codes disagree: refuse.
    if (held.rows.length < n) throw conflict('GIFT_CODE_POOL_EMPTY');
  }
}

/** Gives a payment's reserved codes back to their pools (the payment ended unpaid). */
export async function releaseCodes(tx: Tx, paymentId: string, now: Date): Promise<number> {
  const { rows } = await sql<{ product_id: string; n: number }>`
    WITH released AS (
      UPDATE product_code SET payment_id = NULL
       WHERE payment_id = ${paymentId} AND taken_at IS NULL
      RETURNING product_id)
    SELECT product_id, count(*)::int AS n FROM released GROUP BY product_id ORDER BY product_id`.execute(tx);
  for (const r of rows) {
    await sql`UPDATE code_pool SET free = free + ${r.n}, updated_at = ${now} WHERE product_id = ${r.product_id}`.execute(tx);
  }
  return rows.reduce((sum, r) => sum + r.n, 0);
}

/**
 * The paid transaction: each Code voucher of the greetie without a code takes one of the codes
 * its payment reserved for that product. A voucher left without one (a payment started before
 * its codes were reserved) takes a free code now, if its pool has one. Answers how many Code
 * vouchers are still without a code (0 normally; the caller logs it for the operator).
 */
export async function takeCodes(tx: Tx, paymentId: string, greetieId: string, now: Date): Promise<number> {
  const pair = () => sql<{ n: number }>`
    WITH v AS (
      SELECT id, product_id, row_number() OVER (PARTITION BY product_id ORDER BY id) AS n
        FROM voucher WHERE greetie_id = ${greetieId} AND source = 'Code' AND code IS NULL),
    c AS (
      SELECT id, product_id, code, row_number() OVER (PARTITION BY product_id ORDER BY id) AS n
        FROM product_code WHERE payment_id = ${paymentId} AND taken_at IS NULL),
    pair AS (SELECT v.id AS voucher_id, c.id AS code_id, c.code FROM v JOIN c USING (product_id, n)),
    taken AS (
      UPDATE product_code pc SET taken_at = ${now}, voucher_id = pair.voucher_id
        FROM pair WHERE pc.id = pair.code_id RETURNING pc.id),
    coded AS (
      UPDATE voucher SET code = pair.code FROM pair WHERE voucher.id = pair.voucher_id RETURNING voucher.id)
    SELECT (SELECT count(*) FROM coded)::int AS n`.execute(tx);
  const missing = async () => {
    const { rows } = await sql<{ product_id: string; source: string }>`
      SELECT product_id, source FROM voucher WHERE greetie_id = ${greetieId} AND source = 'Code' AND code IS NULL`.execute(tx);
    return codesNeeded(rows);
  };
  await pair();
  let left = await missing();
  if (left.size === 0) return 0;
  try {
    await reserveCodes(tx, paymentId, left, now);
    await pair();
  } catch (err) {
    if (!(err instanceof HttpError)) throw err;
  }
  left = await missing();
  return [...left.values()].reduce((a, b) => a + b, 0);
}

/**
 * A greetie being cancelled (server/payment/refunds.ts, in its transaction, the greetie locked):
 * its Code vouchers lose their codes, so no list or till ever shows one again. A code nobody can
 * have seen (the greetie was never delivered nor corrected: a scheduled greetie's vouchers are
 * hidden) goes back to its pool, free for the next buyer; one that may have been shown (delivered,
 * to this recipient or to one corrected away) stays taken, void: never handed out again. Answers
 * how many went back and how many were voided.
 */
export async function giveUpCodes(tx: Tx, greetieId: string, now: Date): Promise<{ released: number; voided: number }> {
  const { rows } = await sql<{ product_id: string; released: boolean }>`
    WITH g AS (
      SELECT (delivered_at IS NULL AND recipient_changes = 0) AS unseen FROM greetie WHERE id = ${greetieId}),
    coded AS (
      UPDATE voucher SET code = NULL
       WHERE greetie_id = ${greetieId} AND source = 'Code' AND code IS NOT NULL
      RETURNING id),
    freed AS (
      UPDATE product_code pc SET taken_at = NULL, voucher_id = NULL, payment_id = NULL
        FROM g WHERE g.unseen AND pc.voucher_id IN (SELECT id FROM coded)
      RETURNING pc.product_id)
    SELECT product_id, true AS released FROM freed
    UNION ALL
    SELECT NULL::uuid, false FROM coded, g WHERE NOT g.unseen`.execute(tx);
  const byProduct = new Map<string, number>();
  for (const r of rows) if (r.released) byProduct.set(r.product_id, (byProduct.get(r.product_id) ?? 0) + 1);
  for (const [productId, n] of [...byProduct].sort(([a], [b]) => a.localeCompare(b))) {
    await sql`UPDATE code_pool SET free = free + ${n}, updated_at = ${now} WHERE product_id = ${productId}`.execute(tx);
  }
  const released = rows.filter((r) => r.released).length;
  return { released, voided: rows.length - released };
}

/** One code per line; blank lines and surrounding spaces ignored; repeated lines counted once. */
export function parseCodes(text: string): string[] {
  return [...new Set(text.split(/\r?\n/).map((line) => line.trim()).filter(Boolean))];
}

export interface LoadResult {
  /** Codes new to the pool. */
  added: number;
  /** Codes the pool had already (not added twice). */
  duplicates: number;
  /** Free codes in the pool afterwards. */
  free: number;
}

/**
 * Adds codes to a Code product's pool, in one transaction: a code the pool has already is not
 * added again. 404 PRODUCT_NOT_FOUND; 409 PRODUCT_NOT_CODE for a product of another source;
 * 400 CODES_INVALID for an empty list or a code over 200 characters.
 */
export async function loadCodes(db: Db, productId: string, codes: readonly string[], now: Date): Promise<LoadResult> {
  if (codes.length === 0 || codes.some((c) => c.length > 200)) throw new HttpError(400, 'CODES_INVALID');
  if (!UUID.test(productId)) throw notFound('PRODUCT_NOT_FOUND');
  return transaction(db, async (tx) => {
    const product = await tx.selectFrom('product').select(['id', 'source']).where('id', '=', productId).forUpdate().executeTakeFirst();
    if (!product) throw notFound('PRODUCT_NOT_FOUND');
    if (product.source !== 'Code') throw conflict('PRODUCT_NOT_CODE');
    let added = 0;
    for (let i = 0; i < codes.length; i += 1000) {
      const chunk = codes.slice(i, i + 1000);
      const { rows } = await sql<{ n: number }>`
        WITH ins AS (
          INSERT INTO product_code (product_id, code, created_at)
          SELECT ${product.id}::uuid, c, ${now}::timestamptz FROM unnest(${chunk}::text[]) AS c
          ON CONFLICT (product_id, code) DO NOTHING
          RETURNING 1)
        SELECT count(*)::int AS n FROM ins`.execute(tx);
      added += rows[0]!.n;
    }
    const pool = await sql<{ free: number }>`
      INSERT INTO code_pool (product_id, free, updated_at) VALUES (${product.id}, ${added}, ${now})
      ON CONFLICT (product_id) DO UPDATE SET free = code_pool.free + excluded.free, updated_at = excluded.updated_at
      RETURNING free`.execute(tx);
    return { added, duplicates: codes.length - added, free: pool.rows[0]!.free };
  });
}
