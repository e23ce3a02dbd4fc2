import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { Value } from 'typebox/value';
import type { Greetie } from '../../../contract/greetie.ts';
import { Voucher } from '../../../contract/voucher.ts';
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
 * Undoing a redemption at the till within 10 minutes, once, with the merchant's code under its
 * limits; and giving an unused in-store voucher to a charity instead, once. Real PostgreSQL, the
 * services clock.
 */

type T = Awaited<ReturnType<typeof greetieTestApp>>;
let t: T;
let shop: VoucherCatalogue;
let owner: Person;
let stranger: Person;

beforeAll(async () => {
  t = await greetieTestApp();
  shop = await voucherCatalogue(t.db.db);
  owner = await person(t.app);
  stranger = await person(t.app);
});
afterAll(async () => {
  await t.close();
});

/** Moves the services clock on; the owner and the stranger sign in again (an access token lasts 15 minutes). */
async function later(ms: number): Promise<void> {
  t.clock.advance(ms);
  owner = await person(t.app, owner.mobileNumber);
  stranger = await person(t.app, stranger.mobileNumber);
}

async function ownersGreetie(...gifts: (string | { productId: string; amount: number })[]): Promise<{ greetie: Greetie; sender: Person; ids: string[] }> {
  const sender = await person(t.app);
  const greetie = await paidGreetie(t.app, sender, owner.mobileNumber, gifts);
  await deliver(t.app, greetie.id);
  return { greetie, sender, ids: await voucherIds(t.db.db, greetie.id) };
}
const ownersVouchers = async (...gifts: (string | { productId: string; amount: number })[]) => (await ownersGreetie(...gifts)).ids;
const valueVoucher = async () => (await ownersVouchers({ productId: shop.valueInStore, amount: 100000 }))[0]!;

const redeem = (voucherId: string, amount?: number) =>
  call(t.app, owner, 'POST', '/api/voucher/redeem', { voucherId, merchantCode: MERCHANT_CODE, ...(amount === undefined ? {} : { amount }) });
const undo = (voucherId: string, redemptionId: string, merchantCode = MERCHANT_CODE, who: Person = owner) =>
  call(t.app, who, 'POST', `/api/voucher/${voucherId}/redemptions/${redemptionId}/undo`, { merchantCode });
const donate = (voucherId: string, productId: string, who: Person = owner) => call(t.app, who, 'POST', `/api/voucher/${voucherId}/donate`, { productId });

/** Redeems `amount` and answers the new redemption's id. */
async function redeemed(voucherId: string, amount?: number): Promise<string> {
  const res = await redeem(voucherId, amount);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as Voucher).redemptions.at(-1)!.id;
}

function countBy(xs: (string | number)[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const x of xs) out[x] = (out[x] ?? 0) + 1;
  return out;
}

