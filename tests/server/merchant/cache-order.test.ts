import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogueCache } from '../../../server/merchant/cache.ts';
import { createTestDb, type TestDb } from '../helpers.ts';

/**
 * The catalogue cache's bound (server/merchant/cache.ts): when it is full, the answer used least
 * recently goes first, and an answer read again (also one read many times in a row) counts as used.
 */
describe('the catalogue cache keeps the answers used most recently', () => {
  let db: TestDb;
  beforeAll(async () => {
    db = await createTestDb();
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('evicts the least recently used when full, counting every read (repeated reads of the newest too)', async () => {
    const cache = new CatalogueCache(db.db, { maxEntries: 3 });
    const loads: string[] = [];
    const read = (key: string) =>
      cache.read(key, async () => {
        loads.push(key);
        return { key };
      });
    for (const key of ['a', 'b', 'c']) await read(key);
    await read('a'); // b, c, a
    await read('d'); // c, a, d (b out)
    await read('b'); // a, d, b (c out)
    await read('a'); // d, b, a
    await read('a'); // d, b, a: the newest read again stays last
    await read('e'); // b, a, e (d out)
    await read('b'); // a, e, b
    await read('d'); // e, b, d (a out)
    await read('c'); // b, d, c (e out)
    expect(loads).toEqual(['a', 'b', 'c', 'd', 'b', 'e', 'd', 'c']);
    expect(cache.stats()).toMatchObject({ size: 3, hits: 4, misses: 8 });
    // What is held now, without loading: b, d and c; a and e went.
    loads.length = 0;
    for (const key of ['b', 'd', 'c']) await read(key);
    expect(loads).toEqual([]);
    await read('a');
    expect(loads).toEqual(['a']);
  });

  it('a "not found" is not kept and does not push out the newest', async () => {
    const cache = new CatalogueCache(db.db, { maxEntries: 2 });
    let n = 0;
    await cache.read('x', async () => ({ n: ++n }));
    await cache.read('missing', async () => null);
    await cache.read('y', async () => ({ n: ++n }));
    await cache.read('x', async () => ({ n: ++n }));
    expect(n).toBe(2);
    expect(cache.stats()).toMatchObject({ size: 2 });
  });
});
