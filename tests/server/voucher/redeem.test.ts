import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { Value } from 'typebox/value';
import { Voucher } from '../../../contract/voucher.ts';
import { isKnownMerchantCode } from '../../../server/merchant/code.ts';
import { setMerchantCode } from '../../../server/merchant/admin.ts';
import { call, greetieTestApp, person, type Person } from '../greetie/support.ts';
import {
  MERCHANT_CODE,
  OTHER_MERCHANT_CODE,
  attempts,
  deliver,
  paidGreetie,
  voucherCatalogue,
  voucherIds,
  voucherTable,
  type VoucherCatalogue,
} from './support.ts';

/**
 * Redeeming at the till on real PostgreSQL: exactly once under concurrency, the
 * merchant's own code only, at most 5 wrong codes checked per voucher in 15 minutes, and every
 * attempt recorded for the merchant.
 */

type T = Awaited<ReturnType<typeof greetieTestApp>>;
let t: T;
let shop: VoucherCatalogue;
let sender: Person;
let owner: Person;
let stranger: Person;

beforeAll(async () => {
  t = await greetieTestApp();
  shop = await voucherCatalogue(t.db.db);
  sender = await person(t.app);
  owner = await person(t.app);
  stranger = await person(t.app);
});
afterAll(async () => {
  await t.close();
});

/**
 * A delivered greetie to the owner with one voucher per product; its voucher ids. Each from a
 * sender of its own (a sender may send only so many greeties to one number a day).
 */
async function ownersVouchers(...products: string[]): Promise<string[]> {
  sender = await person(t.app);
  const g = await paidGreetie(t.app, sender, owner.mobileNumber, products.length ? products : [shop.inStore]);
  await deliver(t.app, g.id);
  return voucherIds(t.db.db, g.id);
}

const redeem = (who: Person | undefined, voucherId: string, merchantCode: string) =>
  call(t.app, who, 'POST', '/api/voucher/redeem', { voucherId, merchantCode });

async function codeHash(merchantId: string): Promise<string> {
  const { rows } = await sql<{ code_hash: string }>`SELECT code_hash FROM merchant WHERE id = ${merchantId}`.execute(t.db.db);
  return rows[0]!.code_hash;
}

function countBy(statuses: number[]): Record<number, number> {
  const out: Record<number, number> = {};
  for (const s of statuses) out[s] = (out[s] ?? 0) + 1;
  return out;
}

