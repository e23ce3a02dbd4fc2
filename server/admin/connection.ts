import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { connect, ensureDatabase, migrateToLatest, type Db } from '../db/index.ts';
import { isAlive } from '../process.ts';
import { clusterDirOf, dataDirFrom, readPostmaster } from '../db/datadir.ts';

/**
 * Which database the admin command works on (docs/decisions/032-admin-command.md):
 * 1. DATABASE_URL when set;
 * 2. else the embedded database under DATA_DIR. When a running Greetie server owns DATA_DIR, the
 *    command connects to that server's PostgreSQL as one more client (port from the cluster's
 *    postmaster.pid, wherever DATA_DIR records the cluster, password from DATA_DIR/pg-password); only one process may *run* the database
 *    of a data directory, but any number may connect to it. When nobody runs it, the command
 *    starts it for the length of the command (migrating it like the server would) and stops it.
 */

export type Target =
  | { kind: 'url'; url: string }
  | { kind: 'running'; url: string; pid: number }
  | { kind: 'busy'; pid: number }
  | { kind: 'embedded'; dataDir: string };

type Env = Record<string, string | undefined>;

export class ConnectionError extends Error {
  constructor(
    readonly reason: 'config' | 'unreachable' | 'busy' | 'not-migrated',
    readonly params: Record<string, string | number> = {},
  ) {
    super(reason);
  }
}

function readPid(file: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(file, 'utf8').split('\n')[0]!.trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Decides where to connect, from the environment and the files in DATA_DIR; connects to nothing. */
export function resolveTarget(env: Env, cwd = process.cwd()): Target {
  if (env.DATABASE_URL) {
    let ok = false;
    try {
      const u = new URL(env.DATABASE_URL);
      ok = u.protocol === 'postgres:' || u.protocol === 'postgresql:';
    } catch {
      ok = false;
    }
    if (!ok) throw new ConnectionError('config');
    return { kind: 'url', url: env.DATABASE_URL };
  }
  const dataDir = dataDirFrom(env, cwd);
  const owner = readPid(path.join(dataDir, 'server.pid'));
  if (owner === undefined || owner === process.pid || !isAlive(owner)) return { kind: 'embedded', dataDir };
  // Someone runs the database of this directory: use it as a client if we can find it.
  const postmaster = readPostmaster(clusterDirOf(dataDir));
  const passwordFile = path.join(dataDir, 'pg-password');
  if (postmaster?.port !== undefined && isAlive(postmaster.pid) && existsSync(passwordFile)) {
    try {
      const password = readFileSync(passwordFile, 'utf8').trim();
      if (password) return { kind: 'running', url: `postgres://greetie:${encodeURIComponent(password)}@127.0.0.1:${postmaster.port}/greetie`, pid: owner };
    } catch {
      /* unreadable: report busy below */
    }
  }
  return { kind: 'busy', pid: owner };
}

export interface OpenDatabase {
  db: Db;
  close(): Promise<void>;
}

async function checkReachable(db: Db): Promise<void> {
  try {
    await sql`SELECT 1`.execute(db);
  } catch (err) {
    throw new ConnectionError('unreachable', { reason: err instanceof Error ? err.message : String(err) });
  }
  const { rows } = await sql<{ t: string | null }>`SELECT to_regclass('merchant')::text AS t`.execute(db);
  if (!rows[0]?.t) throw new ConnectionError('not-migrated');
}

export async function openDatabase(env: Env, log: (msg: string) => void = () => {}): Promise<OpenDatabase> {
  const target = resolveTarget(env);
  if (target.kind === 'busy') throw new ConnectionError('busy', { dataDir: dataDirFrom(env), pid: target.pid });
  if (target.kind === 'url' || target.kind === 'running') {
    const handle = connect(target.url, { max: 2 });
    try {
      await checkReachable(handle.db);
    } catch (err) {
      await handle.close().catch(() => {});
      if (target.kind === 'running' && err instanceof ConnectionError && err.reason === 'unreachable') {
        throw new ConnectionError('busy', { dataDir: dataDirFrom(env), pid: target.pid });
      }
      throw err;
    }
    return { db: handle.db, close: () => handle.close() };
  }
  let embedded;
  try {
    // Loaded only when needed: the embedded server's package is large, and most runs never need it.
    const { startEmbeddedPostgres } = await import('../db/embedded.ts');
    embedded = await startEmbeddedPostgres(target.dataDir, log);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (/in use/.test(message)) throw new ConnectionError('busy', { dataDir: target.dataDir, pid: '?' });
    throw new ConnectionError('unreachable', { reason: message });
  }
  try {
    const url = await ensureDatabase(embedded.url, 'greetie');
    const handle = connect(url, { max: 2 });
    await migrateToLatest(handle.db);
    return {
      db: handle.db,
      close: async () => {
        await handle.close();
        await embedded.stop();
      },
    };
  } catch (err) {
    await embedded.stop().catch(() => {});
    throw new ConnectionError('unreachable', { reason: err instanceof Error ? err.message : String(err) });
  }
}
