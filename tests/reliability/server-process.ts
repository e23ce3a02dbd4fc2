import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../server/net.ts';
import { clusterDirOf, readPostmaster } from '../../server/db/datadir.ts';

/** The repository root (where package.json is). */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface ServerProcess {
  child: ChildProcess;
  baseUrl: string;
  /** What the process wrote, for failure messages. */
  output(): string;
  exited: Promise<number | null>;
}

/**
 * The real server as `npm run serve` starts it (`node --import tsx server/main.ts`; its V8 size
 * flags, decision 163, left out: they change speed, not behaviour), on its own DATA_DIR and port,
 * with the embedded PostgreSQL. Resolves when /api/health answers 200.
 */
export async function startServer(opts: { dataDir: string; port?: number; env?: Record<string, string>; timeoutMs?: number }): Promise<ServerProcess> {
  const port = opts.port ?? (await freePort());
  let out = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: opts.dataDir,
      SANDBOX: 'on',
      LOG_LEVEL: 'warn',
      STATIC_DIR: path.join(opts.dataDir, 'no-spa'),
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const baseUrl = `http://127.0.0.1:${port}`;
  const until = Date.now() + (opts.timeoutMs ?? 90_000);
  let gone = false;
  void exited.then(() => (gone = true));
  while (Date.now() < until) {
    if (gone) throw new Error(`the server exited before answering:\n${out}`);
    try {
      const res = await fetch(`${baseUrl}/api/health`);
      if (res.status === 200) return { child, baseUrl, output: () => out, exited };
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`the server did not answer /api/health within ${opts.timeoutMs ?? 90_000} ms:\n${out}`);
}

/** The embedded PostgreSQL's pid from its lock file, or undefined. */
export function postgresPid(dataDir: string): number | undefined {
  return readPostmaster(clusterDirOf(dataDir))?.pid;
}

/** SIGTERM and wait for the exit (the server stops the database on the way out). */
export async function stopServer(s: ServerProcess, ms = 30_000): Promise<void> {
  if (s.child.exitCode !== null || s.child.signalCode !== null) return;
  s.child.kill('SIGTERM');
  const timer = setTimeout(() => s.child.kill('SIGKILL'), ms);
  await s.exited;
  clearTimeout(timer);
}
