import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import { createTestDb, type TestDb } from '../helpers.ts';
import { down, up } from '../../../server/db/migrations/030_redemption_keeps_its_product_name.ts';
import { redemptionPage } from '../../../server/portal/queries.ts';

/**
 * Migration 030 (decision 150): a redemption keeps its product's name as it was when redeemed.
 * The trigger fills it on every insert, whatever the writer gives; the backfill gives the
 * redemptions made before the migration their product's name as it is then.
 */
describe("a redemption's product name (migration 030)", () => {
  let db: TestDb;
  let merchantId: string;
  let productId: string;
  let voucherId: string;

  beforeAll(async () => {
    db = await createTestDb();
    const { rows: p } = await sql<{ id: string; merchant_id: string }>`
      SELECT id, merchant_id FROM product WHERE source = 'InStore' ORDER BY id LIMIT 1`.execute(db.db);
    productId = p[0]!.id;
    merchantId = p[0]!.merchant_id;
    const { rows: u } = await sql<{ id: string }>`INSERT INTO mobile_user (mobile_number) VALUES ('+46701234987') RETURNING id`.execute(db.db);
    const { rows: g } = await sql<{ id: string }>`
      INSERT INTO greetie (ref_id, sender_id, recipient_number, status, total)
      VALUES (md5('productname') || 'PPPP', ${u[0]!.id}, '+46701234988', 'delivered', 50000) RETURNING id`.execute(db.db);
    const { rows: gg } = await sql<{ id: string }>`
      INSERT INTO greetie_gift (greetie_id, position, product_id, amount) VALUES (${g[0]!.id}, 0, ${productId}, 50000) RETURNING id`.execute(db.db);
    const { rows: v } = await sql<{ id: string }>`
      INSERT INTO voucher (greetie_id, gift_id, merchant_id, product_id, source, amount)
      VALUES (${g[0]!.id}, ${gg[0]!.id}, ${merchantId}, ${productId}, 'InStore', 50000) RETURNING id`.execute(db.db);
    voucherId = v[0]!.id;
  });
  afterAll(async () => {
    await db.drop();
  });

  const rename = (name: string) => sql`UPDATE product SET name = ${name} WHERE id = ${productId}`.execute(db.db);
  const insert = (at: string) =>
    sql<{ product_name: string }>`
      INSERT INTO voucher_redemption (voucher_id, merchant_id, amount, via, redeemed_at)
      VALUES (${voucherId}, ${merchantId}, 1000, 'code', ${at}::timestamptz)
      RETURNING product_name`.execute(db.db);
  const names = async () => (await redemptionPage(db.db, merchantId, { from: null, to: null }, undefined, 100)).map((r) => r.product_name);

  it('the trigger writes the name the product has at that moment; a rename leaves the earlier redemptions as they were', async () => {
    await rename('Före');
    expect((await insert('2026-01-01T10:00:00Z')).rows[0]!.product_name).toBe('Före');
    await rename('Efter');
    expect((await insert('2026-01-02T10:00:00Z')).rows[0]!.product_name).toBe('Efter');
    expect(await names()).toEqual(['Efter', 'Före']);
    // Undone later: the name stays.
    await sql`UPDATE voucher_redemption SET undone_at = now() WHERE voucher_id = ${voucherId}`.execute(db.db);
    expect(await names()).toEqual(['Efter', 'Före']);
  });

  it('a writer cannot put in another name: the trigger writes the product\'s', async () => {
    const { rows } = await sql<{ product_name: string }>`
      INSERT INTO voucher_redemption (voucher_id, merchant_id, amount, via, redeemed_at, product_name)
      VALUES (${voucherId}, ${merchantId}, 1000, 'qr', '2026-01-03T10:00:00Z', 'Något annat')
      RETURNING product_name`.execute(db.db);
    expect(rows[0]!.product_name).toBe('Efter');
  });

  it("the backfill: redemptions made before the migration get their product's name as it is then; down and up again", async () => {
    await down(db.db as unknown as Kysely<unknown>);
    await sql`
      INSERT INTO voucher_redemption (voucher_id, merchant_id, amount, via, redeemed_at)
      VALUES (${voucherId}, ${merchantId}, 1000, 'code', '2026-01-04T10:00:00Z')`.execute(db.db);
    await rename('Nu');
    await up(db.db as unknown as Kysely<unknown>);
    expect(await names()).toEqual(['Nu', 'Nu', 'Nu', 'Nu']);
    const { rows } = await sql<{ indexdef: string }>`SELECT indexdef FROM pg_indexes WHERE indexname = 'voucher_redemption_merchant_page'`.execute(db.db);
    expect(rows[0]!.indexdef).toContain('INCLUDE (voucher_id, product_name, amount, via, undone_at)');
    // And the trigger runs again from there.
    expect((await insert('2026-01-05T10:00:00Z')).rows[0]!.product_name).toBe('Nu');
  });
});
