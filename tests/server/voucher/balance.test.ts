import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import { Value } from 'typebox/value';
import { Voucher } from '../../../contract/voucher.ts';
import * as m020 from '../../../server/db/migrations/020_voucher_balance.ts';
import { call, greetieTestApp, person, type Person } from '../greetie/support.ts';
import { MERCHANT_CODE, attempts, deliver, paidGreetie, voucherCatalogue, voucherIds, voucherTable, type VoucherCatalogue } from './support.ts';

/**
 * A value voucher used in parts, on real PostgreSQL (API.md "Voucher"): the amount against the
 * balance, never more than the balance under concurrency, Idempotency-Key repeats taking nothing,
 * and the migration of the vouchers there were.
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

/** A delivered greetie to the owner with these gifts (each from a sender of its own); its voucher ids. */
async function ownersVouchers(...gifts: (string | { productId: string; amount: number })[]): Promise<string[]> {
  const sender = await person(t.app);
  const g = await paidGreetie(t.app, sender, owner.mobileNumber, gifts);
  await deliver(t.app, g.id);
  return voucherIds(t.db.db, g.id);
}

/** A value voucher of 1000 kr. */
const valueVoucher = async () => (await ownersVouchers({ productId: shop.valueInStore, amount: 100000 }))[0]!;

const redeem = (voucherId: string, amount?: number, who: Person = owner, merchantCode = MERCHANT_CODE) =>
  call(t.app, who, 'POST', '/api/voucher/redeem', { voucherId, merchantCode, ...(amount === undefined ? {} : { amount }) });

function countBy(xs: (string | number)[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const x of xs) out[x] = (out[x] ?? 0) + 1;
  return out;
}

async function balanceOf(id: string): Promise<{ balance: number; is_redeemed: boolean; taken: number; n: number }> {
  const { rows } = await sql<{ balance: number; is_redeemed: boolean; taken: number; n: number }>`
    SELECT v.balance, v.is_redeemed,
           (SELECT coalesce(sum(r.amount), 0)::int FROM voucher_redemption r WHERE r.voucher_id = v.id AND r.undone_at IS NULL) AS taken,
           (SELECT count(*)::int FROM voucher_redemption r WHERE r.voucher_id = v.id) AS n
      FROM voucher v WHERE v.id = ${id}`.execute(t.db.db);
  return rows[0]!;
}

