import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { Value } from 'typebox/value';
import { Notification } from '../../../contract/notification.ts';
import type { Payment } from '../../../contract/payment.ts';
import type { Greetie } from '../../../contract/greetie.ts';
import { call, greetieTestApp, person, type Person } from '../greetie/support.ts';
import { MERCHANT_CODE, deliver, paidGreetie, voucherCatalogue, voucherIds, type VoucherCatalogue } from '../voucher/support.ts';
import { pushOne, remindExpiry, sweepPushes } from '../../../server/notification/rules.ts';
import { readSandboxPush } from '../../../server/providers/push/sandbox.ts';
import { jobs, notificationsOf, pushDeps, userIdOf } from './support.ts';

/**
 * Notifications on real PostgreSQL, made by driving the real paths: paying in the
 * sandbox, delivering, opening, redeeming; the expiry reminders' jobs; the list, paging and
 * marking read; the pushes into the sandbox outbox, each once.
 */

type T = Awaited<ReturnType<typeof greetieTestApp>>;
let t: T;
let shop: VoucherCatalogue;

beforeAll(async () => {
  t = await greetieTestApp();
  shop = await voucherCatalogue(t.db.db);
});
afterAll(async () => {
  await t.close();
});

const DAY = 24 * 60 * 60_000;

async function pair(): Promise<{ sender: Person; recipient: Person; senderId: string; recipientId: string }> {
  const sender = await person(t.app);
  const recipient = await person(t.app);
  return { sender, recipient, senderId: await userIdOf(t.db.db, sender.mobileNumber), recipientId: await userIdOf(t.db.db, recipient.mobileNumber) };
}

