import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Greetie } from '../../../contract/greetie.ts';
import type { Payment } from '../../../contract/payment.ts';
import { transaction } from '../../../server/db/index.ts';
import { deliverOne, reconcile, scheduleDelivery, type DeliveryDeps } from '../../../server/delivery/rules.ts';
import { QUEUE } from '../../../server/db/migrations/008_delivery.ts';
import { createTestApp, testConfig, type TestApp } from '../helpers.ts';
import { freshNumber } from '../auth/support.ts';
import { call, catalogue, type Catalogue, type Person } from '../greetie/support.ts';
import { crashedDelivery, draft, flakySms, outbox, row, send, sender, type FlakySms } from './support.ts';

/**
 * Delivery's rules without the worker (DELIVERY_WORKER off), each step called by hand: a paid
 * greetie's delivery sets its vouchers' expiry; a job that runs twice sends once; a row a crashed
 * worker left in `sending` is reconciled without a second SMS; scheduling commits or rolls back
 * with the transaction that schedules.
 */

let t: TestApp;
let sms: FlakySms;
let deps: DeliveryDeps;
let alice: Person;
let products: Catalogue;

beforeAll(async () => {
  t = await createTestApp();
  sms = flakySms(t.app);
  deps = { db: t.app.db, config: t.app.config, services: t.app.services };
  alice = await sender(t.app, 'Alice');
  products = await catalogue(t.db.db);
});
afterAll(async () => {
  await t.close();
});

async function scheduled(to = freshNumber(), who = alice): Promise<{ g: Greetie; to: string }> {
  const g = await draft(t.app, who, to);
  expect((await send(t.app, who, g.id)).statusCode).toBe(200);
  return { g, to };
}

