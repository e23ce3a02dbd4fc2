import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { buildApp } from '../../../server/app.ts';
import { rateKey } from '../../../server/auth/rateLimit.ts';
import { RATE_EVENT_RETENTION_MS, purgeOldRateEvents, startRateEventPurge } from '../../../server/auth/retention.ts';
import { createTestDb, testConfig, type TestDb } from '../helpers.ts';
import { TestClock, freshIp, freshNumber, requestCode } from './support.ts';

const DAY = 24 * 60 * 60_000;

/**
 * The privacy policy: IP addresses used to stop misuse are kept at most 30 days. They are the
 * `code-ip` events of auth_rate_event; a sweep at start-up and every hour deletes older ones,
 * whether or not the same address ever comes back.
 */
describe('rate-limit events are kept at most 30 days', () => {
  let db: TestDb;
  beforeAll(async () => {
    db = await createTestDb();
  });
  afterAll(async () => {
    await db.drop();
  });

  const insert = (kind: string, key: string, at: Date) => db.db.insertInto('auth_rate_event').values({ kind, key, at }).execute();
  const keys = async () => (await db.db.selectFrom('auth_rate_event').select('key').orderBy('key').execute()).map((r) => r.key);

  it('purgeOldRateEvents deletes events older than 30 days and keeps the rest', async () => {
    const now = new Date('2026-11-21T08:00:00.000Z');
    await db.db.deleteFrom('auth_rate_event').execute();
    await insert('code-ip', 'old-ip', new Date(now.getTime() - 31 * DAY));
    await insert('login-failed', 'old-number', new Date(now.getTime() - RATE_EVENT_RETENTION_MS - 1));
    await insert('code-ip', 'edge-ip', new Date(now.getTime() - RATE_EVENT_RETENTION_MS)); // exactly 30 days: still allowed
    await insert('code-ip', 'recent-ip', new Date(now.getTime() - 29 * DAY));
    await insert('code-ip', 'now-ip', now);

    expect(await purgeOldRateEvents(db.db, now)).toBe(2);
    expect(await keys()).toEqual(['edge-ip', 'now-ip', 'recent-ip']);
    expect(await purgeOldRateEvents(db.db, now)).toBe(0); // idempotent
  });

  it('the app deletes them at start-up, and the sweep keeps doing so on its interval', async () => {
    await db.db.deleteFrom('auth_rate_event').execute();
    const clock = new TestClock();
    await insert('code-ip', '10.9.9.9', new Date(clock.ms - 40 * DAY));
    await insert('code-ip', '10.9.9.8', new Date(clock.ms - DAY));

    const app = await buildApp(testConfig(), { db: db.db, services: { now: clock.now }, logger: false });
    try {
      await app.ready();
      // The first sweep starts in onReady; a request after it sees its result.
      await expect.poll(keys, { timeout: 5000 }).toEqual(['10.9.9.8']);

      // A code request records this IP's event; 31 days on, nobody from that address came back.
      const ip = freshIp();
      expect((await requestCode(app, freshNumber(), ip)).statusCode).toBe(200);
      // Kept under its keyed hash, never the address (decision 024).
      expect(await keys()).toContain(rateKey(app.config, ip));
      expect(await keys()).not.toContain(ip);
      clock.advance(31 * DAY);
      const purge = startRateEventPurge({ db: db.db, now: clock.now, log: pino({ level: 'silent' }), intervalMs: 20 });
      try {
        await expect.poll(keys, { timeout: 5000 }).not.toContain(rateKey(app.config, ip));
        expect(await keys()).toEqual([]);
      } finally {
        await purge.stop();
      }
    } finally {
      await app.close();
    }
  });
});
