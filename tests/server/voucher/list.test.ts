import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { Value } from 'typebox/value';
import { Voucher } from '../../../contract/voucher.ts';
import { addStaff } from '../../../server/portal/rules.ts';
import { call, greetieTestApp, person, type Person } from '../greetie/support.ts';
import { MERCHANT_CODE, codeOf, deliver, paidGreetie, voucherCatalogue, voucherIds, type VoucherCatalogue } from './support.ts';

/**
 * The owner's vouchers on real PostgreSQL: GET /voucher, /voucher/{id},
 * /mobileuser/vouchers and GET /greetie/{id}/vouchers. A voucher is the recipient's once its
 * greetie is delivered, never before; a code goes only to its owner.
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

async function list(who: Person, url = '/api/voucher'): Promise<Voucher[]> {
  const res = await call(t.app, who, 'GET', url);
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json() as Voucher[];
  for (const v of body) expect(Value.Check(Voucher, v), JSON.stringify(v)).toBe(true);
  return body;
}

describe("the owner's vouchers", () => {
  it('only delivered greeties\' vouchers, the usable first; the same list at /mobileuser/vouchers; a Code voucher with its code', async () => {
    const me = await person(t.app);
    const sender = await person(t.app);
    const scheduled = await paidGreetie(t.app, sender, me.mobileNumber, [shop.inStore]);
    expect(await list(me)).toEqual([]);
    const [hiddenId] = await voucherIds(t.db.db, scheduled.id);
    expect((await call(t.app, me, 'GET', `/api/voucher/${hiddenId}`)).statusCode).toBe(404);

    const first = await paidGreetie(t.app, sender, me.mobileNumber, [shop.inStore, shop.charity]);
    const deliveredAt = t.clock.now();
    await deliver(t.app, first.id);
    const [inStore, charity] = await voucherIds(t.db.db, first.id);
    t.clock.advance(1000);
    const second = await paidGreetie(t.app, await person(t.app), me.mobileNumber, [shop.code]);
    await deliver(t.app, second.id);
    const [online] = await voucherIds(t.db.db, second.id);
    const onlineCode = await codeOf(t.db.db, online!);

    // The InStore one redeemed: it goes last.
    expect((await call(t.app, me, 'POST', '/api/voucher/redeem', { voucherId: inStore, merchantCode: MERCHANT_CODE })).statusCode).toBe(200);
    const mine = await list(me);
    expect(mine.map((v) => v.id)).toEqual([online, charity, inStore]);
    expect(mine[0]).toMatchObject({ source: 'Code', code: onlineCode, isRedeemed: false, greetieId: second.id });
    expect(mine[1]!.code).toBeUndefined();
    expect(mine[2]).toMatchObject({ isRedeemed: true, redeemedAt: t.clock.now().toISOString() });
    // The product's 365 valid days, counted from delivery.
    expect(mine[1]!.expiresAt).toBe(new Date(deliveredAt.getTime() + 365 * 24 * 3600_000).toISOString());
    expect(await list(me, '/api/mobileuser/vouchers')).toEqual(mine);

    const one = await call(t.app, me, 'GET', `/api/voucher/${online}`);
    expect(one.json()).toEqual(mine[0]);
    // An expired one goes after the usable ones.
    await sql`UPDATE voucher SET expires_at = ${new Date(t.clock.now().getTime() - 1)} WHERE id = ${online!}`.execute(t.db.db);
    expect((await list(me)).map((v) => v.id)).toEqual([charity, online, inStore]);
  });

  it("another user's voucher is 404, as one that does not exist; a visitor 401; a bad id 400", async () => {
    const g = await paidGreetie(t.app, await person(t.app), owner.mobileNumber, [shop.inStore]);
    await deliver(t.app, g.id);
    const [id] = await voucherIds(t.db.db, g.id);
    expect((await call(t.app, owner, 'GET', `/api/voucher/${id}`)).statusCode).toBe(200);
    const other = await call(t.app, stranger, 'GET', `/api/voucher/${id}`);
    expect(other.statusCode).toBe(404);
    expect((other.json() as { code: string }).code).toBe('VOUCHER_NOT_FOUND');
    expect(await list(stranger)).toEqual([]);
    expect((await call(t.app, undefined, 'GET', `/api/voucher/${id}`)).statusCode).toBe(401);
    expect((await call(t.app, undefined, 'GET', '/api/voucher')).statusCode).toBe(401);
    expect((await call(t.app, owner, 'GET', '/api/voucher/nope')).statusCode).toBe(400);
  });
});

describe('GET /api/greetie/{id}/vouchers', () => {
  it('the sender sees what was given, never a code, before and after delivery; the recipient only once delivered, with the code', async () => {
    const sender = await person(t.app);
    const g = await paidGreetie(t.app, sender, owner.mobileNumber, [shop.code]);
    const [id] = await voucherIds(t.db.db, g.id);
    const secret = await codeOf(t.db.db, id!);

    const before = await call(t.app, sender, 'GET', `/api/greetie/${g.id}/vouchers`);
    expect(before.statusCode, before.body).toBe(200);
    expect(before.json()).toEqual([expect.objectContaining({ id, source: 'Code', expiresAt: null, isRedeemed: false })]);
    expect(before.body).not.toContain(secret);
    expect((await call(t.app, owner, 'GET', `/api/greetie/${g.id}/vouchers`)).statusCode).toBe(404);

    await deliver(t.app, g.id);
    const sent = await call(t.app, sender, 'GET', `/api/greetie/${g.id}/vouchers`);
    expect(sent.body).not.toContain(secret);
    const received = await call(t.app, owner, 'GET', `/api/greetie/${g.id}/vouchers`);
    expect(received.json()).toEqual([expect.objectContaining({ id, code: secret })]);
    // The greetie itself carries them the same way.
    expect((await call(t.app, sender, 'GET', `/api/greetie/${g.id}`)).body).not.toContain(secret);
    const read = await call(t.app, owner, 'GET', `/api/greetie/${g.id}?markAsViewed=false`);
    expect((read.json() as { vouchers: Voucher[] }).vouchers).toEqual([expect.objectContaining({ id, code: secret })]);
    // The sender's list of greeties: no code either.
    const sentList = await call(t.app, sender, 'GET', '/api/greetie');
    expect(sentList.body).not.toContain(secret);

    expect((await call(t.app, stranger, 'GET', `/api/greetie/${g.id}/vouchers`)).statusCode).toBe(404);
    expect((await call(t.app, undefined, 'GET', `/api/greetie/${g.id}/vouchers`)).statusCode).toBe(401);
  });
});

describe('a voucher says what it is and who it is from', () => {
  it("carries the product's description and the sender's name in the lists and GET /voucher/{id}", async () => {
    const me = await person(t.app);
    const sender = await person(t.app, undefined, 'Astrid Lindqvist');
    await sql`UPDATE product SET description = 'Två valfria kaffedrycker och två bakverk.' WHERE id = ${shop.inStore}`.execute(t.db.db);
    const greetie = await paidGreetie(t.app, sender, me.mobileNumber, [shop.inStore]);
    await deliver(t.app, greetie.id);
    const [id] = await voucherIds(t.db.db, greetie.id);
    const one = (await call(t.app, me, 'GET', `/api/voucher/${id}`)).json() as Voucher;
    expect(Value.Check(Voucher, one)).toBe(true);
    expect(one.product.description).toBe('Två valfria kaffedrycker och två bakverk.');
    expect(one.senderName).toBe('Astrid Lindqvist');
    // Where to use it: the merchant's address and opening hours (none set for this test merchant yet).
    expect(one.merchant).toMatchObject({ address: null, openingHours: null });
    await sql`UPDATE merchant SET street = 'Skånegatan 73', postal_code = '116 37', city = 'Stockholm', opening_hours = 'Alla dagar 8–18' WHERE id = ${shop.merchantId}`.execute(t.db.db);
    const placed = (await call(t.app, me, 'GET', `/api/voucher/${id}`)).json() as Voucher;
    expect(placed.merchant).toMatchObject({ address: { street: 'Skånegatan 73', postalCode: '116 37', city: 'Stockholm' }, openingHours: 'Alla dagar 8–18' });
    const [listed] = (await list(me)).filter((v) => v.id === id);
    expect(listed).toMatchObject({ product: { description: 'Två valfria kaffedrycker och två bakverk.' }, senderName: 'Astrid Lindqvist' });
  });

  it("answers a redeem with the same Voucher as GET: by the merchant code (both ways through it) and at the portal's till by the QR", async () => {
    const me = await person(t.app);
    const sender = await person(t.app, undefined, 'Astrid Lindqvist');
    const cashier = await person(t.app);
    await addStaff(t.db.db, shop.merchantId, cashier.mobileNumber, 'staff');
    await sql`UPDATE product SET description = 'Ett presentkort att handla för.' WHERE id = ${shop.valueInStore}`.execute(t.db.db);
    await sql`UPDATE merchant SET street = 'Skånegatan 73', postal_code = '116 37', city = 'Stockholm', opening_hours = 'Alla dagar 8–18' WHERE id = ${shop.merchantId}`.execute(t.db.db);
    const greetie = await paidGreetie(t.app, sender, me.mobileNumber, [{ productId: shop.valueInStore, amount: 50000 }]);
    await deliver(t.app, greetie.id);
    const [id] = await voucherIds(t.db.db, greetie.id);
    const asGet = async () => (await call(t.app, me, 'GET', `/api/voucher/${id}`)).json() as Voucher;

    // The first redeem in this process checks the code (the locked way), the next knows it (decision 034).
    for (const amount of [10000, 5000]) {
      const res = await call(t.app, me, 'POST', '/api/voucher/redeem', { voucherId: id, merchantCode: MERCHANT_CODE, amount });
      expect(res.statusCode, res.body).toBe(200);
      const answer = res.json() as Voucher;
      expect(Value.Check(Voucher, answer), res.body).toBe(true);
      expect(answer).toMatchObject({
        product: { description: 'Ett presentkort att handla för.' },
        senderName: 'Astrid Lindqvist',
        merchant: { address: { street: 'Skånegatan 73', postalCode: '116 37', city: 'Stockholm' }, openingHours: 'Alla dagar 8–18' },
      });
      expect(answer).toEqual(await asGet());
    }

    const qr = await call(t.app, me, 'GET', `/api/voucher/${id}/qr`);
    expect(qr.statusCode, qr.body).toBe(200);
    const till = await call(t.app, cashier, 'POST', `/api/portal/merchants/${shop.merchantId}/redeem`, { token: (qr.json() as { token: string }).token, amount: 2000 });
    expect(till.statusCode, till.body).toBe(200);
    expect(till.json()).toMatchObject({ balance: 33000, senderName: 'Astrid Lindqvist', product: { description: 'Ett presentkort att handla för.' } });
    expect(till.json()).toEqual(await asGet());
  });
});
