import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { Value } from 'typebox/value';
import { TOKEN_MAX_WRONG } from '../../../contract/portal.ts';
import { QR_TOKEN_SECONDS, Voucher, VoucherQr } from '../../../contract/voucher.ts';
import { buildApp, loggerOptions } from '../../../server/app.ts';
import { connect, type DatabaseHandle } from '../../../server/db/index.ts';
import { addStaff } from '../../../server/portal/rules.ts';
import { testConfig } from '../helpers.ts';
import { call, greetieTestApp, person, type Person } from '../greetie/support.ts';
import { MERCHANT_CODE, deliver, paidGreetie, voucherCatalogue, voucherIds, voucherTable, type VoucherCatalogue } from '../voucher/support.ts';

/**
 * The voucher's QR token and the portal's till mode (API.md GET /voucher/{id}/qr, POST
 * /portal/merchants/{id}/scan, /redeem, /redemptions/{redemptionId}/undo; decision 106) on real
 * PostgreSQL: the token's shape and life, one live token per voucher in every process, the scan
 * that redeems nothing, the redeem once of many at once (two apps on one database too), refusals
 * that leave the token usable, another merchant's token 404, the wrong-token limit, the undo at the
 * merchant, and no token in a log line or an error body.
 */

type T = Awaited<ReturnType<typeof greetieTestApp>>;
let t: T;
let second: DatabaseHandle;
let b: FastifyInstance;
let shop: VoucherCatalogue;
let owner: Person;
let staff: Person;
let otherOwner: Person;
let stranger: Person;
let customer: Person;
const logLines: string[] = [];

beforeAll(async () => {
  t = await greetieTestApp();
  // A second process on the same database, logging as production does (redaction included), into memory.
  second = connect(t.db.url, { max: 5 });
  const config = testConfig();
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      logLines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  const logger = { ...(loggerOptions({ ...config, logLevel: 'info' }) as object), stream: sink };
  b = await buildApp(config, { db: second.db, services: { now: t.clock.now }, logger });
  await b.ready();
  shop = await voucherCatalogue(t.db.db);
  owner = await person(t.app);
  staff = await person(t.app);
  otherOwner = await person(t.app);
  stranger = await person(t.app);
  customer = await person(t.app);
  await addStaff(t.db.db, shop.merchantId, owner.mobileNumber, 'owner');
  await addStaff(t.db.db, shop.merchantId, staff.mobileNumber, 'staff');
  await addStaff(t.db.db, shop.otherMerchantId, otherOwner.mobileNumber, 'owner');
});
afterAll(async () => {
  await b.close();
  await second.close();
  await t.close();
});

async function customersVoucher(gift: string | { productId: string; amount: number }, to: Person = customer): Promise<string> {
  const g = await paidGreetie(t.app, await person(t.app), to.mobileNumber, [gift]);
  await deliver(t.app, g.id);
  return (await voucherIds(t.db.db, g.id))[0]!;
}