describe('POST /api/voucher/redeem', () => {
  it("the merchant's code redeems the voucher: the answer is the updated Voucher, the attempt is recorded", async () => {
    const [id] = await ownersVouchers();
    const res = await redeem(owner, id!, MERCHANT_CODE);
    expect(res.statusCode, res.body).toBe(200);
    const v = res.json() as Voucher;
    expect(Value.Check(Voucher, v), res.body).toBe(true);
    expect(v).toMatchObject({ id, isRedeemed: true, redeemedAt: t.clock.now().toISOString(), source: 'InStore', amount: 14900 });
    // Where to use it, as GET says: this test merchant has no address or hours.
    expect(v.merchant).toEqual({ id: shop.merchantId, name: 'Kafé Inlösen', logoUrl: '/merchants/x.svg', address: null, openingHours: null });
    const rows = await attempts(t.db.db, id!);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ outcome: 'redeemed', ok: true, merchant_id: shop.merchantId });
    expect(rows[0]!.user_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('case and surrounding spaces do not matter to the till', async () => {
    const [id] = await ownersVouchers();
    const res = await redeem(owner, id!, `  ${MERCHANT_CODE.toLowerCase()} `);
    expect(res.statusCode, res.body).toBe(200);
  });

  it('200 at once with the right code: exactly one 200 and 199 409, redeemed once', async () => {
    const [id] = await ownersVouchers();
    const answers = await Promise.all(Array.from({ length: 200 }, () => redeem(owner, id!, MERCHANT_CODE)));
    expect(countBy(answers.map((a) => a.statusCode))).toEqual({ 200: 1, 409: 199 });
    const conflicts = answers.filter((a) => a.statusCode === 409).map((a) => (a.json() as { code: string }).code);
    expect(new Set(conflicts)).toEqual(new Set(['VOUCHER_ALREADY_REDEEMED']));
    const rows = await attempts(t.db.db, id!);
    expect(rows.filter((r) => r.outcome === 'redeemed')).toHaveLength(1);
    expect(rows.filter((r) => r.outcome === 'alreadyRedeemed')).toHaveLength(199);
    const { rows: v } = await sql<{ is_redeemed: boolean }>`SELECT is_redeemed FROM voucher WHERE id = ${id!}`.execute(t.db.db);
    expect(v[0]!.is_redeemed).toBe(true);
  });

  it('200 wrong codes at once: 5 are checked (400), every other one is 429 with Retry-After; then the right code is 429 too, until the window passes', async () => {
    const [id] = await ownersVouchers();
    const before = await voucherTable(t.db.db);
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => redeem(owner, id!, `WRONG${i}`)));
    expect(countBy(answers.map((a) => a.statusCode))).toEqual({ 400: 5, 429: 195 });
    const wrong = answers.filter((a) => a.statusCode === 400).map((a) => a.json() as { code: string; details: { attemptsLeft: number } });
    expect(wrong.every((w) => w.code === 'MERCHANT_CODE_WRONG')).toBe(true);
    expect(wrong.map((w) => w.details.attemptsLeft).sort()).toEqual([0, 1, 2, 3, 4]);
    for (const a of answers.filter((x) => x.statusCode === 429)) {
      expect((a.json() as { code: string }).code).toBe('VOUCHER_LOCKED');
      expect(a.headers['retry-after']).toBe('900');
    }
    const rows = await attempts(t.db.db, id!);
    expect(rows.filter((r) => r.outcome === 'wrongCode')).toHaveLength(5);
    expect(rows.filter((r) => r.outcome === 'locked')).toHaveLength(195);
    expect(await voucherTable(t.db.db)).toBe(before);

    // Locked means every code: otherwise the lock would still answer guesses.
    const right = await redeem(owner, id!, MERCHANT_CODE);
    expect(right.statusCode).toBe(429);
    t.clock.advance(10 * 60_000);
    const later = await redeem(owner, id!, MERCHANT_CODE);
    expect(later.statusCode).toBe(429);
    expect(later.headers['retry-after']).toBe('300');
    expect(later.json()).toMatchObject({ message: 'För många felaktiga handlarkoder. Presentkortet är låst i 5 min.' });
    t.clock.advance(5 * 60_000);
    // The access token has expired meanwhile (15 minutes): the owner signs in again.
    const again = await person(t.app, owner.mobileNumber);
    const open = await redeem(again, id!, MERCHANT_CODE);
    expect(open.statusCode, open.body).toBe(200);
    owner = again;
  });

  it("another merchant's code is wrong (400, changes nothing but the attempt); English on request", async () => {
    const [id] = await ownersVouchers();
    const before = await voucherTable(t.db.db);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/voucher/redeem',
      headers: { ...owner.auth, 'accept-language': 'en' },
      payload: { voucherId: id, merchantCode: OTHER_MERCHANT_CODE },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'MERCHANT_CODE_WRONG', message: 'The merchant code is not right. Check it and try again.', details: { attemptsLeft: 4 } });
    expect(await voucherTable(t.db.db)).toBe(before);
    expect((await attempts(t.db.db, id!)).map((r) => r.outcome)).toEqual(['wrongCode']);
    // The right one still works after fewer than 5 wrong.
    expect((await redeem(owner, id!, MERCHANT_CODE)).statusCode).toBe(200);
  });

  it('an empty code is 400 MERCHANT_CODE_REQUIRED, checks nothing and records nothing', async () => {
    const [id] = await ownersVouchers();
    for (const code of ['', '   ']) {
      const res = await redeem(owner, id!, code);
      expect(res.statusCode).toBe(400);
      expect((res.json() as { code: string }).code).toBe('MERCHANT_CODE_REQUIRED');
    }
    expect(await attempts(t.db.db, id!)).toEqual([]);
    const missing = await call(t.app, owner, 'POST', '/api/voucher/redeem', { voucherId: id });
    expect(missing.statusCode).toBe(400);
    const tooLong = await redeem(owner, id!, 'A'.repeat(65));
    expect(tooLong.statusCode).toBe(400);
    const badId = await redeem(owner, 'not-a-uuid', MERCHANT_CODE);
    expect(badId.statusCode).toBe(400);
  });

  it('an expired voucher is 410, even with the right code, and stays unredeemed', async () => {
    const [id] = await ownersVouchers();
    await sql`UPDATE voucher SET expires_at = ${new Date(t.clock.now().getTime() - 1000)} WHERE id = ${id!}`.execute(t.db.db);
    const res = await redeem(owner, id!, MERCHANT_CODE);
    expect(res.statusCode).toBe(410);
    expect((res.json() as { code: string }).code).toBe('VOUCHER_EXPIRED');
    const { rows } = await sql<{ is_redeemed: boolean }>`SELECT is_redeemed FROM voucher WHERE id = ${id!}`.execute(t.db.db);
    expect(rows[0]!.is_redeemed).toBe(false);
    expect((await attempts(t.db.db, id!)).map((r) => r.outcome)).toEqual(['expired']);
  });

  it("another user's voucher is 404 (as one that does not exist), a visitor 401; nothing changes, nothing recorded", async () => {
    const [id] = await ownersVouchers();
    stranger = await person(t.app, stranger.mobileNumber); // signed in afresh: an earlier test moved the clock
    const before = await voucherTable(t.db.db);
    const other = await redeem(stranger, id!, MERCHANT_CODE);
    expect(other.statusCode).toBe(404);
    expect((other.json() as { code: string }).code).toBe('VOUCHER_NOT_FOUND');
    // The sender gave it, but it is not theirs to redeem.
    expect((await redeem(sender, id!, MERCHANT_CODE)).statusCode).toBe(404);
    expect((await redeem(owner, '00000000-0000-4000-8000-000000000000', MERCHANT_CODE)).statusCode).toBe(404);
    expect((await redeem(undefined, id!, MERCHANT_CODE)).statusCode).toBe(401);
    expect(await voucherTable(t.db.db)).toBe(before);
    expect(await attempts(t.db.db, id!)).toEqual([]);
  });

  it('a code this process already knows to be right still meets the lock, and a replaced code is no longer right', async () => {
    const [warm, locked, later] = await ownersVouchers(shop.inStore, shop.inStore, shop.inStore);
    // The first redeem checks the code with scrypt; from then on this process knows it.
    expect((await redeem(owner, warm!, MERCHANT_CODE)).statusCode).toBe(200);
    expect(isKnownMerchantCode(MERCHANT_CODE, await codeHash(shop.merchantId))).toBe(true);
    for (let i = 0; i < 5; i++) expect((await redeem(owner, locked!, `WRONG${i}`)).statusCode).toBe(400);
    const refused = await redeem(owner, locked!, MERCHANT_CODE);
    expect(refused.statusCode).toBe(429);
    expect((await attempts(t.db.db, locked!)).map((r) => r.outcome)).toEqual([...Array(5).fill('wrongCode'), 'locked']);

    // The operator replaces the code: the one remembered is wrong now, the new one is right.
    await setMerchantCode(t.db.db, shop.merchantId, 'NYKOD999');
    const old = await redeem(owner, later!, MERCHANT_CODE);
    expect(old.statusCode).toBe(400);
    expect((old.json() as { code: string }).code).toBe('MERCHANT_CODE_WRONG');
    expect((await redeem(owner, later!, 'nykod999')).statusCode).toBe(200);
    await setMerchantCode(t.db.db, shop.merchantId, MERCHANT_CODE);
  });

  it("a code known right at one merchant is a wrong code at another's voucher, and a known code redeems nobody else's voucher", async () => {
    // A new window: the owner's wrong codes at this merchant in the tests above would otherwise
    // count against the 10 per person per merchant (tests/server/voucher/merchant-guesses.test.ts).
    t.clock.advance(15 * 60_000);
    owner = await person(t.app, owner.mobileNumber);
    const [otherShops, ours] = await ownersVouchers(shop.otherInStore, shop.inStore);
    // The other merchant's code becomes known to this process (its hash only).
    expect((await redeem(owner, otherShops!, OTHER_MERCHANT_CODE)).statusCode).toBe(200);
    expect(isKnownMerchantCode(OTHER_MERCHANT_CODE, await codeHash(shop.otherMerchantId))).toBe(true);
    const wrong = await redeem(owner, ours!, OTHER_MERCHANT_CODE);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 'MERCHANT_CODE_WRONG', details: { attemptsLeft: 4 } });
    expect((await attempts(t.db.db, ours!)).map((r) => r.outcome)).toEqual(['wrongCode']);

    // The right, known code, typed for a voucher that is not the caller's: 404, nothing changes.
    expect((await redeem(owner, ours!, MERCHANT_CODE)).statusCode).toBe(200);
    expect(isKnownMerchantCode(MERCHANT_CODE, await codeHash(shop.merchantId))).toBe(true);
    const [notTheirs] = await ownersVouchers(shop.inStore);
    stranger = await person(t.app, stranger.mobileNumber);
    const before = await voucherTable(t.db.db);
    expect((await redeem(stranger, notTheirs!, MERCHANT_CODE)).statusCode).toBe(404);
    expect(await voucherTable(t.db.db)).toBe(before);
    expect(await attempts(t.db.db, notTheirs!)).toEqual([]);
  });

  it("a scheduled greetie's vouchers are not yet the recipient's: 404", async () => {
    const g = await paidGreetie(t.app, await person(t.app), owner.mobileNumber, [shop.inStore]);
    const [id] = await voucherIds(t.db.db, g.id);
    expect((await redeem(owner, id!, MERCHANT_CODE)).statusCode).toBe(404);
  });
});

