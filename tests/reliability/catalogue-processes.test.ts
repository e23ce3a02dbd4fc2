import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoMerchants } from '../../server/merchant/seed.ts';
import { createTestDb, type TestDb } from '../server/helpers.ts';
import { ROOT, startServer, stopServer, type ServerProcess } from './server-process.ts';

/**
 * The catalogue cache across processes (docs/decisions/064-catalogue-read-path.md): two real
 * server processes (`node --import tsx server/main.ts`) on one database, each with its own
 * listening connection. A change the operator makes with the admin command (a third process) is
 * seen by reads in both within a second, without either asking the database per read.
 */
const TOKEN_SIGNING_KEY = 'two-process-test-signing-key-0123456789abcdef';

describe('two server processes on one database', { timeout: 180_000 }, () => {
  let db: TestDb;
  const dirs: string[] = [];
  const servers: ServerProcess[] = [];
  const cafe = demoMerchants[0]!;

  beforeAll(async () => {
    db = await createTestDb();
    for (let i = 0; i < 2; i++) {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'greetie-two-'));
      dirs.push(dataDir);
      servers.push(await startServer({ dataDir, env: { DATABASE_URL: db.url, TOKEN_SIGNING_KEY, LOG_LEVEL: 'info' } }));
    }
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => stopServer(s)));
    await db?.drop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  const nameIn = async (s: ServerProcess) => ((await (await fetch(`${s.baseUrl}/api/merchant/${cafe.id}`)).json()) as { name: string }).name;

  function admin(args: string[]): Promise<{ code: number | null; out: string }> {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'server/admin/cli.ts', ...args], {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: db.url, LANG: 'sv_SE.UTF-8' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      child.stderr.on('data', (c: Buffer) => (out += c.toString()));
      child.once('exit', (code) => resolve({ code, out }));
    });
  }

  it('each process holds one listening connection and serves reads from its cache', async () => {
    const listeners = await db.pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'greetie listener'",
    );
    expect(listeners.rows[0]!.n).toBe(2);
    for (const s of servers) expect(await nameIn(s)).toBe('Café Kanelbullen');
    // A change the trigger does not see stays unseen: the answers come from each cache.
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    try {
      await c.query('ALTER TABLE merchant DISABLE TRIGGER merchant_catalogue_version');
      await c.query("UPDATE merchant SET description = 'tyst ändrad' WHERE id = $1", [cafe.id]);
      await c.query('ALTER TABLE merchant ENABLE TRIGGER merchant_catalogue_version');
    } finally {
      await c.end();
    }
    for (const s of servers) {
      const m = (await (await fetch(`${s.baseUrl}/api/merchant/${cafe.id}`)).json()) as { description: string };
      expect(m.description).not.toBe('tyst ändrad');
    }
  });

  it('an admin change is seen by reads in both processes within a second', async () => {
    const res = await admin(['merchant', 'update', cafe.id, '--name', 'Café Två Processer']);
    expect(res.code, res.out).toBe(0);
    const t0 = Date.now();
    const seenAfter: number[] = [];
    for (const s of servers) {
      while ((await nameIn(s)) !== 'Café Två Processer') {
        if (Date.now() - t0 > 1000) throw new Error(`${s.baseUrl} still answers the old name after 1 s`);
        await new Promise((r) => setTimeout(r, 20));
      }
      seenAfter.push(Date.now() - t0);
    }
    expect(Math.max(...seenAfter)).toBeLessThanOrEqual(1000);
  });

  it('request log lines (batched, asynchronous) are all written by a clean shutdown', async () => {
    const s = servers[1]!;
    const ids = Array.from({ length: 20 }, (_, i) => `last-lines-${String(i).padStart(4, '0')}`);
    for (const id of ids) expect((await fetch(`${s.baseUrl}/api/merchant`, { headers: { 'x-request-id': id } })).status).toBe(200);
    await stopServer(s);
    const completed = s
      .output()
      .split('\n')
      .filter((l) => l.includes('"request completed"'))
      .map((l) => (JSON.parse(l) as { req: { id: string } }).req.id);
    for (const id of ids) expect(completed).toContain(id);
  });
});
