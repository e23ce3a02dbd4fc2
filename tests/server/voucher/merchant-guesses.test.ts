import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../server/app.ts';
import { connect, type DatabaseHandle } from '../../../server/db/index.ts';
import { isKnownMerchantCode } from '../../../server/merchant/code.ts';
import { testConfig } from '../helpers.ts';
import { call, greetieTestApp, person, type Person } from '../greetie/support.ts';
import { MERCHANT_CODE, OTHER_MERCHANT_CODE, deliver, paidGreetie, voucherCatalogue, voucherIds, voucherTable, type VoucherCatalogue } from './support.ts';

/**
 * Wrong merchant codes per person (API.md, Voucher; decision 023): besides 5 wrong merchant codes per voucher, a
 * person gets at most 10 wrong codes at one merchant within 15 minutes, over all the vouchers of
 * that merchant they hold; then every code there is 429 with Retry-After, the right one too (known
 * to the process or not), while other merchants are not affected. Exact when the guesses arrive at
 * once through two processes (two apps with their own pools on one database).
 */

type T = Awaited<ReturnType<typeof greetieTestApp>>;
let t: T;
let second: DatabaseHandle;
let b: FastifyInstance;
let shop: VoucherCatalogue;
let owner: Person;

beforeAll(async () => {
  t = await greetieTestApp();
  second = connect(t.db.url, { max: 5 });
  b = await buildApp(testConfig(), { db: second.db, services: { now: t.clock.now } });
  await b.ready();
  shop = await voucherCatalogue(t.db.db);
  owner = await person(t.app);
});
afterAll(async () => {
  await b.close();
  await second.close();
  await t.close();
});

async function ownersVouchers(...products: string[]): Promise<string[]> {
  const g = await paidGreetie(t.app, await person(t.app), owner.mobileNumber, products);
  await deliver(t.app, g.id);
  return voucherIds(t.db.db, g.id);
}

const redeem = (app: FastifyInstance, voucherId: string, merchantCode: string) => call(app, owner, 'POST', '/api/voucher/redeem', { voucherId, merchantCode });

const wrongAtMerchant = async (merchantId: string) => {
  const { rows } = await sql<{ n: string }>`
    SELECT count(*) AS n FROM redeem_attempt a JOIN mobile_user u ON u.id = a.user_id
    WHERE u.mobile_number = ${owner.mobileNumber} AND a.merchant_id = ${merchantId} AND a.outcome = 'wrongCode'`.execute(t.db.db);
  return Number(rows[0]!.n);
};

describe('POST /api/voucher/redeem: 10 wrong codes per person per merchant', () => {
  it('of 12 wrong codes at once over 3 vouchers (4 each, under the per-voucher 5), exactly 10 are checked; then every code there is 429 until the window passes', async () => {
    const [warm, g1, g2, g3, right] = await ownersVouchers(shop.inStore, shop.inStore, shop.inStore, shop.inStore, shop.inStore);
    const [elsewhere] = await ownersVouchers(shop.otherInStore);
    // Both processes come to know the right code (the short way of decision 034 is then open).
    expect((await redeem(t.app, warm!, MERCHANT_CODE)).statusCode).toBe(200);
    expect(isKnownMerchantCode(MERCHANT_CODE, (await sql<{ h: string }>`SELECT code_hash AS h FROM merchant WHERE id = ${shop.merchantId}`.execute(t.db.db)).rows[0]!.h)).toBe(true);

    const before = await voucherTable(t.db.db);
    const guesses = [g1!, g2!, g3!].flatMap((id, v) => Array.from({ length: 4 }, (_, i) => ({ id, code: `GISSA${v}${i}` })));
    const answers = await Promise.all(guesses.map((g, i) => redeem(i % 2 === 0 ? t.app : b, g.id, g.code)));
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 400)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(2);
    for (const a of answers.filter((x) => x.statusCode === 429)) {
      expect(a.json()).toMatchObject({ code: 'VOUCHER_LOCKED' });
      expect(a.headers['retry-after']).toBe('900');
    }
    const left = answers.filter((x) => x.statusCode === 400).map((x) => (x.json() as { details: { attemptsLeft: number } }).details.attemptsLeft);
    expect(Math.min(...left)).toBe(0);
    expect(await wrongAtMerchant(shop.merchantId)).toBe(10);
    expect(await voucherTable(t.db.db)).toBe(before);

    // The right code, known to both processes, at a voucher with no wrong code of its own: 429.
    for (const app of [t.app, b]) {
      const refused = await redeem(app, right!, MERCHANT_CODE);
      expect(refused.statusCode, refused.body).toBe(429);
      expect(refused.headers['retry-after']).toBe('900');
    }
    // Another merchant's voucher is not held by this one's limit.
    expect((await redeem(b, elsewhere!, OTHER_MERCHANT_CODE)).statusCode).toBe(200);

    t.clock.advance(10 * 60_000);
    expect((await redeem(t.app, right!, MERCHANT_CODE)).headers['retry-after']).toBe('300');
    t.clock.advance(5 * 60_000);
    // The access token has expired meanwhile (15 minutes): the owner signs in again.
    owner = await person(t.app, owner.mobileNumber);
    const open = await redeem(b, right!, MERCHANT_CODE);
    expect(open.statusCode, open.body).toBe(200);
  });

  it('a wrong code answers how many tries are left at the merchant when that is fewer than at the voucher', async () => {
    t.clock.advance(15 * 60_000);
    owner = await person(t.app, owner.mobileNumber);
    const [v1, v2, v3] = await ownersVouchers(shop.inStore, shop.inStore, shop.inStore);
    for (let i = 0; i < 4; i++) expect((await redeem(t.app, v1!, `FEL1${i}`)).json()).toMatchObject({ details: { attemptsLeft: 4 - i } });
    for (let i = 0; i < 4; i++) expect((await redeem(b, v2!, `FEL2${i}`)).json()).toMatchObject({ details: { attemptsLeft: 4 - i } });
    // 8 at the merchant: the voucher allows 5, the merchant 2 more.
    expect((await redeem(t.app, v3!, 'FEL30')).json()).toMatchObject({ details: { attemptsLeft: 1 } });
    expect((await redeem(b, v3!, 'FEL31')).json()).toMatchObject({ details: { attemptsLeft: 0 } });
    expect((await redeem(t.app, v3!, 'FEL32')).statusCode).toBe(429);
  });
});
