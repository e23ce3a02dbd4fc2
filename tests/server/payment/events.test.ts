import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { Value } from 'typebox/value';
import type { Greetie } from '../../../contract/greetie.ts';
import { Payment } from '../../../contract/payment.ts';
import { buildApp } from '../../../server/app.ts';
import { createTestDb, testConfig, type TestDb } from '../helpers.ts';
import { call, catalogue, person, type Catalogue, type Person } from '../greetie/support.ts';

/**
 * GET /greetie/{id}/payment/events (decision 116) between two real processes' apps on one
 * database, both listening: the provider's callback lands on A, the page's stream is held by B
 * and hears of it through PostgreSQL's NOTIFY. Final statuses end the stream; a stream opened
 * after one answers at once; only the sender may open it; a user holds at most a few.
 */

let db: TestDb;
let a: FastifyInstance;
let b: FastifyInstance;
let base: string;
let products: Catalogue;
let alice: Person;
let bob: Person;

beforeAll(async () => {
  db = await createTestDb();
  a = await buildApp(testConfig(), { db: db.db, databaseUrl: db.url });
  b = await buildApp(testConfig(), { db: db.db, databaseUrl: db.url });
  await a.ready();
  await b.ready();
  base = await b.listen({ port: 0, host: '127.0.0.1' });
  products = await catalogue(db.db);
  alice = await person(a);
  bob = await person(a);
});
afterAll(async () => {
  // The test's own fetch pool may keep a connection to B that never became idle on B's side
  // (an aborted stream's spare); every stream has ended by now (checked in each test).
  b?.server.closeAllConnections();
  await b?.close();
  await a?.close();
  await db?.drop();
});

async function started(): Promise<Payment> {
  const res = await call(a, alice, 'POST', '/api/greetie/createv2', {
    gifts: [{ productId: products.fixed }],
    recipient: { mobileNumber: bob.mobileNumber, name: 'Bob' },
  });
  expect(res.statusCode, res.body).toBe(200);
  const g = res.json() as Greetie;
  const p = await call(a, alice, 'POST', `/api/greetie/${g.id}/startpayment`, { withdrawalConsent: true });
  expect(p.statusCode, p.body).toBe(200);
  return p.json() as Payment;
}

/** A stream read event by event, as a browser's fetch reads it. */
async function open(greetieId: string, who: Person | undefined = alice) {
  const controller = new AbortController();
  const res = await fetch(`${base}/api/greetie/${greetieId}/payment/events`, { headers: { ...(who?.auth ?? {}) }, signal: controller.signal });
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let done = false;
  const events: { event: string; data: string }[] = [];
  const comments: string[] = [];
  const pump = (async () => {
    try {
      for (;;) {
        const chunk = await reader.read();
        if (chunk.done) break;
        buffer += chunk.value;
        let at: number;
        while ((at = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, at);
          buffer = buffer.slice(at + 2);
          const lines = block.split('\n');
          const event = lines.find((l) => l.startsWith('event: '))?.slice(7);
          const data = lines.find((l) => l.startsWith('data: '))?.slice(6);
          if (event && data) events.push({ event, data });
          for (const l of lines) if (l.startsWith(':')) comments.push(l);
        }
      }
    } catch {
      // aborted
    }
    done = true;
  })();
  const payments = () => events.filter((e) => e.event === 'payment').map((e) => JSON.parse(e.data) as Payment);
  return { res, payments, comments, ended: () => done, pump, abort: () => controller.abort() };
}

