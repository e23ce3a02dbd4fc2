import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { Value } from 'typebox/value';
import { createTestApp, type TestApp } from '../helpers.ts';
import { Merchant, Product, MERCHANT_CATEGORIES, MERCHANT_SOURCES } from '../../../contract/merchant.ts';
import { demoMerchants } from '../../../server/merchant/seed.ts';
import { CATALOGUE_CACHE_CONTROL } from '../../../server/merchant/routes.ts';

/**
 * The public catalogue against real PostgreSQL, on the seeded demo catalogue (API.md, "Merchant
 * (public)"). Each describe gets its own database copy where it changes rows.
 */

type Page = { items: Merchant[]; nextCursor: string | null };

describe('the public merchant catalogue', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

  it('GET /api/merchant lists every active demo merchant, in Swedish name order, in the Merchant shape', async () => {
    const res = await get('/api/merchant');
    expect(res.statusCode).toBe(200);
    const list = res.json() as Merchant[];
    expect(list).toHaveLength(demoMerchants.length);
    for (const m of list) expect(Value.Check(Merchant, m), JSON.stringify(m)).toBe(true);
    const names = list.map((m) => m.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'sv')));
    // Å, Ä, Ö sort last in Swedish.
    expect(names.at(-1)).toBe('Äventyrsrummet Labyrinten');
  });

  it('the demo catalogue has at least 12 merchants across categories, all three sources, 2–5 products each, and a logo each', async () => {
    const list = (await get('/api/merchant')).json() as Merchant[];
    expect(list.length).toBeGreaterThanOrEqual(12);
    const categories = new Set(list.map((m) => m.category));
    for (const c of ['cafe', 'restaurant', 'books', 'flowers', 'cinema', 'spa', 'sport', 'charity'] as const) expect(categories).toContain(c);
    expect(list.filter((m) => m.category === 'charity').length).toBeGreaterThanOrEqual(2);
    expect(new Set(list.flatMap((m) => m.sources))).toEqual(new Set(MERCHANT_SOURCES));
    expect(new Set(list.map((m) => m.logoUrl)).size).toBe(list.length);
    // Each logo ships in public/: a small hand-written SVG with a title naming its merchant.
    for (const m of list) {
      const file = path.resolve(import.meta.dirname, '../../../public', m.logoUrl.replace(/^\//, ''));
      expect(statSync(file).size, m.logoUrl).toBeLessThan(4096);
      const svg = readFileSync(file, 'utf8');
      expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
      expect(svg.replace(/&amp;/g, '&')).toContain(`<title id="t">${m.name}</title>`);
      expect(svg).not.toMatch(/<script|href=/i);
    }
    for (const m of list) {
      const products = (await get(`/api/merchant/${m.id}/products`)).json() as Product[];
      expect(products.length, m.name).toBeGreaterThanOrEqual(2);
      expect(products.length, m.name).toBeLessThanOrEqual(5);
      expect(m.priceFrom).toBe(Math.min(...products.map((p) => p.price ?? p.minAmount!)));
    }
  });

  it('GET /api/merchant/:id answers the merchant; its products come cheapest first with a price or a range', async () => {
    const cafe = demoMerchants.find((m) => m.name === 'Café Kanelbullen')!;
    const res = await get(`/api/merchant/${cafe.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: cafe.id,
      name: 'Café Kanelbullen',
      category: 'cafe',
      logoUrl: '/merchants/kanelbullen.svg',
      website: 'https://kanelbullen.example',
      sources: ['InStore', 'Code'],
      priceFrom: 6500,
    });
    const products = (await get(`/api/merchant/${cafe.id}/products`)).json() as Product[];
    for (const p of products) expect(Value.Check(Product, p), JSON.stringify(p)).toBe(true);
    expect(products.map((p) => [p.name, p.price, p.minAmount, p.maxAmount])).toEqual([
      ['Kaffe och kanelbulle', 6500, undefined, undefined],
      ['Presentkort', undefined, 10000, 100000],
      ['Fika för två', 14900, undefined, undefined],
    ]);
    expect(products[0]).toMatchObject({ merchantId: cafe.id, source: 'InStore', validDays: 365, imageUrl: '/merchants/kanelbullen.svg' });
  });

  it('an unknown id is 404 and a malformed id is 400, in the error shape, never 500', async () => {
    for (const url of ['/api/merchant/00000000-0000-4000-8000-000000000000', '/api/merchant/00000000-0000-4000-8000-000000000000/products']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toEqual({ code: 'MERCHANT_NOT_FOUND', message: 'Handlaren finns inte.' });
    }
    const english = await get('/api/merchant/00000000-0000-4000-8000-000000000000', { 'accept-language': 'en' });
    expect(english.json().message).toBe('There is no such merchant.');
    for (const bad of ['nope', '123', 'urn:uuid:4d0e1a2b-0000-4000-8000-000000000001', '4d0e1a2b00004000800000000000000001', "'%20OR%201=1", '%00']) {
      for (const url of [`/api/merchant/${bad}`, `/api/merchant/${bad}/products`]) {
        const res = await get(url);
        expect(res.statusCode, url).toBe(400);
        expect(res.json().code).toBe('VALIDATION_FAILED');
      }
    }
  });

  it('v2 pages through the whole catalogue in name order without repeats or gaps, at every page size', async () => {
    const all = ((await get('/api/merchant')).json() as Merchant[]).map((m) => m.id);
    for (const limit of [1, 2, 5, 13, 14, 100]) {
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const res = await get(`/api/merchant/v2?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
        expect(res.statusCode).toBe(200);
        const page = res.json() as Page;
        expect(page.items.length).toBeLessThanOrEqual(limit);
        seen.push(...page.items.map((m) => m.id));
        cursor = page.nextCursor;
        pages += 1;
      } while (cursor && pages < 100);
      expect(seen, `limit ${limit}`).toEqual(all);
    }
  });

  it('v2 defaults to a page of 24 and refuses a limit above 100 or below 1', async () => {
    const page = (await get('/api/merchant/v2')).json() as Page;
    expect(page.items).toHaveLength(demoMerchants.length);
    expect(page.nextCursor).toBeNull();
    for (const limit of ['0', '101', '-1', 'ten', '1.5']) {
      const res = await get(`/api/merchant/v2?limit=${limit}`);
      expect(res.statusCode, limit).toBe(400);
      expect(res.json().code).toBe('VALIDATION_FAILED');
    }
  });

  it('v2 q matches name and description regardless of case and accents', async () => {
    const names = async (q: string) => ((await get(`/api/merchant/v2?q=${encodeURIComponent(q)}`)).json() as Page).items.map((m) => m.name);
    // "café" is also the category's word: the ice-cream bar is a café too (026_merchant_address).
    expect(await names('cafe')).toEqual(['Café Kanelbullen', 'Glassbaren Hallon & Lakrits']);
    expect(await names('CAFÉ kanel')).toEqual(['Café Kanelbullen']);
    expect(await names('goteborg')).toEqual(['Bistro Bryggan']); // "Göteborg" in the description
    expect(await names('OSTERSJON')).toEqual(['Stiftelsen Östersjöns Framtid']);
    expect(await names('FJALLBADET')).toEqual(['Fjällbadets Spa']);
    expect(await names('åre')).toContain('Fjällbadets Spa'); // "Åre"; also inside other words
    // Every word must match, anywhere.
    expect(await names('glass stockholm')).toEqual(['Glassbaren Hallon & Lakrits']);
    expect(await names('presentkort zzz')).toEqual([]);
    // LIKE wildcards are plain characters.
    expect(await names('%')).toEqual([]);
    expect(await names('_')).toEqual([]);
    expect(await names('&')).toEqual(['Bokhandeln Ord & Bild', 'Glassbaren Hallon & Lakrits']);
    // Blank q is no filter.
    expect(await names('   ')).toHaveLength(demoMerchants.length);
    // NUL and other odd input is a clean answer, never a 500.
    for (const odd of ['\u0000', "'; DROP TABLE merchant; --", '\\', '😀', 'a'.repeat(100)]) {
      const res = await get(`/api/merchant/v2?q=${encodeURIComponent(odd)}`);
      expect(res.statusCode, odd).toBe(200);
    }
    expect((await get(`/api/merchant/v2?q=${'a'.repeat(101)}`)).statusCode).toBe(400);
  });

  it('v2 filters by category and by source, and combines filters with q and paging', async () => {
    const page = async (qs: string) => (await get(`/api/merchant/v2?${qs}`)).json() as Page;
    for (const category of MERCHANT_CATEGORIES) {
      const items = (await page(`category=${category}`)).items;
      expect(items.map((m) => m.id)).toEqual(
        demoMerchants
          .filter((m) => m.category === category)
          .sort((a, b) => a.name.localeCompare(b.name, 'sv'))
          .map((m) => m.id),
      );
    }
    for (const source of MERCHANT_SOURCES) {
      const items = (await page(`source=${source}`)).items;
      expect(items.length, source).toBe(demoMerchants.filter((m) => m.sources.includes(source)).length);
      for (const m of items) expect(m.sources).toContain(source);
    }
    expect((await page('category=charity&source=Charity&q=mat')).items.map((m) => m.name)).toEqual(['Föreningen Varma Händer']);
    const first = await page('source=InStore&limit=3');
    const second = await page(`source=InStore&limit=3&cursor=${first.nextCursor}`);
    expect(second.items.every((m) => m.sources.includes('InStore'))).toBe(true);
    expect(new Set([...first.items, ...second.items].map((m) => m.id)).size).toBe(6);
    for (const bad of ['category=pizza', 'source=Cash', 'source=instore', 'unknown=1']) {
      const res = await get(`/api/merchant/v2?${bad}`);
      expect(res.statusCode, bad).toBe(400);
    }
  });

  it('a malformed cursor is 400 INVALID_CURSOR, never 500', async () => {
    const b64 = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');
    for (const cursor of [
      'x',
      '!!!',
      b64('not json'),
      b64({ a: 1 }),
      b64(['a']),
      b64([1, 2]),
      b64(['Café', 'not-a-uuid']),
      b64(['Ca\u0000fé', '4d0e1a2b-0000-4000-8000-000000000001']),
      b64(['x'.repeat(201), '4d0e1a2b-0000-4000-8000-000000000001']),
    ]) {
      const res = await get(`/api/merchant/v2?cursor=${encodeURIComponent(cursor)}`);
      expect(res.statusCode, cursor).toBe(400);
      expect(res.json()).toMatchObject({ code: 'INVALID_CURSOR' });
    }
    // A well-formed cursor for a merchant that no longer exists still continues in order.
    const res = await get(`/api/merchant/v2?cursor=${b64(['Bokhandeln', '00000000-0000-4000-8000-000000000000'])}`);
    expect(res.statusCode).toBe(200);
    expect((res.json() as Page).items[0]!.name).toBe('Bokhandeln Ord & Bild');
  });

  it('catalogue answers carry an ETag and Cache-Control, and a matching If-None-Match gets 304 without a body', async () => {
    const id = demoMerchants[0]!.id;
    for (const url of ['/api/merchant', '/api/merchant/v2?limit=3', `/api/merchant/${id}`, `/api/merchant/${id}/products`]) {
      const res = await get(url);
      expect(res.statusCode).toBe(200);
      const etag = res.headers.etag as string;
      expect(etag, url).toMatch(/^"[A-Za-z0-9_-]+"$/);
      expect(res.headers['cache-control']).toBe(CATALOGUE_CACHE_CONTROL);
      expect(res.headers['content-type']).toMatch(/^application\/json/);

      for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
        const again = await get(url, { 'if-none-match': header });
        expect(again.statusCode, `${url} ${header}`).toBe(304);
        expect(again.body).toBe('');
        expect(again.headers.etag).toBe(etag);
      }
      const stale = await get(url, { 'if-none-match': '"stale"' });
      expect(stale.statusCode).toBe(200);
      expect(stale.body).toBe(res.body);
    }
  });
});

