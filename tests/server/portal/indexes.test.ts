import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestDb, type TestDb } from '../helpers.ts';
import { planNodes, type PlanNode } from '../plan.ts';
import { portalPageQuery, portalSummaryQuery, redemptionPageQuery, summaryQuery } from '../../../server/portal/queries.ts';
import { foldPortalOpen } from '../../../server/portal/fold.ts';

/**
 * The portal's summary and its first page of redemptions read indexes and the rollups
 * (migrations 023, 027, 030), not the redemptions nor every open voucher: a merchant
 * with 100 000 redemptions over 10 000 vouchers, among other merchants' 50 000 vouchers and
 * 100 000 redemptions (vacuumed, statistics gathered), the planner's choice read back with EXPLAIN.
 */

/**
 * The greeties are spread over a year and more (60 000 of them, 9 minutes apart: ~375 days), as a
 * merchant's year would be: over a few weeks `portal_day` was so small that a sequential scan of it
 * was as cheap as its key, and the plan flipped with the time of day the test ran.
 */
const MINUTES_APART = 9;
const SPAN_DAYS = Math.ceil((60_000 * MINUTES_APART) / (24 * 60));

describe('indexes behind the merchant portal', () => {
  let db: TestDb;
  let merchantId: string;

  beforeAll(async () => {
    db = await createTestDb();
    const { rows } = await sql<{ id: string; merchant_id: string }>`
      SELECT p.id, p.merchant_id FROM product p WHERE p.source = 'InStore' ORDER BY p.id LIMIT 1`.execute(db.db);
    merchantId = rows[0]!.merchant_id;
    await sql`
      INSERT INTO mobile_user (mobile_number, created_at)
      SELECT '+4670' || lpad((1000000 + g)::text, 7, '0'), now() FROM generate_series(1, 2000) AS g`.execute(db.db);
    await sql`
      INSERT INTO greetie (ref_id, sender_id, recipient_number, status, total, created_at, updated_at, cancelled_at)
      SELECT md5(g::text) || 'PPPP', u.ids[1 + g % 2000], '+4670' || lpad((1000000 + (g * 7) % 2000 + 1)::text, 7, '0'),
             CASE WHEN g % 500 = 0 THEN 'cancelled' ELSE 'delivered' END, 5000,
             now() - (g * ${MINUTES_APART} || ' minutes')::interval, now(), CASE WHEN g % 500 = 0 THEN now() END
      FROM generate_series(1, 60000) AS g
      CROSS JOIN (SELECT array_agg(id ORDER BY mobile_number) AS ids FROM mobile_user) u`.execute(db.db);
    // One gift in six is this merchant's product, the rest other merchants'.
    await sql`
      INSERT INTO greetie_gift (greetie_id, position, product_id, amount, created_at)
      SELECT g.id, 0, CASE WHEN g.r % 6 = 0 THEN ${rows[0]!.id}::uuid ELSE o.ids[1 + g.r % array_length(o.ids, 1)] END, 5000, g.created_at
        FROM (SELECT id, created_at, row_number() OVER (ORDER BY id) AS r FROM greetie) g
        CROSS JOIN (SELECT array_agg(id) AS ids FROM product WHERE merchant_id <> ${merchantId} AND source = 'InStore') o`.execute(db.db);
    await sql`
      INSERT INTO voucher (greetie_id, gift_id, merchant_id, product_id, source, amount, expires_at, created_at)
      SELECT gg.greetie_id, gg.id, p.merchant_id, p.id, p.source, 5000, gg.created_at + interval '1 year', gg.created_at
        FROM greetie_gift gg JOIN product p ON p.id = gg.product_id`.execute(db.db);
    // 100 000 redemptions at this merchant (10 per voucher), 100 000 elsewhere; one in ten undone.
    await sql`
      INSERT INTO voucher_redemption (voucher_id, merchant_id, amount, via, redeemed_at, undone_at)
      SELECT v.id, v.merchant_id, 1000, 'code', v.created_at + (n || ' hours')::interval,
             CASE WHEN (v.r + n) % 10 = 0 THEN v.created_at + (n || ' hours')::interval + interval '1 minute' END
        FROM (SELECT id, merchant_id, created_at, row_number() OVER (PARTITION BY merchant_id ORDER BY id) AS r FROM voucher) v
        CROSS JOIN generate_series(1, 10) AS n
       WHERE v.merchant_id = ${merchantId} OR n <= 2`.execute(db.db);
    for (const t of ['mobile_user', 'greetie', 'greetie_gift', 'voucher', 'voucher_redemption', 'portal_day', 'portal_open', 'portal_open_delta']) await sql.raw(`VACUUM ANALYZE ${t}`).execute(db.db);
    const { rows: n } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM voucher_redemption WHERE merchant_id = ${merchantId}`.execute(db.db);
    expect(n[0]!.n).toBeGreaterThanOrEqual(100000);
  }, 180_000);
  afterAll(async () => {
    await db.drop();
  });

  const on = (nodes: PlanNode[], table: string) => nodes.filter((x) => x['Relation Name'] === table);
  const indexes = (nodes: PlanNode[]) => nodes.map((x) => x['Index Name'] ?? '');

  it('the first page of redemptions, and a later one within a period, through voucher_redemption_merchant_page; no sequential scan', async () => {
    const first = await planNodes(db.pool, redemptionPageQuery(db.db, merchantId, { from: null, to: null }, undefined, 51));
    expect(indexes(first)).toContain('voucher_redemption_merchant_page');
    // One index alone (migration 030; decision 150): it covers the answer's columns, no join.
    expect(on(first, 'voucher_redemption').map((x) => x['Node Type'])).toEqual(['Index Only Scan']);
    for (const table of ['voucher', 'product']) expect(on(first, table), table).toEqual([]);

    const later = await planNodes(
      db.pool,
      redemptionPageQuery(db.db, merchantId, { from: '2026-01-01', to: '2027-01-01' }, { at: new Date().toISOString().replace('Z', '000Z'), id: '00000000-0000-4000-8000-000000000000' }, 51),
    );
    expect(on(later, 'voucher_redemption').map((x) => x['Node Type'])).not.toContain('Seq Scan');
    expect(indexes(later).some((i) => i.startsWith('voucher_redemption_merchant'))).toBe(true);
  });

  it('the one-statement reads (decision 144): the page and the summary read the same indexes with the sign-in check and the role in them', async () => {
    const { rows: u } = await sql<{ id: string }>`SELECT id FROM mobile_user ORDER BY id LIMIT 1`.execute(db.db);
    const userId = u[0]!.id;
    const page = portalPageQuery(db.db, userId, merchantId, { from: null, to: null }, undefined, 50);
    const pageNodes = await planNodes(db.pool, { compile: () => page.compile(db.db) });
    expect(indexes(pageNodes)).toContain('voucher_redemption_merchant_page');
    for (const table of ['voucher_redemption', 'voucher', 'product', 'mobile_user']) expect(on(pageNodes, table).map((x) => x['Node Type']), table).not.toContain('Seq Scan');
    expect(on(pageNodes, 'voucher_redemption').map((x) => x['Node Type'])).toEqual(['Index Only Scan']);
    expect(indexes(on(pageNodes, 'mobile_user'))).toEqual(['mobile_user_pkey']);
    // The page's rows are read once (the CTE), whatever reads them after.
    expect(on(pageNodes, 'voucher_redemption')).toHaveLength(1);
    for (const period of [{ from: null, to: null }, { from: '2026-11-01', to: '2026-12-01' }]) {
      const summary = portalSummaryQuery(userId, merchantId, period, new Date());
      const nodes = await planNodes(db.pool, { compile: () => summary.compile(db.db) });
      expect(on(nodes, 'voucher_redemption')).toEqual([]);
      expect(indexes(nodes)).toContain('portal_day_pkey');
      expect(indexes(on(nodes, 'mobile_user'))).toEqual(['mobile_user_pkey']);
    }
  });

  it("the summary's period figures from portal_day's key alone: at most a row per day, never the redemptions", async () => {
    for (const period of [{ from: null, to: null }, { from: '2026-11-01', to: '2026-12-01' }]) {
      const raw = summaryQuery(db.db, merchantId, period, new Date());
      const nodes = await planNodes(db.pool, { compile: () => raw.compile(db.db) });
      expect(on(nodes, 'voucher_redemption')).toEqual([]);
      expect(on(nodes, 'portal_day').map((x) => x['Node Type']), JSON.stringify(period)).not.toContain('Seq Scan');
      // One statement: portal_day read once for issued and redeemed together (decision 123).
      expect(indexes(nodes)).toContain('portal_day_pkey');
      expect(on(nodes, 'portal_day')).toHaveLength(1);
      expect(indexes(nodes)).toContain('voucher_merchant_open');
    }
  });

  it("the summary's outstanding and expired: the folded rows and deltas by their keys, and only the vouchers expiring today through voucher_merchant_open", async () => {
    const raw = summaryQuery(db.db, merchantId, { from: '2026-11-01', to: null }, new Date());
    const nodes = await planNodes(db.pool, { compile: () => raw.compile(db.db) });
    expect(on(nodes, 'voucher').map((x) => x['Node Type'])).not.toContain('Seq Scan');
    expect(on(nodes, 'greetie').map((x) => x['Node Type'])).not.toContain('Seq Scan');
    expect(indexes(on(nodes, 'voucher'))).toEqual(['voucher_merchant_open']);
    // Bounded by expiry (today's UTC day), not every open voucher of the merchant (decision 124).
    const cond = (on(nodes, 'voucher')[0] as PlanNode & { 'Index Cond'?: string })['Index Cond'] ?? '';
    expect(cond).toMatch(/merchant_id = .*expires_at >= .*expires_at </s);
    // portal_open is a row per merchant and expiry day (small here, so the planner may read it
    // whole); its size is checked below.
    expect(on(nodes, 'portal_open')).toHaveLength(1);
    expect(on(nodes, 'portal_open_delta')).toHaveLength(1);
  });

  it('the open-voucher rollup holds at most a row per merchant and expiry day, and its sums are the open vouchers counted one by one', async () => {
    await foldPortalOpen(db.db);
    const { rows } = await sql<{ days: number; deltas: number; n: number; a: number; n0: number; a0: number }>`
      SELECT (SELECT count(*)::int FROM portal_open WHERE merchant_id = ${merchantId}) AS days,
             (SELECT count(*)::int FROM portal_open_delta WHERE merchant_id = ${merchantId}) AS deltas,
             (SELECT sum(open_count)::int FROM portal_open WHERE merchant_id = ${merchantId}) AS n,
             (SELECT sum(open_amount)::int FROM portal_open WHERE merchant_id = ${merchantId}) AS a,
             (SELECT count(*)::int FROM voucher v WHERE v.merchant_id = ${merchantId} AND v.donated_at IS NULL AND v.balance > 0
                 AND NOT EXISTS (SELECT 1 FROM greetie g WHERE g.id = v.greetie_id AND g.status = 'cancelled')) AS n0,
             (SELECT sum(balance)::int FROM voucher v WHERE v.merchant_id = ${merchantId} AND v.donated_at IS NULL AND v.balance > 0
                 AND NOT EXISTS (SELECT 1 FROM greetie g WHERE g.id = v.greetie_id AND g.status = 'cancelled')) AS a0`.execute(db.db);
    const r = rows[0]!;
    expect(r.deltas).toBe(0);
    expect(r.days).toBeLessThanOrEqual(SPAN_DAYS + 2);
    expect([r.n, r.a]).toEqual([r.n0, r.a0]);
  });

  it('the rollup holds one row per merchant and day, and its sums are the redemptions and vouchers counted one by one', async () => {
    const { rows } = await sql<{ days: number; rc: number; ra: number; rc0: number; ra0: number; ic: number; ic0: number }>`
      SELECT (SELECT count(*)::int FROM portal_day WHERE merchant_id = ${merchantId}) AS days,
             (SELECT sum(redeemed_count)::int FROM portal_day WHERE merchant_id = ${merchantId}) AS rc,
             (SELECT sum(redeemed_amount)::int FROM portal_day WHERE merchant_id = ${merchantId}) AS ra,
             (SELECT count(*)::int FROM voucher_redemption WHERE merchant_id = ${merchantId} AND undone_at IS NULL) AS rc0,
             (SELECT sum(amount)::int FROM voucher_redemption WHERE merchant_id = ${merchantId} AND undone_at IS NULL) AS ra0,
             (SELECT sum(issued_count)::int FROM portal_day WHERE merchant_id = ${merchantId}) AS ic,
             (SELECT count(*)::int FROM voucher v WHERE v.merchant_id = ${merchantId} AND v.donated_at IS NULL
                 AND NOT EXISTS (SELECT 1 FROM greetie g WHERE g.id = v.greetie_id AND g.status = 'cancelled')) AS ic0`.execute(db.db);
    const r = rows[0]!;
    expect(r.days).toBeLessThanOrEqual(SPAN_DAYS + 2);
    expect([r.rc, r.ra, r.ic]).toEqual([r.rc0, r.ra0, r.ic0]);
  });
});
