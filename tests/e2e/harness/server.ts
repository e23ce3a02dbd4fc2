import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { freePort } from '../../../server/net.ts';
import { isAlive } from '../../../server/process.ts';
import { clusterDirOf, readPostmaster, removeDataDir } from '../../../server/db/datadir.ts';

/** The repository root (tests/e2e/harness → ../../..). */
export const ROOT = path.resolve(import.meta.dirname, '../../..');

function waitForExit(child: ChildProcess, ms: number): Promise<{ code: number | null; signal: NodeJS.Signals | null } | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), ms);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal });
    });
  });
}

/**
 * The production build of the SPA, made once per run into its own directory, so a run never
 * serves a stale dist/ and never races another process that is building dist/ at the same time.
 * Same `vite build` (same config, same plugins) as `npm run build`; only the output folder differs.
 */
export async function buildSpa(outDir: string, logFile: string): Promise<void> {
  const log = createWriteStream(logFile);
  const child = spawn(process.execPath, [path.join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'], {
    cwd: ROOT,
    // The build `npm start` serves. Vitest sets NODE_ENV=test, and Vite builds with the NODE_ENV
    // it finds: inherited, the journeys walked React's development build (StrictMode's double
    // effects included, which read a greetie link twice: decision 132).
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  const exit = await waitForExit(child, 120_000);
  log.end();
  if (!exit || exit.code !== 0) {
    if (!exit) child.kill('SIGKILL');
    throw new Error(`vite build failed (${exit ? `exit ${exit.code}` : 'timed out'}); see ${logFile}`);
  }
  if (!existsSync(path.join(outDir, 'index.html'))) throw new Error(`vite build wrote no index.html in ${outDir}`);
}

function pick(env: NodeJS.ProcessEnv, keys: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of keys) if (env[k] !== undefined) out[k] = env[k];
  return out;
}

export interface RunningServer {
  baseURL: string;
  dataDir: string;
  /** SIGTERM, wait for a clean exit, and check the embedded database went with it. */
  stop(): Promise<void>;
}

/**
 * `npm run serve` (what `npm start` runs after building): `node --import tsx server/main.ts` (its V8
 * size flags, decision 163, left out: they change speed, not behaviour), with
 * its own port and data directory, so the embedded PostgreSQL starts fresh, migrates and seeds the
 * demo data exactly as on a first `npm start`. The sandbox is on (the default).
 */
export async function startServer(opts: { staticDir: string; dataDir: string; logFile: string }): Promise<RunningServer> {
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const log = createWriteStream(opts.logFile);
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    // Only what a shell needs, then our settings: no provider, database or key settings from the
    // developer's environment leak in, so the server runs with `npm start`'s defaults.
    env: {
      ...pick(process.env, ['PATH', 'HOME', 'TMPDIR', 'LANG', 'TZ', 'SYSTEMROOT']),
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: baseURL,
      DATA_DIR: opts.dataDir,
      STATIC_DIR: opts.staticDir,
      SANDBOX: 'on',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);

  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code, signal) => reject(new Error(`the server exited before it answered /api/health (code ${code}, signal ${signal}); see ${opts.logFile}`))),
  );
  exited.catch(() => {});
  let gaveUp = false;
  const healthy = (async () => {
    const until = Date.now() + 90_000;
    while (Date.now() < until && !gaveUp) {
      try {
        const res = await fetch(`${baseURL}/api/health`);
        if (res.ok) return;
      } catch {
        /* not listening yet */
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`the server did not answer /api/health within 90 s; see ${opts.logFile}`);
  })();
  try {
    await Promise.race([healthy, exited]);
  } catch (err) {
    gaveUp = true; // stop polling, or the loop keeps the test runner alive
    child.kill('SIGKILL');
    await new Promise((r) => log.end(r));
    const tail = readFileSync(opts.logFile, 'utf8').trim().split('\n').slice(-15).join('\n');
    throw new Error(`${(err as Error).message}\n${tail}`);
  }

  // The embedded PostgreSQL's postmaster pid, to check it is gone after the server stops.
  const pgPid = readPostmaster(clusterDirOf(opts.dataDir))?.pid ?? NaN;

  return {
    baseURL,
    dataDir: opts.dataDir,
    async stop() {
      child.kill('SIGTERM');
      const exit = await waitForExit(child, 30_000);
      await new Promise((r) => log.end(r));
      const problems: string[] = [];
      if (!exit) {
        child.kill('SIGKILL');
        problems.push('the server did not exit within 30 s of SIGTERM');
      } else if (exit.code !== 0) {
        problems.push(`the server exited with code ${exit.code} (signal ${exit.signal}) after SIGTERM`);
      }
      if (Number.isInteger(pgPid) && pgPid > 0) {
        const until = Date.now() + 10_000;
        while (isAlive(pgPid) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
        if (isAlive(pgPid)) problems.push(`the embedded PostgreSQL (pid ${pgPid}) is still running after the server stopped`);
      } else {
        problems.push('could not read the embedded PostgreSQL pid from postmaster.pid');
      }
      if (problems.length === 0) removeDataDir(opts.dataDir);
      if (problems.length) throw new Error(`${problems.join('; ')} (log: ${opts.logFile}, data: ${opts.dataDir})`);
    },
  };
}
