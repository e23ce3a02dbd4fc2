import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createECDH, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { createRequire } from 'node:module';
import webpushLib from 'web-push';
import { createTestApp, type TestApp } from '../helpers.ts';
import { TestClock } from '../auth/support.ts';
import { person, type Person } from '../greetie/support.ts';
import { paidGreetie, voucherCatalogue } from '../voucher/support.ts';
import { createWebPushSender } from '../../../server/providers/push/webpush.ts';
import { pushOne } from '../../../server/notification/rules.ts';
import { testPki } from '../payment/test-ca.ts';
import { notificationsOf, pushDeps, userIdOf } from './support.ts';

/**
 * Web Push (web-push 3.6.7) against a local HTTPS server standing in as a browser's push service
 * (web-push posts to whatever endpoint the subscription names): VAPID-signed, aes128gcm-encrypted
 * for the subscription's keys (the test decrypts it as the browser would), a 410 answer deletes
 * the subscription. The fake is on 127.0.0.1, which the sender refuses unless told (decision 095):
 * here it is let through by name (localhost, allowed as WEBPUSH_ALLOWED_HOSTS would) and address.
 * Endpoints inside the network are tested in endpoint.test.ts; the keys in vapid.test.ts.
 */

/** web-push's own encryption library (its pinned dependency), to read the message as a browser would. */
const ece = createRequire(import.meta.url)('http_ece') as {
  decrypt(body: Buffer, params: { version: 'aes128gcm'; privateKey: ReturnType<typeof createECDH>; authSecret: string }): Buffer;
};

interface Received {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

let server: Server;
let base: string;
const received: Received[] = [];
let t: TestApp;
const vapid = webpushLib.generateVAPIDKeys();

beforeAll(async () => {
  const pki = await testPki();
  server = createServer({ cert: pki.server.certPem, key: pki.server.keyPem }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(req.url?.startsWith('/gone') ? 410 : 201);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `https://localhost:${(server.address() as AddressInfo).port}`;
  const clock = new TestClock();
  const webpush = createWebPushSender({
    keys: vapid,
    subject: 'mailto:kundservice@greetie.example',
    allowedHosts: ['localhost'],
    ca: pki.caPem,
    resolve: async (host) => (host === 'localhost' ? ['127.0.0.1'] : []),
    reachable: (address) => address === '127.0.0.1',
  });
  t = await createTestApp({ services: { now: clock.now, webpush } });
});
afterAll(async () => {
  await t.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function browserKeys() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return { ecdh, auth, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') } };
}

describe('Web Push sender', () => {
  let who: Person;
  let userId: string;
  beforeAll(async () => {
    who = await person(t.app);
    userId = await userIdOf(t.db.db, who.mobileNumber);
  });

  it('posts an encrypted, VAPID-signed message to the endpoint; the browser reads the title, body and link', async () => {
    const browser = browserKeys();
    const key = await t.app.inject({ method: 'GET', url: '/api/mobileuser/webpush', headers: who.auth });
    const publicKey = (key.json() as { publicKey: string }).publicKey;
    expect(publicKey).toBe(vapid.publicKey);
    const sub = await t.app.inject({ method: 'POST', url: '/api/mobileuser/webpush', headers: who.auth, payload: { endpoint: `${base}/push/abc`, keys: browser.keys } });
    expect(sub.statusCode, sub.body).toBe(204);

    const shop = await voucherCatalogue(t.db.db);
    await paidGreetie(t.app, who, '+46709999003', [shop.charity]);
    const [n] = await notificationsOf(t.db.db, userId);
    expect(await pushOne(pushDeps(t.app), n!.id)).toBe('pushed');

    expect(received).toHaveLength(1);
    const r = received[0]!;
    expect(r.path).toBe('/push/abc');
    expect(r.headers['content-encoding']).toBe('aes128gcm');
    expect(r.headers.ttl).toBe(String(24 * 60 * 60));
    expect(r.headers.authorization).toMatch(new RegExp(`^vapid t=[\\w-]+\\.[\\w-]+\\.[\\w-]+, k=${publicKey}$`));
    const plain = ece.decrypt(r.body, { version: 'aes128gcm', privateKey: browser.ecdh, authSecret: browser.auth.toString('base64url') });
    expect(JSON.parse(plain.toString('utf8'))).toMatchObject({ title: 'Betalningen är klar', type: 'paymentSucceeded', notificationId: n!.id, url: expect.stringMatching(/^\/greetie\/details\//) });
  });

  it('a subscription the push service answers 410 for is deleted', async () => {
    const browser = browserKeys();
    const endpoint = `${base}/gone/xyz`;
    expect((await t.app.inject({ method: 'POST', url: '/api/mobileuser/webpush', headers: who.auth, payload: { endpoint, keys: browser.keys } })).statusCode).toBe(204);
    await sql`UPDATE notification SET push_state = 'pending' WHERE user_id = ${userId}`.execute(t.db.db);
    const [n] = await notificationsOf(t.db.db, userId);
    received.length = 0;
    expect(await pushOne(pushDeps(t.app), n!.id)).toBe('pushed');
    expect(received.map((x) => x.path).sort()).toEqual(['/gone/xyz', '/push/abc']);
    const { rows } = await sql<{ endpoint: string }>`SELECT endpoint FROM webpush_subscription WHERE user_id = ${userId}`.execute(t.db.db);
    expect(rows.map((x) => x.endpoint)).toEqual([`${base}/push/abc`]);
  });

  it("each browser gets the push in the language the app had when it subscribed; subscribing again changes it", async () => {
    const en = browserKeys();
    const endpoint = `${base}/push/english`;
    const subscribe = (lang: string) =>
      t.app.inject({ method: 'POST', url: '/api/mobileuser/webpush', headers: { ...who.auth, 'accept-language': lang }, payload: { endpoint, keys: en.keys } });
    expect((await subscribe('en')).statusCode).toBe(204);
    await sql`UPDATE notification SET push_state = 'pending' WHERE user_id = ${userId}`.execute(t.db.db);
    const [n] = await notificationsOf(t.db.db, userId);
    received.length = 0;
    expect(await pushOne(pushDeps(t.app), n!.id)).toBe('pushed');
    const read = (path: string, keys: ReturnType<typeof browserKeys>) => {
      const r = received.find((x) => x.path === path)!;
      return JSON.parse(ece.decrypt(r.body, { version: 'aes128gcm', privateKey: keys.ecdh, authSecret: keys.auth.toString('base64url') }).toString('utf8')) as { title: string };
    };
    expect(read('/push/english', en).title).toBe('Payment complete');
    // The Swedish browser of the same user still gets Swedish (its row keeps its own language).
    expect(received.map((x) => x.path).sort()).toEqual(['/push/abc', '/push/english']);

    expect((await subscribe('sv-SE,sv;q=0.9')).statusCode).toBe(204);
    await sql`UPDATE notification SET push_state = 'pending' WHERE id = ${n!.id}`.execute(t.db.db);
    received.length = 0;
    expect(await pushOne(pushDeps(t.app), n!.id)).toBe('pushed');
    expect(read('/push/english', en).title).toBe('Betalningen är klar');
  });
});