describe('notifications made by what happens', () => {
  it('paid → the sender hears it; delivered → the recipient and the sender; opened → the sender; redeemed → the owner; each once', async () => {
    const p = await pair();
    const g = await paidGreetie(t.app, p.sender, p.recipient.mobileNumber, [shop.inStore]);
    expect((await notificationsOf(t.db.db, p.senderId)).map((n) => n.type)).toEqual(['paymentSucceeded']);

    t.clock.advance(1000);
    await deliver(t.app, g.id);
    expect((await notificationsOf(t.db.db, p.senderId)).map((n) => n.type)).toEqual(['paymentSucceeded', 'greetieDelivered']);
    const received = await notificationsOf(t.db.db, p.recipientId);
    expect(received.map((n) => [n.type, n.greetie_id])).toEqual([['greetieReceived', g.id]]);

    // The recipient opens it twice: one notification.
    t.clock.advance(1000);
    for (let i = 0; i < 2; i++) expect((await call(t.app, p.recipient, 'GET', `/api/greetie/${g.id}`)).statusCode).toBe(200);
    expect((await notificationsOf(t.db.db, p.senderId)).map((n) => n.type)).toEqual(['paymentSucceeded', 'greetieDelivered', 'greetieViewed']);

    const [voucherId] = await voucherIds(t.db.db, g.id);
    t.clock.advance(1000);
    const redeemed = await call(t.app, p.recipient, 'POST', '/api/voucher/redeem', { voucherId, merchantCode: MERCHANT_CODE });
    expect(redeemed.statusCode, redeemed.body).toBe(200);
    const after = await notificationsOf(t.db.db, p.recipientId);
    expect(after.map((n) => [n.type, n.voucher_id])).toEqual([
      ['greetieReceived', null],
      ['voucherRedeemed', voucherId],
    ]);
    // Every one has its push job, except the triggers' (viewed, redeemed): the sweep takes those.
    const pushJobs = (await jobs(t.db.db, 'push')).map((j) => j.data.notificationId);
    for (const n of [...(await notificationsOf(t.db.db, p.senderId)), ...after].filter((n) => !['greetieViewed', 'voucherRedeemed'].includes(n.type))) {
      expect(pushJobs).toContain(n.id);
    }
  });

  it('a declined payment tells the sender; a cancelled one (a new payer) does not', async () => {
    const p = await pair();
    const created = await call(t.app, p.sender, 'POST', '/api/greetie/createv2', { recipient: { mobileNumber: p.recipient.mobileNumber }, gifts: [{ productId: shop.inStore }] });
    const greetie = created.json() as Greetie;
    const first = (await call(t.app, p.sender, 'POST', `/api/greetie/${greetie.id}/startpayment`, { withdrawalConsent: true })).json() as Payment;
    // A new payer cancels the first request.
    const second = await call(t.app, p.sender, 'POST', `/api/greetie/${greetie.id}/startpayment`, { withdrawalConsent: true, payerAlias: '0701234599' });
    expect(second.statusCode, second.body).toBe(200);
    expect(await notificationsOf(t.db.db, p.senderId)).toEqual([]);
    const declined = await t.app.inject({ method: 'POST', url: `/api/sandbox/payments/${(second.json() as Payment).id}`, payload: { outcome: 'declined' } });
    expect(declined.statusCode, declined.body).toBe(200);
    expect(first.id).not.toBe((second.json() as Payment).id);
    const rows = await notificationsOf(t.db.db, p.senderId);
    expect(rows.map((n) => [n.type, n.greetie_id])).toEqual([['paymentFailed', greetie.id]]);
  });

  it('a payment that goes through after a declined one settles the "did not go through" notice (read, not asking to try again)', async () => {
    const p = await pair();
    const created = await call(t.app, p.sender, 'POST', '/api/greetie/createv2', { recipient: { mobileNumber: p.recipient.mobileNumber }, gifts: [{ productId: shop.inStore }] });
    const greetie = created.json() as Greetie;
    const first = (await call(t.app, p.sender, 'POST', `/api/greetie/${greetie.id}/startpayment`, { withdrawalConsent: true })).json() as Payment;
    const declined = await t.app.inject({ method: 'POST', url: `/api/sandbox/payments/${first.id}`, payload: { outcome: 'declined' } });
    expect(declined.statusCode, declined.body).toBe(200);
    // Another greetie's failed notice stays as it is.
    const other = (await call(t.app, p.sender, 'POST', '/api/greetie/createv2', { recipient: { mobileNumber: p.recipient.mobileNumber }, gifts: [{ productId: shop.inStore }] })).json() as Greetie;
    const otherPayment = (await call(t.app, p.sender, 'POST', `/api/greetie/${other.id}/startpayment`, { withdrawalConsent: true })).json() as Payment;
    await t.app.inject({ method: 'POST', url: `/api/sandbox/payments/${otherPayment.id}`, payload: { outcome: 'declined' } });
    const before = await call(t.app, p.sender, 'GET', '/api/mobileuser/notifications');
    expect(before.headers['x-unread-count']).toBe('2');

    t.clock.advance(1000);
    const second = (await call(t.app, p.sender, 'POST', `/api/greetie/${greetie.id}/startpayment`, { withdrawalConsent: true })).json() as Payment;
    const paid = await t.app.inject({ method: 'POST', url: `/api/sandbox/payments/${second.id}`, payload: { outcome: 'paid' } });
    expect(paid.statusCode, paid.body).toBe(200);
    const rows = await notificationsOf(t.db.db, p.senderId);
    const state = rows.map((n) => [n.type, n.greetie_id, n.read_at !== null]);
    expect(state).toContainEqual(['paymentFailed', greetie.id, true]);
    expect(state).toContainEqual(['paymentFailed', other.id, false]);
    expect(state).toContainEqual(['paymentSucceeded', greetie.id, false]);
    const after = await call(t.app, p.sender, 'GET', '/api/mobileuser/notifications');
    expect(after.headers['x-unread-count']).toBe('2');
  });

  it('a greetie to a number nobody has signed in with notifies only the sender; one to oneself notifies once', async () => {
    const p = await pair();
    const g = await paidGreetie(t.app, p.sender, '+46709999001', [shop.charity]);
    t.clock.advance(1000);
    await deliver(t.app, g.id);
    expect((await notificationsOf(t.db.db, p.senderId)).map((n) => n.type)).toEqual(['paymentSucceeded', 'greetieDelivered']);

    const self = await paidGreetie(t.app, p.recipient, p.recipient.mobileNumber, [shop.charity]);
    t.clock.advance(1000);
    await deliver(t.app, self.id);
    await call(t.app, p.recipient, 'GET', `/api/greetie/${self.id}`);
    expect((await notificationsOf(t.db.db, p.recipientId)).map((n) => n.type)).toEqual(['paymentSucceeded', 'greetieReceived']);
  });

  it('delivery schedules the expiry reminders at 30 and 7 days before; a reminder is made once, not for a redeemed voucher', async () => {
    const p = await pair();
    const g = await paidGreetie(t.app, p.sender, p.recipient.mobileNumber, [shop.inStore, shop.charity]);
    await deliver(t.app, g.id);
    const [a, b] = await voucherIds(t.db.db, g.id);
    const expiry = (await jobs(t.db.db, 'expiry')).filter((j) => j.data.voucherId === a);
    const expiresAt = t.clock.now().getTime() + 365 * DAY;
    expect(expiry.map((j) => [j.data.days, j.start_after.getTime()])).toEqual([
      [30, expiresAt - 30 * DAY],
      [7, expiresAt - 7 * DAY],
    ]);

    const deps = pushDeps(t.app);
    expect(await remindExpiry(deps, a!, 30)).toBe(true);
    expect(await remindExpiry(deps, a!, 30)).toBe(true);
    const redeemed = await call(t.app, p.recipient, 'POST', `/api/voucher/redeemed?id=${b}`);
    expect(redeemed.statusCode, redeemed.body).toBe(200);
    expect(await remindExpiry(deps, b!, 7)).toBe(false);
    const reminders = (await notificationsOf(t.db.db, p.recipientId)).filter((n) => n.type === 'voucherExpiring');
    expect(reminders.map((n) => n.voucher_id)).toEqual([a]);
    const list = (await call(t.app, p.recipient, 'GET', '/api/mobileuser/notifications')).json() as Notification[];
    expect(list.find((n) => n.type === 'voucherExpiring')).toMatchObject({ title: 'Presentkortet går ut om 30 dagar', body: 'Glöm inte att använda Fika för två hos Kafé Inlösen.' });
  });
});

