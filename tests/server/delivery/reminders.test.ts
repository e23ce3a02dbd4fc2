import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Greetie } from '../../../contract/greetie.ts';
import { buildApp } from '../../../server/app.ts';
import { deliverOne, type DeliveryDeps } from '../../../server/delivery/rules.ts';
import { remindUnopened } from '../../../server/delivery/reminders.ts';
import { createTestDb, testConfig, type TestDb } from '../helpers.ts';
import { TestClock, freshNumber } from '../auth/support.ts';
import { call, person, type Person } from '../greetie/support.ts';
import { draft, outbox, send } from './support.ts';

/**
 * Reminders of unopened greeties (UNOPENED_REMINDERS, UNOPENED_NOTICE): two app instances on one
 * database, each sweeping several times at once, make each reminder once; none once it is opened;
 * a correction starts the clocks again; reminders are not counted toward the sending limits.
 */

const DAY = 24 * 3600_000;
let db: TestDb;
let clock: TestClock;
const apps: FastifyInstance[] = [];
let deps: DeliveryDeps[];
let alice: Person;

beforeAll(async () => {
  db = await createTestDb();
  clock = new TestClock();
  for (let i = 0; i < 2; i++) {
    const app = await buildApp(testConfig({ UNOPENED_REMINDERS: 'P3D,P10D', UNOPENED_NOTICE: 'P14D', SEND_LIMIT_PER_RECIPIENT: '1' }), {
      db: db.db,
      services: { now: clock.now },
    });
    await app.ready();
    apps.push(app);
  }
  deps = apps.map((app) => ({ db: app.db, config: app.config, services: app.services }));
  alice = await person(apps[0]!, undefined, 'Alice');
});
afterAll(async () => {
  await Promise.all(apps.map((a) => a.close()));
  await db?.drop();
});

/** Every process sweeps three times, all at once: twice by hand, once through its delivery queue's sweep. */
async function sweepEverywhere(): Promise<void> {
  await Promise.all([...[...deps, ...deps].map((d) => remindUnopened(d)), ...apps.map((a) => a.services.delivery.reconcile())]);
}

async function deliveredTo(to = freshNumber()): Promise<Greetie> {
  alice = await person(apps[0]!, alice.mobileNumber, 'Alice'); // the clock moves: a fresh token
  const g = await draft(apps[0]!, alice, to);
  expect((await send(apps[0]!, alice, g.id)).statusCode).toBe(200);
  expect(await deliverOne(deps[0]!, g.id)).toBe('delivered');
  return (await call(apps[0]!, alice, 'GET', `/api/greetie/${g.id}`)).json() as Greetie;
}

async function notices(greetieId: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM notification WHERE greetie_id = ${greetieId} AND type = 'unopened'`.execute(db.db);
  return rows[0]!.n;
}

const reminders = async (to: string) => (await outbox(db.db, to)).filter((b) => b.startsWith('Påminnelse: '));

describe('reminders of an unopened greetie', () => {
  it('each reminder once across two processes, at its time; the sender hears at UNOPENED_NOTICE', async () => {
    const start = clock.ms;
    const g = await deliveredTo();
    const to = g.recipient!.mobileNumber;
    clock.ms = start + 3 * DAY - 60_000;
    await sweepEverywhere();
    expect(await reminders(to)).toEqual([]);
    clock.ms = start + 3 * DAY + 60_000;
    await sweepEverywhere();
    const first = await reminders(to);
    expect(first).toEqual([`Påminnelse: Alice har skickat en greetie till dig. Öppna: http://localhost:3000/greetie/view/${g.refId}`]);
    // Not a send: with SEND_LIMIT_PER_RECIPIENT 1, the sender may still send to the number now.
    alice = await person(apps[0]!, alice.mobileNumber, 'Alice');
    const next = await draft(apps[0]!, alice, to);
    const sent = await send(apps[0]!, alice, next.id);
    expect(sent.statusCode, sent.body).toBe(200);
    clock.ms = start + 5 * DAY;
    await sweepEverywhere();
    expect(await reminders(to)).toHaveLength(1);
    clock.ms = start + 10 * DAY + 60_000;
    await sweepEverywhere();
    await sweepEverywhere();
    expect(await reminders(to)).toHaveLength(2);
    expect(await notices(g.id)).toBe(0);
    clock.ms = start + 14 * DAY + 60_000;
    await sweepEverywhere();
    expect(await notices(g.id)).toBe(1);
    clock.ms = start + 20 * DAY;
    await sweepEverywhere();
    expect(await reminders(to)).toHaveLength(2);
    expect(await notices(g.id)).toBe(1);
  });

  it('none once it is opened', async () => {
    const start = clock.ms;
    const g = await deliveredTo();
    clock.ms = start + 2 * DAY;
    expect((await apps[1]!.inject({ method: 'GET', url: `/api/greetie/byRef?refId=${g.refId}` })).statusCode).toBe(200);
    for (const day of [3, 10, 14]) {
      clock.ms = start + day * DAY + 60_000;
      await sweepEverywhere();
    }
    expect(await reminders(g.recipient!.mobileNumber)).toEqual([]);
    expect(await notices(g.id)).toBe(0);
  });

  it('a correction starts the clocks again, for the new number only', async () => {
    const start = clock.ms;
    const g = await deliveredTo();
    clock.ms = start + 2 * DAY;
    alice = await person(apps[0]!, alice.mobileNumber, 'Alice');
    const right = freshNumber();
    const corrected = await call(apps[1]!, alice, 'POST', `/api/greetie/${g.id}/recipient`, { mobileNumber: right });
    expect(corrected.statusCode, corrected.body).toBe(200);
    expect(await deliverOne(deps[1]!, g.id)).toBe('delivered');
    clock.ms = start + 3 * DAY + 60_000;
    await sweepEverywhere();
    expect(await reminders(g.recipient!.mobileNumber)).toEqual([]);
    expect(await reminders(right)).toEqual([]);
    clock.ms = start + 5 * DAY + 60_000;
    await sweepEverywhere();
    expect(await reminders(right)).toHaveLength(1);
    expect(await reminders(g.recipient!.mobileNumber)).toEqual([]);
  });

  it('a reminder more than a day late is skipped (a server that was down, greeties from before)', async () => {
    const start = clock.ms;
    const g = await deliveredTo();
    clock.ms = start + 4 * DAY + 60_000;
    await sweepEverywhere();
    expect(await reminders(g.recipient!.mobileNumber)).toEqual([]);
  });
});