async function qrOf(voucherId: string, who: Person = customer, app: FastifyInstance = t.app): Promise<VoucherQr> {
  const res = await call(app, who, 'GET', `/api/voucher/${voucherId}/qr`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as VoucherQr;
}

/** Moves the clock and signs everybody in again (access tokens live 15 minutes). */
async function later(ms: number): Promise<void> {
  t.clock.advance(ms);
  const again = (p: Person) => person(t.app, p.mobileNumber);
  [owner, staff, otherOwner, stranger, customer] = [await again(owner), await again(staff), await again(otherOwner), await again(stranger), await again(customer)];
}

const till = (who: Person | undefined, path: string, body: unknown, merchantId = shop.merchantId, app: FastifyInstance = t.app) =>
  call(app, who, 'POST', `/api/portal/merchants/${merchantId}${path}`, body);

/** A token that is none of the live ones (same shape). */
const unknownToken = () => 'ZZZZ' + Math.random().toString(36).slice(2, 8).toUpperCase().replace(/[^A-Z2-9]/g, 'Z').padEnd(6, 'Z');

describe('GET /voucher/{id}/qr', () => {
  it('gives the owner a 10-character token of A–Z and 2–9, valid 120 s, never cached; stored only as a hash', async () => {
    const id = await customersVoucher(shop.inStore);
    const res = await call(t.app, customer, 'GET', `/api/voucher/${id}/qr`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const qr = res.json() as VoucherQr;
    expect(Value.Check(VoucherQr, qr)).toBe(true);
    expect(qr.token).toMatch(/^[A-Z2-9]{10}$/);
    expect(Date.parse(qr.expiresAt) - t.clock.ms).toBe(QR_TOKEN_SECONDS * 1000);
    const { rows } = await sql<{ s: string }>`SELECT row_to_json(q)::text AS s FROM voucher_qr_token q WHERE voucher_id = ${id}`.execute(t.db.db);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.s).not.toContain(qr.token);
  });

  it('gives different tokens each time (from a CSPRNG)', async () => {
    const id = await customersVoucher(shop.inStore);
    const tokens = new Set<string>();
    for (let i = 0; i < 20; i += 1) tokens.add((await qrOf(id)).token);
    expect(tokens.size).toBe(20);
  });

  it('is 401 for a visitor, 404 for anybody else, 409 for a used-up or non-InStore voucher, 410 for an expired one', async () => {
    const id = await customersVoucher(shop.inStore);
    expect((await call(t.app, undefined, 'GET', `/api/voucher/${id}/qr`)).statusCode).toBe(401);
    const other = await call(t.app, stranger, 'GET', `/api/voucher/${id}/qr`);
    expect(other.statusCode).toBe(404);
    expect(other.json().code).toBe('VOUCHER_NOT_FOUND');

    const charity = await customersVoucher(shop.charity);
    const notInStore = await call(t.app, customer, 'GET', `/api/voucher/${charity}/qr`);
    expect(notInStore.statusCode).toBe(409);
    expect(notInStore.json()).toMatchObject({ code: 'VOUCHER_NOT_IN_STORE', message: 'Bara ett presentkort som används i butik har en QR-kod för kassan.' });

    const used = await customersVoucher(shop.inStore);
    expect((await call(t.app, customer, 'POST', '/api/voucher/redeem', { voucherId: used, merchantCode: MERCHANT_CODE })).statusCode).toBe(200);
    expect((await call(t.app, customer, 'GET', `/api/voucher/${used}/qr`)).json().code).toBe('VOUCHER_ALREADY_REDEEMED');

    const old = await customersVoucher(shop.inStore);
    await sql`UPDATE voucher SET expires_at = ${new Date(t.clock.ms - 1)} WHERE id = ${old}`.execute(t.db.db);
    const expired = await call(t.app, customer, 'GET', `/api/voucher/${old}/qr`);
    expect(expired.statusCode).toBe(410);
    expect(expired.json().code).toBe('VOUCHER_EXPIRED');
  });

  it('a new token ends the previous one at once, in every process', async () => {
    const id = await customersVoucher(shop.inStore);
    const first = await qrOf(id, customer, t.app);
    const next = await qrOf(id, customer, b);
    for (const app of [t.app, b]) {
      const old = await till(staff, '/scan', { token: first.token }, shop.merchantId, app);
      expect(old.statusCode).toBe(410);
      expect(old.json().code).toBe('TOKEN_EXPIRED');
      expect((await till(staff, '/scan', { token: next.token }, shop.merchantId, app)).statusCode).toBe(200);
    }
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM voucher_qr_token WHERE voucher_id = ${id} AND ended_at IS NULL`.execute(t.db.db);
    expect(rows[0]!.n).toBe(1);
  });
});

describe('POST /portal/merchants/{id}/scan', () => {
  it('answers the voucher as the till needs it, redeems nothing, and the token stays usable', async () => {
    const id = await customersVoucher({ productId: shop.valueInStore, amount: 30000 });
    const { token } = await qrOf(id);
    const before = await voucherTable(t.db.db);
    // Lower case and spaces, as typed from the text under the QR.
    const res = await till(staff, '/scan', { token: `${token.slice(0, 5).toLowerCase()} ${token.slice(5)}` });
    expect(res.statusCode, res.body).toBe(200);
    const v = res.json() as Voucher;
    expect(Value.Check(Voucher, v)).toBe(true);
    expect(v).toMatchObject({ id, kind: 'value', amount: 30000, balance: 30000, product: { name: 'Presentkort i kaféet' } });
    expect(v).not.toHaveProperty('code');
    expect(await voucherTable(t.db.db)).toBe(before);
    expect((await till(owner, '/scan', { token })).statusCode).toBe(200);
  });

  it("is 404 TOKEN_NOT_FOUND for another merchant's voucher's token and for an unknown one; 404 MERCHANT_NOT_FOUND for a stranger, 401 for a visitor", async () => {
    const id = await customersVoucher(shop.inStore);
    const { token } = await qrOf(id);
    const elsewhere = await till(otherOwner, '/scan', { token }, shop.otherMerchantId);
    expect(elsewhere.statusCode).toBe(404);
    expect(elsewhere.json().code).toBe('TOKEN_NOT_FOUND');
    expect(elsewhere.body).not.toContain(token);
    expect((await till(otherOwner, '/redeem', { token }, shop.otherMerchantId)).statusCode).toBe(404);
    expect((await till(staff, '/scan', { token: unknownToken() })).json().code).toBe('TOKEN_NOT_FOUND');
    const strangers = await till(stranger, '/scan', { token });
    expect(strangers.statusCode).toBe(404);
    expect(strangers.json().code).toBe('MERCHANT_NOT_FOUND');
    expect((await till(undefined, '/scan', { token })).statusCode).toBe(401);
    // Still usable at its own merchant.
    expect((await till(staff, '/scan', { token })).statusCode).toBe(200);
  });

  it('is 410 TOKEN_EXPIRED after 120 s, and 400 for what cannot be a token (nothing counted)', async () => {
    const id = await customersVoucher(shop.inStore);
    const { token } = await qrOf(id);
    t.clock.advance(QR_TOKEN_SECONDS * 1000);
    const late = await till(staff, '/scan', { token });
    expect(late.statusCode).toBe(410);
    expect(late.json()).toMatchObject({ code: 'TOKEN_EXPIRED', message: 'QR-koden har redan använts eller gått ut. Be kunden visa presentkortet igen för en ny kod.' });
    expect((await till(staff, '/redeem', { token })).statusCode).toBe(410);
    for (const bad of ['ABC', 'ABCDEFGHI1', 'ÅÄÖ1234567', '']) {
      const res = await till(staff, '/scan', { token: bad });
      expect(res.statusCode, bad).toBe(400);
    }
  });
});

describe('POST /portal/merchants/{id}/redeem', () => {
  it('redeems by the token via "qr", by the staff member, and ends the token', async () => {
    const id = await customersVoucher({ productId: shop.valueInStore, amount: 50000 });
    const { token } = await qrOf(id);
    const res = await till(staff, '/redeem', { token, amount: 12000 });
    expect(res.statusCode, res.body).toBe(200);
    const v = res.json() as Voucher;
    expect(Value.Check(Voucher, v)).toBe(true);
    expect(v.balance).toBe(38000);
    expect(v.redemptions).toEqual([expect.objectContaining({ amount: 12000, via: 'qr', undone: false })]);
    const { rows } = await sql<{ user_id: string }>`SELECT user_id FROM voucher_redemption WHERE voucher_id = ${id}`.execute(t.db.db);
    const { rows: me } = await sql<{ id: string }>`SELECT id FROM mobile_user WHERE mobile_number = ${staff.mobileNumber}`.execute(t.db.db);
    expect(rows[0]!.user_id).toBe(me[0]!.id);
    const again = await till(staff, '/redeem', { token, amount: 100 });
    expect(again.statusCode).toBe(410);
    expect(again.json().code).toBe('TOKEN_EXPIRED');
    // The portal's list names it.
    const list = await call(t.app, owner, 'GET', `/api/portal/merchants/${shop.merchantId}/redemptions?limit=5`);
    expect(list.json()[0]).toMatchObject({ voucherId: id, amount: 12000, via: 'qr' });
  });

  it('a refused redeem (over the balance, a fixed voucher with another amount) leaves the token usable and changes nothing', async () => {
    const value = await customersVoucher({ productId: shop.valueInStore, amount: 20000 });
    const vq = await qrOf(value);
    const before = await voucherTable(t.db.db);
    const over = await till(staff, '/redeem', { token: vq.token, amount: 20001 });
    expect(over.statusCode).toBe(409);
    expect(over.json()).toMatchObject({ code: 'VOUCHER_BALANCE_TOO_LOW', details: { balance: 20000 } });
    expect(await voucherTable(t.db.db)).toBe(before);
    expect((await till(staff, '/redeem', { token: vq.token, amount: 20000 })).statusCode).toBe(200);

    const fixed = await customersVoucher(shop.inStore);
    const fq = await qrOf(fixed);
    const wrong = await till(staff, '/redeem', { token: fq.token, amount: 100 });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().code).toBe('AMOUNT_NOT_ALLOWED');
    const whole = await till(staff, '/redeem', { token: fq.token });
    expect(whole.statusCode).toBe(200);
    expect((whole.json() as Voucher).isRedeemed).toBe(true);
  });

  it('a voucher used up by its code meanwhile is 409, an expired one 410 VOUCHER_EXPIRED, as /voucher/redeem', async () => {
    const id = await customersVoucher(shop.inStore);
    const { token } = await qrOf(id);
    expect((await call(t.app, customer, 'POST', '/api/voucher/redeem', { voucherId: id, merchantCode: MERCHANT_CODE })).statusCode).toBe(200);
    expect((await till(staff, '/redeem', { token })).json().code).toBe('VOUCHER_ALREADY_REDEEMED');

    const old = await customersVoucher(shop.inStore);
    const q = await qrOf(old);
    await sql`UPDATE voucher SET expires_at = ${new Date(t.clock.ms - 1)} WHERE id = ${old}`.execute(t.db.db);
    const res = await till(staff, '/redeem', { token: q.token });
    expect(res.statusCode).toBe(410);
    expect(res.json().code).toBe('VOUCHER_EXPIRED');
  });

  it('of many redeems of one token at once, in two processes, exactly one redeems; the rest are 410', async () => {
    const id = await customersVoucher({ productId: shop.valueInStore, amount: 100000 });
    const { token } = await qrOf(id);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => till(i % 3 === 0 ? owner : staff, '/redeem', { token, amount: 10000 }, shop.merchantId, i % 2 === 0 ? t.app : b)),
    );
    const statuses = answers.map((r) => r.statusCode).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 410)).toHaveLength(11);
    const { rows } = await sql<{ n: number; balance: number }>`
      SELECT (SELECT count(*)::int FROM voucher_redemption WHERE voucher_id = ${id}) AS n, balance FROM voucher WHERE id = ${id}`.execute(t.db.db);
    expect(rows[0]).toEqual({ n: 1, balance: 90000 });
  });

  it('takes an Idempotency-Key: a repeat answers the first answer and redeems nothing more', async () => {
    const id = await customersVoucher({ productId: shop.valueInStore, amount: 50000 });
    const { token } = await qrOf(id);
    const send = () =>
      t.app.inject({
        method: 'POST',
        url: `/api/portal/merchants/${shop.merchantId}/redeem`,
        headers: { ...staff.auth, 'idempotency-key': `till-${id}` },
        payload: { token, amount: 5000 },
      });
    const first = await send();
    expect(first.statusCode).toBe(200);
    const repeat = await send();
    expect(repeat.statusCode).toBe(200);
    expect(repeat.headers['idempotent-replayed']).toBe('true');
    expect(repeat.json()).toEqual(first.json());
    const { rows } = await sql<{ balance: number }>`SELECT balance FROM voucher WHERE id = ${id}`.execute(t.db.db);
    expect(rows[0]!.balance).toBe(45000);
  });
});

describe('wrong tokens are limited per person at a merchant', () => {
  it(`after ${TOKEN_MAX_WRONG} wrong tokens in 15 minutes every token is 429 TOKEN_LOCKED with Retry-After, the right one too; others are not held up`, async () => {
    const limited = await person(t.app);
    await addStaff(t.db.db, shop.merchantId, limited.mobileNumber, 'staff');
    const id = await customersVoucher(shop.inStore);
    const { token } = await qrOf(id);
    // At once, through both processes: exactly TOKEN_MAX_WRONG are checked.
    const wrong = await Promise.all(Array.from({ length: TOKEN_MAX_WRONG + 4 }, (_, i) => till(limited, '/scan', { token: unknownToken() }, shop.merchantId, i % 2 ? b : t.app)));
    expect(wrong.filter((r) => r.statusCode === 404)).toHaveLength(TOKEN_MAX_WRONG);
    expect(wrong.filter((r) => r.statusCode === 429)).toHaveLength(4);
    const locked = await till(limited, '/redeem', { token });
    expect(locked.statusCode).toBe(429);
    expect(locked.json().code).toBe('TOKEN_LOCKED');
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    // Somebody else at the till is not held up; the token is untouched.
    expect((await till(staff, '/scan', { token })).statusCode).toBe(200);
    await later(15 * 60_000 + 1000);
    const again = await person(t.app, limited.mobileNumber);
    const { token: fresh } = await qrOf(id);
    expect((await till(again, '/redeem', { token: fresh })).statusCode).toBe(200);
  });
});

describe('POST /portal/merchants/{id}/redemptions/{redemptionId}/undo', () => {
  it('undoes a redemption at this merchant within 10 minutes, once; later 409 UNDO_TOO_LATE; another merchant\'s 404', async () => {
    const id = await customersVoucher({ productId: shop.valueInStore, amount: 40000 });
    const { token } = await qrOf(id);
    const redeemed = (await till(staff, '/redeem', { token, amount: 15000 })).json() as Voucher;
    const redemptionId = redeemed.redemptions[0]!.id;

    const elsewhere = await till(otherOwner, `/redemptions/${redemptionId}/undo`, undefined, shop.otherMerchantId);
    expect(elsewhere.statusCode).toBe(404);
    expect(elsewhere.json().code).toBe('REDEMPTION_NOT_FOUND');
    expect((await till(stranger, `/redemptions/${redemptionId}/undo`, undefined)).json().code).toBe('MERCHANT_NOT_FOUND');

    const both = await Promise.all([till(staff, `/redemptions/${redemptionId}/undo`, undefined), till(owner, `/redemptions/${redemptionId}/undo`, undefined, shop.merchantId, b)]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const ok = both.find((r) => r.statusCode === 200)!.json() as Voucher;
    expect(ok.balance).toBe(40000);
    expect(ok.redemptions[0]).toMatchObject({ id: redemptionId, undone: true });
    expect(both.find((r) => r.statusCode === 409)!.json().code).toBe('ALREADY_UNDONE');

    // A redemption by the code, at this merchant: the portal undoes it too, within 10 minutes only.
    const byCode = await call(t.app, customer, 'POST', '/api/voucher/redeem', { voucherId: id, merchantCode: MERCHANT_CODE, amount: 1000 });
    const codeRedemption = (byCode.json() as Voucher).redemptions.at(-1)!.id;
    await later(10 * 60_000 + 1000);
    const late = await till(staff, `/redemptions/${codeRedemption}/undo`, undefined);
    expect(late.statusCode).toBe(409);
    expect(late.json().code).toBe('UNDO_TOO_LATE');
  });
});

describe('the token is never logged', () => {
  it('the request log lines of the QR, the scan and the redeem hold no token, nor do their error bodies', async () => {
    const id = await customersVoucher(shop.inStore);
    const { token } = await qrOf(id, customer, b);
    expect((await till(staff, '/scan', { token }, shop.merchantId, b)).statusCode).toBe(200);
    const refused = await till(staff, '/redeem', { token, amount: 1 }, shop.merchantId, b);
    expect(refused.statusCode).toBe(400);
    expect(refused.body).not.toContain(token);
    expect((await till(staff, '/redeem', { token }, shop.merchantId, b)).statusCode).toBe(200);
    const used = await till(staff, '/redeem', { token }, shop.merchantId, b);
    expect(used.body).not.toContain(token);
    await new Promise((r) => setTimeout(r, 50));
    const lines = logLines.filter((l) => l.includes('/scan') || l.includes('/redeem') || l.includes('/qr'));
    expect(lines.length).toBeGreaterThanOrEqual(5);
    for (const line of logLines) expect(line).not.toContain(token);
  });
});
