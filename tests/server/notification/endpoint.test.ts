import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server, type Socket, type AddressInfo } from 'node:net';
import { sql } from 'kysely';
import webpushLib from 'web-push';
import { createTestApp, type TestApp } from '../helpers.ts';
import { person, type Person } from '../greetie/support.ts';
import { paidGreetie, voucherCatalogue } from '../voucher/support.ts';
import { createWebPushSender } from '../../../server/providers/push/webpush.ts';
import { isPublicAddress, systemResolve } from '../../../server/providers/push/endpoint.ts';
import { pushOne } from '../../../server/notification/rules.ts';
import { notificationsOf, pushDeps, userIdOf } from './support.ts';

/**
 * Web Push must not reach inside the network (decision 095). An endpoint is a URL
 * the browser gives, so a signed-in attacker can name any address: before, the server posted to it
 * and a 404/410 deleted the subscription, so ports and paths inside could be probed. Now an
 * endpoint must be on an allowed push service's host (WEBPUSH_ALLOWED_HOSTS) and every address
 * connected to must be public, checked by the connection's own lookup at send.
 *
 * A local TCP listener stands in for a service inside: it counts the connections it gets, which
 * must stay at none.
 */

const KEYS = { p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM', auth: 'tBHItJI5svbpez7KI4CCXg' };

let inside: Server;
let port: number;
const connections: Socket[] = [];

beforeAll(async () => {
  inside = createServer((socket) => {
    connections.push(socket);
    socket.destroy();
  });
  await new Promise<void>((resolve) => inside.listen(0, '127.0.0.1', resolve));
  port = (inside.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => inside.close(() => resolve()));
});

/** The forms the red-team probe used, and the other ranges inside a network. */
const hostile = () => [
  `https://127.0.0.1:${port}/x`,
  `https://localhost:${port}/x`,
  `https://LOCALHOST.:${port}/x`,
  `https://[::ffff:127.0.0.1]:${port}/x`,
  `https://0x7f000001:${port}/x`,
  `https://2130706433:${port}/x`,
  `https://0177.0.0.1:${port}/x`,
  `https://127.1:${port}/x`,
  `https://[::1]:${port}/x`,
  `https://[::]:${port}/x`,
  `https://0.0.0.0:${port}/x`,
  'https://10.1.2.3/x',
  'https://172.16.0.1/x',
  'https://192.168.1.1/x',
  'https://169.254.169.254/latest/meta-data/',
  'https://100.64.0.1/x',
  'https://224.0.0.1/x',
  'https://255.255.255.255/x',
  'https://[fe80::1]/x',
  'https://[fd12:3456::1]/x',
  'https://[::127.0.0.1]/x',
  'https://[64:ff9b::7f00:1]/x',
  'https://[ff02::1]/x',
];

async function subscribe(t: TestApp, who: Person, endpoint: string) {
  return t.app.inject({ method: 'POST', url: '/api/mobileuser/webpush', headers: who.auth, payload: { endpoint, keys: KEYS } });
}

async function storedOf(t: TestApp, userId: string): Promise<string[]> {
  const { rows } = await sql<{ endpoint: string }>`SELECT endpoint FROM webpush_subscription WHERE user_id = ${userId} ORDER BY endpoint`.execute(t.db.db);
  return rows.map((r) => r.endpoint);
}

describe('the address check (ipaddr.js)', () => {
  it('passes public unicast addresses only', () => {
    for (const a of ['142.250.74.42', '2a00:1450:4001:82b::200a', '17.253.144.10', '::ffff:142.250.74.42']) expect(isPublicAddress(a), a).toBe(true);
    for (const a of ['127.0.0.1', '10.0.0.1', '172.31.255.255', '192.168.0.1', '169.254.1.1', '100.127.0.1', '0.0.0.0', '224.0.0.1', '192.0.2.1', '198.18.0.1', '240.0.0.1']) {
      expect(isPublicAddress(a), a).toBe(false);
    }
    for (const a of ['::1', '::', '::ffff:127.0.0.1', '::ffff:10.0.0.1', 'fe80::1', 'fc00::1', 'fd00::1', 'ff02::1', '::7f00:1', '64:ff9b::a00:1', '2001:db8::1', 'not an address', '2130706433']) {
      expect(isPublicAddress(a), a).toBe(false);
    }
  });
});

describe('with the default setting (the browsers\' push services only)', () => {
  let t: TestApp;
  let who: Person;
  let userId: string;
  beforeAll(async () => {
    t = await createTestApp();
    who = await person(t.app);
    userId = await userIdOf(t.db.db, who.mobileNumber);
  });
  afterAll(async () => {
    await t.close();
  });

  it('refuses every endpoint inside the network at subscribe: 400 WEBPUSH_ENDPOINT_REFUSED in Swedish, nothing stored', async () => {
    for (const endpoint of [...hostile(), 'https://push.example.test/x', 'https://fcm.googleapis.com.evil.example/x', 'https://notify.windows.com.evil.example/x', 'https://evil-fcm.googleapis.com/x']) {
      const res = await subscribe(t, who, endpoint);
      expect(res.statusCode, endpoint).toBe(400);
      expect(res.json(), endpoint).toMatchObject({ code: 'WEBPUSH_ENDPOINT_REFUSED', message: expect.stringMatching(/push-tjänst/) });
    }
    expect(await storedOf(t, userId)).toEqual([]);
  });

  it('keeps the browsers\' push services\' endpoints', async () => {
    const ok = [
      'https://fcm.googleapis.com/fcm/send/dXZ1:APA91b',
      'https://updates.push.services.mozilla.com/wpush/v2/gAAAAA',
      'https://wns2-by3p.notify.windows.com/w/?token=BQYAAAD',
      'https://web.push.apple.com/QGuQyavXutnMH',
    ];
    for (const endpoint of ok) expect((await subscribe(t, who, endpoint)).statusCode, endpoint).toBe(204);
    expect(await storedOf(t, userId)).toEqual([...ok].sort());
    await sql`DELETE FROM webpush_subscription WHERE user_id = ${userId}`.execute(t.db.db);
  });

  it('in English when asked', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/mobileuser/webpush', headers: { ...who.auth, 'accept-language': 'en' }, payload: { endpoint: `https://127.0.0.1:${port}/x`, keys: KEYS } });
    expect(res.json()).toMatchObject({ code: 'WEBPUSH_ENDPOINT_REFUSED', message: expect.stringMatching(/push service/) });
  });
});

