import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { importJWK, jwtVerify } from 'jose';
import webpushLib from 'web-push';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../server/app.ts';
import { resolveVapidKeys } from '../../../server/providers/push/webpush.ts';
import { pushOne } from '../../../server/notification/rules.ts';
import { createTestDb, testConfig, type TestDb } from '../helpers.ts';
import { person } from '../greetie/support.ts';
import { paidGreetie, voucherCatalogue } from '../voucher/support.ts';
import { testPki } from '../payment/test-ca.ts';
import { notificationsOf, pushDeps, userIdOf } from './support.ts';

/**
 * One VAPID key pair for every process (decision 095). Each process used to make
 * its own in its DATA_DIR, so a browser subscribed through one got pushes signed by another's key,
 * which push services refuse. Now: the settings' pair, or one kept in the database, written once
 * by whichever process starts first. Two app instances on one database, each with its own
 * DATA_DIR, stand for two processes; a local HTTPS server stands for the push service and checks
 * the VAPID signature (an ES256 JWT) against the key the browser subscribed with.
 */

let server: Server;
let base: string;
let ca: string;
const authorizations: string[] = [];
const dbs: TestDb[] = [];
const apps: FastifyInstance[] = [];

beforeAll(async () => {
  const pki = await testPki();
  ca = pki.caPem;
  server = createServer({ cert: pki.server.certPem, key: pki.server.keyPem }, (req, res) => {
    authorizations.push(String(req.headers.authorization));
    req.resume();
    req.on('end', () => {
      res.writeHead(201);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `https://localhost:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const app of apps) await app.close();
  for (const db of dbs) await db.drop();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function freshDb(): Promise<TestDb> {
  const db = await createTestDb();
  dbs.push(db);
  return db;
}

const tempDir = () => mkdtempSync(path.join(tmpdir(), 'greetie-vapid-'));

/** An app instance on `db` with its own DATA_DIR, reaching the fake push service on localhost. */
async function instance(db: TestDb, env: Record<string, string> = {}): Promise<{ app: FastifyInstance; dataDir: string }> {
  const dataDir = tempDir();
  const app = await buildApp(testConfig({ DATA_DIR: dataDir, WEBPUSH_ALLOWED_HOSTS: 'localhost', ...env }), {
    db: db.db,
    webpush: { ca, resolve: async (host) => (host === 'localhost' ? ['127.0.0.1'] : []), reachable: (a) => a === '127.0.0.1' },
  });
  apps.push(app);
  await app.ready();
  return { app, dataDir };
}

/** Checks a `vapid t=<jwt>, k=<key>` header: the JWT is ES256-signed by `publicKey` for the push service's origin. */
async function signedBy(authorization: string, publicKey: string): Promise<boolean> {
  const m = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(authorization);
  if (!m || m[2] !== publicKey) return false;
  const raw = Buffer.from(publicKey, 'base64url');
  const key = await importJWK({ kty: 'EC', crv: 'P-256', x: raw.subarray(1, 33).toString('base64url'), y: raw.subarray(33, 65).toString('base64url') }, 'ES256');
  try {
    await jwtVerify(m[1]!, key, { algorithms: ['ES256'], audience: base });
    return true;
  } catch {
    return false;
  }
}

async function publicKeyOf(app: FastifyInstance, auth: Record<string, string>): Promise<string> {
  const res = await app.inject({ method: 'GET', url: '/api/mobileuser/webpush', headers: auth });
  expect(res.statusCode).toBe(200);
  return (res.json() as { publicKey: string }).publicKey;
}

describe('VAPID keys shared by every process on one database', () => {
  it('two instances started at once serve the same public key, and a push sent by either is signed by it', async () => {
    const db = await freshDb();
    const [a, b] = await Promise.all([instance(db), instance(db)]);
    const who = await person(a!.app);
    const key = await publicKeyOf(a!.app, who.auth);
    expect(await publicKeyOf(b!.app, who.auth)).toBe(key);

    const browser = webpushLib.generateVAPIDKeys(); // any P-256 point serves as the browser's p256dh
    const sub = await a!.app.inject({
      method: 'POST',
      url: '/api/mobileuser/webpush',
      headers: who.auth,
      payload: { endpoint: `${base}/push/abc`, keys: { p256dh: browser.publicKey, auth: 'tBHItJI5svbpez7KI4CCXg' } },
    });
    expect(sub.statusCode, sub.body).toBe(204);
    const shop = await voucherCatalogue(db.db);
    await paidGreetie(a!.app, who, '+46709999023', [shop.charity]);
    const userId = await userIdOf(db.db, who.mobileNumber);
    const [n] = await notificationsOf(db.db, userId);

    for (const app of [b!.app, a!.app]) {
      await sql`UPDATE notification SET push_state = 'pending' WHERE id = ${n!.id}`.execute(db.db);
      authorizations.length = 0;
      expect(await pushOne(pushDeps(app), n!.id)).toBe('pushed');
      expect(authorizations).toHaveLength(1);
      expect(await signedBy(authorizations[0]!, key)).toBe(true);
    }
    // Nothing was written into either DATA_DIR: the pair is the database's.
    expect(existsSync(path.join(a!.dataDir, 'vapid.json')) || existsSync(path.join(b!.dataDir, 'vapid.json'))).toBe(false);
    const { rows } = await sql<{ public_key: string }>`SELECT public_key FROM webpush_vapid`.execute(db.db);
    expect(rows).toEqual([{ public_key: key }]);
  });

  it('many processes finding an empty database at once agree on one pair', async () => {
    const db = await freshDb();
    const keys = await Promise.all(Array.from({ length: 8 }, () => resolveVapidKeys(db.db, { dataDir: tempDir() })));
    expect(new Set(keys.map((k) => `${k.publicKey}:${k.privateKey}`)).size).toBe(1);
    expect((await sql`SELECT 1 FROM webpush_vapid`.execute(db.db)).rows).toHaveLength(1);
  });

  it('an older DATA_DIR/vapid.json is adopted when the database has none (browsers subscribed before keep working); the first one wins', async () => {
    const db = await freshDb();
    const old = webpushLib.generateVAPIDKeys();
    const first = tempDir();
    writeFileSync(path.join(first, 'vapid.json'), JSON.stringify(old));
    expect(await resolveVapidKeys(db.db, { dataDir: first })).toEqual(old);
    const second = tempDir();
    writeFileSync(path.join(second, 'vapid.json'), JSON.stringify(webpushLib.generateVAPIDKeys()));
    expect(await resolveVapidKeys(db.db, { dataDir: second })).toEqual(old);
  });

  it('VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY, when set, are the pair every instance uses; nothing is kept in the database', async () => {
    const db = await freshDb();
    const given = webpushLib.generateVAPIDKeys();
    const env = { VAPID_PUBLIC_KEY: given.publicKey, VAPID_PRIVATE_KEY: given.privateKey };
    const [a, b] = await Promise.all([instance(db, env), instance(db, env)]);
    const who = await person(a!.app);
    expect(await publicKeyOf(a!.app, who.auth)).toBe(given.publicKey);
    expect(await publicKeyOf(b!.app, who.auth)).toBe(given.publicKey);
    expect((await sql`SELECT 1 FROM webpush_vapid`.execute(db.db)).rows).toHaveLength(0);
  });
});
