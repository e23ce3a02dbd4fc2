import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestDb, type TestDb } from '../helpers.ts';
import { analyzedPlanNodes, planNodes, type PlanNode } from '../plan.ts';
import { activeKeysetsQuery, merchantPageQuery, searchHitsQuery, searchRowsQuery } from '../../../server/merchant/queries.ts';
import { CatalogueCache } from '../../../server/merchant/cache.ts';
import { merchantPage, pageRequest, encodeCursor } from '../../../server/merchant/rules.ts';
import { HITS_HELD, searchPageAnswer } from '../../../server/merchant/search-pages.ts';
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

  // A next page from anywhere in the name order (issue 28, decision 151): PostgreSQL takes the
  // trigram hits and keeps those after the cursor (or, near the end, walks the few index entries
  // left); it never walks from an early cursor to the end. Row counts, not times, are the evidence.
  for (const place of ['00100', '05000', '09900']) {
    it(`the next page of q=fika after merchant ${place}: no sequential scan, and few merchant rows read`, async () => {
      const { rows } = await sql<{ name: string; id: string }>`SELECT name, id FROM merchant WHERE active AND name >= ${`Handlare ${place}`} ORDER BY name, id LIMIT 1`.execute(db.db);
      const nodes = await analyzedPlanNodes(db.pool, merchantPageQuery(db.db, { words: ['fika'], limit: 25, after: rows[0]! }));
      expect(nodes.map((n) => n['Node Type'])).not.toContain('Seq Scan');
      const searchScans = nodes.filter((n) => n['Relation Name'] === 'merchant' && n['Index Name'] !== 'merchant_pkey');
      const read = searchScans.reduce((sum, n) => sum + (n['Actual Rows'] ?? 0) * (n['Actual Loops'] ?? 1) + (n['Rows Removed by Filter'] ?? 0), 0);
      // 20 hits from the trigram index (twice: one per half of migration 029), or the walk's last ~100 entries.
      expect(read).toBeLessThanOrEqual(200);
      if (place !== '09900') expect(nodes.some((n) => n['Index Name'] === 'merchant_active_search')).toBe(true);
    });
  }

  // What a search's held pages are cut from (decision 151): each read once per catalogue version.
  it('the hits of q=fika come from the trigram index, of q=ka from the index-only walk; the order and the rows from indexes', async () => {
    const fika = await planNodes(db.pool, { compile: () => searchHitsQuery(db.db, { words: ['fika'] }, HITS_HELD).compile(db.db) });
    expect(fika.some((n) => n['Index Name'] === 'merchant_active_search')).toBe(true);
    const ka = await planNodes(db.pool, { compile: () => searchHitsQuery(db.db, { words: ['ka'] }, HITS_HELD).compile(db.db) });
    expect(uses(ka, 'merchant_active_name_search')).toBe(true);
    const order = await planNodes(db.pool, activeKeysetsQuery(db.db));
    expect(order.some((n) => n['Index Name'] === 'merchant_active_name')).toBe(true);
    const { rows } = await sql<{ id: string }>`SELECT id FROM merchant WHERE active ORDER BY name LIMIT 25`.execute(db.db);
    const page = await planNodes(db.pool, searchRowsQuery(db.db, rows.map((r) => r.id), ['fika']));
    expect(page.some((n) => n['Index Name'] === 'merchant_pkey')).toBe(true);
    for (const nodes of [fika, ka, order, page]) expect(nodes.map((n) => n['Node Type'])).not.toContain('Seq Scan');
  });

  it('a page cut from held hits is the page the query gives, from any cursor; a cursor the order does not know takes the query', async () => {
    const cache = new CatalogueCache(db.db);
    const { rows } = await sql<{ name: string; id: string }>`SELECT name, id FROM merchant WHERE active ORDER BY md5(id::text) LIMIT 40`.execute(db.db);
    const cursors = [undefined, ...rows.map((r) => encodeCursor(r)), encodeCursor({ name: 'Handlare 05000', id: '00000000-0000-4000-8000-000000000000' })];
    for (const q of ['fika', 'ka', 'fika två']) {
      for (const cursor of cursors) {
        const r = pageRequest({ q, cursor, limit: 3 });
        const held = await searchPageAnswer(db.db, cache, r);
        expect(held.body, `${q} ${cursor}`).toBe(JSON.stringify(await merchantPage(db.db, r)));
      }
    }
    // A common word: too many hits to hold, its pages are queried.
    const common = pageRequest({ q: 'handlare', cursor: cursors[1], limit: 3 });
    expect((await searchPageAnswer(db.db, cache, common)).body).toBe(JSON.stringify(await merchantPage(db.db, common)));
    // Every cursor between the same two hits is one entry.
    const before = cache.stats().size;
    const { rows: early } = await sql<{ name: string; id: string }>`SELECT name, id FROM merchant WHERE active AND name > 'Handlare 00100' AND name < 'Handlare 00200' LIMIT 20`.execute(db.db);
    const between = early.map((r) => encodeCursor(r));
    expect(between.length).toBeGreaterThan(10);
    for (const cursor of between) await searchPageAnswer(db.db, cache, pageRequest({ q: 'fika', cursor, limit: 3 }));
    expect(cache.stats().size - before).toBeLessThanOrEqual(1);
  });

  it('a renamed merchant: its old cursor continues by the query, and the held hits follow the change', async () => {
    const cache = new CatalogueCache(db.db);
    const { rows } = await sql<{ name: string; id: string }>`SELECT name, id FROM merchant WHERE active AND name >= 'Handlare 04000' ORDER BY name, id LIMIT 1`.execute(db.db);
    const old = rows[0]!;
    const first = await searchPageAnswer(db.db, cache, pageRequest({ q: 'fika', cursor: encodeCursor(old), limit: 3 }));
    const { rows: lunch } = await sql<{ id: string; name: string }>`SELECT id, name FROM product WHERE merchant_id = ${old.id} AND active AND name LIKE 'Lunch%' LIMIT 1`.execute(db.db);
    await sql`UPDATE merchant SET name = 'Handlare 00001 flyttad' WHERE id = ${old.id}`.execute(db.db);
    try {
      const r = pageRequest({ q: 'fika', cursor: encodeCursor(old), limit: 3 });
      const after = await searchPageAnswer(db.db, cache, r);
      expect(after.body).toBe(JSON.stringify(await merchantPage(db.db, r)));
      expect(after.body).toBe(first.body);
      // A merchant that now sells a fika is found at once.
      await sql`UPDATE product SET name = 'Fika för fyra' WHERE id = ${lunch[0]!.id}`.execute(db.db);
      const all = await searchPageAnswer(db.db, cache, pageRequest({ q: 'fika', limit: 3 }));
      expect((JSON.parse(all.body) as { items: { id: string }[] }).items.map((m) => m.id)).toContain(old.id);
    } finally {
      await sql`UPDATE product SET name = ${lunch[0]!.name} WHERE id = ${lunch[0]!.id}`.execute(db.db);
      await sql`UPDATE merchant SET name = ${old.name} WHERE id = ${old.id}`.execute(db.db);
    }
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