describe('POST /api/voucher/{id}/redemptions/{redemptionId}/undo', () => {
  it('within 10 minutes the amount goes back, the redemption shows undone; a second undo is 409 ALREADY_UNDONE', async () => {
    const id = await valueVoucher();
    const first = await redeemed(id, 30000);
    const second = await redeemed(id); // the rest: the balance reaches 0
    await later(9 * 60_000 + 59_000);
    const res = await undo(id, second);
    expect(res.statusCode, res.body).toBe(200);
    const v = res.json() as Voucher;
    expect(Value.Check(Voucher, v), res.body).toBe(true);
    expect(v).toMatchObject({ balance: 70000, isRedeemed: false, redeemedAt: null });
    expect(v.redemptions.map((r) => [r.id, r.amount, r.undone])).toEqual([
      [first, 30000, false],
      [second, 70000, true],
    ]);
    const again = await undo(id, second);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'ALREADY_UNDONE' });
    expect((await call(t.app, owner, 'GET', `/api/voucher/${id}`)).json()).toEqual(v);
    // Undone, the voucher can be used again.
    expect((await redeem(id, 70000)).json()).toMatchObject({ balance: 0, isRedeemed: true });
  });

  it('after 10 minutes: 409 UNDO_TOO_LATE, nothing changes (the services clock)', async () => {
    const id = await valueVoucher();
    const r = await redeemed(id, 5000);
    await later(10 * 60_000 + 1000);
    const before = await voucherTable(t.db.db);
    const late = await undo(id, r);
    expect(late.statusCode, late.body).toBe(409);
    expect(late.json()).toMatchObject({ code: 'UNDO_TOO_LATE', message: 'En inlösen kan bara ångras inom 10 minuter.' });
    expect(await voucherTable(t.db.db)).toBe(before);
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM voucher_redemption WHERE id = ${r} AND undone_at IS NULL`.execute(t.db.db);
    expect(rows[0]!.n).toBe(1);
  });

  it('20 undos of one redemption at once: exactly one 200, the rest 409 ALREADY_UNDONE; the amount goes back once', async () => {
    const id = await valueVoucher();
    await redeemed(id, 10000);
    const r = await redeemed(id, 20000);
    const answers = await Promise.all(Array.from({ length: 20 }, () => undo(id, r)));
    expect(countBy(answers.map((a) => a.statusCode))).toEqual({ 200: 1, 409: 19 });
    expect(new Set(answers.filter((a) => a.statusCode === 409).map((a) => (a.json() as { code: string }).code))).toEqual(new Set(['ALREADY_UNDONE']));
    const { rows } = await sql<{ balance: number }>`SELECT balance FROM voucher WHERE id = ${id}`.execute(t.db.db);
    expect(rows[0]!.balance).toBe(90000);
  });

  it("a wrong code is 400 and counts toward the voucher's limit: after 5, 429 even with the right code", async () => {
    const id = await valueVoucher();
    const r = await redeemed(id, 10000);
    const before = await voucherTable(t.db.db);
    const wrong = await undo(id, r, OTHER_MERCHANT_CODE);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 'MERCHANT_CODE_WRONG', details: { attemptsLeft: 4 } });
    for (let i = 0; i < 4; i++) expect((await undo(id, r, `FEL${i}`)).statusCode).toBe(400);
    const locked = await undo(id, r);
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toMatchObject({ code: 'VOUCHER_LOCKED' });
    expect(locked.headers['retry-after']).toBeDefined();
    expect(await voucherTable(t.db.db)).toBe(before);
    expect((await attempts(t.db.db, id)).filter((a) => a.outcome === 'wrongCode')).toHaveLength(5);
    // The till's redeem of the voucher is locked by the same wrong codes.
    expect((await redeem(id, 100)).statusCode).toBe(429);
    await later(15 * 60_000 + 1000);
  });

  it('bad inputs: empty code 400, unknown or another voucher\'s redemption 404, another person 404, a visitor 401, bad ids 400; nothing changes', async () => {
    const [a, b] = await ownersVouchers({ productId: shop.valueInStore, amount: 50000 }, { productId: shop.valueInStore, amount: 50000 });
    const ra = await redeemed(a!, 1000);
    const before = await voucherTable(t.db.db);
    const empty = await undo(a!, ra, '  ');
    expect([empty.statusCode, empty.json().code]).toEqual([400, 'MERCHANT_CODE_REQUIRED']);
    const unknown = await undo(a!, '00000000-0000-4000-8000-000000000000');
    expect([unknown.statusCode, unknown.json().code]).toEqual([404, 'REDEMPTION_NOT_FOUND']);
    const elsewhere = await undo(b!, ra);
    expect([elsewhere.statusCode, elsewhere.json().code]).toEqual([404, 'REDEMPTION_NOT_FOUND']);
    const theirs = await undo(a!, ra, MERCHANT_CODE, stranger);
    expect([theirs.statusCode, theirs.json().code]).toEqual([404, 'VOUCHER_NOT_FOUND']);
    expect((await call(t.app, undefined, 'POST', `/api/voucher/${a!}/redemptions/${ra}/undo`, { merchantCode: MERCHANT_CODE })).statusCode).toBe(401);
    expect((await call(t.app, owner, 'POST', `/api/voucher/${a!}/redemptions/nope/undo`, { merchantCode: MERCHANT_CODE })).statusCode).toBe(400);
    expect((await call(t.app, owner, 'POST', `/api/voucher/${a!}/redemptions/${ra}/undo`, {})).statusCode).toBe(400);
    expect(await voucherTable(t.db.db)).toBe(before);
  });
});

describe('POST /api/voucher/{id}/donate', () => {
  it('an unused InStore voucher becomes a Charity voucher of the same amount in the same greetie; the old one is 404 from then on', async () => {
    const { greetie, sender, ids } = await ownersGreetie(shop.otherInStore, shop.inStore);
    const [keep, give] = ids as [string, string];
    const res = await donate(give, shop.charityRange);
    expect(res.statusCode, res.body).toBe(200);
    const v = res.json() as Voucher;
    expect(Value.Check(Voucher, v), res.body).toBe(true);
    expect(v.id).not.toBe(give);
    expect(v).toMatchObject({
      greetieId: greetie.id,
      source: 'Charity',
      amount: 14900,
      balance: 14900,
      kind: 'value',
      product: { id: shop.charityRange, name: 'Skänk valfritt belopp' },
      merchant: { id: shop.otherMerchantId },
      isRedeemed: false,
      redemptions: [],
    });
    expect(v.expiresAt).not.toBeNull();

    expect((await call(t.app, owner, 'GET', `/api/voucher/${give}`)).statusCode).toBe(404);
    expect((await redeem(give)).statusCode).toBe(404);
    expect((await donate(give, shop.charityRange)).statusCode).toBe(404);
    const mine = ((await call(t.app, owner, 'GET', '/api/voucher')).json() as Voucher[]).map((x) => x.id);
    expect(mine).toContain(v.id);
    expect(mine).toContain(keep);
    expect(mine).not.toContain(give);
    // The greetie shows the charity voucher in the gift's place, to the sender too (without a code).
    const seen = ((await call(t.app, sender, 'GET', `/api/greetie/${greetie.id}/vouchers`)).json() as Voucher[]).map((x) => x.id);
    expect(seen).toEqual([keep, v.id]);
    // Marked used as a Charity voucher is.
    expect((await call(t.app, owner, 'POST', `/api/voucher/redeemed?id=${v.id}`)).json()).toMatchObject({ balance: 0, isRedeemed: true });
  });

  it('20 at once: exactly one 200 (one Charity voucher), the rest 404', async () => {
    const [give] = await ownersVouchers(shop.inStore);
    const answers = await Promise.all(Array.from({ length: 20 }, () => donate(give!, shop.charityRange)));
    expect(countBy(answers.map((a) => a.statusCode))).toEqual({ 200: 1, 404: 19 });
    const { rows } = await sql<{ source: string; donated: boolean }>`
      SELECT source, donated_at IS NOT NULL AS donated FROM voucher
       WHERE greetie_id = (SELECT greetie_id FROM voucher WHERE id = ${give!}) ORDER BY source`.execute(t.db.db);
    expect(rows).toEqual([
      { source: 'Charity', donated: false },
      { source: 'InStore', donated: true },
    ]);
  });

  it('the rules: used 409, expired 409, not InStore 409, a charity that cannot take the amount 400, not a charity 400, unknown product 404, another person 404; nothing changes', async () => {
    const [used, fixed, code] = await ownersVouchers({ productId: shop.valueInStore, amount: 20000 }, shop.inStore, shop.code);
    await redeemed(used!, 100);
    const before = await voucherTable(t.db.db);
    const cases: [string, string, Person, number, string][] = [
      [used!, shop.charityRange, owner, 409, 'DONATION_VOUCHER_USED'],
      [code!, shop.charityRange, owner, 409, 'DONATION_NOT_IN_STORE'],
      [fixed!, shop.charity, owner, 400, 'DONATION_AMOUNT_NOT_ACCEPTED'], // fixed 50 kr, the voucher 149 kr
      [fixed!, shop.otherInStore, owner, 400, 'DONATION_PRODUCT_NOT_CHARITY'],
      [fixed!, '00000000-0000-4000-8000-000000000000', owner, 404, 'PRODUCT_NOT_FOUND'],
      [fixed!, shop.charityRange, stranger, 404, 'VOUCHER_NOT_FOUND'],
    ];
    for (const [id, productId, who, status, errorCode] of cases) {
      const res = await donate(id, productId, who);
      expect([res.statusCode, res.json().code], errorCode).toEqual([status, errorCode]);
    }
    expect((await call(t.app, owner, 'POST', `/api/voucher/${fixed!}/donate`, { productId: 'nej' })).statusCode).toBe(400);
    expect((await call(t.app, owner, 'POST', `/api/voucher/${fixed!}/donate`, {})).statusCode).toBe(400);
    expect((await call(t.app, undefined, 'POST', `/api/voucher/${fixed!}/donate`, { productId: shop.charityRange })).statusCode).toBe(401);
    expect(await voucherTable(t.db.db)).toBe(before);

    // An undone redemption leaves the voucher unused again: it may be given.
    const [again] = await ownersVouchers({ productId: shop.valueInStore, amount: 20000 });
    const r = await redeemed(again!, 500);
    expect((await undo(again!, r)).statusCode).toBe(200);
    expect((await donate(again!, shop.charityRange)).json()).toMatchObject({ source: 'Charity', amount: 20000 });

    // Expired: a year and a day later.
    await later(366 * 24 * 3600_000);
    const expired = await donate(fixed!, shop.charityRange);
    expect([expired.statusCode, expired.json().code]).toEqual([409, 'DONATION_VOUCHER_EXPIRED']);
  });
});
