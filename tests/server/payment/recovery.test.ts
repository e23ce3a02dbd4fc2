import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { Greetie } from '../../../contract/greetie.ts';
import type { Payment } from '../../../contract/payment.ts';
import type { SandboxPaymentProvider } from '../../../server/providers/payment/index.ts';
import { EXPIRE_AFTER_MS, RECONCILE_MIN_AGE_MS, reconcileOpenPayments, startPaymentReconciler } from '../../../server/payment/reconcile.ts';
import { loadCodes } from '../../../server/voucher/codes.ts';
import { call, catalogue, freshNumber, greetieTestApp, person, type Catalogue, type Person } from '../greetie/support.ts';

/**
 * Payment hardening on real PostgreSQL (decision 080 "Recovery"): duplicate, forged,
 * unknown and late callbacks; the reconciliation that recovers a payment the provider paid but we
 * never wrote (start-up and periodic), and ends one nobody answered (expired); a PAID that
 * arrives after we ended a payment changes nothing. The kill -9 case with a real server process
 * is in crash.test.ts.
 */

type T = Awaited<ReturnType<typeof greetieTestApp>>;
let t: T;
let products: Catalogue;
let codeProduct: string;
let sandbox: SandboxPaymentProvider;
let deps: Parameters<typeof reconcileOpenPayments>[0];

beforeAll(async () => {
  t = await greetieTestApp();
  products = await catalogue(t.db.db);
  sandbox = t.app.services.payments as SandboxPaymentProvider;
  const { rows } = await sql<{ id: string }>`
    INSERT INTO product (merchant_id, name, source, price, valid_days, active)
    SELECT merchant_id, 'Digital kod', 'Code', 5000, 365, true FROM product WHERE id = ${products.fixed}
    RETURNING id`.execute(t.db.db);
  codeProduct = rows[0]!.id;
  await loadCodes(t.db.db, codeProduct, Array.from({ length: 100 }, (_, i) => `R-${i}`), new Date());
  deps = { db: t.app.db, config: t.app.config, services: t.app.services };
});
afterAll(async () => {
  await t.close();
});

