import pg from 'pg';
import { Kysely, Migrator, PostgresDialect, type Transaction } from 'kysely';
import type { Database } from './schema.ts';
import { migrations } from './migrations/index.ts';
import { prepareMarked } from './prepared.ts';

export type Db = Kysely<Database>;
export type Tx = Transaction<Database>;

// int8 (bigint, count(*)) as a JS number: our counts and öre amounts stay far below 2^53.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

export interface DatabaseHandle {
  db: Db;
  pool: pg.Pool;
  close(): Promise<void>;
}

export function connect(url: string, opts: { max?: number } = {}): DatabaseHandle {
  const pool = new pg.Pool({ connectionString: url, max: opts.max ?? 10, idleTimeoutMillis: 30_000 });
  // A dropped idle connection must not crash the process; the next query gets a fresh one.
  pool.on('error', () => {});
  // Nor one lost while it is lent out (a restart, a failover, pg_terminate_backend): node-postgres
  // then emits 'error' on the client itself, where the pool listens only while the client is idle.
  // The statement or transaction that holds it fails with the error; the pool drops the client
  // when it comes back unqueryable (tests/server/db/lost-connection.test.ts).
  pool.on('connect', (client) => client.on('error', () => {}));
  // Reads marked PREPARED are named statements, parsed and planned once per connection (127).
  prepareMarked(pool);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    pool,
    close: async () => {
      await db.destroy();
    },
  };
}

/** Creates the named database on the server at `adminUrl` when it does not exist yet. */
export async function ensureDatabase(adminUrl: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Runs `fn` in one transaction: all of it commits, or none of it does. */
export function transaction<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction().execute(fn);
}
