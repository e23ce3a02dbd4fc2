import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import type { Greetie } from '../../../contract/greetie.ts';
import type { Payment, SandboxRefund } from '../../../contract/payment.ts';
import { buildApp } from '../../../server/app.ts';
import { deliverOne } from '../../../server/delivery/rules.ts';
import { reconcileRefunds } from '../../../server/payment/refunds.ts';
import { testConfig } from '../helpers.ts';
import { call, catalogue, freshNumber, greetieTestApp, person, type Catalogue, type Person } from '../greetie/support.ts';

/**
 * Cancelling a greetie and its refund, on real PostgreSQL with the sandbox provider (decision
 * 085): what a cancel does to the link, the vouchers and the delivery; one refund per payment
 * whatever arrives twice (20 cancels at once, callbacks repeated or forged); a failed refund
 * retried as the same refund; the unclaimed-refund sweep with two app instances on one database.
 */

type T = Awaited<ReturnType<typeof greetieTestApp>>;
let t: T;
let products: Catalogue;
let deps: Parameters<typeof reconcileRefunds>[0];
const DAY = 24 * 60 * 60_000;

beforeAll(async () => {
  t = await greetieTestApp();
  products = await catalogue(t.db.db);
  deps = { db: t.app.db, config: t.app.config, services: t.app.services };
});
afterAll(async () => {
  await t.close();
});

/** A paid greetie of `sender`'s to a fresh number (scheduled, its delivery pending). */
async function paid(sender: Person, opts: { deliverAt?: string; recipient?: string } = {}): Promise<{ g: Greetie; p: Payment; recipient: string }> {
  const recipient = opts.recipient ?? freshNumber();
  const created = await call(t.app, sender, 'POST', '/api/greetie/createv2', {
    recipient: { mobileNumber: recipient, name: 'Vän' },
    gifts: [{ productId: products.fixed }, { productId: products.value, amount: 20000 }],
    ...(opts.deliverAt ? { deliverAt: opts.deliverAt } : {}),
  });
  expect(created.statusCode, created.body).toBe(200);
  const g = created.json() as Greetie;
  const started = await call(t.app, sender, 'POST', `/api/greetie/${g.id}/startpayment`, { withdrawalConsent: true });
  expect(started.statusCode, started.body).toBe(200);
  const p = started.json() as Payment;
  const settled = await t.app.inject({ method: 'POST', url: `/api/sandbox/payments/${p.id}`, payload: { outcome: 'paid' } });
  expect(settled.statusCode, settled.body).toBe(200);
  expect((settled.json() as Payment).status).toBe('paid');
  return { g, p, recipient };
}

/** Delivered as the worker would leave it (the SMS sent, the vouchers' validity set). */
async function deliver(greetieId: string, at: Date = t.clock.now()): Promise<void> {
  await sql`UPDATE delivery SET state = 'sent' WHERE greetie_id = ${greetieId}`.execute(t.db.db);
  await sql`UPDATE greetie SET status = 'delivered', delivered_at = ${at} WHERE id = ${greetieId}`.execute(t.db.db);
  await sql`UPDATE voucher SET expires_at = ${new Date(at.getTime() + 365 * DAY)} WHERE greetie_id = ${greetieId}`.execute(t.db.db);
}

async function refunds(paymentId: string) {
  const { rows } = await sql<{ id: string; status: string; instruction_id: string; amount: number; attempts: number }>`
    SELECT id, status, instruction_id, amount, attempts FROM refund WHERE payment_id = ${paymentId}`.execute(t.db.db);
  return rows;
}

async function sandboxRefunds(instructionIds: string[]) {
  if (instructionIds.length === 0) return [];
  const { rows } = await sql<{ instruction_id: string; status: string; amount: number }>`
    SELECT instruction_id, status, amount FROM sandbox_refund WHERE instruction_id = ANY(${instructionIds})`.execute(t.db.db);
  return rows;
}

