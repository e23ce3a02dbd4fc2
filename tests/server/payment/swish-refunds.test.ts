import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { Greetie } from '../../../contract/greetie.ts';
import type { Payment } from '../../../contract/payment.ts';
import { PaymentError, newInstructionId, type PaymentProvider } from '../../../server/providers/payment/index.ts';
import { createSwishPayments } from '../../../server/providers/payment/swish.ts';
import { cancelGreetie, reconcileRefunds } from '../../../server/payment/refunds.ts';
import { createTestApp, type TestApp } from '../helpers.ts';
import { TestClock } from '../auth/support.ts';
import { call, catalogue, freshNumber, person, type Catalogue } from '../greetie/support.ts';
import { startFakeSwish, type FakeSwish } from './fake-swish.ts';
import { testPki, type TestPki } from './test-ca.ts';

/**
 * Swish refunds (Commerce API: PUT /api/v2/refunds/{instructionUUID}, GET /api/v1/refunds/{id},
 * the callback) over mutual TLS against the local fake Swish, through the app on real PostgreSQL:
 * the adapter's refusals and idempotent create, and a crash between Swish's answer to the refund
 * and our write, recovered once by the reconciliation with the same instruction id.
 */

let pki: TestPki;
let swish: FakeSwish;
let adapter: PaymentProvider;
let t: TestApp;
let products: Catalogue;
const clock = new TestClock();

beforeAll(async () => {
  pki = await testPki();
  swish = await startFakeSwish(pki);
  adapter = createSwishPayments({
    baseUrl: swish.url,
    payeeAlias: '1231181189',
    cert: pki.client.certPem,
    key: pki.client.keyPem,
    ca: pki.caPem,
    callbackUrl: 'https://greetie.test/api/greetie/paymentCallBack',
    refundCallbackUrl: 'https://greetie.test/api/greetie/refundCallBack',
    timeoutMs: 2000,
    attempts: 2,
    backoffMs: 0,
  });
  t = await createTestApp({ services: { now: clock.now, payments: adapter } });
  products = await catalogue(t.db.db);
});
afterAll(async () => {
  await t?.close();
  await swish?.close();
});

/** A greetie paid through the fake Swish and delivered; answers what the refund needs. */
async function paidAndDelivered() {
  const sender = await person(t.app);
  const created = await call(t.app, sender, 'POST', '/api/greetie/createv2', {
    recipient: { mobileNumber: freshNumber(), name: 'Vän' },
    gifts: [{ productId: products.fixed }],
  });
  const g = created.json() as Greetie;
  const started = await call(t.app, sender, 'POST', `/api/greetie/${g.id}/startpayment`, { withdrawalConsent: true });
  expect(started.statusCode, started.body).toBe(200);
  const p = started.json() as Payment;
  const { rows } = await sql<{ instruction_id: string }>`SELECT instruction_id FROM payment WHERE id = ${p.id}`.execute(t.db.db);
  const instructionId = rows[0]!.instruction_id;
  swish.settle(instructionId, 'PAID');
  expect((await t.app.inject({ method: 'POST', url: '/api/greetie/paymentCallBack', payload: { id: instructionId, status: 'PAID' } })).statusCode).toBe(200);
  await sql`UPDATE delivery SET state = 'sent' WHERE greetie_id = ${g.id}`.execute(t.db.db);
  await sql`UPDATE greetie SET status = 'delivered', delivered_at = ${clock.now()} WHERE id = ${g.id}`.execute(t.db.db);
  const me = (await call(t.app, sender, 'GET', '/api/auth/my')).json() as { id: string };
  return { sender, userId: me.id, g, p, paymentReference: swish.store.get(instructionId)!.paymentReference! };
}

const refundPuts = (id: string) => swish.requests.filter((r) => r.method === 'PUT' && r.path === `/api/v2/refunds/${id}`);

