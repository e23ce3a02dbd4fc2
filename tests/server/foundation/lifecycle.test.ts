import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../server/app.ts';
import { createTestDb, testConfig } from '../helpers.ts';
import { swishTestEnv } from '../payment/test-ca.ts';
import { freePort } from '../../../server/net.ts';
import { isAlive } from '../../../server/process.ts';
import { clusterDirOf, readPostmaster, removeDataDir } from '../../../server/db/datadir.ts';

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
  const found = readPostmaster(clusterDirOf(dataDir));
  if (!found?.port) throw new Error('no postmaster.pid for the test database');
  return { pid: found.pid, port: found.port };
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
    const leftover = readPostmaster(clusterDirOf(dataDir));
    if (leftover) process.kill(leftover.pid, 'SIGKILL');
  } catch {
    /* gone */
  }
  removeDataDir(dataDir);
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

  it('with SANDBOX=off, refuses to start without TOKEN_SIGNING_KEY and PUBLIC_URL (exit 2, config: lines)', async () => {
    const production = { SANDBOX: 'off', ELKS_USERNAME: 'u', ELKS_PASSWORD: 'p', ...(await swishTestEnv()), DATA_DIR: dataDir };
    const s = serve({ ...production, TOKEN_SIGNING_KEY: '', PUBLIC_URL: '' });
    expect(await s.exited).toBe(2);
    const lines = s.output().trim().split('\n');
    for (const l of lines) expect(l).toMatch(/^config: /);
    expect(lines).toContain('config: TOKEN_SIGNING_KEY must be set when SANDBOX=off (at least 32 characters, the same on every server process)');
    expect(lines).toContain('config: PUBLIC_URL must be set when SANDBOX=off (the address people reach the app at, the same on every server process)');
    // Nothing was started or written: no signing key generated under DATA_DIR.
    expect(existsSync(path.join(dataDir, 'token-signing.key'))).toBe(false);
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

/** Waits, turn by turn of the event loop, until `condition` holds (no fixed sleep). */
async function until(condition: () => boolean, what: string): Promise<void> {
  for (let turn = 0; turn < 100_000; turn += 1) {
    if (condition()) return;
    await new Promise((r) => setImmediate(r));
  }
  throw new Error(`never happened: ${what}`);
}

describe('graceful close', () => {
  it('stops accepting, waits for the request in flight, answers it, then closes', async () => {
    const db = await createTestDb();
    const app = await buildApp(testConfig(), { db: db.db });
    // The gate: the test route holds its request until the test opens it.
    let entered!: () => void;
    const inHandler = new Promise<void>((r) => (entered = r));
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const order: string[] = [];
    app.get(
      '/api/_test/held',
      {
        onResponse: async () => {
          order.push('answered'); // the answer has been handed to the connection
        },
      },
      async () => {
        entered();
        await gate;
        return { done: true };
      },
    );
    let closeStarted = false;
    app.addHook('preClose', async () => {
      closeStarted = true;
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };

    // A keep-alive client, as browsers are: the answer must close its connection, or close()
    // would wait for the idle connection's keep-alive timeout instead.
    const inFlight = fetch(`http://127.0.0.1:${port}/api/_test/held`).then(async (r) => ({ connection: r.headers.get('connection'), body: await r.json() }));
    await inHandler; // the request is in the handler, held by the gate
    const closing = app.close().then(() => order.push('closed'));
    await until(() => closeStarted && !app.server.listening, 'the server stops listening');

    // Closing has begun and new connections are refused, but close waits for the held request.
    await expect(fetch(`http://127.0.0.1:${port}/api/health`)).rejects.toThrow();
    const open = await new Promise<number>((resolve, reject) => app.server.getConnections((err, n) => (err ? reject(err) : resolve(n))));
    expect(open).toBe(1);
    expect(order).toEqual([]);

    release();
    expect(await inFlight).toEqual({ connection: 'close', body: { done: true } });
    await closing;
    expect(order).toEqual(['answered', 'closed']);
    await db.drop();
  });
});