describe('POST /api/voucher/redeem with an amount', () => {
  // First in the file: the merchant's code is not yet known to this process, so the burst goes
  // through the first check (scrypt) and the wait for it, then the short way.
  it('50 at once, each a tenth of the balance: exactly ten 200, the rest 409, a balance of exactly 0', async () => {
    const id = await valueVoucher();
    const answers = await Promise.all(Array.from({ length: 50 }, () => redeem(id, 10000)));
    const statuses = countBy(answers.map((a) => a.statusCode));
    expect(statuses, JSON.stringify(answers.filter((a) => a.statusCode !== 200 && a.statusCode !== 409).map((a) => a.body))).toEqual({ 200: 10, 409: 40 });
    for (const a of answers.filter((x) => x.statusCode === 409)) {
      expect(['VOUCHER_ALREADY_REDEEMED', 'VOUCHER_BALANCE_TOO_LOW']).toContain((a.json() as { code: string }).code);
    }
    expect(await balanceOf(id)).toEqual({ balance: 0, is_redeemed: true, taken: 100000, n: 10 });
    const balances = answers.filter((a) => a.statusCode === 200).map((a) => (a.json() as Voucher).balance);
    expect(balances.sort((a, b) => a - b)).toEqual([0, 10000, 20000, 30000, 40000, 50000, 60000, 70000, 80000, 90000]);
  });

  it('the same once the code is known (the short way): ten 200, balance 0', async () => {
    const id = await valueVoucher();
    const answers = await Promise.all(Array.from({ length: 50 }, () => redeem(id, 10000)));
    expect(countBy(answers.map((a) => a.statusCode))).toEqual({ 200: 10, 409: 40 });
    expect(await balanceOf(id)).toEqual({ balance: 0, is_redeemed: true, taken: 100000, n: 10 });
  });

  it('a value voucher is used in parts: the rest stays; absent amount takes the whole balance; the history oldest first', async () => {
    const id = await valueVoucher();
    const before = (await call(t.app, owner, 'GET', `/api/voucher/${id}`)).json() as Voucher;
    expect(before).toMatchObject({ kind: 'value', amount: 100000, balance: 100000, redemptions: [], isRedeemed: false, redeemedAt: null });

    const first = await redeem(id, 30000);
    expect(first.statusCode, first.body).toBe(200);
    const v1 = first.json() as Voucher;
    expect(Value.Check(Voucher, v1), first.body).toBe(true);
    expect(v1).toMatchObject({ kind: 'value', amount: 100000, balance: 70000, isRedeemed: false, redeemedAt: null });
    expect(v1.redemptions).toEqual([{ id: expect.any(String), amount: 30000, redeemedAt: t.clock.now().toISOString(), via: 'code', undone: false }]);

    t.clock.advance(60_000);
    const rest = await redeem(id);
    expect(rest.statusCode, rest.body).toBe(200);
    const v2 = rest.json() as Voucher;
    expect(v2).toMatchObject({ balance: 0, isRedeemed: true, redeemedAt: t.clock.now().toISOString() });
    expect(v2.redemptions.map((r) => r.amount)).toEqual([30000, 70000]);
    expect(v2.redemptions[0]!.id).toBe(v1.redemptions[0]!.id);
    // The list and the one voucher say exactly what the redeem answered.
    expect((await call(t.app, owner, 'GET', `/api/voucher/${id}`)).json()).toEqual(v2);
    expect(((await call(t.app, owner, 'GET', '/api/voucher')).json() as Voucher[]).find((v) => v.id === id)).toEqual(v2);

    const again = await redeem(id, 1);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'VOUCHER_ALREADY_REDEEMED' });
  });

  it('more than the balance is 409 VOUCHER_BALANCE_TOO_LOW with details.balance, and takes nothing', async () => {
    const id = await valueVoucher();
    expect((await redeem(id, 60000)).statusCode).toBe(200);
    const before = await voucherTable(t.db.db);
    const res = await redeem(id, 40001);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toMatchObject({ code: 'VOUCHER_BALANCE_TOO_LOW', details: { balance: 40000 } });
    expect((res.json() as { message: string }).message).toBe('Beloppet är större än det som finns kvar på presentkortet.');
    expect(await voucherTable(t.db.db)).toBe(before);
    // No guess was spent on it.
    expect((await attempts(t.db.db, id)).map((a) => a.outcome)).toEqual(['redeemed', 'balanceTooLow']);
    expect((await redeem(id, 40000)).statusCode).toBe(200);
  });

  it('a fixed voucher is used whole: its own amount or none; any other amount is 400 AMOUNT_NOT_ALLOWED and costs no guess', async () => {
    const [a, b] = await ownersVouchers(shop.inStore, shop.inStore);
    const before = await voucherTable(t.db.db);
    for (const amount of [100, 14899, 14901]) {
      const res = await redeem(a!, amount);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ code: 'AMOUNT_NOT_ALLOWED' });
    }
    expect(await voucherTable(t.db.db)).toBe(before);
    expect((await attempts(t.db.db, a!)).map((x) => x.outcome)).toEqual(['amountNotAllowed', 'amountNotAllowed', 'amountNotAllowed']);
    const whole = await redeem(a!, 14900);
    expect(whole.statusCode, whole.body).toBe(200);
    expect(whole.json()).toMatchObject({ kind: 'fixed', balance: 0, isRedeemed: true, redemptions: [{ amount: 14900 }] });
    const none = await redeem(b!);
    expect(none.json()).toMatchObject({ kind: 'fixed', balance: 0, redemptions: [{ amount: 14900 }] });
  });

  it('bad amounts are 400 before anything happens; another person\'s voucher 404', async () => {
    const id = await valueVoucher();
    const before = await voucherTable(t.db.db);
    for (const amount of [0, -5, 1.5, 'sto', 100_000_001]) {
      const res = await call(t.app, owner, 'POST', '/api/voucher/redeem', { voucherId: id, merchantCode: MERCHANT_CODE, amount });
      expect(res.statusCode, `${String(amount)}: ${res.body}`).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    }
    const theirs = await redeem(id, 100, stranger);
    expect(theirs.statusCode).toBe(404);
    expect(await voucherTable(t.db.db)).toBe(before);
    expect(await attempts(t.db.db, id)).toEqual([]);
  });

  it('an Idempotency-Key repeat answers the same and takes nothing; at once too; another body with the key is 422', async () => {
    const id = await valueVoucher();
    const withKey = (key: string, amount: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/voucher/redeem',
        headers: { ...owner.auth, 'idempotency-key': key },
        payload: { voucherId: id, merchantCode: MERCHANT_CODE, amount },
      });
    const first = await withKey('kassa-1', 25000);
    expect(first.statusCode, first.body).toBe(200);
    const repeat = await withKey('kassa-1', 25000);
    expect(repeat.statusCode).toBe(200);
    expect(repeat.body).toBe(first.body);
    expect(repeat.headers['idempotent-replayed']).toBe('true');
    expect(await balanceOf(id)).toMatchObject({ balance: 75000, n: 1 });

    const burst = await Promise.all(Array.from({ length: 10 }, () => withKey('kassa-2', 25000)));
    expect(burst.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    expect(new Set(burst.map((r) => r.body)).size).toBe(1);
    expect(await balanceOf(id)).toMatchObject({ balance: 50000, n: 2 });

    const reused = await withKey('kassa-1', 1000);
    expect(reused.statusCode).toBe(422);
    expect(reused.json()).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
    expect(await balanceOf(id)).toMatchObject({ balance: 50000, n: 2 });
  });
});

