import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Greetie } from '../../../contract/greetie.ts';
import { limitWait } from '../../../server/delivery/rules.ts';
import { parseConfig } from '../../../server/config.ts';
import { createTestApp, type TestApp } from '../helpers.ts';
import { TestClock, freshNumber } from '../auth/support.ts';
import { call, catalogue, greetieTables, person, type Catalogue } from '../greetie/support.ts';
import { draft, send, sender } from './support.ts';

/**
 * The sending limits: at most 20 greeties scheduled or delivered by a
 * sender in 24 hours and 3 of them to one number; beyond, 429 with Retry-After and a clear
 * message, checked at POST /send and at POST /startpayment (before money moves), changing nothing.
 * The real limits (the settings' defaults); the clock is the test's (services.now).
 */

let t: TestApp;
let clock: TestClock;
let products: Catalogue;

beforeAll(async () => {
  clock = new TestClock();
  t = await createTestApp({ env: { SEND_LIMIT_PER_DAY: '20', SEND_LIMIT_PER_RECIPIENT: '3' }, services: { now: clock.now } });
  products = await catalogue(t.db.db);
});
afterAll(async () => {
  await t.close();
});

async function payments(): Promise<number> {
  const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM payment`.execute(t.db.db);
  return rows[0]!.n;
}

async function deliveries(): Promise<number> {
  const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM delivery`.execute(t.db.db);
  return rows[0]!.n;
}

it('the settings default to 20 a day and 3 to one number', () => {
  const parsed = parseConfig({ SANDBOX: 'on' });
  expect(parsed.ok && parsed.config.delivery).toMatchObject({ limitPerDay: 20, limitPerRecipient: 3, worker: true, leaseMs: 30_000 });
  const bad = parseConfig({ SANDBOX: 'on', SEND_LIMIT_PER_DAY: 'many', DELIVERY_WORKER: 'maybe' });
  expect(bad.ok ? [] : bad.errors).toEqual([
    'DELIVERY_WORKER must be "on" or "off" (got "maybe")',
    'SEND_LIMIT_PER_DAY must be a whole number from 1 to 100000 (got "many")',
  ]);
  for (const v of ['14999', '30s', '-1', '3600001']) {
    const lease = parseConfig({ SANDBOX: 'on', DELIVERY_LEASE_MS: v });
    expect(lease.ok ? [] : lease.errors).toEqual([`DELIVERY_LEASE_MS must be a whole number from 15000 to 3600000 (got "${v}")`]);
  }
  const set = parseConfig({ SANDBOX: 'on', DELIVERY_LEASE_MS: '45000' });
  expect(set.ok && set.config.delivery.leaseMs).toBe(45_000);
});

it('Retry-After counts until enough of the day’s greeties have left the window', () => {
  const now = new Date('2026-11-21T12:00:00Z');
  const at = (h: number) => new Date(now.getTime() - h * 3600_000);
  expect(limitWait([at(5), at(1)], 0, 3, now)).toBe(0);
  expect(limitWait([at(5), at(3), at(1)], 0, 3, now)).toBe(19 * 3600);
  // A payment in progress may end without being paid within minutes: ask again in 5 at the most.
  expect(limitWait([at(1)], 2, 3, now)).toBe(300);
  expect(limitWait([], 3, 3, now)).toBe(300);
  expect(limitWait([at(23.99), at(1)], 1, 3, now)).toBe(36);
});