describe('with WEBPUSH_ALLOWED_HOSTS=* (any host whose addresses are public)', () => {
  let t: TestApp;
  let who: Person;
  let userId: string;
  /** rebind.example.test answers a public address until `rebound`, then 127.0.0.1 (DNS rebinding). */
  let rebound = false;
  beforeAll(async () => {
    const webpush = createWebPushSender({
      keys: webpushLib.generateVAPIDKeys(),
      subject: 'mailto:kundservice@greetie.example',
      allowedHosts: '*',
      resolve: async (host) => (host === 'rebind.example.test' ? [rebound ? '127.0.0.1' : '93.184.215.14'] : systemResolve(host)),
    });
    t = await createTestApp({ env: { WEBPUSH_ALLOWED_HOSTS: '*' }, services: { webpush } });
    who = await person(t.app);
    userId = await userIdOf(t.db.db, who.mobileNumber);
  });
  afterAll(async () => {
    await t.close();
  });

  it('still refuses every address inside the network at subscribe, literal or by name', async () => {
    for (const endpoint of hostile()) {
      const res = await subscribe(t, who, endpoint);
      expect(res.statusCode, endpoint).toBe(400);
      expect((res.json() as { code: string }).code, endpoint).toBe('WEBPUSH_ENDPOINT_REFUSED');
    }
    expect(await storedOf(t, userId)).toEqual([]);
  });

  it('a host that resolved to a public address at subscribe and to 127.0.0.1 at send is not connected to', async () => {
    const endpoint = `https://rebind.example.test:${port}/push/abc`;
    expect((await subscribe(t, who, endpoint)).statusCode).toBe(204);
    rebound = true;
    const shop = await voucherCatalogue(t.db.db);
    await paidGreetie(t.app, who, '+46709999013', [shop.charity]);
    const [n] = await notificationsOf(t.db.db, userId);
    connections.length = 0;
    expect(await pushOne(pushDeps(t.app), n!.id)).toBe('pushed');
    expect(connections).toHaveLength(0);
    // Nothing was sent, and nothing about the address inside is told: the subscription stays.
    expect(await storedOf(t, userId)).toEqual([endpoint]);
  });
});

describe('a host allowed by WEBPUSH_ALLOWED_HOSTS that resolves to a loopback address', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { WEBPUSH_ALLOWED_HOSTS: 'localhost,fcm.googleapis.com' } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('is kept at subscribe (the operator allowed the name) but never connected to at send', async () => {
    const who = await person(t.app);
    const userId = await userIdOf(t.db.db, who.mobileNumber);
    const endpoint = `https://localhost:${port}/push/abc`;
    expect((await subscribe(t, who, endpoint)).statusCode).toBe(204);
    // An IP literal is refused even when the name beside it is allowed.
    expect((await subscribe(t, who, `https://127.0.0.1:${port}/x`)).statusCode).toBe(400);
    const shop = await voucherCatalogue(t.db.db);
    await paidGreetie(t.app, who, '+46709999014', [shop.charity]);
    const [n] = await notificationsOf(t.db.db, userId);
    connections.length = 0;
    expect(await pushOne(pushDeps(t.app), n!.id)).toBe('pushed');
    expect(connections).toHaveLength(0);
    expect(await storedOf(t, userId)).toEqual([endpoint]);
  });

  it('a subscription whose host is no longer allowed is not connected to, and is deleted', async () => {
    const who = await person(t.app);
    const userId = await userIdOf(t.db.db, who.mobileNumber);
    // Stored before the setting changed (or before this check existed).
    await sql`INSERT INTO webpush_subscription (endpoint, user_id, p256dh, auth, created_at)
              VALUES (${`https://127.0.0.1:${port}/old`}, ${userId}, ${KEYS.p256dh}, ${KEYS.auth}, now())`.execute(t.db.db);
    const shop = await voucherCatalogue(t.db.db);
    await paidGreetie(t.app, who, '+46709999015', [shop.charity]);
    const [n] = await notificationsOf(t.db.db, userId);
    connections.length = 0;
    expect(await pushOne(pushDeps(t.app), n!.id)).toBe('pushed');
    expect(connections).toHaveLength(0);
    expect(await storedOf(t, userId)).toEqual([]);
  });
});
