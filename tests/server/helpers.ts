import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppDeps } from '../../server/app.ts';
import { parseConfig, type Config } from '../../server/config.ts';
import { connect, type DatabaseHandle } from '../../server/db/index.ts';

export interface TestDb extends DatabaseHandle {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** A fresh copy of the migrated, seeded template database, for one test file or one test. */
export async function createTestDb(): Promise<TestDb> {
  const adminUrl = inject('adminUrl');
  const template = inject('templateDb');
  const name = `greetie_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const handle = connect(url.toString(), { max: 5 });
  return {
    ...handle,
    url: url.toString(),
    name,
    drop: async () => {
      await handle.close().catch(() => {}); // a test may have ended the pool on purpose
      const a = new pg.Client({ connectionString: adminUrl });
      await a.connect();
      try {
        await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await a.end();
      }
    },
  };
}

/** The settings tests run with: sandbox on, a fixed signing key, no SPA build, quiet logs. */
export function testConfig(env: Record<string, string> = {}): Config {
  const parsed = parseConfig({
    SANDBOX: 'on',
    TOKEN_SIGNING_KEY: 'test-signing-key-0123456789abcdef0123456789',
    LOG_LEVEL: 'silent',
    DATA_DIR: '/tmp/greetie-test-data',
    STATIC_DIR: '/nonexistent-greetie-dist',
    PUBLIC_URL: 'http://localhost:3000',
    // No delivery worker unless a test asks for one (tests/server/delivery): a scheduled greetie
    // stays scheduled while other tests look at it.
    DELIVERY_WORKER: 'off',
    // The sending limits (20 a day, 3 to a number) are tested in tests/server/delivery with their
    // real values; elsewhere one sender sends to one number many times in a file.
    SEND_LIMIT_PER_DAY: '10000',
    SEND_LIMIT_PER_RECIPIENT: '10000',
    ...env,
  });
  if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
  return parsed.config;
}

/**
 * A built client in miniature for the server's static and page tests: a fresh temporary folder
 * holding the given files (paths relative to it, folders made as needed), to pass as `staticDir`.
 */
export function builtDist(files: Record<string, string | Uint8Array>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'greetie-dist-'));
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), content);
  }
  return dir;
}

export interface TestApp {
  app: FastifyInstance;
  db: TestDb;
  close(): Promise<void>;
}

/** The real app on its own copy of the database. */
export async function createTestApp(
  opts: {
    env?: Record<string, string>;
    config?: Config;
    services?: AppDeps['services'];
    logger?: AppDeps['logger'];
    /** Add test-only routes before the app is ready. */
    extend?: (app: FastifyInstance) => void | Promise<void>;
  } = {},
): Promise<TestApp> {
  const db = await createTestDb();
  const config = opts.config ?? testConfig(opts.env);
  const app = await buildApp(config, { db: db.db, services: opts.services, logger: opts.logger });
  if (opts.extend) await opts.extend(app);
  await app.ready();
  return {
    app,
    db,
    close: async () => {
      await app.close();
      await db.drop();
    },
  };
}

/**
 * The portal's tests' world (tests/server/portal): the real app (greetieTestApp), the voucher
 * catalogue's merchant (and another), its owner, one of its staff and a stranger, each signed in.
 * Imported lazily: the supports import this file.
 */
export async function portalFixture() {
  const { greetieTestApp, person } = await import('./greetie/support.ts');
  const { voucherCatalogue } = await import('./voucher/support.ts');
  const { addStaff } = await import('../../server/portal/rules.ts');
  const t = await greetieTestApp();
  const shop = await voucherCatalogue(t.db.db);
  const owner = await person(t.app);
  const staff = await person(t.app);
  const stranger = await person(t.app);
  await addStaff(t.db.db, shop.merchantId, owner.mobileNumber, 'owner');
  await addStaff(t.db.db, shop.merchantId, staff.mobileNumber, 'staff');
  return { t, shop, owner, staff, stranger };
}

/** A statement as a client sent it: the text with its white space folded, and its name ('' unless prepared). */
export interface SentStatement {
  text: string;
  name: string;
}

/**
 * Records every statement the clients of `pool` send between `start()` and `stop()`, as the driver
 * sends it (after server/db/prepared.ts has named a marked one), and only those: a test's own reads
 * through another pool are not counted. `stop()` restores the driver; call it in `afterEach` too.
 */
export function statementRecorder(pool: pg.Pool): { sent: SentStatement[]; start(): void; stop(): void } {
  const clients = new WeakSet<object>();
  const remember = (client: object) => clients.add(client);
  const original = pg.Client.prototype.query;
  const sent: SentStatement[] = [];
  return {
    sent,
    start() {
      sent.length = 0;
      pool.on('connect', remember);
      pool.on('acquire', remember);
      pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
        if (clients.has(this)) {
          const q = args[0] as string | { text: string; name?: string };
          sent.push(typeof q === 'string' ? { text: fold(q), name: '' } : { text: fold(q.text), name: q.name ?? '' });
        }
        return (original as (...a: unknown[]) => unknown).apply(this, args);
      } as typeof original;
    },
    stop() {
      pool.off('connect', remember);
      pool.off('acquire', remember);
      pg.Client.prototype.query = original;
    },
  };
}

const fold = (text: string) => text.replace(/\s+/g, ' ').trim();