async function jobs(greetieId: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pgboss.job WHERE name = ${QUEUE} AND data->>'greetieId' = ${greetieId}`.execute(t.db.db);
  return rows[0]!.n;
}

describe('scheduling', () => {
  it('POST /send writes the delivery row and its job with the greetie scheduled', async () => {
    const { g } = await scheduled();
    expect(await row(t.db.db, g.id)).toMatchObject({ status: 'scheduled', state: 'pending', attempts: 0 });
    expect(await jobs(g.id)).toBe(1);
  });

  it('rolls back with the transaction that schedules: no row and no job', async () => {
    const g = await draft(t.app, alice, freshNumber());
    await expect(
      transaction(t.db.db, async (tx) => {
        await sql`UPDATE greetie SET status = 'scheduled' WHERE id = ${g.id}`.execute(tx);
        await scheduleDelivery(tx, deps, g.id);
        throw new Error('the request failed after scheduling');
      }),
    ).rejects.toThrow('the request failed');
    expect(await row(t.db.db, g.id)).toMatchObject({ status: 'draft', state: null });
    expect(await jobs(g.id)).toBe(0);
  });

  it('a paid greetie is scheduled with its delivery; at delivery its vouchers expire validDays later', async () => {
    const to = freshNumber();
    const created = await call(t.app, alice, 'POST', '/api/greetie/createv2', {
      recipient: { mobileNumber: to, name: 'Bob' },
      gifts: [{ productId: products.fixed }, { productId: products.value, amount: 20000 }],
    });
    expect(created.statusCode, created.body).toBe(200);
    const g = created.json() as Greetie;
    const started = await call(t.app, alice, 'POST', `/api/greetie/${g.id}/startpayment`, { withdrawalConsent: true });
    expect(started.statusCode, started.body).toBe(200);
    const settled = await t.app.inject({ method: 'POST', url: `/api/sandbox/payments/${(started.json() as Payment).id}`, payload: { outcome: 'paid' } });
    expect(settled.statusCode, settled.body).toBe(200);
    expect(await row(t.db.db, g.id)).toMatchObject({ status: 'scheduled', state: 'pending' });
    expect(await jobs(g.id)).toBe(1);
    const before = await sql<{ expires_at: Date | null }>`SELECT expires_at FROM voucher WHERE greetie_id = ${g.id}`.execute(t.db.db);
    expect(before.rows.map((v) => v.expires_at)).toEqual([null, null]);

    expect(await deliverOne(deps, g.id)).toBe('delivered');
    const after = await row(t.db.db, g.id);
    expect(after.status).toBe('delivered');
    const { rows } = await sql<{ expires_at: Date; valid_days: number }>`
      SELECT v.expires_at, p.valid_days FROM voucher v JOIN product p ON p.id = v.product_id WHERE v.greetie_id = ${g.id}`.execute(t.db.db);
    expect(rows).toHaveLength(2);
    for (const v of rows) expect(v.expires_at.getTime()).toBe(after.delivered_at!.getTime() + v.valid_days * 86_400_000);
    // The SMS names the sender and says a gift is inside.
    expect(await outbox(t.db.db, to)).toEqual([`Alice har skickat en greetie med en present till dig. Öppna: http://localhost:3000/greetie/view/${g.refId}`]);
  });

  it('startpayment answers 409 SENDER_NAME_REQUIRED while the sender has no name: no payment, still a draft', async () => {
    const nameless = await sender(t.app, null);
    const created = await call(t.app, nameless, 'POST', '/api/greetie/createv2', {
      recipient: { mobileNumber: freshNumber(), name: 'Bob' },
      gifts: [{ productId: products.fixed }],
    });
    expect(created.statusCode, created.body).toBe(200);
    const g = created.json() as Greetie;
    const refused = await call(t.app, nameless, 'POST', `/api/greetie/${g.id}/startpayment`, { withdrawalConsent: true });
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'SENDER_NAME_REQUIRED', message: 'Skriv ditt namn innan du skickar, så att mottagaren vet vem greetien är från.' });
    const { rows: payments } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM payment WHERE greetie_id = ${g.id}`.execute(t.db.db);
    expect(payments[0]!.n).toBe(0);
    expect(((await call(t.app, nameless, 'GET', `/api/greetie/${g.id}`)).json() as Greetie).status).toBe('draft');

    expect((await call(t.app, nameless, 'POST', '/api/mobileuser', { name: 'Berit' })).statusCode).toBe(200);
    const started = await call(t.app, nameless, 'POST', `/api/greetie/${g.id}/startpayment`, { withdrawalConsent: true });
    expect(started.statusCode, started.body).toBe(200);
  });
});

describe('never twice', () => {
  it('a job run twice, or by several workers at once, sends one SMS', async () => {
    const { g, to } = await scheduled();
    const outcomes = await Promise.all(Array.from({ length: 8 }, () => deliverOne(deps, g.id)));
    expect(outcomes.filter((o) => o === 'delivered')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'skipped')).toHaveLength(7);
    expect(await deliverOne(deps, g.id)).toBe('skipped');
    expect(await outbox(t.db.db, to)).toHaveLength(1);
  });

  it('a greetie due later is not sent early by a stray job', async () => {
    const to = freshNumber();
    const g = await draft(t.app, alice, to, { deliverAt: new Date(Date.now() + 60 * 60_000).toISOString() });
    expect((await send(t.app, alice, g.id)).statusCode).toBe(200);
    expect(await deliverOne(deps, g.id)).toBe('skipped');
    expect(await row(t.db.db, g.id)).toMatchObject({ status: 'scheduled', state: 'pending', attempts: 0 });
    expect(await outbox(t.db.db, to)).toEqual([]);
  });
});

describe('a row left in sending (the worker’s process died between its claim and its finish)', () => {
  /** A scheduled greetie whose worker claimed it 10 minutes ago and never came back. */
  async function crashed(opts: { smsWentOut: boolean; who?: Person }) {
    const { g, to } = await scheduled(freshNumber(), opts.who);
    const since = await crashedDelivery(deps, g.id, opts);
    expect(await outbox(t.db.db, to)).toHaveLength(opts.smsWentOut ? 1 : 0);
    return { g, to, since };
  }

  it('the SMS went out (the outbox says so): delivered as of the claim, no second SMS', async () => {
    const { g, to, since } = await crashed({ smsWentOut: true });
    const result = await t.app.services.delivery.reconcile();
    expect(result.resolved).toBeGreaterThanOrEqual(1);
    expect(await row(t.db.db, g.id)).toMatchObject({ status: 'delivered', state: 'sent', delivered_at: since });
    expect(await outbox(t.db.db, to)).toHaveLength(1);
  });

  it('the SMS never went out: sent now, once', async () => {
    const { g, to } = await crashed({ smsWentOut: false });
    sms.calls = 0;
    await t.app.services.delivery.reconcile();
    // Back to pending with its retry job; the attempt is made when that job (or this call) runs.
    expect(await row(t.db.db, g.id)).toMatchObject({ status: 'scheduled', state: 'pending', attempts: 1, last_error: 'interrupted' });
    expect(await deliverOne(deps, g.id, { dueBy: new Date(Date.now() + 24 * 3600_000) })).toBe('delivered');
    expect(await row(t.db.db, g.id)).toMatchObject({ status: 'delivered', state: 'sent', attempts: 2 });
    expect(await outbox(t.db.db, to)).toHaveLength(1);
    expect(sms.calls).toBe(1);
  });

  it('a provider that cannot tell: taken as delivered (sending twice is what the row prevents), nothing sent again', async () => {
    const { g, to } = await crashed({ smsWentOut: false });
    sms.canConfirm = false;
    sms.calls = 0;
    try {
      await t.app.services.delivery.reconcile();
    } finally {
      sms.canConfirm = true;
    }
    expect(await row(t.db.db, g.id)).toMatchObject({ status: 'delivered', state: 'sent' });
    expect(sms.calls).toBe(0);
    expect(await outbox(t.db.db, to)).toEqual([]);
  });

  it('a row in sending for less than the lease is left to its worker', async () => {
    const { g } = await scheduled();
    await sql`UPDATE delivery SET state = 'sending', sending_since = now(), attempts = 1 WHERE greetie_id = ${g.id}`.execute(t.db.db);
    await t.app.services.delivery.reconcile();
    expect(await row(t.db.db, g.id)).toMatchObject({ status: 'scheduled', state: 'sending' });
  });

  it('the SMS fixed at the claim is kept only while the outcome is unknown', async () => {
    const { g, to } = await crashed({ smsWentOut: true });
    const { rows } = await sql<{ sms_to: string; sms_body: string }>`SELECT sms_to, sms_body FROM delivery WHERE greetie_id = ${g.id}`.execute(t.db.db);
    expect(rows[0]).toEqual({ sms_to: to, sms_body: (await outbox(t.db.db, to))[0] });
    await t.app.services.delivery.reconcile();
    const after = await sql<{ sms_to: string | null; sms_body: string | null }>`SELECT sms_to, sms_body FROM delivery WHERE greetie_id = ${g.id}`.execute(t.db.db);
    expect(after.rows[0]).toEqual({ sms_to: null, sms_body: null });
  });

  // The sweep confirms the SMS fixed at the claim, not a text built again from today's data, which a
  // rename, a removed account or another process's PUBLIC_URL would change (not found: sent twice).
  describe('what changed between the crash and the sweep does not send it again', () => {
    const changes: { what: string; change: (who: Person) => Promise<DeliveryDeps> }[] = [
      {
        what: 'the sender renamed themselves',
        change: async (who) => {
          expect((await call(t.app, who, 'POST', '/api/mobileuser', { name: 'Bertil' })).statusCode).toBe(200);
          return deps;
        },
      },
      {
        what: 'the sender removed their account',
        change: async (who) => {
          expect((await call(t.app, who, 'DELETE', '/api/mobileuser/remove')).statusCode).toBe(204);
          return deps;
        },
      },
      {
        what: 'the sweeping process has another PUBLIC_URL',
        change: async () => ({ ...deps, config: { ...deps.config, publicUrl: 'https://annan.greetie.example' } }),
      },
    ];
    for (const { what, change } of changes) {
      it(`${what}: delivered, exactly one SMS`, async () => {
        const who = await sender(t.app, 'Alice');
        const { g, to, since } = await crashed({ smsWentOut: true, who });
        const sweeper = await change(who);
        await reconcile(sweeper);
        // Whatever a later job or sweep does, nothing goes out again.
        await deliverOne(sweeper, g.id, { dueBy: new Date(Date.now() + 24 * 3600_000) });
        await reconcile(sweeper);
        expect(await outbox(t.db.db, to)).toHaveLength(1);
        expect(await row(t.db.db, g.id)).toMatchObject({ status: 'delivered', state: 'sent', delivered_at: since, attempts: 1 });
      });
    }

    it('and when the SMS never went out, the new attempt is one SMS', async () => {
      const who = await sender(t.app, 'Alice');
      const { g, to } = await crashed({ smsWentOut: false, who });
      expect((await call(t.app, who, 'POST', '/api/mobileuser', { name: 'Bertil' })).statusCode).toBe(200);
      await reconcile(deps);
      expect(await deliverOne(deps, g.id, { dueBy: new Date(Date.now() + 24 * 3600_000) })).toBe('delivered');
      expect(await outbox(t.db.db, to)).toEqual([expect.stringMatching(/^Bertil har skickat/)]);
    });
  });

  // The lease is a setting (DELIVERY_LEASE_MS), not a fixed 120 s.
  it('a claimed-but-abandoned delivery is picked up once DELIVERY_LEASE_MS has passed, not before', async () => {
    const config = testConfig({ DELIVERY_LEASE_MS: '20000' });
    expect(config.delivery.leaseMs).toBe(20_000);
    const { g, to } = await scheduled();
    const since = await crashedDelivery(deps, g.id, { smsWentOut: false, agedMs: 0 });
    const at = (ms: number): DeliveryDeps => ({ ...deps, config, services: { ...deps.services, now: () => new Date(since.getTime() + ms) } });
    await reconcile(at(19_000));
    expect(await row(t.db.db, g.id)).toMatchObject({ status: 'scheduled', state: 'sending' });
    await reconcile(at(21_000));
    expect(await row(t.db.db, g.id)).toMatchObject({ status: 'scheduled', state: 'pending', last_error: 'interrupted' });
    expect(await deliverOne(deps, g.id, { dueBy: new Date(Date.now() + 24 * 3600_000) })).toBe('delivered');
    expect(await outbox(t.db.db, to)).toHaveLength(1);
  });

  it('a pending row long overdue (its job lost) is delivered by the sweep', async () => {
    const { g, to } = await scheduled();
    await sql`DELETE FROM pgboss.job WHERE name = ${QUEUE} AND data->>'greetieId' = ${g.id}`.execute(t.db.db);
    await sql`UPDATE delivery SET due_at = now() - interval '1 minute' WHERE greetie_id = ${g.id}`.execute(t.db.db);
    await t.app.services.delivery.reconcile();
    expect(await row(t.db.db, g.id)).toMatchObject({ status: 'delivered', state: 'sent' });
    expect(await outbox(t.db.db, to)).toHaveLength(1);
  });
});