describe('the Swish adapter: refunds', () => {
  it('creates a refund as Swish documents it, reads its status, and a repeat with the same id is the same refund', async () => {
    const { paymentReference } = await paidAndDelivered();
    const id = newInstructionId();
    const req = { instructionId: id, originalPaymentReference: paymentReference, amount: 14900, reference: 'R1', message: 'Återbetalning från Greetie' };
    await adapter.createRefund(req);
    const put = refundPuts(id)[0]!;
    expect(put.clientCn).toBeDefined();
    expect(JSON.parse(put.body)).toEqual({
      payerPaymentReference: 'R1',
      originalPaymentReference: paymentReference,
      callbackUrl: 'https://greetie.test/api/greetie/refundCallBack',
      payerAlias: '1231181189',
      amount: '149.00',
      currency: 'SEK',
      message: 'Återbetalning från Greetie',
    });
    expect(await adapter.refundStatus(id)).toMatchObject({ instructionId: id, status: 'pending', providerStatus: 'CREATED', amount: 14900 });
    // The same instruction id again (a retry after a crash): Swish refuses the duplicate, the adapter confirms it is ours.
    await expect(adapter.createRefund(req)).resolves.toMatchObject({ instructionId: id });
    expect(swish.refunds.size).toBeGreaterThanOrEqual(1);
    expect([...swish.refunds.values()].filter((r) => r.originalPaymentReference === paymentReference)).toHaveLength(1);
    // The same id for another amount is not this refund.
    await expect(adapter.createRefund({ ...req, amount: 100 })).rejects.toBeInstanceOf(PaymentError);
    swish.settleRefund(id, 'PAID');
    expect(await adapter.refundStatus(id)).toMatchObject({ status: 'paid' });
  });

  it("refusals carry Swish's codes: RF02 for an unknown payment, RF08 beyond what was paid", async () => {
    const unknown = await adapter
      .createRefund({ instructionId: newInstructionId(), originalPaymentReference: 'NOPE', amount: 100, reference: 'R2', message: 'x' })
      .catch((e: unknown) => e);
    expect(unknown).toMatchObject({ kind: 'invalid', codes: ['RF02'] });
    const { paymentReference } = await paidAndDelivered();
    const tooMuch = await adapter
      .createRefund({ instructionId: newInstructionId(), originalPaymentReference: paymentReference, amount: 15000, reference: 'R3', message: 'x' })
      .catch((e: unknown) => e);
    expect(tooMuch).toMatchObject({ kind: 'invalid', codes: ['RF08'] });
    expect(await adapter.refundStatus(newInstructionId()).catch((e: unknown) => e)).toMatchObject({ kind: 'notFound' });
  });
});

describe('a crash between Swish\'s refund and our write', () => {
  it('is recovered once by the reconciliation, with the same instruction id', async () => {
    const { userId, g, p } = await paidAndDelivered();
    const deps = { db: t.app.db, config: t.app.config, services: t.app.services };
    // The process "dies" the moment Swish has answered 201: nothing after that call runs.
    const dying: PaymentProvider = {
      ...adapter,
      name: adapter.name,
      create: adapter.create.bind(adapter),
      status: adapter.status.bind(adapter),
      cancel: adapter.cancel.bind(adapter),
      refundStatus: adapter.refundStatus.bind(adapter),
      createRefund: async (r) => {
        await adapter.createRefund(r);
        throw new Error('killed after Swish answered');
      },
    };
    await expect(cancelGreetie({ ...deps, services: { ...deps.services, payments: dying } }, userId, g.id)).rejects.toThrow('killed');
    const row = async () =>
      (await sql<{ id: string; status: string; instruction_id: string; attempts: number }>`SELECT id, status, instruction_id, attempts FROM refund WHERE payment_id = ${p.id}`.execute(t.db.db)).rows;
    const [written] = await row();
    expect(written).toMatchObject({ status: 'created', attempts: 1 });
    expect(swish.refunds.get(written!.instruction_id)?.status).toBe('CREATED');

    // Start-up (or any) pass: the refund is asked for again with the same id: still ONE refund at Swish.
    await reconcileRefunds(deps, { minAgeMs: 0 });
    expect(await row()).toEqual([expect.objectContaining({ status: 'pending', instruction_id: written!.instruction_id, attempts: 2 })]);
    expect(refundPuts(written!.instruction_id)).toHaveLength(2);
    const ofThisPayment = () => [...swish.refunds.values()].filter((r) => r.payerPaymentReference === written!.id.replaceAll('-', ''));
    expect(ofThisPayment()).toHaveLength(1);

    // Swish pays it and calls back (the body is not believed; the status is asked).
    swish.settleRefund(written!.instruction_id, 'PAID');
    expect((await t.app.inject({ method: 'POST', url: '/api/greetie/refundCallBack', payload: { id: written!.instruction_id } })).statusCode).toBe(200);
    expect((await row())[0]).toMatchObject({ status: 'paid' });
    // Later passes and callbacks do nothing more.
    clock.advance(60 * 60_000);
    await reconcileRefunds(deps, { minAgeMs: 0 });
    expect((await t.app.inject({ method: 'POST', url: '/api/greetie/refundCallBack', payload: { id: written!.instruction_id } })).statusCode).toBe(200);
    expect(await row()).toEqual([expect.objectContaining({ status: 'paid', attempts: 2 })]);
    expect(refundPuts(written!.instruction_id)).toHaveLength(2);
    expect(ofThisPayment()).toHaveLength(1);
    const payment = (await call(t.app, (await person(t.app)), 'GET', `/api/greetie/${g.id}/payment`));
    expect(payment.statusCode).toBe(404); // somebody else's
  });
});
