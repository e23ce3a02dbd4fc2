import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { Value } from 'typebox/value';
import { createTestApp, type TestApp } from '../helpers.ts';
import { Merchant } from '../../../contract/merchant.ts';
import { demoMerchants, seedDemoAddresses } from '../../../server/merchant/seed.ts';
import { runAdmin, EXIT } from '../../../server/admin/commands.ts';

/**
 * Finding a gift and where to use it (API.md: `GET /merchant/v2`'s `q` covers products and the
 * city; Merchant `address` and `openingHours`), on the seeded demo catalogue in real PostgreSQL.
 */

type Page = { items: Merchant[]; nextCursor: string | null };

describe('searching merchants by what they sell', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const get = (url: string) => t.app.inject({ method: 'GET', url });
  const search = async (q: string, extra = '') => (await get(`/api/merchant/v2?q=${encodeURIComponent(q)}${extra}`)).json() as Page;
  const names = async (q: string) => (await search(q)).items.map((m) => m.name);
  const kanelbullen = demoMerchants.find((m) => m.name === 'Café Kanelbullen')!;

  it('"fika" finds Kanelbullen, which sells "Fika för två", and names the product that matched', async () => {
    const page = await search('fika');
    expect(page.items.map((m) => m.name)).toEqual(['Café Kanelbullen']);
    expect(page.items[0]!.matchedProduct).toBe('Fika för två');
    for (const m of page.items) expect(Value.Check(Merchant, m), JSON.stringify(m)).toBe(true);
    // Case and accents do not matter, and the words may come from product and merchant alike.
    expect(await names('FIKA TVA')).toEqual(['Café Kanelbullen']);
    expect(await names('fika södermalm')).toEqual(['Café Kanelbullen']);
    expect(await names('ramen')).toEqual(['Nudelbaren Umami']);
    expect(await names('massage')).toEqual(['Fjällbadets Spa']);
  });

  it('a merchant found by its own name or description does not name a product', async () => {
    const page = await search('kanelbullen');
    expect(page.items.map((m) => m.name)).toEqual(['Café Kanelbullen']);
    expect(page.items[0]!.matchedProduct).toBeUndefined();
    // Without q there is no matchedProduct at all.
    expect((await get('/api/merchant/v2')).json().items.some((m: Merchant) => 'matchedProduct' in m)).toBe(false);
  });

  it('a merchant with several matching products comes once', async () => {
    // Löparbutiken Fart sells "Presentkort i butiken" and "Presentkort online".
    const page = await search('presentkort', '&limit=100');
    const ids = page.items.map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(page.items.filter((m) => m.name === 'Löparbutiken Fart')).toHaveLength(1);
    const sellers = demoMerchants.filter((m) => m.products.some((p) => /presentkort/i.test(p.name)));
    expect(ids.sort()).toEqual(sellers.map((m) => m.id).sort());
  });

  it('pages through a search with the cursor, without repeats or gaps', async () => {
    const all = (await search('presentkort', '&limit=100')).items.map((m) => m.id);
    expect(all.length).toBeGreaterThan(4);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: Page = await search('presentkort', `&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.items.map((m) => m.id));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor && pages < 20);
    expect(seen).toEqual(all);
  });

  it('matches the category in Swedish and the city of the address', async () => {
    expect(await names('bokhandel')).toEqual(['Bokhandeln Ord & Bild']);
    expect(await names('blommor')).toEqual(['Blomsterateljén Vildros']);
    expect((await names('kafe')).sort()).toEqual(['Café Kanelbullen', 'Glassbaren Hallon & Lakrits']);
    // Kiruna is in no description: only the address holds it.
    expect(await names('kiruna')).toEqual([]);
    await sql`UPDATE merchant SET street = 'Föreningsgatan 11', postal_code = '981 31', city = 'Kiruna' WHERE id = ${kanelbullen.id}`.execute(t.db.db);
    expect(await names('kiruna')).toEqual(['Café Kanelbullen']);
  });

  it('an inactive product does not match, and a product change is found at once', async () => {
    const fika = sql`product.merchant_id = ${kanelbullen.id} AND product.name = 'Fika för två'`;
    await sql`UPDATE product SET active = false WHERE ${fika}`.execute(t.db.db);
    expect(await names('fika')).toEqual([]);
    await sql`UPDATE product SET active = true WHERE ${fika}`.execute(t.db.db);
    expect(await names('fika')).toEqual(['Café Kanelbullen']);
    // Renamed: the old name no longer matches, the new one does.
    await sql`UPDATE product SET name = 'Eftermiddagste för två' WHERE ${fika}`.execute(t.db.db);
    expect(await names('fika')).toEqual([]);
    expect(await names('eftermiddagste')).toEqual(['Café Kanelbullen']);
    // A new product, and one taken away again.
    const umami = demoMerchants.find((m) => m.name === 'Nudelbaren Umami')!;
    const { rows } = await sql<{ id: string }>`
      INSERT INTO product (merchant_id, name, source, price, valid_days) VALUES (${umami.id}, 'Gyozakurs', 'InStore', 50000, 365) RETURNING id`.execute(t.db.db);
    expect(await names('gyoza')).toEqual(['Nudelbaren Umami']);
    await sql`DELETE FROM product WHERE id = ${rows[0]!.id}`.execute(t.db.db);
    expect(await names('gyoza')).toEqual([]);
    // Moving a product to another merchant moves what the search finds.
    await sql`UPDATE product SET merchant_id = ${umami.id} WHERE merchant_id = ${kanelbullen.id} AND name = 'Eftermiddagste för två'`.execute(t.db.db);
    expect(await names('eftermiddagste')).toEqual(['Nudelbaren Umami']);
  });

  it('an inactive merchant is not found through its products', async () => {
    const spa = demoMerchants.find((m) => m.name === 'Fjällbadets Spa')!;
    await sql`UPDATE merchant SET active = false WHERE id = ${spa.id}`.execute(t.db.db);
    expect(await names('massage')).toEqual([]);
    await sql`UPDATE merchant SET active = true WHERE id = ${spa.id}`.execute(t.db.db);
    expect(await names('massage')).toEqual(['Fjällbadets Spa']);
  });
});

describe('where and when a gift is used', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const get = (url: string) => t.app.inject({ method: 'GET', url });

  it('every demo merchant with InStore gifts has a Swedish address and opening hours; charities and code-only merchants have no address', async () => {
    const list = (await get('/api/merchant')).json() as Merchant[];
    for (const m of list) {
      expect(Value.Check(Merchant, m), JSON.stringify(m)).toBe(true);
      if (m.sources.includes('InStore')) {
        expect(m.address, m.name).toEqual({ street: expect.stringMatching(/^\S.* \d+$/), postalCode: expect.stringMatching(/^\d{3} \d{2}$/), city: expect.any(String) });
        expect(m.openingHours, m.name).toMatch(/\d/);
      } else {
        expect(m.address, m.name).toBeNull();
      }
      if (m.category === 'charity') expect(m.openingHours).toBeNull();
    }
    const cafe = (await get(`/api/merchant/${demoMerchants[0]!.id}`)).json() as Merchant;
    expect(cafe).toMatchObject({ address: { street: 'Skånegatan 73', postalCode: '116 37', city: 'Stockholm' }, openingHours: 'Mån–fre 7–18, lör–sön 9–17' });
  });

  it('a database seeded before addresses gets the demo addresses once, and never over an operator\'s', async () => {
    await sql`UPDATE merchant SET street = NULL, postal_code = NULL, city = NULL, opening_hours = NULL`.execute(t.db.db);
    await seedDemoAddresses(t.db.db);
    const cafe = (await get(`/api/merchant/${demoMerchants[0]!.id}`)).json() as Merchant;
    expect(cafe.address?.city).toBe('Stockholm');
    await sql`UPDATE merchant SET street = NULL, postal_code = NULL, city = NULL, opening_hours = NULL WHERE id <> ${demoMerchants[1]!.id}`.execute(t.db.db);
    await seedDemoAddresses(t.db.db);
    expect(((await get(`/api/merchant/${demoMerchants[0]!.id}`)).json() as Merchant).address).toBeNull();
  });

  it('the database refuses half an address and a malformed postal code', async () => {
    const id = demoMerchants[1]!.id; // the one merchant the test above left its address
    await expect(sql`UPDATE merchant SET street = NULL WHERE id = ${id}`.execute(t.db.db)).rejects.toThrow(/merchant_address_whole/);
    await expect(sql`UPDATE merchant SET postal_code = '11637' WHERE id = ${id}`.execute(t.db.db)).rejects.toThrow(/postal_code/);
  });

  it('the operator sets and removes the address and opening hours with npm run admin', async () => {
    async function admin(args: string[]) {
      const out: string[] = [];
      const err: string[] = [];
      const code = await runAdmin(args, {
        env: { LANG: 'sv_SE.UTF-8' },
        readStdin: async () => undefined,
        out: (l) => out.push(l),
        err: (l) => err.push(l),
        openDb: async () => ({ db: t.db.db, close: async () => {} }),
      });
      return { code, out: out.join('\n'), err: err.join('\n') };
    }
    const id = demoMerchants[2]!.id;
    const set = await admin(['merchant', 'update', id, '--street', 'Svartbäcksgatan 8', '--postal-code', '75320', '--city', 'Uppsala', '--opening-hours', 'Mån–lör 10–18']);
    expect(set.err).toBe('');
    expect(JSON.parse(set.out)).toMatchObject({ address: { street: 'Svartbäcksgatan 8', postalCode: '753 20', city: 'Uppsala' }, openingHours: 'Mån–lör 10–18' });
    expect(((await get(`/api/merchant/${id}`)).json() as Merchant).address?.street).toBe('Svartbäcksgatan 8');

    const half = await admin(['merchant', 'update', id, '--city', 'Enköping']);
    expect(half.code).toBe(EXIT.badInput);
    expect(half.err).toContain('--street');
    const badCode = await admin(['merchant', 'update', id, '--street', 'Gatan 1', '--postal-code', '7532', '--city', 'Uppsala']);
    expect(badCode.code).toBe(EXIT.badInput);
    expect(badCode.err).toContain('--postal-code');

    const removed = await admin(['merchant', 'update', id, '--street', '', '--postal-code', '', '--city', '', '--opening-hours', '']);
    expect(removed.err).toBe('');
    expect(JSON.parse(removed.out)).toMatchObject({ address: null, openingHours: null });
  });
});
