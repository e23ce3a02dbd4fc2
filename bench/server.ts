import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../server/net.ts';
import pg from 'pg';
import { clusterDirOf, readPostmaster, removeDataDir } from '../server/db/datadir.ts';


export const ROOT = fileURLToPath(new URL('..', import.meta.url));


export interface Served {
  child: ChildProcess;
  baseUrl: string;
  /** Milliseconds from spawn until /api/health answered 200. */
  startMs: number;
  logFile: string;
}

/**
 * `npm run serve` (what `npm start` runs after its build) on a built tree: the production server
 * with the embedded PostgreSQL and default settings (LOG_LEVEL info), its output to a file.
 * Detached, so the whole process group (npm, node, postgres stays its own) can be stopped.
 */
/** `root`: the checkout whose server runs (this one by default; bench/lighthouse-diag.ts runs two). */
export async function serve(opts: { dataDir: string; staticDir: string; env?: Record<string, string>; root?: string }): Promise<Served> {
  const port = await freePort();
  const logFile = path.join(path.dirname(opts.dataDir), `server-${Date.now()}.log`);
  const fd = openSync(logFile, 'a');
  const t0 = performance.now();
  const child = spawn('npm', ['run', '--silent', 'serve'], {
    cwd: opts.root ?? ROOT,
    detached: true,
    stdio: ['ignore', fd, fd],
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: opts.dataDir, STATIC_DIR: opts.staticDir, ...opts.env },
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  let exited = false;
  child.once('exit', () => (exited = true));
  while (performance.now() - t0 < 120_000) {
    if (exited) throw new Error(`the server exited during start; see ${logFile}:\n${readFileSync(logFile, 'utf8').slice(-2000)}`);
    try {
      const res = await fetch(`${baseUrl}/api/health`);
      if (res.status === 200) return { child, baseUrl, startMs: performance.now() - t0, logFile };
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`the server did not answer within 120 s; see ${logFile}`);
}

export async function stop(s: Served): Promise<void> {
  if (s.child.exitCode !== null) return;
  const done = new Promise((r) => s.child.once('exit', r));
  // SIGTERM to node itself: main.ts stops accepting, closes the pool, stops PostgreSQL.
  const pid = nodePid(s);
  try {
    if (pid) process.kill(pid, 'SIGTERM');
    else process.kill(-s.child.pid!, 'SIGTERM');
  } catch {
    /* gone */
  }
  await Promise.race([done, new Promise((r) => setTimeout(r, 30_000))]);
}

function children(pid: number): number[] {
  try {
    return execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)])
      .toString()
      .split('\n')
      .map((s) => Number(s.trim()))
      .filter((n) => n > 0);
  } catch {
    return [];
  }
}

function comm(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
}

/** RSS in bytes of one process (from /proc; 0 when gone). */
export function rss(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** The node process serving the API (npm → sh → node). */
export function nodePid(s: Served): number | undefined {
  const queue = [s.child.pid!];
  while (queue.length) {
    const pid = queue.shift()!;
    if (pid !== s.child.pid && comm(pid) === 'node') return pid;
    queue.push(...children(pid));
  }
  return undefined;
}

/** The embedded PostgreSQL's processes (postmaster and its backends). */
export function postgresPids(dataDir: string): number[] {
  const main = readPostmaster(clusterDirOf(dataDir))?.pid;
  if (!main) return [];
  return [main, ...children(main)];
}

export function sumRss(pids: number[]): number {
  return pids.reduce((a, p) => a + rss(p), 0);
}

/** CPU seconds (user + system) a process has used, from /proc; 0 when gone. */
export function cpuSeconds(pid: number): number {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return 0;
  }
}

/** 'K=V K2=V2' (PROFILE_ENV, BENCH_SERVER_ENV) as an environment. */
export function envPairs(text: string | undefined): Record<string, string> {
  return Object.fromEntries(
    (text ?? '')
      .split(/\s+/)
      .filter((kv) => kv.includes('='))
      .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
  );
}

export interface SourceServer {
  child: ChildProcess;
  exited: Promise<unknown>;
  baseUrl: string;
}

/** node's own flags in `npm run serve` (that checkout's package.json), so a profile's server runs with npm start's V8 settings (decision 163). */
export function serveNodeFlags(root: string): string[] {
  const serve = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: { serve: string } }).scripts.serve;
  const words = serve.split(/\s+/);
  const at = words.indexOf('--import');
  return words[0] === 'node' && at > 0 ? words.slice(1, at) : [];
}

/**
 * `node [npm run serve's node flags] [nodeArgs] --import tsx server/main.ts` (what `npm run serve`
 * runs, without npm between, so `child.pid` is the server and --cpu-prof can be given), its output
 * appended to `logFile`; resolves once /api/health answers 200.
 */
