import Fastify, { type FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Listener } from '../../../server/db/listener.ts';
import { PORTAL_FOLD_CHANNEL } from '../../../server/db/migrations/031_portal_fold_notify.ts';
import { portalFold } from '../../../server/portal/fold.ts';
import { createTestDb, type TestDb } from '../helpers.ts';

/**
 * The portal's fold waits for work (decision 147): the deltas' trigger notifies (migration 031),
 * the process's LISTEN connection hears it and the fold runs; nothing runs on a timer in between
 * (its sweep and fallback paces are an hour here, so only a notification can fold). What the
 * summary reads (rollups + deltas) is tests/server/portal/rollups.test.ts's.
 */

const HOUR = 60 * 60_000;
const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the portal fold, woken by the deltas’ notification', () => {
  let db: TestDb;
  let merchantId: string;
  let app: FastifyInstance | undefined;
  let listener: Listener | undefined;

  const deltas = async () => (await sql<{ n: number }>`SELECT count(*)::int AS n FROM portal_open_delta`.execute(db.db)).rows[0]!.n;
  const addDelta = () =>
    sql`INSERT INTO portal_open_delta (merchant_id, expires_day, open_count, open_amount) VALUES (${merchantId}, '2030-01-01', 1, 5000)`.execute(db.db);

  /** The fold as the lifecycle runs it, with short waits and hour-long paces. */
  async function start(opts: { listen: boolean; intervalMs?: number }) {
    app = Fastify();
    listener = new Listener({ url: db.url, reconnectMs: 200 });
    const job = portalFold(app, { db: db.db, listener: opts.listen ? listener : undefined, settleMs: 20, sweepMs: HOUR, intervalMs: opts.intervalMs ?? HOUR });
    const l = listener;
    app.addHook('onReady', async () => l.start());
    app.addHook('onClose', async () => l.close());
    await app.ready();
    return job;
  }

  beforeAll(async () => {
    db = await createTestDb();
    merchantId = (await sql<{ id: string }>`SELECT id FROM merchant ORDER BY id LIMIT 1`.execute(db.db)).rows[0]!.id;
  });
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('the trigger notifies once per transaction that appended deltas, and not for one that appended none', async () => {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const heard: string[] = [];
    client.on('notification', (msg) => heard.push(msg.channel));
    try {
      await client.query(`LISTEN ${PORTAL_FOLD_CHANNEL}`);
      await db.db.transaction().execute(async (tx) => {
        for (let i = 0; i < 3; i++)
          await sql`INSERT INTO portal_open_delta (merchant_id, expires_day, open_count, open_amount) VALUES (${merchantId}, '2030-01-02', 1, 100)`.execute(tx);
      });
      await sql`INSERT INTO portal_open_delta (merchant_id, expires_day, open_count, open_amount) SELECT id, '2030-01-02', 1, 100 FROM merchant WHERE false`.execute(db.db);
      // A voucher update that changes nothing the rollup counts appends no delta.
      await sql`UPDATE voucher SET created_at = created_at WHERE id IN (SELECT id FROM voucher LIMIT 5)`.execute(db.db);
      await expect.poll(() => heard).toEqual([PORTAL_FOLD_CHANNEL]);
      await tick(100);
      expect(heard).toEqual([PORTAL_FOLD_CHANNEL]);
    } finally {
      await client.end();
      await sql`DELETE FROM portal_open_delta`.execute(db.db);
    }
  });

  it('folds once at start, then on each notification, and not otherwise', async () => {
    await addDelta();
    const job = await start({ listen: true });
    await expect.poll(deltas).toBe(0); // the start's fold
    await expect.poll(() => listener!.listening).toBe(true);
    // The catch-up fold LISTEN's start asks for, done (run() joins or takes it; twice, for one
    // asked for while the start's was running).
    await job.run();
    await job.run();
    // A delta whose notification is never sent waits: nothing folds on a timer.
    await sql`ALTER TABLE portal_open_delta DISABLE TRIGGER portal_open_delta_notify`.execute(db.db);
    try {
      await addDelta();
    } finally {
      await sql`ALTER TABLE portal_open_delta ENABLE TRIGGER portal_open_delta_notify`.execute(db.db);
    }
    await tick(200);
    expect(await deltas()).toBe(1);
    // The next notification folds both.
    await addDelta();
    await expect.poll(deltas).toBe(0);
    const folded = await sql<{ open_count: number }>`SELECT open_count FROM portal_open WHERE merchant_id = ${merchantId} AND expires_day = '2030-01-01'`.execute(db.db);
    expect(folded.rows).toEqual([{ open_count: 3 }]);
  });

  it('a delta written while the listener was away is folded once it listens again', async () => {
    await start({ listen: true });
    await expect.poll(() => listener!.listening).toBe(true);
    await sql`
      SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE datname = current_database() AND application_name = 'greetie listener'`.execute(db.db);
    await expect.poll(() => listener!.listening).toBe(false);
    await addDelta(); // nobody hears this one
    await expect.poll(() => listener!.listens, { timeout: 10_000 }).toBe(2);
    await expect.poll(deltas).toBe(0);
  });

  it('while another process folds, it tries again shortly after, and folds what woke it', async () => {
    await start({ listen: true });
    await expect.poll(() => listener!.listening).toBe(true);
    const other = new pg.Client({ connectionString: db.url });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query(`SELECT pg_advisory_xact_lock(hashtext('greetie/portal-open-fold'))`);
      await addDelta();
      await tick(150); // several tries, each skipped
      expect(await deltas()).toBe(1);
      await other.query('COMMIT');
      await expect.poll(deltas).toBe(0);
    } finally {
      await other.end();
    }
  });

  it('without a LISTEN connection it folds on its own pace', async () => {
    await start({ listen: false, intervalMs: 30 });
    await addDelta();
    await expect.poll(deltas).toBe(0);
  });
});