async function draft(who: Person): Promise<Greetie> {
  const res = await call(t.app, who, 'POST', '/api/greetie/createv2', {
    recipient: { mobileNumber: freshNumber(), name: 'Vän' },
    gifts: [{ productId: products.fixed }, { productId: codeProduct }],
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Greetie;
}

async function started(who: Person): Promise<{ g: Greetie; p: Payment; instructionId: string }> {
  const g = await draft(who);
  const res = await call(t.app, who, 'POST', `/api/greetie/${g.id}/startpayment`, { withdrawalConsent: true });
  expect(res.statusCode, res.body).toBe(200);
  const p = res.json() as Payment;
  const { rows } = await sql<{ instruction_id: string }>`SELECT instruction_id FROM payment WHERE id = ${p.id}`.execute(t.db.db);
  return { g, p, instructionId: rows[0]!.instruction_id };
}

function callback(body: unknown) {
  return t.app.inject({ method: 'POST', url: '/api/greetie/paymentCallBack', payload: body as Record<string, unknown> });
}

async function state(greetieId: string, paymentId: string) {
  const { rows } = await sql<{ greetie: string; payment: string; vouchers: number; coded: number; reserved: number }>`
    SELECT (SELECT status FROM greetie WHERE id = ${greetieId}) AS greetie,
           (SELECT status FROM payment WHERE id = ${paymentId}) AS payment,
           (SELECT count(*)::int FROM voucher WHERE greetie_id = ${greetieId}) AS vouchers,
           (SELECT count(*)::int FROM voucher WHERE greetie_id = ${greetieId} AND code IS NOT NULL) AS coded,
           (SELECT count(*)::int FROM product_code WHERE payment_id = ${paymentId} AND taken_at IS NULL) AS reserved`.execute(t.db.db);
  return rows[0]!;
}

async function tables(): Promise<string> {
  const { rows } = await sql<{ s: string }>`
    SELECT (SELECT coalesce(json_agg(g ORDER BY g.id), '[]') FROM greetie g)::text || '|' ||
           (SELECT coalesce(json_agg(p ORDER BY p.id), '[]') FROM payment p)::text || '|' ||
           (SELECT coalesce(json_agg(v ORDER BY v.id), '[]') FROM voucher v)::text || '|' ||
           (SELECT coalesce(json_agg(c ORDER BY c.id), '[]') FROM product_code c)::text || '|' ||
           (SELECT coalesce(json_agg(cp ORDER BY cp.product_id), '[]') FROM code_pool cp)::text AS s`.execute(t.db.db);
  return rows[0]!.s;
}

describe('callbacks', () => {
  it('50 concurrent duplicate callbacks: the vouchers (and their codes) are issued once', async () => {
    const alice = await person(t.app);
    const { g, p, instructionId } = await started(alice);
    const body = await sandbox.settle(instructionId, 'paid');
    const results = await Promise.all(Array.from({ length: 50 }, () => callback(body)));
    for (const r of results) expect(r.statusCode, r.body).toBe(200);
    expect(await state(g.id, p.id)).toEqual({ greetie: 'scheduled', payment: 'paid', vouchers: 2, coded: 1, reserved: 0 });
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM product_code WHERE payment_id = ${p.id}`.execute(t.db.db);
    expect(rows[0]!.n).toBe(1);
  });

  it('forged: the body says PAID, the provider says it is still waiting: nothing changes at all', async () => {
    const alice = await person(t.app);
    const { g, instructionId } = await started(alice);
    const before = await tables();
    const res = await callback({ id: instructionId, status: 'PAID', amount: 199, payeePaymentReference: g.id.replaceAll('-', ''), datePaid: new Date().toISOString() });
    expect(res.statusCode).toBe(200);
    expect(await tables()).toBe(before);
  });

  it('an unknown payment: 200 (Swish stops retrying), nothing changes', async () => {
    const before = await tables();
    const res = await callback({ id: 'ABCDEF0123456789ABCDEF0123456789', status: 'PAID' });
    expect(res.statusCode).toBe(200);
    expect(await tables()).toBe(before);
  });
});

describe('reconciliation', () => {
  it('paid at the provider, never written here (no callback came): recovered at start-up, once', async () => {
    const alice = await person(t.app);
    const { g, p, instructionId } = await started(alice);
    await sandbox.settle(instructionId, 'paid'); // the callback is lost
    expect((await state(g.id, p.id)).payment).toBe('pending');
    const first = await reconcileOpenPayments(deps, { minAgeMs: 0 });
    expect(first.applied).toBeGreaterThanOrEqual(1);
    expect(await state(g.id, p.id)).toEqual({ greetie: 'scheduled', payment: 'paid', vouchers: 2, coded: 1, reserved: 0 });
    const before = await tables();
    const again = await reconcileOpenPayments(deps, { minAgeMs: 0 });
    expect(again.applied).toBe(0);
    expect(await tables()).toBe(before);
  });

  it('the periodic pass leaves payments younger than a few seconds alone, and takes them once older', async () => {
    const alice = await person(t.app);
    const { g, p, instructionId } = await started(alice);
    await sandbox.settle(instructionId, 'declined');
    await reconcileOpenPayments(deps, { minAgeMs: RECONCILE_MIN_AGE_MS });
    expect((await state(g.id, p.id)).payment).toBe('pending');
    t.clock.advance(RECONCILE_MIN_AGE_MS);
    await reconcileOpenPayments(deps, { minAgeMs: RECONCILE_MIN_AGE_MS });
    expect(await state(g.id, p.id)).toEqual({ greetie: 'draft', payment: 'declined', vouchers: 0, coded: 0, reserved: 0 });
  });

  it('nobody answered for longer than the provider waits: cancelled with the provider, expired (TM01), the greetie a draft, its codes back', async () => {
    const alice = await person(t.app);
    const { g, p, instructionId } = await started(alice);
    expect((await state(g.id, p.id)).reserved).toBe(1);
    t.clock.advance(EXPIRE_AFTER_MS);
    await reconcileOpenPayments(deps, { minAgeMs: RECONCILE_MIN_AGE_MS });
    expect(await state(g.id, p.id)).toEqual({ greetie: 'draft', payment: 'expired', vouchers: 0, coded: 0, reserved: 0 });
    const res = await call(t.app, alice, 'GET', `/api/greetie/${g.id}/payment`);
    expect(res.json()).toMatchObject({ status: 'expired', errorCode: 'TM01' });
    const { rows } = await sql<{ status: string }>`SELECT status FROM sandbox_payment_request WHERE instruction_id = ${instructionId}`.execute(t.db.db);
    expect(rows[0]!.status).toBe('CANCELLED');
    // Payable again.
    const again = await call(t.app, alice, 'POST', `/api/greetie/${g.id}/startpayment`, { withdrawalConsent: true });
    expect(again.statusCode, again.body).toBe(200);
  });

  it('expiring a payment the payer paid at the last moment: the provider says PAID, so it is paid, not expired', async () => {
    const alice = await person(t.app);
    const { g, p, instructionId } = await started(alice);
    await sandbox.settle(instructionId, 'paid');
    t.clock.advance(EXPIRE_AFTER_MS);
    await reconcileOpenPayments(deps, { minAgeMs: RECONCILE_MIN_AGE_MS });
    expect(await state(g.id, p.id)).toEqual({ greetie: 'scheduled', payment: 'paid', vouchers: 2, coded: 1, reserved: 0 });
  });

  it('a PAID that arrives after the payment expired changes nothing (the operator refunds it; logged)', async () => {
    const alice = await person(t.app);
    const { g, p, instructionId } = await started(alice);
    t.clock.advance(EXPIRE_AFTER_MS);
    await reconcileOpenPayments(deps, { minAgeMs: RECONCILE_MIN_AGE_MS });
    expect((await state(g.id, p.id)).payment).toBe('expired');
    // The provider now says PAID (as Swish could, had our cancel crossed the payer's approval).
    await sql`UPDATE sandbox_payment_request SET status = 'PAID', date_paid = now() WHERE instruction_id = ${instructionId}`.execute(t.db.db);
    const before = await tables();
    const body = { id: instructionId, status: 'PAID' };
    for (const r of await Promise.all(Array.from({ length: 5 }, () => callback(body)))) expect(r.statusCode).toBe(200);
    const status = await call(t.app, alice, 'GET', `/api/greetie/${g.id}/payment`);
    expect(status.json()).toMatchObject({ status: 'expired' });
    await reconcileOpenPayments(deps, { minAgeMs: 0 });
    expect(await tables()).toBe(before);
    expect(await state(g.id, p.id)).toEqual({ greetie: 'draft', payment: 'expired', vouchers: 0, coded: 0, reserved: 0 });
  });

  it('the reconciler as the server runs it: a pass at once, then one every interval, until stopped', async () => {
    const alice = await person(t.app);
    const first = await started(alice);
    await sandbox.settle(first.instructionId, 'paid');
    const reconciler = startPaymentReconciler(deps, undefined, { everyMs: 50 });
    try {
      expect((await reconciler.ready).applied).toBeGreaterThanOrEqual(1);
      expect((await state(first.g.id, first.p.id)).payment).toBe('paid');
      // Started after the start-up pass; settled silently; older than a few seconds: the next passes take it.
      const second = await started(alice);
      await sandbox.settle(second.instructionId, 'declined');
      t.clock.advance(RECONCILE_MIN_AGE_MS);
      for (let i = 0; i < 100 && (await state(second.g.id, second.p.id)).payment === 'pending'; i++) await new Promise((r) => setTimeout(r, 50));
      expect(await state(second.g.id, second.p.id)).toEqual({ greetie: 'draft', payment: 'declined', vouchers: 0, coded: 0, reserved: 0 });
    } finally {
      await reconciler.stop();
    }
    // Stopped: nothing more happens.
    const third = await started(alice);
    await sandbox.settle(third.instructionId, 'paid');
    t.clock.advance(RECONCILE_MIN_AGE_MS);
    await new Promise((r) => setTimeout(r, 200));
    expect((await state(third.g.id, third.p.id)).payment).toBe('pending');
  });

  it('a provider that cannot answer: everything stays as it is, nothing throws', async () => {
    const alice = await person(t.app);
    const { g, p } = await started(alice);
    const real = t.app.services.payments;
    const down = {
      name: real.name,
      create: real.create.bind(real),
      createRefund: real.createRefund.bind(real),
      refundStatus: real.refundStatus.bind(real),
      status: async () => {
        const { PaymentError } = await import('../../../server/providers/payment/index.ts');
        throw new PaymentError('unavailable', 'down');
      },
      cancel: async () => {
        const { PaymentError } = await import('../../../server/providers/payment/index.ts');
        throw new PaymentError('unavailable', 'down');
      },
    };
    t.clock.advance(EXPIRE_AFTER_MS);
    const before = await tables();
    await reconcileOpenPayments({ ...deps, services: { ...deps.services, payments: down } }, { minAgeMs: 0 });
    expect(await tables()).toBe(before);
    expect((await state(g.id, p.id)).payment).toBe('pending');
    // And once it answers again, the next pass ends it.
    await reconcileOpenPayments(deps, { minAgeMs: 0 });
    expect((await state(g.id, p.id)).payment).toBe('expired');
  });
});