async function snapshot(): Promise<string> {
  const { rows } = await sql<{ s: string }>`
    SELECT (SELECT coalesce(json_agg(g ORDER BY g.id), '[]') FROM greetie g)::text || '|' ||
           (SELECT coalesce(json_agg(d ORDER BY d.greetie_id), '[]') FROM delivery d)::text || '|' ||
           (SELECT coalesce(json_agg(r ORDER BY r.id), '[]') FROM refund r)::text || '|' ||
           (SELECT coalesce(json_agg(s ORDER BY s.instruction_id), '[]') FROM sandbox_refund s)::text || '|' ||
           (SELECT coalesce(json_agg(v ORDER BY v.id), '[]') FROM voucher v)::text AS s`.execute(t.db.db);
  return rows[0]!.s;
}

function refundCallback(body: unknown) {
  return t.app.inject({ method: 'POST', url: '/api/greetie/refundCallBack', payload: body as Record<string, unknown> });
}

describe('POST /greetie/{id}/cancel', () => {
  it('a delivered, unopened greetie: cancelled, its link and vouchers gone, ONE refund of the whole amount', async () => {
    const sender = await person(t.app);
    const { g, p, recipient } = await paid(sender);
    await deliver(g.id);
    const friend = await person(t.app, recipient);
    expect((await call(t.app, friend, 'GET', '/api/voucher')).json()).toHaveLength(2);

    const res = await call(t.app, sender, 'POST', `/api/greetie/${g.id}/cancel`);
    expect(res.statusCode, res.body).toBe(200);
    const cancelled = res.json() as Greetie;
    expect(cancelled).toMatchObject({ status: 'cancelled', cancelledAt: t.clock.now().toISOString(), total: 34900, vouchers: [] });

    // The link, the recipient's reads and lists, the vouchers: 404 and gone.
    expect((await t.app.inject({ method: 'GET', url: `/api/greetie/byRef?refId=${g.refId}` })).statusCode).toBe(404);
    expect((await call(t.app, friend, 'GET', `/api/greetie/${g.id}`)).statusCode).toBe(404);
    expect((await call(t.app, friend, 'GET', '/api/voucher')).json()).toEqual([]);
    expect((await call(t.app, friend, 'GET', '/api/greetie')).json()).toEqual([]);
    expect((await call(t.app, sender, 'GET', `/api/greetie/${g.id}/vouchers`)).json()).toEqual([]);

    // The payment shows its refund, pending at the sandbox until settled there.
    const payment = (await call(t.app, sender, 'GET', `/api/greetie/${g.id}/payment`)).json() as Payment;
    expect(payment).toMatchObject({ status: 'paid', refund: { status: 'pending', amount: 34900 } });
    const listed = (await t.app.inject({ method: 'GET', url: '/api/sandbox/refunds' })).json() as SandboxRefund[];
    expect(listed.find((r) => r.paymentId === p.id)).toMatchObject({ id: payment.refund!.id, greetieId: g.id, amount: 34900, status: 'pending' });

    const settled = await t.app.inject({ method: 'POST', url: `/api/sandbox/refunds/${payment.refund!.id}`, payload: { outcome: 'paid' } });
    expect(settled.statusCode, settled.body).toBe(200);
    expect(settled.json()).toMatchObject({ status: 'paid' });
    expect(((await call(t.app, sender, 'GET', `/api/greetie/${g.id}/payment`)).json() as Payment).refund).toMatchObject({ status: 'paid' });
    // Settled once: the second time is 409.
    expect((await t.app.inject({ method: 'POST', url: `/api/sandbox/refunds/${payment.refund!.id}`, payload: { outcome: 'paid' } })).statusCode).toBe(409);

    // Cancelling again answers the same greetie and refunds nothing more.
    const again = await call(t.app, sender, 'POST', `/api/greetie/${g.id}/cancel`);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ status: 'cancelled', cancelledAt: cancelled.cancelledAt });
    const rows = await refunds(p.id);
    expect(rows).toHaveLength(1);
    expect(await sandboxRefunds(rows.map((r) => r.instruction_id))).toEqual([expect.objectContaining({ status: 'PAID', amount: 34900 })]);
  });

  it('20 concurrent cancels give one refund', async () => {
    const sender = await person(t.app);
    const { g, p } = await paid(sender);
    await deliver(g.id);
    const answers = await Promise.all(Array.from({ length: 20 }, () => call(t.app, sender, 'POST', `/api/greetie/${g.id}/cancel`)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(200));
    expect(new Set(answers.map((a) => (a.json() as Greetie).cancelledAt)).size).toBe(1);
    const rows = await refunds(p.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'pending', amount: 34900, attempts: 1 });
    expect(await sandboxRefunds(rows.map((r) => r.instruction_id))).toHaveLength(1);
  });

  it('a scheduled greetie: its delivery never goes out', async () => {
    const sender = await person(t.app);
    const deliverAt = new Date(t.clock.now().getTime() + 2 * DAY).toISOString();
    const { g, p, recipient } = await paid(sender, { deliverAt });
    const res = await call(t.app, sender, 'POST', `/api/greetie/${g.id}/cancel`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'cancelled' });
    // A worker running its job at (or after) the due time claims nothing and sends nothing.
    const outcome = await deliverOne({ ...deps, services: t.app.services }, g.id, { dueBy: new Date(t.clock.now().getTime() + 3 * DAY) });
    expect(outcome).toBe('skipped');
    const sms = (await t.app.inject({ method: 'GET', url: `/api/sandbox/sms?to=${encodeURIComponent(recipient)}` })).json() as unknown[];
    expect(sms).toEqual([]);
    const { rows } = await sql<{ state: string }>`SELECT state FROM delivery WHERE greetie_id = ${g.id}`.execute(t.db.db);
    expect(rows[0]!.state).toBe('cancelled');
    expect(await refunds(p.id)).toHaveLength(1);
  });

  it('a greetie without gifts is cancelled without a refund', async () => {
    const sender = await person(t.app);
    const created = await call(t.app, sender, 'POST', '/api/greetie', { recipient: { mobileNumber: freshNumber() }, message: 'Hej' });
    const g = created.json() as Greetie;
    expect((await call(t.app, sender, 'POST', `/api/greetie/${g.id}/send`)).statusCode).toBe(200);
    const res = await call(t.app, sender, 'POST', `/api/greetie/${g.id}/cancel`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'cancelled' });
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM refund WHERE greetie_id = ${g.id}`.execute(t.db.db);
    expect(rows[0]!.n).toBe(0);
  });

  it('bad inputs: 4xx and nothing changed', async () => {
    const sender = await person(t.app);
    const stranger = await person(t.app);
    const { g: viewed, recipient } = await paid(sender);
    await deliver(viewed.id);
    const friend = await person(t.app, recipient);
    expect((await call(t.app, friend, 'GET', `/api/greetie/${viewed.id}`)).statusCode).toBe(200); // opened
    const { g: used } = await paid(sender);
    await deliver(used.id);
    await sql`UPDATE voucher SET balance = balance - 1 WHERE id = (SELECT id FROM voucher WHERE greetie_id = ${used.id} LIMIT 1)`.execute(t.db.db);
    const draft = (await call(t.app, sender, 'POST', '/api/greetie', {})).json() as Greetie;
    const { g: mine } = await paid(sender);

    const before = await snapshot();
    const tries = [
      [await call(t.app, sender, 'POST', `/api/greetie/${viewed.id}/cancel`), 409, 'GREETIE_ALREADY_OPENED'],
      [await call(t.app, sender, 'POST', `/api/greetie/${used.id}/cancel`), 409, 'GREETIE_ALREADY_OPENED'],
      [await call(t.app, sender, 'POST', `/api/greetie/${draft.id}/cancel`), 409, 'GREETIE_NOT_CANCELLABLE'],
      [await call(t.app, stranger, 'POST', `/api/greetie/${mine.id}/cancel`), 404, 'GREETIE_NOT_FOUND'],
      [await call(t.app, friend, 'POST', `/api/greetie/${viewed.id}/cancel`), 404, 'GREETIE_NOT_FOUND'],
      [await call(t.app, undefined, 'POST', `/api/greetie/${mine.id}/cancel`), 401, undefined],
      [await call(t.app, sender, 'POST', '/api/greetie/not-a-uuid/cancel'), 400, undefined],
      [await call(t.app, sender, 'POST', '/api/greetie/00000000-0000-4000-8000-000000000000/cancel'), 404, 'GREETIE_NOT_FOUND'],
    ] as const;
    for (const [res, status, code] of tries) {
      expect(res.statusCode, res.body).toBe(status);
      const body = res.json() as { code: string; message: string };
      if (code) expect(body.code).toBe(code);
      expect(body.message).toBeTruthy();
    }
    expect(await snapshot()).toBe(before);
  });
});

describe('POST /greetie/refundCallBack', () => {
  it('a duplicated or forged callback changes nothing', async () => {
    const sender = await person(t.app);
    const { g, p } = await paid(sender);
    await deliver(g.id);
    expect((await call(t.app, sender, 'POST', `/api/greetie/${g.id}/cancel`)).statusCode).toBe(200);
    const [refund] = await refunds(p.id);

    // Forged: the body says PAID, the sandbox still has it CREATED.
    const before = await snapshot();
    for (const body of [
      { id: refund!.instruction_id, status: 'PAID', amount: 349 },
      { id: 'FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF', status: 'PAID' },
      { id: 'not-an-id', status: 'PAID' },
    ]) {
      expect((await refundCallback(body)).statusCode).toBe(200);
    }
    expect(await snapshot()).toBe(before);
    expect((await refundCallback({ status: 'PAID' })).statusCode).toBe(400);
    expect(await snapshot()).toBe(before);

    // The real one, then the same callback four more times.
    const settled = await t.app.inject({ method: 'POST', url: `/api/sandbox/refunds/${refund!.id}`, payload: { outcome: 'paid' } });
    expect(settled.json()).toMatchObject({ status: 'paid' });
    const after = await snapshot();
    t.clock.advance(60_000);
    for (let i = 0; i < 4; i++) expect((await refundCallback({ id: refund!.instruction_id, status: 'ERROR' })).statusCode).toBe(200);
    expect(await snapshot()).toBe(after);
  });

  it('a failed refund is shown, retried by the reconciliation as the same refund, and paid once', async () => {
    const sender = await person(t.app);
    const { g, p } = await paid(sender);
    await deliver(g.id);
    expect((await call(t.app, sender, 'POST', `/api/greetie/${g.id}/cancel`)).statusCode).toBe(200);
    const [refund] = await refunds(p.id);
    const failed = await t.app.inject({ method: 'POST', url: `/api/sandbox/refunds/${refund!.id}`, payload: { outcome: 'error' } });
    expect(failed.json()).toMatchObject({ status: 'error' });
    expect(((await call(t.app, sender, 'GET', `/api/greetie/${g.id}/payment`)).json() as Payment).refund).toMatchObject({ status: 'error' });

    // Not yet: an error is retried after REFUND_RETRY_MS.
    await reconcileRefunds(deps, { minAgeMs: 0 });
    expect((await refunds(p.id))[0]!.status).toBe('error');
    t.clock.advance(11 * 60_000);
    await reconcileRefunds(deps, { minAgeMs: 0 });
    const retried = await refunds(p.id);
    expect(retried).toEqual([expect.objectContaining({ status: 'pending', instruction_id: refund!.instruction_id, attempts: 2 })]);
    expect(await sandboxRefunds([refund!.instruction_id])).toEqual([expect.objectContaining({ status: 'CREATED' })]);

    expect((await t.app.inject({ method: 'POST', url: `/api/sandbox/refunds/${refund!.id}`, payload: { outcome: 'paid' } })).json()).toMatchObject({ status: 'paid' });
    t.clock.advance(11 * 60_000);
    await reconcileRefunds(deps, { minAgeMs: 0 });
    expect(await refunds(p.id)).toEqual([expect.objectContaining({ status: 'paid', attempts: 2 })]);
    expect(await sandboxRefunds([refund!.instruction_id])).toEqual([expect.objectContaining({ status: 'PAID', amount: 34900 })]);
  });
});

describe('UNCLAIMED_REFUND_AFTER', () => {
  it('with two app instances on one database: cancelled, refunded and the sender told once', async () => {
    const second: FastifyInstance = await buildApp(testConfig(), { db: t.db.db, services: { now: t.clock.now } });
    await second.ready();
    try {
      const sender = await person(t.app);
      const now = t.clock.now();
      const { g: old, p: oldPayment } = await paid(sender);
      await deliver(old.id, new Date(now.getTime() - 61 * DAY));
      const { g: young } = await paid(sender);
      await deliver(young.id, new Date(now.getTime() - 59 * DAY));
      const { g: opened, recipient } = await paid(sender);
      await deliver(opened.id, new Date(now.getTime() - 61 * DAY));
      expect((await call(t.app, await person(t.app, recipient), 'GET', `/api/greetie/${opened.id}`)).statusCode).toBe(200);

      const deps2 = { db: second.db, config: second.config, services: second.services };
      const results = await Promise.all([
        reconcileRefunds(deps, { minAgeMs: 0 }),
        reconcileRefunds(deps2, { minAgeMs: 0 }),
        reconcileRefunds(deps, { minAgeMs: 0 }),
        reconcileRefunds(deps2, { minAgeMs: 0 }),
      ]);
      expect(results.reduce((n, r) => n + r.unclaimed, 0)).toBe(1);

      const status = async (id: string) => (await sql<{ status: string }>`SELECT status FROM greetie WHERE id = ${id}`.execute(t.db.db)).rows[0]!.status;
      expect(await status(old.id)).toBe('cancelled');
      expect(await status(young.id)).toBe('delivered');
      expect(await status(opened.id)).toBe('delivered');
      const rows = await refunds(oldPayment.id);
      expect(rows).toEqual([expect.objectContaining({ status: 'pending', amount: 34900 })]);
      expect(await sandboxRefunds(rows.map((r) => r.instruction_id))).toHaveLength(1);
      const notes = (await call(t.app, sender, 'GET', '/api/mobileuser/notifications')).json() as { type: string; body: string; greetieId: string }[];
      const told = notes.filter((n) => n.type === 'refunded');
      expect(told).toHaveLength(1);
      expect(told[0]).toMatchObject({ greetieId: old.id });
      expect(told[0]!.body).toContain('349 kr');

      // Passes later change nothing more.
      await Promise.all([reconcileRefunds(deps, { minAgeMs: 0 }), reconcileRefunds(deps2, { minAgeMs: 0 })]);
      expect(await refunds(oldPayment.id)).toHaveLength(1);
    } finally {
      await second.close();
    }
  });

  it('off: nothing is cancelled', async () => {
    const sender = await person(t.app);
    const { g } = await paid(sender);
    await deliver(g.id, new Date(t.clock.now().getTime() - 400 * DAY));
    const off = { ...deps, config: testConfig({ UNCLAIMED_REFUND_AFTER: 'off' }) };
    expect(off.config.unclaimedRefundAfter).toBeNull();
    const r = await reconcileRefunds(off, { minAgeMs: 0 });
    expect(r.unclaimed).toBe(0);
    const { rows } = await sql<{ status: string }>`SELECT status FROM greetie WHERE id = ${g.id}`.execute(t.db.db);
    expect(rows[0]!.status).toBe('delivered');
  });
});

describe('the UNCLAIMED_REFUND_AFTER setting', () => {
  it('is an ISO-8601 duration (P60D by default) or off; anything else stops the start naming it', async () => {
    const { parseConfig } = await import('../../../server/config.ts');
    const base = { SANDBOX: 'on', TOKEN_SIGNING_KEY: 'test-signing-key-0123456789abcdef0123456789', DATA_DIR: '/tmp/greetie-test-data' };
    expect(testConfig().unclaimedRefundAfter?.iso).toBe('P60D');
    expect(testConfig({ UNCLAIMED_REFUND_AFTER: 'P1M' }).unclaimedRefundAfter?.parts.months).toBe(1);
    expect(testConfig({ UNCLAIMED_REFUND_AFTER: 'OFF' }).unclaimedRefundAfter).toBeNull();
    for (const bad of ['60 days', '60', 'PT0S', 'P-1D', 'P']) {
      const r = parseConfig({ ...base, UNCLAIMED_REFUND_AFTER: bad });
      expect(r.ok, bad).toBe(false);
      if (!r.ok) expect(r.errors.join('\n')).toContain('UNCLAIMED_REFUND_AFTER');
    }
  });
});
