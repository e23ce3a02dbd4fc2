import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { redemptionPage } from '../../../server/portal/queries.ts';
import { call, person, type Person, type greetieTestApp } from '../greetie/support.ts';
import { deliver, paidGreetie, voucherIds, type VoucherCatalogue } from '../voucher/support.ts';
import { portalFixture } from '../helpers.ts';

/**
 * The summary and a page of redemptions are one statement each, the sign-in check and the role
 * folded in, and the page's JSON is written by PostgreSQL (decision 144). What must not change:
 * - a deleted account's token is refused at once (401 INVALID_TOKEN), also where the query string
 *   is wrong too (the user check comes first, as with `app.authenticate`);
 * - a removed staff link is refused at once (404 MERCHANT_NOT_FOUND);
 * - the page is the answer node wrote before: each item as `toISOString()` and fast-json-stringify
 *   made it from the rows (milliseconds truncated; names with quotes, back slashes, tabs, emoji),
 *   the same order, the same `Link` to the next page, every redemption once over all pages.
 */

type T = Awaited<ReturnType<typeof greetieTestApp>>;
let t: T;
let shop: VoucherCatalogue;
let owner: Person;
let staff: Person;

beforeAll(async () => {
  ({ t, shop, owner, staff } = await portalFixture());
  const customer = await person(t.app);
  const sender = await person(t.app);
  const g = await paidGreetie(t.app, sender, customer.mobileNumber, [shop.inStore, { productId: shop.valueInStore, amount: 50000 }]);
  await deliver(t.app, g.id);
  const [a, b] = await voucherIds(t.db.db, g.id);
  await sql`UPDATE product SET name = ${'Fika "för" två\\ \t åäö 🎁'} WHERE id = ${shop.inStore}`.execute(t.db.db);
  // 130 redemptions, microseconds that round up and down (…999, …500, …001), one in 7 undone.
  await sql`
    INSERT INTO voucher_redemption (voucher_id, merchant_id, amount, via, redeemed_at, undone_at)
    SELECT CASE WHEN n % 2 = 0 THEN ${a}::uuid ELSE ${b}::uuid END, ${shop.merchantId}::uuid, n, CASE WHEN n % 3 = 0 THEN 'qr' ELSE 'code' END,
           timestamptz '2026-11-26 12:00:00+00' - (n || ' minutes')::interval + ((ARRAY[999, 500, 1, 123999])[1 + n % 4] || ' microseconds')::interval,
           CASE WHEN n % 7 = 0 THEN timestamptz '2026-11-26 12:00:00+00' END
      FROM generate_series(1, 130) AS n`.execute(t.db.db);
  // Two at the same moment: the keyset's id decides.
  await sql`
    INSERT INTO voucher_redemption (voucher_id, merchant_id, amount, via, redeemed_at)
    SELECT ${a}::uuid, ${shop.merchantId}::uuid, 7, 'code', timestamptz '2026-11-20 08:00:00.000001+00' FROM generate_series(1, 2)`.execute(t.db.db);
});
afterAll(async () => {
  await t.close();
});

const base = () => `/api/portal/merchants/${shop.merchantId}`;

/** The answer as node made it before decision 144: the rows mapped, then serialized. */
async function before(period: { from: string | null; to: string | null }, limit: number) {
  const all: unknown[] = [];
  let after: { at: string; id: string } | undefined;
  const pages: string[] = [];
  for (;;) {
    const rows = await redemptionPage(t.db.db, shop.merchantId, period, after, limit + 1);
    const page = rows.slice(0, limit).map((r) => ({
      id: r.id,
      voucherId: r.voucher_id,
      productName: r.product_name,
      amount: r.amount,
      redeemedAt: r.redeemed_at.toISOString(),
      via: r.via,
      undone: r.undone,
    }));
    all.push(...page);
    pages.push(JSON.stringify(page));
    if (rows.length <= limit) return { pages, all };
    after = { at: rows[limit - 1]!.at, id: rows[limit - 1]!.id };
  }
}