describe('3 to the same number', () => {
  it('the 4th /send to one number in 24 hours is 429 with Retry-After and a Swedish message; nothing changes; a day later it goes', async () => {
    const alice = await sender(t.app, 'Alice');
    const bob = freshNumber();
    for (let i = 0; i < 3; i++) {
      const g = await draft(t.app, alice, bob);
      expect((await send(t.app, alice, g.id)).statusCode).toBe(200);
      clock.advance(60_000);
    }
    const fourth = await draft(t.app, alice, bob);
    const before = await greetieTables(t.db.db);
    const count = await deliveries();
    const refused = await send(t.app, alice, fourth.id);
    expect(refused.statusCode).toBe(429);
    // The first of the three leaves the window 24 h after it was sent; 3 minutes have passed.
    expect(refused.headers['retry-after']).toBe(String(24 * 3600 - 180));
    expect(refused.json()).toEqual({
      code: 'SEND_LIMIT_PER_RECIPIENT',
      message: 'Du har skickat 3 greeties till det här numret det senaste dygnet, och fler än så går inte. Du kan skicka nästa dit om 24 timmar.',
    });
    expect(await greetieTables(t.db.db)).toBe(before);
    expect(await deliveries()).toBe(count);

    const english = await t.app.inject({ method: 'POST', url: `/api/greetie/${fourth.id}/send`, headers: { ...alice.auth, 'accept-language': 'en' } });
    expect(english.statusCode).toBe(429);
    expect(english.json().message).toBe(
      'You have sent 3 greeties to this number in the last 24 hours, which is as many as you can. You can send the next one to it in 24 hours.',
    );

    // Another number is fine; another sender to the same number is fine.
    const other = await draft(t.app, alice, freshNumber());
    expect((await send(t.app, alice, other.id)).statusCode).toBe(200);
    const carol = await sender(t.app, 'Carol');
    const fromCarol = await draft(t.app, carol, bob);
    expect((await send(t.app, carol, fromCarol.id)).statusCode).toBe(200);

    clock.advance(24 * 3600_000 - 180_000);
    const again = await person(t.app, alice.mobileNumber); // the morning's access token has expired
    expect((await send(t.app, again, fourth.id)).statusCode).toBe(200);
  });

  it('concurrent sends to one number: exactly 3 get through', async () => {
    const alice = await sender(t.app, 'Alice');
    const bob = freshNumber();
    const drafts = await Promise.all(Array.from({ length: 6 }, () => draft(t.app, alice, bob)));
    const answers = await Promise.all(drafts.map((g) => send(t.app, alice, g.id)));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 200, 200, 429, 429, 429]);
  });
});

describe('20 a day', () => {
  it('the 21st greetie of the day is 429, at /send and at /startpayment (no payment made)', async () => {
    const alice = await sender(t.app, 'Alice');
    for (let i = 0; i < 20; i++) {
      const g = await draft(t.app, alice, freshNumber());
      expect((await send(t.app, alice, g.id)).statusCode).toBe(200);
      clock.advance(1000);
    }
    const g = await draft(t.app, alice, freshNumber());
    const refused = await send(t.app, alice, g.id);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe('SEND_LIMIT_PER_DAY');
    expect(refused.json().message).toBe('Du har skickat 20 greeties det senaste dygnet, och fler än så går inte. Du kan skicka nästa om 24 timmar.');
    expect(Number(refused.headers['retry-after'])).toBe(24 * 3600 - 20);

    const withGifts = await call(t.app, alice, 'POST', '/api/greetie/createv2', {
      recipient: { mobileNumber: freshNumber(), name: 'Bob' },
      gifts: [{ productId: products.fixed }],
    });
    expect(withGifts.statusCode, withGifts.body).toBe(200);
    const paid = withGifts.json() as Greetie;
    const before = await greetieTables(t.db.db);
    const paymentsBefore = await payments();
    const start = await call(t.app, alice, 'POST', `/api/greetie/${paid.id}/startpayment`, { withdrawalConsent: true });
    expect(start.statusCode).toBe(429);
    expect(start.json().code).toBe('SEND_LIMIT_PER_DAY');
    expect(start.headers['retry-after']).toBe(refused.headers['retry-after']);
    expect(await greetieTables(t.db.db)).toBe(before);
    expect(await payments()).toBe(paymentsBefore);
  });

  it('greeties waiting for their payment count: the payment cannot be refused once made', async () => {
    const alice = await sender(t.app, 'Alice');
    const bob = freshNumber();
    const gifted = async () => {
      const res = await call(t.app, alice, 'POST', '/api/greetie/createv2', { recipient: { mobileNumber: bob, name: 'Bob' }, gifts: [{ productId: products.fixed }] });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as Greetie).id;
    };
    for (let i = 0; i < 3; i++) {
      const id = await gifted();
      expect((await call(t.app, alice, 'POST', `/api/greetie/${id}/startpayment`, { withdrawalConsent: true })).statusCode).toBe(200);
    }
    const fourth = await gifted();
    const refused = await call(t.app, alice, 'POST', `/api/greetie/${fourth}/startpayment`, { withdrawalConsent: true });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe('SEND_LIMIT_PER_RECIPIENT');
    expect(refused.headers['retry-after']).toBe('300');
  });
});
