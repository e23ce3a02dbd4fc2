import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Greetie } from '../../../contract/greetie.ts';
import { createTestApp, type TestApp } from '../helpers.ts';
import { freshNumber } from '../auth/support.ts';
import { call, type Person } from '../greetie/support.ts';
import { draft, flakySms, outbox, row, send, sender, until, type FlakySms } from './support.ts';

/**
 * Delivery with the worker running in the app, as in production: a
 * scheduled greetie's SMS goes out at once or at deliverAt, within 5 s of its time; a failing SMS
 * gateway is retried with backoff, then the greetie is deliveryFailed for its sender to see.
 * Real PostgreSQL, real pg-boss; the SMS gateway is the sandbox outbox, made to fail on demand.
 */

let t: TestApp;
let sms: FlakySms;
let alice: Person;
let anonymous: Person;

beforeAll(async () => {
  t = await createTestApp({
    env: { DELIVERY_WORKER: 'on', DELIVERY_POLL_MS: '500', DELIVERY_RETRY_MS: '200', DELIVERY_ATTEMPTS: '3' },
  });
  sms = flakySms(t.app);
  alice = await sender(t.app, 'Alice Andersson');
  anonymous = await sender(t.app, null);
});
afterAll(async () => {
  await t.close();
});

const link = (refId: string) => `http://localhost:3000/greetie/view/${refId}`;

describe('a greetie sent without gifts', () => {
  it('is delivered within 5 s: one SMS with the sender’s name and the link, status delivered, deliveredAt', async () => {
    const to = freshNumber();
    const g = await draft(t.app, alice, to);
    const sentAt = Date.now();
    const res = await send(t.app, alice, g.id);
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as Greetie).status).toBe('scheduled');

    const after = await until(() => row(t.db.db, g.id), (r) => r.status === 'delivered');
    expect(after.status).toBe('delivered');
    expect(after.state).toBe('sent');
    expect(after.attempts).toBe(1);
    expect(after.delivered_at!.getTime() - sentAt).toBeLessThan(5000);
    expect(await outbox(t.db.db, to)).toEqual([`Alice Andersson har skickat en greetie till dig. Öppna: ${link(g.refId)}`]);

    // The sender sees it delivered, with its time.
    const read = (await call(t.app, alice, 'GET', `/api/greetie/${g.id}`)).json() as Greetie;
    expect(read.status).toBe('delivered');
    expect(read.deliveredAt).toBe(after.delivered_at!.toISOString());
  });

  it('is refused (409 SENDER_NAME_REQUIRED, nothing scheduled) while the sender has no name; sent once named', async () => {
    const to = freshNumber();
    const g = await draft(t.app, anonymous, to);
    const refused = await send(t.app, anonymous, g.id);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'SENDER_NAME_REQUIRED' });
    expect(refused.json().message).toMatch(/namn/);
    expect((await row(t.db.db, g.id)).status).toBe('draft');
    expect(await outbox(t.db.db, to)).toEqual([]);

    expect((await call(t.app, anonymous, 'POST', '/api/mobileuser', { name: 'Berit Berg' })).statusCode).toBe(200);
    expect((await send(t.app, anonymous, g.id)).statusCode).toBe(200);
    await until(() => row(t.db.db, g.id), (r) => r.status === 'delivered');
    expect(await outbox(t.db.db, to)).toEqual([`Berit Berg har skickat en greetie till dig. Öppna: ${link(g.refId)}`]);
  });

  it('the link’s refId is unguessable: at least 128 random bits', async () => {
    const g = await draft(t.app, alice, freshNumber());
    // base64url, 6 bits a character: 22 characters hold the 16 random bytes of newRefId.
    expect(g.refId).toMatch(/^[A-Za-z0-9_-]{22,}$/);
    expect(g.refId.length * 6).toBeGreaterThanOrEqual(128);
  });
});

describe('deliverAt in the future', () => {
  it('is held until its time, then delivered within 5 s of it', async () => {
    const to = freshNumber();
    const deliverAt = new Date(Date.now() + 2500);
    const g = await draft(t.app, alice, to, { deliverAt: deliverAt.toISOString() });
    expect((await send(t.app, alice, g.id)).statusCode).toBe(200);

    // Well before its time (the worker polls every 500 ms): still scheduled, nothing sent.
    await new Promise((r) => setTimeout(r, 1200));
    expect((await row(t.db.db, g.id)).status).toBe('scheduled');
    expect(await outbox(t.db.db, to)).toEqual([]);

    const after = await until(() => row(t.db.db, g.id), (r) => r.status === 'delivered');
    expect(after.status).toBe('delivered');
    const late = after.delivered_at!.getTime() - deliverAt.getTime();
    expect(late).toBeGreaterThanOrEqual(-1000); // the database's clock may differ from ours by a little
    expect(late).toBeLessThan(5000);
    expect(await outbox(t.db.db, to)).toHaveLength(1);
  });
});

describe('a failing SMS gateway', () => {
  it('is retried with backoff, and the greetie delivered once it answers', async () => {
    const to = freshNumber();
    const g = await draft(t.app, alice, to);
    sms.failures = 2;
    expect((await send(t.app, alice, g.id)).statusCode).toBe(200);
    const after = await until(() => row(t.db.db, g.id), (r) => r.status === 'delivered');
    expect(after.status).toBe('delivered');
    expect(after.attempts).toBe(3);
    expect(await outbox(t.db.db, to)).toHaveLength(1);
  });

  it('after the last attempt: deliveryFailed, which the sender sees; nothing was sent', async () => {
    const to = freshNumber();
    const g = await draft(t.app, alice, to);
    sms.failures = 1000;
    try {
      expect((await send(t.app, alice, g.id)).statusCode).toBe(200);
      const after = await until(() => row(t.db.db, g.id), (r) => r.status === 'deliveryFailed');
      expect(after).toMatchObject({ status: 'deliveryFailed', state: 'failed', attempts: 3, last_error: 'unavailable', delivered_at: null });
    } finally {
      sms.failures = 0;
    }
    expect(await outbox(t.db.db, to)).toEqual([]);
    const read = (await call(t.app, alice, 'GET', `/api/greetie/${g.id}`)).json() as Greetie;
    expect(read.status).toBe('deliveryFailed');
  });
});