describe('the vouchers there were (migration 020)', () => {
  it('migrate: a redeemed one has one redemption of its amount and a balance of 0, an unused one its amount; kinds from their products', async () => {
    const [used, unused] = await ownersVouchers(shop.inStore, shop.inStore);
    const [value] = await ownersVouchers({ productId: shop.valueInStore, amount: 20000 });
    expect((await redeem(used!)).statusCode).toBe(200);
    const redeemedAt = t.clock.now().toISOString();
    // Back to the vouchers as they were before 020, then forward again.
    await m020.down(t.db.db as unknown as Kysely<unknown>);
    const { rows: old } = await sql<{ id: string; is_redeemed: boolean }>`SELECT id, is_redeemed FROM voucher WHERE id IN (${used!}, ${unused!})`.execute(t.db.db);
    expect(Object.fromEntries(old.map((r) => [r.id, r.is_redeemed]))).toEqual({ [used!]: true, [unused!]: false });
    await m020.up(t.db.db as unknown as Kysely<unknown>);

    const list = (await call(t.app, owner, 'GET', '/api/voucher')).json() as Voucher[];
    const byId = new Map(list.map((v) => [v.id, v]));
    expect(byId.get(used!)).toMatchObject({ kind: 'fixed', balance: 0, isRedeemed: true, redeemedAt, redemptions: [{ amount: 14900, redeemedAt, via: 'code', undone: false }] });
    expect(byId.get(unused!)).toMatchObject({ kind: 'fixed', balance: 14900, isRedeemed: false, redemptions: [] });
    expect(byId.get(value!)).toMatchObject({ kind: 'value', amount: 20000, balance: 20000, redemptions: [] });
    // Who redeemed it comes from its recorded attempt.
    const { rows } = await sql<{ same: boolean }>`
      SELECT r.user_id = a.user_id AS same FROM voucher_redemption r JOIN redeem_attempt a ON a.voucher_id = r.voucher_id AND a.outcome = 'redeemed'
       WHERE r.voucher_id = ${used!}`.execute(t.db.db);
    expect(rows).toEqual([{ same: true }]);
  });
});
