import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { Greetie } from '../../../contract/greetie.ts';
import type { Voucher } from '../../../contract/voucher.ts';
import { call, freshNumber, greetieTestApp, person, type Person } from '../greetie/support.ts';
import { deliver, paidGreetie, voucherCatalogue, voucherIds, type VoucherCatalogue } from '../voucher/support.ts';

/**
 * A cancelled greetie's Code vouchers (online codes, source "Code") give their codes up on real
 * PostgreSQL: never shown again by any list, and never handed out twice. A code nobody can have
 * seen (the greetie was still scheduled) goes back to its pool; one that was delivered is void.
 */

type T = Awaited<ReturnType<typeof greetieTestApp>>;
let t: T;
let shop: VoucherCatalogue;
let sender: Person;

beforeAll(async () => {
  t = await greetieTestApp();
  shop = await voucherCatalogue(t.db.db);
  sender = await person(t.app);
});
afterAll(async () => {
  await t.close();
});

async function codeRow(voucherId: string) {
  const { rows } = await sql<{ code: string | null }>`SELECT code FROM voucher WHERE id = ${voucherId}`.execute(t.db.db);
  return rows[0]!.code;
}
async function poolFree(): Promise<number> {
  const { rows } = await sql<{ free: number }>`SELECT free FROM code_pool WHERE product_id = ${shop.code}`.execute(t.db.db);
  return rows[0]!.free;
}
async function productCode(code: string) {
  const { rows } = await sql<{ payment_id: string | null; voucher_id: string | null; taken_at: Date | null }>`
    SELECT payment_id, voucher_id, taken_at FROM product_code WHERE product_id = ${shop.code} AND code = ${code}`.execute(t.db.db);
  return rows[0]!;
}
const cancel = async (g: Greetie) => {
  const res = await call(t.app, sender, 'POST', `/api/greetie/${g.id}/cancel`);
  expect(res.statusCode, res.body).toBe(200);
  expect((res.json() as Greetie).status).toBe('cancelled');
};

describe('cancel and Code vouchers', () => {
  it('a delivered, unopened greetie: its code is void (gone from the voucher, never handed out again), the pool unchanged', async () => {
    const recipient = await person(t.app);
    const g = await paidGreetie(t.app, sender, recipient.mobileNumber, [shop.code]);
    await deliver(t.app, g.id);
    const [v] = await voucherIds(t.db.db, g.id);
    const code = (await codeRow(v!))!;
    expect(code).toMatch(/^WEBB-/);
    // The recipient's list shows it before the cancel (without opening the greetie).
    const before = (await call(t.app, recipient, 'GET', '/api/voucher')).json() as Voucher[];
    expect(before.find((x) => x.id === v)?.code).toBe(code);
    const free = await poolFree();

    await cancel(g);
    expect(await codeRow(v!)).toBeNull();
    expect((await productCode(code)).taken_at).not.toBeNull();
    expect(await poolFree()).toBe(free);
    // Nobody is ever shown it again, and the next buyers never get it.
    expect(((await call(t.app, recipient, 'GET', '/api/voucher')).json() as Voucher[]).some((x) => x.code === code)).toBe(false);
    for (let i = 0; i < 3; i++) {
      const next = await paidGreetie(t.app, sender, freshNumber(), [shop.code]);
      const [nv] = await voucherIds(t.db.db, next.id);
      expect(await codeRow(nv!)).not.toBe(code);
    }
  });

  it('a scheduled greetie (never delivered, so never seen): its code goes back to the pool, free for the next buyer', async () => {
    const deliverAt = new Date(t.clock.now().getTime() + 3 * 24 * 60 * 60_000).toISOString();
    const created = await call(t.app, sender, 'POST', '/api/greetie/createv2', {
      recipient: { mobileNumber: freshNumber() },
      gifts: [{ productId: shop.code }],
      deliverAt,
    });
    expect(created.statusCode, created.body).toBe(200);
    const draft = created.json() as Greetie;
    const started = await call(t.app, sender, 'POST', `/api/greetie/${draft.id}/startpayment`, { withdrawalConsent: true });
    expect(started.statusCode, started.body).toBe(200);
    const settled = await t.app.inject({ method: 'POST', url: `/api/sandbox/payments/${(started.json() as { id: string }).id}`, payload: { outcome: 'paid' } });
    expect(settled.statusCode, settled.body).toBe(200);
    const [v] = await voucherIds(t.db.db, draft.id);
    const code = (await codeRow(v!))!;
    expect(code).toMatch(/^WEBB-/);
    const free = await poolFree();

    await cancel(draft);
    expect(await codeRow(v!)).toBeNull();
    expect(await productCode(code)).toEqual({ payment_id: null, voucher_id: null, taken_at: null });
    expect(await poolFree()).toBe(free + 1);
    // Cancelling again gives nothing back twice.
    await cancel(draft);
    expect(await poolFree()).toBe(free + 1);
  });
});