describe('after a recipient correction (POST /greetie/{id}/recipient)', () => {
  it("the expiry reminders follow the current recipient: the old delivery's jobs do nothing, the new one's reach the new number", async () => {
    const p = await pair();
    const g = await paidGreetie(t.app, p.sender, p.recipient.mobileNumber, [shop.inStore]);
    await deliver(t.app, g.id);
    const [v] = await voucherIds(t.db.db, g.id);
    const deps = pushDeps(t.app);
    // The old recipient got the 30-day reminder before the correction.
    expect(await remindExpiry(deps, v!, 30)).toBe(true);

    const next = await person(t.app);
    const nextId = await userIdOf(t.db.db, next.mobileNumber);
    t.clock.advance(1000);
    const corrected = await call(t.app, p.sender, 'POST', `/api/greetie/${g.id}/recipient`, { mobileNumber: next.mobileNumber });
    expect(corrected.statusCode, corrected.body).toBe(200);
    await deliver(t.app, g.id);
    // The new delivery's jobs name it (changes 1); the old ones (changes 0 or none) are stale.
    const expiry = (await jobs(t.db.db, 'expiry')).filter((j) => j.data.voucherId === v);
    expect(expiry.filter((j) => j.data.changes === 1).map((j) => j.data.days)).toEqual([30, 7]);
    expect(await remindExpiry(deps, v!, 7)).toBe(false);
    expect(await remindExpiry(deps, v!, 30, 1)).toBe(true);
    expect(await remindExpiry(deps, v!, 30, 1)).toBe(true);

    const reminders = async (userId: string) => (await notificationsOf(t.db.db, userId)).filter((n) => n.type === 'voucherExpiring');
    expect((await reminders(nextId)).map((n) => n.voucher_id)).toEqual([v]);
    expect(await reminders(p.recipientId)).toEqual([]);
  });

  it("the old recipient's notifications of the greetie are gone (they led to a 404); the sender's stay", async () => {
    const p = await pair();
    const g = await paidGreetie(t.app, p.sender, p.recipient.mobileNumber, [shop.inStore]);
    await deliver(t.app, g.id);
    const [v] = await voucherIds(t.db.db, g.id);
    await remindExpiry(pushDeps(t.app), v!, 30);
    expect((await notificationsOf(t.db.db, p.recipientId)).map((n) => n.type).sort()).toEqual(['greetieReceived', 'voucherExpiring']);
    const senderBefore = (await notificationsOf(t.db.db, p.senderId)).map((n) => n.type);

    const next = await person(t.app);
    const corrected = await call(t.app, p.sender, 'POST', `/api/greetie/${g.id}/recipient`, { mobileNumber: next.mobileNumber });
    expect(corrected.statusCode, corrected.body).toBe(200);
    // What the old recipient's list would open answers 404 now.
    expect((await call(t.app, p.recipient, 'GET', `/api/greetie/${g.id}`)).statusCode).toBe(404);
    expect(await notificationsOf(t.db.db, p.recipientId)).toEqual([]);
    const list = (await call(t.app, p.recipient, 'GET', '/api/mobileuser/notifications')).json() as Notification[];
    expect(list.filter((n) => n.greetieId === g.id)).toEqual([]);
    expect((await notificationsOf(t.db.db, p.senderId)).map((n) => n.type)).toEqual(senderBefore);

    // The new recipient hears of it once it is delivered to them.
    t.clock.advance(1000);
    await deliver(t.app, g.id);
    const nextId = await userIdOf(t.db.db, next.mobileNumber);
    expect((await notificationsOf(t.db.db, nextId)).map((n) => [n.type, n.greetie_id])).toEqual([['greetieReceived', g.id]]);
  });
});

