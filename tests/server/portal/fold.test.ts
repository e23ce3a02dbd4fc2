import Fastify, { type FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { foldPortalOpen, portalFold } from '../../../server/portal/fold.ts';
import { summaryOf } from '../../../server/portal/queries.ts';
import { connect, type DatabaseHandle } from '../../../server/db/index.ts';
import { createTestDb, statementRecorder, type TestDb } from '../helpers.ts';

/**
 * The portal's fold (decisions 124, 147): every 10 s a read outside any transaction asks whether
 * there is a delta; only then the one-transaction fold runs, one process at a time. No NOTIFY
 * wakes it (decision 147: tried and dropped). The statements are counted at the driver, as
 * tests/server/portal/round-trips.test.ts does, on a pool of the fold's own (the test's reads go
 * through another): a run with nothing to fold is that one read, with
 * no BEGIN/COMMIT around it. (PostgreSQL's pg_stat_database.xact_commit is not the measure: it
 * counts the read as an implicit transaction too, though it takes no transaction id and has no
 * commit to flush.) What the summary reads in general (rollups + deltas against the figures from
 * scratch) is tests/server/portal/rollups.test.ts's.
 */

const HOUR = 60 * 60_000;
const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));
const TRANSACTION = /^(begin|commit|rollback)$|pg_try_advisory_xact_lock|DELETE FROM portal_open/i;

