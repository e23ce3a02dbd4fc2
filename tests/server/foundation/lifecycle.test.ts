import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../server/app.ts';
import { createTestDb, testConfig } from '../helpers.ts';
import { freePort } from '../../../server/net.ts';
import { isAlive } from '../../../server/process.ts';

/**
 * The real `npm run serve` process: settings validated at start, one owner per DATA_DIR, clean
 * shutdown on SIGTERM, and a clean start again after `kill -9` with committed writes intact.
 */
const root = path.resolve(import.meta.dirname, '../../..');
const dataDir = mkdtempSync(path.join(tmpdir(), 'greetie-life-'));
const children: ChildProcess[] = [];

function serve(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'warn', STATIC_DIR: '/nonexistent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

async function waitForHealth(port: number, ms = 90_000): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (res.status === 200) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('server did not become healthy');
}

function postmaster(): { pid: number; port: number } {
  const lines = readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n');
  return { pid: Number(lines[0]), port: Number(lines[3]) };
}

async function dbClient(): Promise<pg.Client> {
  const password = readFileSync(path.join(dataDir, 'pg-password'), 'utf8').trim();
  const c = new pg.Client({ host: '127.0.0.1', port: postmaster().port, user: 'greetie', password, database: 'greetie' });
  await c.connect();
  return c;
}

afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  try {
    if (existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))) process.kill(postmaster().pid, 'SIGKILL');
  } catch {
    /* gone */
  }
  rmSync(dataDir, { recursive: true, force: true });
});

// Spawning real servers is slow on a loaded 2-core machine; these tests wait, they do not time.
describe('the server process', { timeout: 180_000 }, () => {
  it('refuses bad settings with one line per problem, then exits', async () => {
    const s = serve({ PORT: 'abc', LOG_LEVEL: 'chatty', DATA_DIR: dataDir });
    expect(await s.exited).toBe(2);
    const lines = s.output().trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^config: PORT /);
    expect(lines[1]).toMatch(/^config: LOG_LEVEL /);
  });

  it('starts, refuses a second server on the same DATA_DIR, stops cleanly on SIGTERM', async () => {
    const port = await freePort();
    const s = serve({ PORT: String(port), DATA_DIR: dataDir });
    await waitForHealth(port);
    const pgPid = postmaster().pid;
    expect(isAlive(pgPid)).toBe(true);

    const second = serve({ PORT: String(await freePort()), DATA_DIR: dataDir });
    expect(await second.exited).toBe(1);
    expect(second.output()).toMatch(/in use by another Greetie server/);
    expect(isAlive(pgPid)).toBe(true); // the refused start took nothing away

    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);
    expect(isAlive(pgPid)).toBe(false);
    expect(existsSync(path.join(dataDir, 'server.pid'))).toBe(false);
  });

  it('comes back after kill -9 with every committed write intact', async () => {
    const port = await freePort();
    const s = serve({ PORT: String(port), DATA_DIR: dataDir });
    await waitForHealth(port);
    const c = await dbClient();
    await c.query("INSERT INTO app_meta (key, value) VALUES ('lifecycle-test', 'kept')");
    await c.end();
    const leftover = postmaster().pid;

    s.child.kill('SIGKILL');
    await s.exited;
    expect(isAlive(leftover)).toBe(true); // the database outlives its killed parent

    const port2 = await freePort();
    const again = serve({ PORT: String(port2), DATA_DIR: dataDir });
    await waitForHealth(port2);
    expect(isAlive(leftover)).toBe(false); // the leftover was stopped, not joined
    const c2 = await dbClient();
    const { rows } = await c2.query("SELECT value FROM app_meta WHERE key = 'lifecycle-test'");
    await c2.end();
    expect(rows).toEqual([{ value: 'kept' }]);

    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
  });
});

describe('graceful close', () => {
  it('finishes a request in flight before closing', async () => {
    const db = await createTestDb();
    const app = await buildApp(testConfig(), { db: db.db });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    app.get('/api/_test/slow', async () => {
      await gate;
      return { done: true };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    const inFlight = fetch(`http://127.0.0.1:${port}/api/_test/slow`).then((r) => r.json());
    await new Promise((r) => setTimeout(r, 50));
    const closing = app.close();
    release();
    expect(await inFlight).toEqual({ done: true });
    await closing;
    await db.drop();
  });
});
