import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestDb, type TestDb } from '../helpers.ts';
import { planNodes, type PlanNode } from '../plan.ts';
import { merchantPageQuery } from '../../../server/merchant/queries.ts';
import { fillLargeCatalogue } from '../../../bench/catalogue-data.ts';

/**
 * The search over what merchants sell stays on an index at the size the catalogue is meant to
 * reach: 10 000 merchants and 100 000 products (decision 114). Product names reach the search
 * through `merchant.product_names` (kept by triggers), so one trigram GIN index on `search` serves
 * every word; a word too short for a trigram ("ka") walks the name index in page order instead,
 * stopping once the page is full. Either way no table is read by a sequential scan.
 */

describe('the index behind searching merchants and their products', () => {
  let db: TestDb;

  beforeAll(async () => {
    db = await createTestDb();
    await fillLargeCatalogue(db.db);
  }, 180_000);
  afterAll(async () => {
    await db.drop();
  });

  const page = (words: string[]) => merchantPageQuery(db.db, { words, limit: 25 });

  // A word of three letters or more that few merchants have: the trigram hits. Two letters (no
  // trigram): the walk in page order, index-only through the covering index (migration 029,
  // decision 141), never the table row by row.
  const uses = (nodes: PlanNode[], index: string) =>
    nodes.some((n) => n['Index Name'] === index && (index !== 'merchant_active_name_search' || n['Node Type'] === 'Index Only Scan'));
  for (const [q, index] of [
    ['fika', 'merchant_active_search'],
    ['fika två', 'merchant_active_search'],
    ['ka', 'merchant_active_name_search'],
  ] as const) {
    it(`q=${q}: no sequential scan of merchant or product; uses ${index}`, async () => {
      const nodes = await planNodes(db.pool, page(q.split(' ')));
      const onMerchant = nodes.filter((n) => n['Relation Name'] === 'merchant');
      expect(onMerchant.length).toBeGreaterThan(0);
      expect(onMerchant.map((n) => n['Node Type'])).not.toContain('Seq Scan');
      expect(nodes.filter((n) => n['Relation Name'] === 'product').map((n) => n['Node Type'])).not.toContain('Seq Scan');
      expect(uses(nodes, index)).toBe(true);
    });
  }

  // The next page through a cursor (`after`, decoded from `nextCursor`): the same index from the
  // cursor's place on, for a word, a two-letter search and no search (issue 28).
  for (const [q, index] of [
    ['fika', 'merchant_active_search'],
    ['ka', 'merchant_active_name_search'],
    ['', 'merchant_active_name'],
  ] as const) {
    it(`the next page of q=${q || '(none)'}: no sequential scan; uses ${index}`, async () => {
      const words = q ? [q] : [];
      const first = (await merchantPageQuery(db.db, { words, limit: 5 }).execute()) as unknown as { id: string; name: string }[];
      expect(first.length).toBe(5);
      const after = { name: first.at(-1)!.name, id: first.at(-1)!.id };
      const nodes = await planNodes(db.pool, merchantPageQuery(db.db, { words, limit: 25, after }));
      expect(nodes.filter((n) => n['Relation Name'] === 'merchant').map((n) => n['Node Type'])).not.toContain('Seq Scan');
      expect(nodes.filter((n) => n['Relation Name'] === 'product').map((n) => n['Node Type'])).not.toContain('Seq Scan');
      expect(uses(nodes, index)).toBe(true);
    });
  }

  it('finds the 20 merchants (and the demo café) selling "Fika för två", each once, through every page, and names the product', async () => {
    const found: { id: string; matched_product: string | null }[] = [];
    let after: { name: string; id: string } | undefined;
    for (;;) {
      const rows = (await merchantPageQuery(db.db, { words: ['fika'], limit: 25, after }).execute()) as unknown as { id: string; name: string; matched_product: string | null }[];
      found.push(...rows);
      if (rows.length < 25) break;
      after = { name: rows.at(-1)!.name, id: rows.at(-1)!.id };
    }
    expect(new Set(found.map((r) => r.id)).size).toBe(found.length);
    // The 20 loaded here, and the demo catalogue's Café Kanelbullen.
    expect(found.length).toBe(21);
    expect(found.every((r) => r.matched_product === 'Fika för två')).toBe(true);
  });

  it('a merchant whose text outgrows an index entry is saved and found, in page order with the others', async () => {
    // A description at its 2 000-character limit: `search` is then over the 2 000 bytes the covering
    // index holds, so the row is in merchant_active_name_long_search instead (migration 029).
    await sql`UPDATE merchant SET description = 'zq ' || repeat('lång text ', 199) WHERE name LIKE 'Handlare 00003 %'`.execute(db.db);
    await sql`UPDATE merchant SET description = 'zq kort' WHERE name LIKE 'Handlare 00002 %' OR name LIKE 'Handlare 00004 %'`.execute(db.db);
    const { rows } = await sql<{ long: boolean }>`SELECT octet_length(search) > 2000 AS long FROM merchant WHERE name LIKE 'Handlare 00003 %'`.execute(db.db);
    expect(rows[0]!.long).toBe(true);
    const names = async (after?: { name: string; id: string }) =>
      ((await merchantPageQuery(db.db, { words: ['zq'], limit: 2, after }).execute()) as unknown as { id: string; name: string }[]);
    const first = await names();
    expect(first.map((r) => r.name.slice(0, 14))).toEqual(['Handlare 00002', 'Handlare 00003']);
    const next = await names({ name: first[1]!.name, id: first[1]!.id });
    expect(next.map((r) => r.name.slice(0, 14))).toEqual(['Handlare 00004']);
  });

  it('a product change reaches the search at once through one merchant row, not a rebuild', async () => {
    const started = Date.now();
    await sql`
      UPDATE product SET name = 'Fika för trettio'
       WHERE name = 'Fika för två' AND merchant_id = (SELECT id FROM merchant WHERE name LIKE 'Handlare 00237 %')`.execute(db.db);
    // Generous for a shared test machine; the point is that it is not a catalogue-wide rebuild.
    expect(Date.now() - started).toBeLessThan(2000);
    const rows = await merchantPageQuery(db.db, { words: ['fika', 'trettio'], limit: 25 }).execute();
    expect(rows.map((r) => r.name)).toEqual([expect.stringMatching(/^Handlare 00237 /)]);
  });
});