describe('the catalogue cache', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const get = (url: string) => t.app.inject({ method: 'GET', url });
  const cafe = demoMerchants[0]!;

  it('serves from the cache until the catalogue version moves, then reloads (what any change does)', async () => {
    const before = await get(`/api/merchant/${cafe.id}`);
    expect(before.json().name).toBe('Café Kanelbullen');
    // A change that bypasses the version trigger proves the answer really comes from the cache…
    await sql`ALTER TABLE merchant DISABLE TRIGGER merchant_catalogue_version`.execute(t.db.db);
    await sql`UPDATE merchant SET name = 'Café Smygändrat' WHERE id = ${cafe.id}`.execute(t.db.db);
    await sql`ALTER TABLE merchant ENABLE TRIGGER merchant_catalogue_version`.execute(t.db.db);
    expect((await get(`/api/merchant/${cafe.id}`)).json().name).toBe('Café Kanelbullen');
    // …and any change through the table (as the admin command makes, from its own process) empties it.
    await sql`UPDATE merchant SET description = description WHERE id = ${cafe.id}`.execute(t.db.db);
    const after = await get(`/api/merchant/${cafe.id}`);
    expect(after.json().name).toBe('Café Smygändrat');
    expect(after.headers.etag).not.toBe(before.headers.etag);
  });

  it('a product change reaches the product list, the merchant list and the details at once', async () => {
    const etagBefore = (await get('/api/merchant/v2?category=cafe')).headers.etag;
    await sql`UPDATE product SET price = 5900 WHERE merchant_id = ${cafe.id} AND price = 6500`.execute(t.db.db);
    const products = (await get(`/api/merchant/${cafe.id}/products`)).json() as Product[];
    expect(products[0]!.price).toBe(5900);
    const page = await get('/api/merchant/v2?category=cafe');
    expect((page.json() as Page).items.find((m) => m.id === cafe.id)!.priceFrom).toBe(5900);
    expect(page.headers.etag).not.toBe(etagBefore);
    expect((await get(`/api/merchant/${cafe.id}`)).json().priceFrom).toBe(5900);
  });

  it('paging stays without repeats or gaps when merchants are added between pages', async () => {
    const page = async (cursor: string | null) =>
      (await get(`/api/merchant/v2?limit=4${cursor ? `&cursor=${cursor}` : ''}`)).json() as Page;
    const first = await page(null);
    const insert = (name: string) =>
      sql`INSERT INTO merchant (name, logo_url, category, sources, code_hash) VALUES (${name}, '/merchants/x.svg', 'books', '{Code}', 'x')`.execute(t.db.db);
    await insert('Aaa Före sidan'); // sorts before the pages already read
    await insert('Öppet Efter'); // sorts after
    const seen = first.items.map((m) => m.name);
    let cursor = first.nextCursor;
    while (cursor) {
      const next = await page(cursor);
      seen.push(...next.items.map((m) => m.name));
      cursor = next.nextCursor;
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).not.toContain('Aaa Före sidan');
    expect(seen.at(-1)).toBe('Öppet Efter');
    const all = ((await get('/api/merchant')).json() as Merchant[]).map((m) => m.name);
    expect(seen).toEqual(all.filter((n) => n !== 'Aaa Före sidan'));
  });

  it('a deactivated merchant leaves every list and its details and products answer 404', async () => {
    await sql`UPDATE merchant SET active = false WHERE id = ${cafe.id}`.execute(t.db.db);
    expect(((await get('/api/merchant')).json() as Merchant[]).map((m) => m.id)).not.toContain(cafe.id);
    expect(((await get('/api/merchant/v2?limit=100')).json() as Page).items.map((m) => m.id)).not.toContain(cafe.id);
    expect((await get(`/api/merchant/${cafe.id}`)).statusCode).toBe(404);
    expect((await get(`/api/merchant/${cafe.id}/products`)).statusCode).toBe(404);
  });
});