export async function startSource(opts: {
  port: number;
  dataDir: string;
  staticDir: string;
  logFile: string;
  nodeArgs?: string[];
  env?: Record<string, string>;
  /** Another checkout's server to run (an A/B of its code against this one's); this one's by default. */
  root?: string;
}): Promise<SourceServer> {
  const fd = openSync(opts.logFile, 'a');
  const root = opts.root ?? ROOT;
  const child = spawn(process.execPath, [...serveNodeFlags(root), ...(opts.nodeArgs ?? []), '--import', 'tsx', process.env.PROFILE_SCRIPT ?? 'server/main.ts'], {
    cwd: root,
    stdio: ['ignore', fd, fd],
    env: { ...process.env, PORT: String(opts.port), HOST: '127.0.0.1', DATA_DIR: opts.dataDir, STATIC_DIR: opts.staticDir, ...opts.env },
  });
  const exited = new Promise((r) => child.once('exit', r));
  const baseUrl = `http://127.0.0.1:${opts.port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${baseUrl}/api/health`)).status === 200) break;
    } catch {
      /* not yet */
    }
    if (i > 1200 || child.exitCode !== null) {
      child.kill('SIGTERM');
      throw new Error(`the server did not start; see ${opts.logFile}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, exited, baseUrl };
}

/** A client of its own on the embedded PostgreSQL of `dataDir` (the server's database), for statistics. */
export async function connectStats(dataDir: string): Promise<pg.Client> {
  const pgPort = readPostmaster(clusterDirOf(dataDir))?.port;
  const password = readFileSync(path.join(dataDir, 'pg-password'), 'utf8').trim();
  const c = new pg.Client({ connectionString: `postgres://greetie:${encodeURIComponent(password)}@127.0.0.1:${pgPort}/greetie` });
  await c.connect();
  return c;
}

/**
 * The real server for a profile (bench/profile-portal.ts, bench/profile-redeem.ts): `startSource`
 * on a fresh DATA_DIR in a work folder of its own, with the settings every profile takes from the
 * environment: PROFILE=1 (node's --cpu-prof), PROFILE_ENV='K=V …' (the server's settings),
 * PROFILE_ROOT=<dir> (another checkout's server: an A/B), PROFILE_NODE_ARGS='--flag …' (node's own flags for the
 * server, e.g. --max-semi-space-size=64), PROFILE_SCRIPT=<file> (another entry point instead of server/main.ts, for an
 * experiment such as several processes on one port), PROFILE_KEEP_LOG=<file> (the server's output copied there at the end). `withStatements()` restarts it with
 * pg_stat_statements loaded (statements in functions too, planning time too); `pgCpu()` is
 * PostgreSQL's CPU seconds, the given clients' backends left out; `finish()` stops the server and
 * returns the path of the kept CPU profile (its main thread's), then removes the work folder.
 */
export async function profileServer(name: string) {
  const work = mkdtempSync(path.join(os.tmpdir(), `greetie-profile-${name}-`));
  const dataDir = path.join(work, 'data');
  const profDir = path.join(work, 'prof');
  const port = await freePort();
  const profile = process.env.PROFILE === '1';
  const start = () =>
    startSource({
      port,
      dataDir,
      staticDir: path.join(work, 'no-spa'),
      logFile: path.join(work, 'server.log'),
      nodeArgs: [...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : []), ...(process.env.PROFILE_NODE_ARGS ?? '').split(/\s+/).filter(Boolean)],
      root: process.env.PROFILE_ROOT || undefined,
      env: { TRUST_PROXY: 'on', ...envPairs(process.env.PROFILE_ENV) },
    });
  let server = await start();
  const handle = {
    dataDir,
    get child() {
      return server.child;
    },
    get baseUrl() {
      return server.baseUrl;
    },
    connectStats: () => connectStats(dataDir),
    async withStatements(): Promise<void> {
      const c = await connectStats(dataDir);
      await c.query(`ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'`);
      await c.query(`ALTER SYSTEM SET pg_stat_statements.track = 'all'`);
      await c.query(`ALTER SYSTEM SET pg_stat_statements.track_planning = on`);
      await c.end();
      server.child.kill('SIGTERM');
      await server.exited;
      server = await start();
      const d = await connectStats(dataDir);
      await d.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
      await d.end();
    },
    pgCpu(leaveOut: pg.Client[] = []): number {
      const own = new Set(leaveOut.map((c) => (c as unknown as { processID: number }).processID));
      return postgresPids(dataDir)
        .filter((pid) => !own.has(pid))
        .reduce((a, pid) => a + cpuSeconds(pid), 0);
    },
    async finish(): Promise<string | undefined> {
      server.child.kill('SIGTERM');
      await server.exited;
      let kept: string | undefined;
      if (profile) {
        // The last server's main thread (tsx's loader thread writes a profile of its own):
        // CPU.<date>.<time>.<pid>.<thread>.<n>.cpuprofile.
        const file = readdirSync(profDir).find((f) => f.endsWith('.cpuprofile') && f.includes(`.${server.child.pid}.0.`));
        if (file) {
          kept = path.join(os.tmpdir(), `greetie-${name}-${Date.now()}.cpuprofile`);
          copyFileSync(path.join(profDir, file), kept);
        }
      }
      // PROFILE_KEEP_LOG=<file>: the server's output kept (e.g. with PROFILE_NODE_ARGS=--trace-gc-nvp).
      if (process.env.PROFILE_KEEP_LOG) copyFileSync(path.join(work, 'server.log'), process.env.PROFILE_KEEP_LOG);
      removeDataDir(dataDir);
      rmSync(work, { recursive: true, force: true });
      return kept;
    },
  };
  return handle;
}