describe('GET /api/mobileuser/notifications and POST …/read', () => {
  let who: Awaited<ReturnType<typeof pair>>;
  let greetieId: string;
  beforeAll(async () => {
    who = await pair();
    // Seven notifications for the recipient: three greeties delivered (received) and their reminders made.
    for (let i = 0; i < 3; i++) {
      const g = await paidGreetie(t.app, who.sender, who.recipient.mobileNumber, [shop.inStore]);
      t.clock.advance(1000);
      await deliver(t.app, g.id);
      greetieId = g.id;
      const [v] = await voucherIds(t.db.db, g.id);
      t.clock.advance(1000);
      await remindExpiry(pushDeps(t.app), v!, 30);
    }
  });

  it('newest first, in the contract shape, Swedish by default and English when asked; the unread count in a header', async () => {
    const res = await call(t.app, who.recipient, 'GET', '/api/mobileuser/notifications');
    expect(res.statusCode, res.body).toBe(200);
    const list = res.json() as Notification[];
    expect(list).toHaveLength(6);
    for (const n of list) expect(Value.Check(Notification, n), JSON.stringify(n)).toBe(true);
    expect(list[0]).toMatchObject({ type: 'voucherExpiring', read: false });
    expect(list[1]).toMatchObject({ type: 'greetieReceived', greetieId, title: 'Du har fått en greetie!', read: false });
    expect(res.headers['x-unread-count']).toBe('6');
    const times = list.map((n) => Date.parse(n.createdAt));
    expect([...times].sort((x, y) => y - x)).toEqual(times);
    const en = await t.app.inject({ method: 'GET', url: '/api/mobileuser/notifications', headers: { ...who.recipient.auth, 'accept-language': 'en' } });
    expect((en.json() as Notification[])[1]!.title).toBe('You have received a greetie!');
  });

  it('pages with limit and the Link header until the end, each once', async () => {
    const seen: string[] = [];
    let url: string | undefined = '/api/mobileuser/notifications?limit=4';
    while (url) {
      const res = await call(t.app, who.recipient, 'GET', url);
      expect(res.statusCode, res.body).toBe(200);
      seen.push(...(res.json() as Notification[]).map((n) => n.id));
      const link = res.headers.link as string | undefined;
      url = link ? /^<([^>]+)>; rel="next"$/.exec(link)![1] : undefined;
    }
    expect(seen).toHaveLength(6);
    expect(new Set(seen).size).toBe(6);
  });

  it('refuses a bad cursor and limit with 400; a visitor with 401', async () => {
    for (const q of ['cursor=nope', 'cursor=' + Buffer.from('["x","y"]').toString('base64url'), 'limit=0', 'limit=101', 'other=1']) {
      const res = await call(t.app, who.recipient, 'GET', `/api/mobileuser/notifications?${q}`);
      expect(res.statusCode, q).toBe(400);
    }
    expect((await call(t.app, undefined, 'GET', '/api/mobileuser/notifications')).statusCode).toBe(401);
    expect((await call(t.app, undefined, 'POST', '/api/mobileuser/notifications/read', {})).statusCode).toBe(401);
  });

  it('marks those named read (another user\'s ids passed over), then all; bad ids are 400 and change nothing', async () => {
    const list = (await call(t.app, who.recipient, 'GET', '/api/mobileuser/notifications')).json() as Notification[];
    const senderList = (await call(t.app, who.sender, 'GET', '/api/mobileuser/notifications')).json() as Notification[];
    const bad = await call(t.app, who.recipient, 'POST', '/api/mobileuser/notifications/read', { ids: ['not-a-uuid'] });
    expect(bad.statusCode).toBe(400);
    const res = await call(t.app, who.recipient, 'POST', '/api/mobileuser/notifications/read', { ids: [list[0]!.id, senderList[0]!.id] });
    expect(res.statusCode, res.body).toBe(204);
    const after = (await call(t.app, who.recipient, 'GET', '/api/mobileuser/notifications')).json() as Notification[];
    expect(after.filter((n) => n.read).map((n) => n.id)).toEqual([list[0]!.id]);
    expect(((await call(t.app, who.sender, 'GET', '/api/mobileuser/notifications')).json() as Notification[]).every((n) => !n.read)).toBe(true);
    const all = await call(t.app, who.recipient, 'POST', '/api/mobileuser/notifications/read');
    expect(all.statusCode, all.body).toBe(204);
    const done = await call(t.app, who.recipient, 'GET', '/api/mobileuser/notifications');
    expect((done.json() as Notification[]).every((n) => n.read)).toBe(true);
    expect(done.headers['x-unread-count']).toBe('0');
  });
});

