import pg from 'pg';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../helpers.ts';

/**
 * A backend that goes away while a request holds its connection (PostgreSQL restarted or failed
 * over, an administrator's pg_terminate_backend, a dropped network) fails that request and nothing
 * else: node-postgres emits 'error' on the client it had lent out, and an 'error' without a
 * listener would end the server's process (server/db/index.ts gives every client one).
 */

let t: TestDb;
let admin: pg.Client;
const uncaught: unknown[] = [];
const onUncaught = (err: unknown) => uncaught.push(err);

beforeAll(async () => {
  t = await createTestDb();
  admin = new pg.Client({ connectionString: t.url });
  await admin.connect();
  process.on('uncaughtException', onUncaught);
});
afterAll(async () => {
  process.off('uncaughtException', onUncaught);
  await admin.end();
  await t.drop();
});

const terminate = (pid: number) => admin.query('SELECT pg_terminate_backend($1)', [pid]);
const settle = () => new Promise((resolve) => setTimeout(resolve, 200));

describe('a connection lost while it is lent out', () => {
  it('fails the statement it was running, and the process and the pool go on', async () => {
    const slow = sql<{ pid: number }>`SELECT pg_backend_pid() AS pid, pg_sleep(30)`.execute(t.db);
    let pid: number | undefined;
    for (let i = 0; i < 100 && !pid; i++) {
      const { rows } = await admin.query<{ pid: number }>(
        "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query LIKE '%pg_sleep(30)%' AND pid <> pg_backend_pid()",
      );
      pid = rows[0]?.pid;
      if (!pid) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(pid).toBeDefined();
    // Its rejection is awaited before the backend goes: it may arrive before pg_terminate_backend answers.
    const failed = expect(slow).rejects.toThrow();
    await terminate(pid!);
    await failed;
    await settle();
    expect(uncaught).toEqual([]);
    const { rows } = await sql<{ one: number }>`SELECT 1 AS one`.execute(t.db);
    expect(rows).toEqual([{ one: 1 }]);
  });

  it('fails the transaction it was in between two statements, and the process and the pool go on', async () => {
    const done = t.db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(trx);
      await terminate(rows[0]!.pid);
      await settle(); // the socket's end arrives while no statement is running
      await sql`SELECT 1`.execute(trx);
    });
    await expect(done).rejects.toThrow();
    await settle();
    expect(uncaught).toEqual([]);
    const { rows } = await sql<{ one: number }>`SELECT 1 AS one`.execute(t.db);
    expect(rows).toEqual([{ one: 1 }]);
    // The lost client left the pool instead of going back to it.
    for (let i = 0; i < 5; i++) await sql`SELECT 1`.execute(t.db);
  });
});