async function until(what: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!what()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('the payment events stream', () => {
  it('B, listening, hears of the callback that landed on A; the paid payment ends the stream', async () => {
    expect(b.paymentEvents.stats().listening).toBe(true);
    const p = await started();
    const s = await open(p.greetieId);
    expect(s.res.status).toBe(200);
    expect(s.res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    await until(() => s.payments().length === 1);
    expect(s.payments()[0]).toMatchObject({ id: p.id, status: 'pending', orderNumber: p.orderNumber });
    // Nothing to pay with in the stream: the token, the app link and the QR code stay on the page.
    expect(s.payments()[0]).toMatchObject({ token: null, appUrl: null, qrCode: null });
    expect(Value.Check(Payment, s.payments()[0])).toBe(true);
    // B would only read the payment again every minute without NOTIFY: the event proves it heard.
    b.paymentEvents.times.checkMs = 60_000;
    const settled = await a.inject({ method: 'POST', url: `/api/sandbox/payments/${p.id}`, payload: { outcome: 'paid' } });
    expect(settled.statusCode, settled.body).toBe(200);
    await until(() => s.ended(), 3000);
    expect(s.payments().map((x) => x.status)).toEqual(['pending', 'paid']);
    expect(b.paymentEvents.stats().streams).toBe(0);
  });

  it('a stream opened after a final status answers at once with it and ends', async () => {
    const p = await started();
    await a.inject({ method: 'POST', url: `/api/sandbox/payments/${p.id}`, payload: { outcome: 'declined' } });
    const s = await open(p.greetieId);
    await s.pump;
    expect(s.payments()).toHaveLength(1);
    expect(s.payments()[0]).toMatchObject({ id: p.id, status: 'declined', errorCode: 'RF07' });
  });

  it('sends heartbeat comments while nothing happens', async () => {
    b.paymentEvents.times.heartbeatMs = 50;
    try {
      const p = await started();
      const s = await open(p.greetieId);
      await until(() => s.comments.length >= 2);
      expect(s.comments[0]).toBe(': hb');
      s.abort();
      await s.pump;
      await until(() => b.paymentEvents.stats().streams === 0);
    } finally {
      b.paymentEvents.times.heartbeatMs = 15_000;
    }
  });

  it('only the sender: 401 signed out, 404 to anybody else, 404 PAYMENT_NOT_FOUND before any payment', async () => {
    const p = await started();
    const anon = await b.inject({ method: 'GET', url: `/api/greetie/${p.greetieId}/payment/events` });
    expect(anon.statusCode).toBe(401);
    const other = await call(b, bob, 'GET', `/api/greetie/${p.greetieId}/payment/events`);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toMatchObject({ code: 'GREETIE_NOT_FOUND' });
    const draft = await call(a, alice, 'POST', '/api/greetie/createv2', { gifts: [{ productId: products.fixed }] });
    const none = await call(b, alice, 'GET', `/api/greetie/${(draft.json() as Greetie).id}/payment/events`);
    expect(none.statusCode).toBe(404);
    expect(none.json()).toMatchObject({ code: 'PAYMENT_NOT_FOUND' });
    const bad = await call(b, alice, 'GET', `/api/greetie/not-a-uuid/payment/events`);
    expect(bad.statusCode).toBe(400);
  });

  it('at most maxPerUser open streams per user: the next is 429 PAYMENT_STREAMS_LIMIT; closing one frees its place', async () => {
    const p = await started();
    const streams = [];
    for (let i = 0; i < b.paymentEvents.maxPerUser; i++) {
      const s = await open(p.greetieId);
      expect(s.res.status).toBe(200);
      streams.push(s);
    }
    const refused = await call(b, alice, 'GET', `/api/greetie/${p.greetieId}/payment/events`);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'PAYMENT_STREAMS_LIMIT' });
    // Another user is not limited by alice's streams.
    const carl = await person(a);
    const theirs = await call(b, carl, 'GET', `/api/greetie/${p.greetieId}/payment/events`);
    expect(theirs.statusCode).toBe(404);
    streams[0]!.abort();
    await streams[0]!.pump;
    await until(() => b.paymentEvents.stats().streams === b.paymentEvents.maxPerUser - 1);
    const again = await open(p.greetieId);
    expect(again.res.status).toBe(200);
    for (const s of [...streams.slice(1), again]) s.abort();
    await until(() => b.paymentEvents.stats().streams === 0);
  });

  it('without LISTEN the stream reads the payment on its own (the fallback)', async () => {
    const p = await started();
    // An app without a database URL never listens: its streams check every checkMs.
    const c = await buildApp(testConfig(), { db: db.db });
    await c.ready();
    c.paymentEvents.times.checkMs = 50;
    const url = await c.listen({ port: 0, host: '127.0.0.1' });
    try {
      expect(c.paymentEvents.stats().listening).toBe(false);
      const res = await fetch(`${url}/api/greetie/${p.greetieId}/payment/events`, { headers: alice.auth });
      const text = res.text();
      await new Promise((r) => setTimeout(r, 100));
      await a.inject({ method: 'POST', url: `/api/sandbox/payments/${p.id}`, payload: { outcome: 'paid' } });
      const body = await text;
      expect(body.match(/"status":"(\w+)"/g)).toEqual(['"status":"pending"', '"status":"paid"']);
    } finally {
      await c.close();
    }
  });

  it('the order number: "G-" and a sequence number, unique, in the Swish message', async () => {
    const p1 = await started();
    const p2 = await started();
    expect(p1.orderNumber).toMatch(/^G-\d{6,}$/);
    expect(Number(p2.orderNumber.slice(2))).toBeGreaterThan(Number(p1.orderNumber.slice(2)));
    const { rows } = await sql<{ message: string }>`
      SELECT r.message FROM sandbox_payment_request r JOIN payment p ON p.instruction_id = r.instruction_id WHERE p.id = ${p1.id}`.execute(db.db);
    expect(rows[0]!.message).toBe(`Greetie ${p1.orderNumber} till Bob`);
    const dup = sql`UPDATE payment SET order_number = ${p1.orderNumber} WHERE id = ${p2.id}`.execute(db.db);
    await expect(dup).rejects.toThrow(/payment_order_number_unique/);
  });
});
