import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestDb, type TestDb } from '../helpers.ts';
import { planNodes } from '../plan.ts';
import { ownedVouchersQuery, recentWrongCodesAtMerchantQuery, recentWrongCodesQuery } from '../../../server/voucher/queries.ts';

/**
 * The owner's voucher list and the redeem's wrong-code count read indexes, not tables: on a
 * realistically sized database (2 000 people, 40 000 greeties with a voucher each, 100 000 redeem
 * attempts, statistics gathered) the planner's choice is read back with EXPLAIN.
 */

describe('indexes behind vouchers and redeeming', () => {
  let db: TestDb;
  let userId: string;
  let voucherId: string;
  const mobileNumber = '+46701000007';

  beforeAll(async () => {
    db = await createTestDb();
    await sql`
      INSERT INTO mobile_user (mobile_number, created_at)
      SELECT '+4670' || lpad((1000000 + g)::text, 7, '0'), now() FROM generate_series(1, 2000) AS g`.execute(db.db);
    await sql`
      INSERT INTO greetie (ref_id, sender_id, recipient_number, status, total, created_at, updated_at)
      SELECT md5(g::text) || 'AAAA', u.ids[1 + g % 2000], '+4670' || lpad((1000000 + (g * 7) % 2000 + 1)::text, 7, '0'),
             (ARRAY['scheduled', 'delivered', 'delivered', 'delivered'])[1 + g % 4], 5000,
             now() - (g || ' minutes')::interval, now()
      FROM generate_series(1, 40000) AS g
      CROSS JOIN (SELECT array_agg(id ORDER BY mobile_number) AS ids FROM mobile_user) u`.execute(db.db);
    await sql`
      INSERT INTO greetie_gift (greetie_id, position, product_id, amount, created_at)
      SELECT g.id, 0, p.id, 5000, g.created_at FROM greetie g CROSS JOIN (SELECT id FROM product LIMIT 1) p`.execute(db.db);
    await sql`
      INSERT INTO voucher (greetie_id, gift_id, merchant_id, product_id, source, amount, expires_at, created_at)
      SELECT gg.greetie_id, gg.id, p.merchant_id, p.id, p.source, 5000, now() + interval '1 year', gg.created_at
        FROM greetie_gift gg JOIN product p ON p.id = gg.product_id`.execute(db.db);
    await sql`
      INSERT INTO redeem_attempt (voucher_id, merchant_id, user_id, ok, outcome, at)
      SELECT v.id, v.merchant_id, u.ids[1 + v.r % 2000], false, (ARRAY['wrongCode', 'locked', 'redeemed'])[1 + n % 3]::text, now() - (n || ' seconds')::interval
        FROM (SELECT id, merchant_id, row_number() OVER () AS r FROM voucher) v
        CROSS JOIN generate_series(1, 3) AS n
        CROSS JOIN (SELECT array_agg(id ORDER BY mobile_number) AS ids FROM mobile_user) u
       WHERE v.r <= 33334`.execute(db.db);
    for (const t of ['mobile_user', 'greetie', 'greetie_gift', 'voucher', 'redeem_attempt']) await sql.raw(`ANALYZE ${t}`).execute(db.db);
    const { rows } = await sql<{ id: string }>`SELECT id FROM mobile_user WHERE mobile_number = ${mobileNumber}`.execute(db.db);
    userId = rows[0]!.id;
    const { rows: v } = await sql<{ id: string }>`SELECT voucher_id AS id FROM redeem_attempt LIMIT 1`.execute(db.db);
    voucherId = v[0]!.id;
  });
  afterAll(async () => {
    await db.drop();
  });

  it("GET /voucher: the caller's delivered greeties through greetie_recipient_created, their vouchers through voucher_greetie; no sequential scan of either", async () => {
    const nodes = await planNodes(db.pool, ownedVouchersQuery(db.db, userId, new Date()));
    for (const table of ['greetie', 'voucher']) {
      const on = nodes.filter((n) => n['Relation Name'] === table);
      expect(on.length, table).toBeGreaterThanOrEqual(1);
      expect(on.map((n) => n['Node Type']), table).not.toContain('Seq Scan');
    }
    const indexes = nodes.map((n) => n['Index Name'] ?? '');
    expect(indexes).toContain('greetie_recipient_created');
    expect(indexes).toContain('voucher_greetie');
  });

  it("the redeem's wrong codes of the window through redeem_attempt_wrong", async () => {
    const nodes = await planNodes(db.pool, recentWrongCodesQuery(db.db, voucherId, new Date(Date.now() - 15 * 60_000), 5));
    expect(nodes.filter((n) => n['Relation Name'] === 'redeem_attempt').map((n) => n['Node Type'])).not.toContain('Seq Scan');
    expect(nodes.map((n) => n['Index Name'] ?? '')).toContain('redeem_attempt_wrong');
  });

  it("a person's wrong codes at a merchant of the window through redeem_attempt_person_wrong (issue 22, decision 023)", async () => {
    const { rows } = await sql<{ merchant_id: string }>`SELECT merchant_id FROM voucher WHERE id = ${voucherId}`.execute(db.db);
    const nodes = await planNodes(db.pool, recentWrongCodesAtMerchantQuery(db.db, userId, rows[0]!.merchant_id, new Date(Date.now() - 15 * 60_000), 10));
    expect(nodes.filter((n) => n['Relation Name'] === 'redeem_attempt').map((n) => n['Node Type'])).not.toContain('Seq Scan');
    expect(nodes.map((n) => n['Index Name'] ?? '')).toContain('redeem_attempt_person_wrong');
  });
});