describe('pushing (sandbox outbox)', () => {
  it('a notification is pushed once to each registered token, or to user:<id> in the sandbox; the sweep pushes the triggers\' rows', async () => {
    const p = await pair();
    const token = `ExponentPushToken[${p.recipientId.slice(0, 22)}]`;
    expect((await call(t.app, p.recipient, 'POST', `/api/mobileuser/setExpoToken?deviceId=phone-1&token=${encodeURIComponent(token)}`)).statusCode).toBe(204);
    const g = await paidGreetie(t.app, p.sender, p.recipient.mobileNumber, [shop.inStore]);
    await deliver(t.app, g.id);
    const [received] = await notificationsOf(t.db.db, p.recipientId);
    const deps = pushDeps(t.app);
    expect(await pushOne(deps, received!.id)).toBe('pushed');
    expect(await pushOne(deps, received!.id)).toBe('skipped');
    const outbox = await readSandboxPush(t.db.db, { userId: p.recipientId });
    expect(outbox).toHaveLength(1);
    expect(outbox[0]).toMatchObject({ to: token, title: 'Du har fått en greetie!', data: { greetieId: g.id, url: `/greetie/details/${g.id}`, type: 'greetieReceived' } });

    // The sender has no app: the sandbox shows the push as user:<id>. GET /api/sandbox/push?userId= lists it.
    await call(t.app, p.recipient, 'GET', `/api/greetie/${g.id}`);
    t.clock.advance(10_000);
    const swept = await sweepPushes(deps);
    expect(swept.pushed).toBeGreaterThanOrEqual(3);
    const res = await t.app.inject({ method: 'GET', url: `/api/sandbox/push?userId=${p.senderId}` });
    expect(res.statusCode).toBe(200);
    const senderOutbox = res.json() as { to: string; title: string }[];
    expect(senderOutbox.map((m) => m.title).sort()).toEqual(['Betalningen är klar', 'Din greetie har öppnats', 'Din greetie är levererad']);
    expect(senderOutbox.every((m) => m.to === `user:${p.senderId}`)).toBe(true);
    expect((await notificationsOf(t.db.db, p.senderId)).every((n) => n.push_state === 'sent')).toBe(true);
    expect((await t.app.inject({ method: 'GET', url: '/api/sandbox/push?userId=nope' })).statusCode).toBe(400);
  });

  it('a claim left in sending by a stopped process is closed as sent by the sweep, never pushed again', async () => {
    const p = await pair();
    const g = await paidGreetie(t.app, p.sender, p.recipient.mobileNumber, [shop.charity]);
    const [n] = await notificationsOf(t.db.db, p.senderId);
    await sql`UPDATE notification SET push_state = 'sending', push_since = ${t.clock.now()} WHERE id = ${n!.id}`.execute(t.db.db);
    t.clock.advance(5 * 60_000);
    await sweepPushes(pushDeps(t.app));
    expect((await notificationsOf(t.db.db, p.senderId))[0]!.push_state).toBe('sent');
    expect(await readSandboxPush(t.db.db, { userId: p.senderId })).toEqual([]);
    expect(g.id).toBeTruthy();
  });
});

