import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type Compilable } from 'kysely';
import { createTestDb, type TestDb } from '../helpers.ts';
import { planNodes } from '../plan.ts';
import { activeProductsQuery, allActiveMerchantsQuery, merchantPageQuery, type MerchantFilter } from '../../../server/merchant/queries.ts';

/**
 * Every list query of the catalogue is served by an index. On a realistically sized catalogue
 * (5 000 merchants, 15 000 products, statistics gathered) the planner's own choice is read back
 * with EXPLAIN: the merchant table is never read by a sequential scan, and the plan names the
 * index meant for that query.
 */

describe('indexes behind the catalogue list queries', () => {
  let db: TestDb;

  beforeAll(async () => {
    db = await createTestDb();
    const categories = ['cafe', 'restaurant', 'books', 'flowers', 'cinema', 'spa', 'sport', 'experience', 'shopping', 'charity'];
    const sources = [`{InStore}`, `{Code}`, `{Charity}`, `{InStore,Code}`];
    await sql`
      INSERT INTO merchant (name, description, logo_url, category, sources, active, code_hash)
      SELECT 'Handlare ' || lpad(g::text, 5, '0') || ' ' || md5(g::text),
             'Beskrivning ' || md5((g * 7)::text),
             '/merchants/x.svg',
             CASE WHEN g % 250 = 0 THEN 'charity' ELSE (${sql.val(categories)}::text[])[1 + g % 9] END,
             (${sql.val(sources)}::text[])[1 + g % 4]::text[],
             g % 50 <> 0,
             'scrypt$16384$8$1$x$y'
      FROM generate_series(1, 5000) AS g`.execute(db.db);
    await sql`
      INSERT INTO product (merchant_id, name, source, price, valid_days)
      SELECT m.id, 'Produkt ' || k, 'InStore', 10000 + k * 100, 365
      FROM merchant m CROSS JOIN generate_series(1, 3) AS k`.execute(db.db);
    // The product insert rewrote every merchant row (product_names, 026_merchant_address); the
    // dead rows are what autovacuum clears after a bulk load.
    await sql`VACUUM merchant`.execute(db.db);
    await sql`ANALYZE merchant`.execute(db.db);
    await sql`ANALYZE product`.execute(db.db);
  });
  afterAll(async () => {
    await db.drop();
  });

  const plan = (query: Compilable) => planNodes(db.pool, query);

  const page = (f: Omit<MerchantFilter, 'limit'>) => merchantPageQuery(db.db, { limit: 25, ...f });
  const after = { name: 'Handlare 02500', id: '00000000-0000-4000-8000-000000000000' };

  const cases: [string, () => Compilable, string][] = [
    ['first page', () => page({}), 'merchant_active_name'],
    ['a later page', () => page({ after }), 'merchant_active_name'],
    // A common category may equally well be read off the name index (one row in nine matches);
    // a rare one needs its own index.
    ['by a common category', () => page({ category: 'books' }), 'merchant_active_'],
    ['by a rare category', () => page({ category: 'charity' }), 'merchant_active_category_name'],
    ['by a rare category, a later page', () => page({ category: 'charity', after }), 'merchant_active_category_name'],
    ['search', () => page({ words: ['4f2a'] }), 'merchant_active_search'],
    ['search by two words', () => page({ words: ['beskrivning', 'c4ca'] }), 'merchant_active_search'],
    ['search and category', () => page({ words: ['c4ca4'], category: 'cafe' }), 'merchant_active_'],
  ];

  for (const [name, query, index] of cases) {
    it(`${name}: no sequential scan of merchant; uses ${index}`, async () => {
      const nodes = await plan(query());
      const onMerchant = nodes.filter((n) => n['Relation Name'] === 'merchant');
      expect(onMerchant.length).toBeGreaterThan(0);
      expect(onMerchant.map((n) => n['Node Type'])).not.toContain('Seq Scan');
      expect(nodes.map((n) => n['Index Name'] ?? '').join(' ')).toContain(index);
      // The "from" price is looked up per merchant through the product index.
      const onProduct = nodes.filter((n) => n['Relation Name'] === 'product');
      expect(onProduct.map((n) => n['Node Type'])).not.toContain('Seq Scan');
    });
  }

  it("a merchant's products (GET /api/merchant/{id}/products) come through the product index", async () => {
    const { rows } = await sql<{ id: string }>`SELECT id FROM merchant WHERE active ORDER BY name LIMIT 1`.execute(db.db);
    const nodes = await plan(activeProductsQuery(db.db, rows[0]!.id));
    expect(nodes.filter((n) => n['Relation Name'] === 'product').map((n) => n['Node Type'])).not.toContain('Seq Scan');
    expect(nodes.map((n) => n['Index Name'] ?? '').join(' ')).toContain('product_active_merchant');
  });

  it('by source: served by the sources index or walked in name order, never a sequential scan', async () => {
    // With every fourth merchant per source, reading the name index until the page is full can
    // be cheaper than the GIN index; the planner may take either. Rare sources go through GIN.
    await sql`UPDATE merchant SET sources = '{InStore}' WHERE sources = '{Charity}' AND name > 'Handlare 00100'`.execute(db.db);
    await sql`ANALYZE merchant`.execute(db.db);
    const common = await plan(page({ source: 'InStore' }));
    const rare = await plan(page({ source: 'Charity' }));
    for (const nodes of [common, rare]) {
      const onMerchant = nodes.filter((n) => n['Relation Name'] === 'merchant');
      expect(onMerchant.map((n) => n['Node Type'])).not.toContain('Seq Scan');
    }
    expect(rare.map((n) => n['Index Name'] ?? '').join(' ')).toContain('merchant_active_sources');
    expect(common.map((n) => n['Index Name'] ?? '').join(' ')).toContain('merchant_active_');
  });

  it('the whole active list (GET /api/merchant) reads the name index in order when sequential scans are off the table', async () => {
    // Listing all merchants reads the whole table either way; what matters is that the ordered
    // index exists and serves the order without a sort.
    const client = await db.pool.connect();
    try {
      await client.query('SET enable_seqscan = off');
      // Wider rows since 026_merchant_address make a full bitmap walk of any partial index plus a
      // sort look as cheap; that is no index serving the order either, so it is off the table too.
      await client.query('SET enable_bitmapscan = off');
      const nodes = await planNodes(client, allActiveMerchantsQuery(db.db));
      expect(nodes.map((n) => n['Index Name'])).toContain('merchant_active_name');
      expect(nodes.map((n) => n['Node Type'])).not.toContain('Sort');
    } finally {
      await client.query('RESET enable_seqscan');
      await client.query('RESET enable_bitmapscan');
      client.release();
    }
  });
});
