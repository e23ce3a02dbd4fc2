import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../server/app.ts';
import { demoMerchants } from '../../../server/merchant/seed.ts';
import { createTestDb, testConfig, type TestDb } from '../helpers.ts';

/**
 * The catalogue cache in its listening mode (docs/decisions/064-catalogue-read-path.md): a change
 * reaches reads through PostgreSQL's NOTIFY, a read asks the database nothing, and when the
 * listening connection is killed reads check the version per request until LISTEN is back.
 */
describe('the catalogue cache, invalidated by LISTEN/NOTIFY', () => {
  let db: TestDb;
  let app: FastifyInstance;
  const cafe = demoMerchants[0]!;
  const get = (url: string) => app.inject({ method: 'GET', url });
  const nameOf = async () => (await get(`/api/merchant/${cafe.id}`)).json().name as string;

  /** A change the trigger does not see: it proves an answer came from the cache. */
  const sneak = async (name: string) => {
    await sql`ALTER TABLE merchant DISABLE TRIGGER merchant_catalogue_version`.execute(db.db);
    await sql`UPDATE merchant SET name = ${name} WHERE id = ${cafe.id}`.execute(db.db);
    await sql`ALTER TABLE merchant ENABLE TRIGGER merchant_catalogue_version`.execute(db.db);
  };
  const until = async (what: () => Promise<boolean>, ms = 5000) => {
    const end = Date.now() + ms;
    while (!(await what())) {
      if (Date.now() > end) throw new Error('timed out');
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  /** Statements the app's pool ran against app_meta (pg_stat_statements is not needed: we count calls). */
  const versionReads = () => {
    let n = 0;
    const orig = app.catalogueCache.currentVersion.bind(app.catalogueCache);
    app.catalogueCache.currentVersion = async () => {
      n += 1;
      return orig();
    };
    return () => n;
  };

  beforeAll(async () => {
    db = await createTestDb();
    app = await buildApp(testConfig(), { db: db.db, databaseUrl: db.url });
    await app.ready();
  });
  afterAll(async () => {
    if (app?.server.listening !== false) await app?.close().catch(() => {});
    await db?.drop();
  });

  it('listens from ready; a read hits the cache without asking the database for the version', async () => {
    expect(app.catalogueCache.stats()).toMatchObject({ mode: 'listening', listens: 1 });
    const reads = versionReads();
    expect(await nameOf()).toBe('Café Kanelbullen');
    await sneak('Café Tyst');
    for (let i = 0; i < 5; i++) expect(await nameOf()).toBe('Café Kanelbullen');
    expect(reads()).toBe(0);
  });

  it('a committed change (any connection) empties the cache through a notification; a rolled-back one does not', async () => {
    const before = app.catalogueCache.stats().version;
    const other = new pg.Client({ connectionString: db.url });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query('UPDATE merchant SET description = description WHERE id = $1', [cafe.id]);
      await other.query('ROLLBACK');
      await new Promise((r) => setTimeout(r, 200));
      expect(app.catalogueCache.stats().version).toBe(before);
      expect(await nameOf()).toBe('Café Kanelbullen');
      await other.query('UPDATE merchant SET description = description WHERE id = $1', [cafe.id]);
    } finally {
      await other.end();
    }
    await until(async () => (await nameOf()) === 'Café Tyst');
    expect(Number(app.catalogueCache.stats().version)).toBe(Number(before) + 1);
  });

  it('when the listening connection is killed, reads check the version per request and still see every change; LISTEN comes back and checking stops', async () => {
    const reads = versionReads();
    const killed = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM (
        SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE datname = current_database() AND application_name = 'greetie listener'
      ) t`.execute(db.db);
    expect(killed.rows[0]!.n).toBe(1);
    await until(async () => app.catalogueCache.stats().mode === 'checking');

    // While it is down, changes reach reads at once: each read asks for the version.
    await sql`UPDATE merchant SET name = 'Café Utan Lyssnare' WHERE id = ${cafe.id}`.execute(db.db);
    expect(await nameOf()).toBe('Café Utan Lyssnare');
    expect(reads()).toBeGreaterThan(0);

    // The listener reconnects by itself (500 ms, then doubling) and reads the version once.
    await until(async () => app.catalogueCache.stats().mode === 'listening', 10_000);
    expect(app.catalogueCache.stats().listens).toBe(2);
    const during = reads();
    expect(await nameOf()).toBe('Café Utan Lyssnare');
    expect(reads()).toBe(during);
    await sql`UPDATE merchant SET name = 'Café Igen' WHERE id = ${cafe.id}`.execute(db.db);
    await until(async () => (await nameOf()) === 'Café Igen');
  });

  it('a change made while the listener was away, before LISTEN ran again, is not missed (the version is read once on reconnect)', async () => {
    expect(await nameOf()).toBe('Café Igen');
    // Kill the listener and change the catalogue before it can come back, without any read in
    // between (so no per-request check sees the change): only the re-read on reconnect can.
    await sql`
      SELECT pg_terminate_backend(pid) FROM pg_stat_activity
      WHERE datname = current_database() AND application_name = 'greetie listener'`.execute(db.db);
    await until(async () => app.catalogueCache.stats().mode === 'checking');
    await sql`UPDATE merchant SET name = 'Café Medan Borta' WHERE id = ${cafe.id}`.execute(db.db);
    await until(async () => app.catalogueCache.stats().mode === 'listening', 10_000);
    const reads = versionReads();
    expect(await nameOf()).toBe('Café Medan Borta');
    expect(reads()).toBe(0);
  });

  it("the cache's close stops its listening; the process's one LISTEN connection (shared with the payment events) ends with the app", async () => {
    const count = async () =>
      (await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'greetie listener'`.execute(db.db)).rows[0]!.n;
    expect(await count()).toBe(1);
    await app.catalogueCache.close();
    expect(app.catalogueCache.stats().mode).toBe('checking');
    expect(app.paymentEvents.stats().listening).toBe(true);
    await app.close();
    expect(app.paymentEvents.stats().listening).toBe(false);
    await until(async () => (await count()) === 0);
  });
});