describe('Expo tokens and web push subscriptions', () => {
  it('setExpoToken keeps a token per device; it moves to whoever registered it last; removeExpoToken forgets the device', async () => {
    const a = await pair();
    const token = 'ExponentPushToken[moving-token-0123456789]';
    const set = (who: Person, device: string, tok = token) => call(t.app, who, 'POST', `/api/mobileuser/setExpoToken?deviceId=${device}&token=${encodeURIComponent(tok)}`);
    expect((await set(a.sender, 'dev-a')).statusCode).toBe(204);
    expect((await set(a.recipient, 'dev-b')).statusCode).toBe(204);
    const { rows } = await sql<{ user_id: string; device_id: string }>`SELECT user_id, device_id FROM expo_push_token WHERE token = ${token}`.execute(t.db.db);
    expect(rows).toEqual([{ user_id: a.recipientId, device_id: 'dev-b' }]);
    // A device's new token replaces its old one.
    expect((await set(a.recipient, 'dev-b', 'ExponentPushToken[new-token-for-device-b]')).statusCode).toBe(204);
    const tokens = await sql<{ token: string }>`SELECT token FROM expo_push_token WHERE user_id = ${a.recipientId}`.execute(t.db.db);
    expect(tokens.rows.map((r) => r.token)).toEqual(['ExponentPushToken[new-token-for-device-b]']);
    // Another user's removeExpoToken for that device changes nothing; the owner's removes it.
    expect((await call(t.app, a.sender, 'POST', '/api/mobileuser/removeExpoToken?deviceId=dev-b')).statusCode).toBe(204);
    expect((await sql`SELECT 1 FROM expo_push_token WHERE user_id = ${a.recipientId}`.execute(t.db.db)).rows).toHaveLength(1);
    expect((await call(t.app, a.recipient, 'POST', '/api/mobileuser/removeExpoToken?deviceId=dev-b')).statusCode).toBe(204);
    expect((await sql`SELECT 1 FROM expo_push_token WHERE user_id = ${a.recipientId}`.execute(t.db.db)).rows).toHaveLength(0);
  });

  it('refuses what is not an Expo token or a device id (400, nothing kept); a visitor is 401', async () => {
    const a = await pair();
    for (const q of ['deviceId=d&token=abc', 'deviceId=d', 'token=ExponentPushToken[x]', `deviceId=${'x'.repeat(201)}&token=ExponentPushToken[x]`, 'deviceId=a%20b&token=ExponentPushToken[x]']) {
      const res = await call(t.app, a.sender, 'POST', `/api/mobileuser/setExpoToken?${q}`);
      expect(res.statusCode, q).toBe(400);
    }
    expect((await sql`SELECT 1 FROM expo_push_token WHERE user_id = ${a.senderId}`.execute(t.db.db)).rows).toHaveLength(0);
    expect((await call(t.app, undefined, 'POST', '/api/mobileuser/setExpoToken?deviceId=d&token=ExponentPushToken[x]')).statusCode).toBe(401);
    expect((await call(t.app, undefined, 'POST', '/api/mobileuser/removeExpoToken?deviceId=d')).statusCode).toBe(401);
  });

  it('GET /webpush gives the VAPID public key; POST keeps a subscription (https only), DELETE forgets the caller\'s own', async () => {
    const a = await pair();
    const key = await call(t.app, a.sender, 'GET', '/api/mobileuser/webpush');
    expect(key.statusCode).toBe(200);
    expect((key.json() as { publicKey: string }).publicKey).toMatch(/^[A-Za-z0-9_-]{80,}$/);
    const sub = { endpoint: 'https://fcm.googleapis.com/fcm/send/abc', expirationTime: null, keys: { p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM', auth: 'tBHItJI5svbpez7KI4CCXg' } };
    expect((await call(t.app, a.sender, 'POST', '/api/mobileuser/webpush', sub)).statusCode).toBe(204);
    for (const bad of [{ ...sub, endpoint: 'http://fcm.googleapis.com/fcm/send/x' }, { ...sub, endpoint: 'nope' }, { ...sub, keys: { p256dh: 'a b', auth: 'x' } }, { endpoint: sub.endpoint }]) {
      expect((await call(t.app, a.sender, 'POST', '/api/mobileuser/webpush', bad)).statusCode, JSON.stringify(bad)).toBe(400);
    }
    // The same endpoint moves to whoever subscribed last; another user's DELETE does nothing.
    expect((await call(t.app, a.recipient, 'POST', '/api/mobileuser/webpush', sub)).statusCode).toBe(204);
    expect((await call(t.app, a.sender, 'DELETE', `/api/mobileuser/webpush?endpoint=${encodeURIComponent(sub.endpoint)}`)).statusCode).toBe(204);
    expect((await sql<{ user_id: string }>`SELECT user_id FROM webpush_subscription WHERE endpoint = ${sub.endpoint}`.execute(t.db.db)).rows).toEqual([{ user_id: a.recipientId }]);
    expect((await call(t.app, a.recipient, 'DELETE', `/api/mobileuser/webpush?endpoint=${encodeURIComponent(sub.endpoint)}`)).statusCode).toBe(204);
    expect((await sql`SELECT 1 FROM webpush_subscription WHERE endpoint = ${sub.endpoint}`.execute(t.db.db)).rows).toHaveLength(0);
    expect((await call(t.app, undefined, 'GET', '/api/mobileuser/webpush')).statusCode).toBe(401);
  });
});
