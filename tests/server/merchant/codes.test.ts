import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestApp, type TestApp } from '../helpers.ts';
import { demoMerchants, demoOwnerNumber } from '../../../server/merchant/seed.ts';
import { hashMerchantCode, verifyMerchantCode } from '../../../server/merchant/code.ts';
import { findMerchantCodeHash } from '../../../server/merchant/queries.ts';
import type { Merchant, MerchantPage } from '../../../contract/merchant.ts';
import { swishTestEnv } from '../payment/test-ca.ts';

/** Merchant codes: stored only as hashes, never in a public answer, listed by the sandbox only. */

describe('merchant code hashing', () => {
  it('verifies the right code regardless of case and spaces, and refuses a wrong one', async () => {
    const hash = await hashMerchantCode('Kanel2481');
    expect(hash).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9_-]+\$[A-Za-z0-9_-]+$/);
    expect(hash).not.toContain('KANEL2481');
    expect(await verifyMerchantCode('KANEL2481', hash)).toBe(true);
    expect(await verifyMerchantCode(' kanel2481 ', hash)).toBe(true);
    expect(await verifyMerchantCode('KANEL2482', hash)).toBe(false);
    expect(await verifyMerchantCode('', hash)).toBe(false);
  });

  it('salts every hash, and treats a malformed stored value as no match', async () => {
    expect(await hashMerchantCode('ABCD1234')).not.toBe(await hashMerchantCode('ABCD1234'));
    for (const stored of ['', 'ABCD1234', 'scrypt$1$2$3', 'bcrypt$16384$8$1$c2FsdA$aGFzaA', 'scrypt$x$8$1$c2FsdA$aGFzaA', 'scrypt$16384$8$1$c2FsdA$short']) {
      expect(await verifyMerchantCode('ABCD1234', stored), stored).toBe(false);
    }
  });
});

describe('merchant codes and the public catalogue', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const get = (url: string) => t.app.inject({ method: 'GET', url });

  it('the database keeps only hashes, and each demo hash verifies its demo code', async () => {
    const rows = await sql<Record<string, unknown>>`SELECT * FROM merchant`.execute(t.db.db);
    const dump = JSON.stringify(rows.rows).toUpperCase();
    for (const m of demoMerchants) expect(dump).not.toContain(m.merchantCode.toUpperCase());
    for (const m of demoMerchants.slice(0, 3)) {
      const hash = await findMerchantCodeHash(t.db.db, m.id);
      expect(await verifyMerchantCode(m.merchantCode, hash!)).toBe(true);
    }
  });

  it('no public answer contains a merchant code or its hash', async () => {
    const hashes = (await t.db.db.selectFrom('merchant').select('code_hash').execute()).map((r) => r.code_hash);
    const forbidden = [...demoMerchants.map((m) => m.merchantCode.toUpperCase()), 'SCRYPT$', ...hashes.map((h) => h.toUpperCase())];
    const urls = ['/api/merchant', '/api/openapi.json', '/api/merchant/v2?limit=100', '/api/merchant/v2?q=kod', '/api/merchant/00000000-0000-4000-8000-000000000000', '/api/merchant/nope'];
    for (const source of ['InStore', 'Charity', 'Code']) urls.push(`/api/merchant/v2?source=${source}`);
    let cursor: string | null = null;
    do {
      const page: MerchantPage = (await get(`/api/merchant/v2?limit=2${cursor ? `&cursor=${cursor}` : ''}`)).json();
      if (cursor) urls.push(`/api/merchant/v2?limit=2&cursor=${cursor}`);
      cursor = page.nextCursor;
    } while (cursor);
    for (const m of (await get('/api/merchant')).json() as Merchant[]) urls.push(`/api/merchant/${m.id}`, `/api/merchant/${m.id}/products`);
    // Searching for a code finds nothing, and does not echo it.
    for (const m of demoMerchants) urls.push(`/api/merchant/v2?q=${m.merchantCode}`);

    for (const url of urls) {
      const res = await get(url);
      expect(res.statusCode, url).toBeLessThan(500);
      const text = (JSON.stringify(res.headers) + res.body).toUpperCase();
      for (const secret of forbidden) expect(text.includes(secret), `${url} leaks a merchant code`).toBe(false);
    }
    const searched = (await get(`/api/merchant/v2?q=${demoMerchants[0]!.merchantCode}`)).json() as MerchantPage;
    expect(searched.items).toEqual([]);
  });

  it('GET /api/sandbox/merchants lists every demo merchant with its code', async () => {
    const res = await get('/api/sandbox/merchants');
    expect(res.statusCode).toBe(200);
    const list = res.json() as { id: string; name: string; merchantCode: string | null; ownerNumber: string }[];
    expect(list).toHaveLength(demoMerchants.length);
    expect(list.map((m) => m.name)).toEqual([...list.map((m) => m.name)].sort((a, b) => a.localeCompare(b, 'sv')));
    for (const m of demoMerchants) expect(list).toContainEqual({ id: m.id, name: m.name, merchantCode: m.merchantCode, ownerNumber: demoOwnerNumber(m) });
  });

  it('a demo merchant whose code an operator replaced is listed with merchantCode null (its owner still shown)', async () => {
    const m = demoMerchants[1]!;
    await t.db.db.updateTable('merchant').set({ code_hash: await hashMerchantCode('REAL9999') }).where('id', '=', m.id).execute();
    const list = (await get('/api/sandbox/merchants')).json() as { id: string; merchantCode: string | null; ownerNumber: string }[];
    expect(list).toHaveLength(demoMerchants.length);
    expect(list.find((x) => x.id === m.id)).toMatchObject({ merchantCode: null, ownerNumber: demoOwnerNumber(m) });
  });
});

describe('the sandbox merchant list when the sandbox is off', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { SANDBOX: 'off', SMS_PROVIDER: '46elks', ELKS_USERNAME: 'u', ELKS_PASSWORD: 'p', ...(await swishTestEnv()) } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers 404, while the public catalogue still answers', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/sandbox/merchants' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/merchant' })).statusCode).toBe(200);
  });
});

describe('seeding', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('does nothing when merchants exist, and seeds the whole demo catalogue into an empty one', async () => {
    const { seedMerchants } = await import('../../../server/merchant/seed.ts');
    const count = async () => (await sql<{ n: number }>`SELECT count(*)::int AS n FROM merchant`.execute(t.db.db)).rows[0]!.n;
    await seedMerchants(t.db.db);
    expect(await count()).toBe(demoMerchants.length);
    // The demo Code products' pools of codes (migration 009) go first: they name their products.
    await sql`DELETE FROM product_code`.execute(t.db.db);
    await sql`DELETE FROM code_pool`.execute(t.db.db);
    await sql`DELETE FROM product`.execute(t.db.db);
    await sql`DELETE FROM merchant`.execute(t.db.db);
    await seedMerchants(t.db.db);
    expect(await count()).toBe(demoMerchants.length);
    const products = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM product`.execute(t.db.db)).rows[0]!.n;
    expect(products).toBe(demoMerchants.reduce((n, m) => n + m.products.length, 0));
  });
});