describe('the portal fold: a cheap read every 10 s, the fold only when there is a delta', () => {
  let db: TestDb;
  let merchantId: string;
  let productId: string;
  let app: FastifyInstance | undefined;

  /** The fold's own pool, whose statements are counted; the test reads and writes through `db`'s. */
  let foldDb: DatabaseHandle;
  let recorder: ReturnType<typeof statementRecorder>;
  const sent = () => recorder.sent.map((s) => s.text);

  const deltas = async () => (await sql<{ n: number }>`SELECT count(*)::int AS n FROM portal_open_delta`.execute(db.db)).rows[0]!.n;
  const addDelta = () =>
    sql`INSERT INTO portal_open_delta (merchant_id, expires_day, open_count, open_amount) VALUES (${merchantId}, '2030-01-01', 1, 5000)`.execute(db.db);

  /** A voucher issued to this merchant the way payment does (its trigger appends a delta); its id. */
  async function issueVoucher(amount: number): Promise<string> {
    const { rows } = await sql<{ id: string }>`
      WITH u AS (
        INSERT INTO mobile_user (mobile_number) VALUES ('+4670' || lpad((floor(random() * 9000000) + 1000000)::text, 7, '0')) RETURNING id
      ), g AS (
        INSERT INTO greetie (ref_id, sender_id, recipient_number, status, total)
        SELECT md5(random()::text) || 'FOLD', u.id, '+46701234567', 'delivered', ${amount} FROM u RETURNING id
      ), gift AS (
        INSERT INTO greetie_gift (greetie_id, position, product_id, amount) SELECT g.id, 0, ${productId}, ${amount} FROM g RETURNING id, greetie_id
      )
      INSERT INTO voucher (greetie_id, gift_id, merchant_id, product_id, source, amount, expires_at)
      SELECT gift.greetie_id, gift.id, ${merchantId}, ${productId}, 'InStore', ${amount}, now() + interval '1 year' FROM gift
      RETURNING id`.execute(db.db);
    return rows[0]!.id;
  }

  /** The fold as the lifecycle runs it, with short paces. */
  async function start(opts: { intervalMs: number; retryMs?: number }) {
    app = Fastify();
    const job = portalFold(app, { db: foldDb.db, ...opts });
    await app.ready();
    return job;
  }

  beforeAll(async () => {
    db = await createTestDb();
    foldDb = connect(db.url, { max: 2 });
    recorder = statementRecorder(foldDb.pool);
    const { rows } = await sql<{ id: string; merchant_id: string }>`
      SELECT id, merchant_id FROM product WHERE source = 'InStore' ORDER BY id LIMIT 1`.execute(db.db);
    merchantId = rows[0]!.merchant_id;
    productId = rows[0]!.id;
  });
  afterEach(async () => {
    recorder.stop();
    await app?.close();
    app = undefined;
    await foldPortalOpen(db.db);
  });
  afterAll(async () => {
    await foldDb?.close();
    await db?.drop();
  });

  it('with nothing to fold, a run is one read and no transaction, at every turn of its pace', async () => {
    await foldPortalOpen(db.db);
    expect(await deltas()).toBe(0);
    recorder.start();
    const job = await start({ intervalMs: 10 });
    await expect.poll(() => sent().length).toBeGreaterThanOrEqual(5); // several turns of the pace
    await job.stop();
    recorder.stop();
    expect(new Set(sent())).toEqual(new Set(['SELECT EXISTS (SELECT 1 FROM portal_open_delta) AS pending']));
    expect(sent().filter((s) => TRANSACTION.test(s))).toEqual([]);
  });

  it('with deltas, the next turn folds them in one transaction, and then goes back to reading only', async () => {
    recorder.start();
    await start({ intervalMs: 20 });
    await sql`
      INSERT INTO portal_open_delta (merchant_id, expires_day, open_count, open_amount)
      VALUES (${merchantId}, '2030-01-01', 1, 5000), (${merchantId}, '2030-01-01', 1, 5000)`.execute(db.db);
    await expect.poll(deltas).toBe(0);
    const folded = await sql<{ open_count: number; open_amount: string }>`
      SELECT open_count, open_amount::text FROM portal_open WHERE merchant_id = ${merchantId} AND expires_day = '2030-01-01'`.execute(db.db);
    expect(folded.rows).toEqual([{ open_count: 2, open_amount: '10000' }]);
    const foldedAt = sent().findIndex((s) => /^begin$/i.test(s));
    expect(foldedAt).toBeGreaterThan(0);
    expect(sent()[foldedAt - 1]).toMatch(/^SELECT EXISTS/);
    expect(sent().slice(foldedAt)).toEqual(expect.arrayContaining([expect.stringMatching(/pg_try_advisory_xact_lock/), expect.stringMatching(/^commit$/i)]));
    // The turns after the fold: reads again, and exactly one transaction in all.
    const n = sent().length;
    await expect.poll(() => sent().length).toBeGreaterThan(n + 2);
    expect(sent().filter((s) => /^begin$/i.test(s))).toHaveLength(1);
  });

  it('when another process holds the fold, it skips, tries again soon after, and folds once the lock is free', async () => {
    const job = await start({ intervalMs: HOUR, retryMs: 20 }); // only the retry can fold here
    const other = new pg.Client({ connectionString: db.url });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query(`SELECT pg_advisory_xact_lock(hashtext('greetie/portal-open-fold'))`);
      await addDelta();
      expect(await job.run()).toBe(0);
      await tick(150); // several tries, each skipped
      expect(await deltas()).toBe(1);
      await other.query('COMMIT');
      await expect.poll(deltas).toBe(0);
    } finally {
      await other.end();
    }
  });

  it('the summary is right before and after a fold: an issue and a part redeemed, in the deltas and then folded', async () => {
    const all = { from: null, to: null };
    await foldPortalOpen(db.db);
    const before = await summaryOf(db.db, merchantId, all, new Date());
    const voucherId = await issueVoucher(20_000);
    await sql`UPDATE voucher SET balance = balance - 7500 WHERE id = ${voucherId}`.execute(db.db);
    expect(await deltas()).toBeGreaterThan(0);
    const unfolded = await summaryOf(db.db, merchantId, all, new Date());
    expect(unfolded).toEqual({
      ...before,
      issued_count: before.issued_count + 1,
      issued_amount: before.issued_amount + 20_000,
      outstanding_count: before.outstanding_count + 1,
      outstanding_amount: before.outstanding_amount + 12_500,
    });
    expect(await foldPortalOpen(db.db)).toBeGreaterThan(0);
    expect(await deltas()).toBe(0);
    expect(await summaryOf(db.db, merchantId, all, new Date())).toEqual(unfolded);
  });
});