describe('POST /api/voucher/redeemed', () => {
  const markUsed = (who: Person | undefined, id: string) => call(t.app, who, 'POST', `/api/voucher/redeemed?id=${id}`);

  it('marks a Charity voucher used once (then 409); an InStore one needs the merchant code (409)', async () => {
    const [inStore, charity] = await ownersVouchers(shop.inStore, shop.charity);
    const first = await markUsed(owner, charity!);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ id: charity, source: 'Charity', isRedeemed: true, redeemedAt: t.clock.now().toISOString() });
    const again = await markUsed(owner, charity!);
    expect(again.statusCode).toBe(409);
    expect((again.json() as { code: string }).code).toBe('VOUCHER_ALREADY_REDEEMED');
    const till = await markUsed(owner, inStore!);
    expect(till.statusCode).toBe(409);
    expect((till.json() as { code: string }).code).toBe('VOUCHER_NEEDS_MERCHANT_CODE');
  });

  it('marks a Code voucher used; 20 at once: one 200, the rest 409', async () => {
    const [id] = await ownersVouchers(shop.code);
    const answers = await Promise.all(Array.from({ length: 20 }, () => markUsed(owner, id!)));
    expect(countBy(answers.map((a) => a.statusCode))).toEqual({ 200: 1, 409: 19 });
  });

  it("expired 410; another user's 404; a visitor 401; a bad id 400", async () => {
    const [id] = await ownersVouchers(shop.charity);
    stranger = await person(t.app, stranger.mobileNumber);
    expect((await markUsed(stranger, id!)).statusCode).toBe(404);
    expect((await markUsed(undefined, id!)).statusCode).toBe(401);
    expect((await markUsed(owner, 'nope')).statusCode).toBe(400);
    await sql`UPDATE voucher SET expires_at = ${new Date(t.clock.now().getTime() - 1)} WHERE id = ${id!}`.execute(t.db.db);
    expect((await markUsed(owner, id!)).statusCode).toBe(410);
  });
});