describe('the page PostgreSQL writes is the page node wrote', () => {
  for (const [name, query, period, limit] of [
    ['the first pages', '', { from: null, to: null }, 50],
    ['a chosen limit', 'limit=7', { from: null, to: null }, 7],
    ['a period', 'from=2026-11-26&to=2026-11-27', { from: '2026-11-26', to: '2026-11-27' }, 50],
  ] as const) {
    it(`${name}: the same bytes, page by page, by the Link header to the end`, async () => {
      const expected = await before(period, limit);
      const got: string[] = [];
      let url: string | null = `${base()}/redemptions${query ? `?${query}` : ''}`;
      while (url) {
        const res = await call(t.app, owner, 'GET', url);
        expect(res.statusCode, res.body).toBe(200);
        expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
        // Sent as bytes (decision 155): the length is the bytes', with å and an emoji among them.
        expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.body));
        got.push(res.body);
        const link = /^<\/api(\/portal\/[^>]+)>; rel="next"$/.exec(String(res.headers.link ?? ''));
        url = link ? `/api${link[1]!}` : null;
      }
      expect(got).toEqual(expected.pages);
      expect(expected.all.length).toBeGreaterThan(0);
    });
  }

  it('an empty page is []', async () => {
    const res = await call(t.app, staff, 'GET', `${base()}/redemptions?from=2020-01-01&to=2020-01-02`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('[]');
    expect(res.headers.link).toBeUndefined();
  });
});

describe('refused at once, with the same codes', () => {
  it('a removed staff link: 404 MERCHANT_NOT_FOUND on the summary and the page at the next request', async () => {
    const temp = await person(t.app);
    const { addStaff, removeStaff } = await import('../../../server/portal/rules.ts');
    await addStaff(t.db.db, shop.merchantId, temp.mobileNumber, 'staff');
    for (const path of ['/summary', '/redemptions']) expect((await call(t.app, temp, 'GET', base() + path)).statusCode, path).toBe(200);
    await removeStaff(t.db.db, shop.merchantId, temp.mobileNumber);
    for (const path of ['/summary', '/redemptions', '/summary?from=2026-01-01', '/redemptions?limit=3']) {
      const res = await call(t.app, temp, 'GET', base() + path);
      expect(res.statusCode, path).toBe(404);
      expect(res.json(), path).toMatchObject({ code: 'MERCHANT_NOT_FOUND' });
    }
  });

  it("a deleted account's token: 401 INVALID_TOKEN on the summary and the page, before a bad period or cursor", async () => {
    const temp = await person(t.app);
    const { addStaff } = await import('../../../server/portal/rules.ts');
    await addStaff(t.db.db, shop.merchantId, temp.mobileNumber, 'owner');
    expect((await call(t.app, temp, 'GET', `${base()}/summary?from=2026-11-20&to=2026-11-01`)).statusCode).toBe(400);
    expect((await call(t.app, temp, 'DELETE', '/api/mobileuser/remove')).statusCode).toBe(204);
    for (const path of ['/summary', '/redemptions', '/summary?from=2026-01-01', '/redemptions?limit=3', '/summary?from=2026-11-20&to=2026-11-01', '/redemptions?cursor=bm90LWEtY3Vyc29y']) {
      const res = await call(t.app, temp, 'GET', base() + path);
      expect(res.statusCode, path).toBe(401);
      expect(res.json(), path).toMatchObject({ code: 'INVALID_TOKEN' });
    }
  });

  it('no token, or a bad one: 401 as before, without a statement', async () => {
    for (const path of ['/summary', '/redemptions']) {
      expect((await call(t.app, undefined, 'GET', base() + path)).json()).toMatchObject({ code: 'UNAUTHORIZED' });
      const res = await call(t.app, { mobileNumber: '', auth: { authorization: 'Bearer nope.nope.nope' } } as Person, 'GET', base() + path);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'INVALID_TOKEN' });
    }
  });
});
