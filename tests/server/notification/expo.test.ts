import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestApp, type TestApp } from '../helpers.ts';
import { TestClock } from '../auth/support.ts';
import { person, type Person } from '../greetie/support.ts';
import { paidGreetie, voucherCatalogue, type VoucherCatalogue } from '../voucher/support.ts';
import { checkReceipts, pushOne } from '../../../server/notification/rules.ts';
import { notificationsOf, pushDeps, userIdOf } from './support.ts';
import { startFakeExpo, type FakeExpo } from './fake-expo.ts';

/**
 * The Expo push adapter (expo-server-sdk 6.1.0) against a local fake of Expo's push API
 * (PUSH_PROVIDER=expo, EXPO_BASE_URL): messages in chunks of 100, tickets kept, a refused ticket
 * or a later receipt saying DeviceNotRegistered deletes the token, receipts fetched once due.
 */

let fake: FakeExpo;
let t: TestApp & { clock: TestClock };
let shop: VoucherCatalogue;

beforeAll(async () => {
  fake = await startFakeExpo();
  const clock = new TestClock();
  t = { ...(await createTestApp({ env: { PUSH_PROVIDER: 'expo', EXPO_BASE_URL: fake.url, EXPO_ACCESS_TOKEN: 'expo-test-access-token' }, services: { now: clock.now } })), clock };
  shop = await voucherCatalogue(t.db.db);
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

async function tokens(userId: string): Promise<string[]> {
  const { rows } = await sql<{ token: string }>`SELECT token FROM expo_push_token WHERE user_id = ${userId} ORDER BY token`.execute(t.db.db);
  return rows.map((r) => r.token);
}

describe('Expo push adapter', () => {
  let sender: Person;
  let senderId: string;
  const devices = Array.from({ length: 150 }, (_, i) => `ExponentPushToken[device-${String(i).padStart(3, '0')}${i === 7 ? '-dead' : i === 42 ? '-gone' : ''}]`);

  beforeAll(async () => {
    sender = await person(t.app);
    senderId = await userIdOf(t.db.db, sender.mobileNumber);
    for (const [i, token] of devices.entries()) {
      // One phone has the app in English: its pushes are written in English.
      const headers = i === 5 ? { ...sender.auth, 'accept-language': 'en' } : sender.auth;
      const res = await t.app.inject({ method: 'POST', url: `/api/mobileuser/setExpoToken?deviceId=d${i}&token=${encodeURIComponent(token)}`, headers });
      expect(res.statusCode, res.body).toBe(204);
    }
  });

  it('sends one message per device in chunks of 100 with the title, body and data; keeps the tickets; a DeviceNotRegistered ticket deletes its token', async () => {
    await paidGreetie(t.app, sender, '+46709999002', [shop.charity]);
    const [n] = await notificationsOf(t.db.db, senderId);
    expect(n!.type).toBe('paymentSucceeded');
    expect(await pushOne(pushDeps(t.app), n!.id)).toBe('pushed');

    expect(fake.sends.map((s) => s.length)).toEqual([100, 50]);
    const all = fake.sends.flat();
    expect(all.map((m) => m.to).sort()).toEqual([...devices].sort());
    expect(all[0]).toMatchObject({ title: 'Betalningen är klar', data: { notificationId: n!.id, type: 'paymentSucceeded' } });
    expect(all.filter((m) => m.title === 'Payment complete').map((m) => m.to)).toEqual([devices[5]]);
    expect(all.filter((m) => m.title === 'Betalningen är klar')).toHaveLength(149);
    expect(fake.headers[0]!.authorization).toBe('Bearer expo-test-access-token');

    const left = await tokens(senderId);
    expect(left).toHaveLength(149);
    expect(left.some((x) => x.includes('dead'))).toBe(false);
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM expo_push_ticket WHERE notification_id = ${n!.id}`.execute(t.db.db);
    expect(rows[0]!.n).toBe(149);
    // Pushed once: a second run (a job run twice) sends nothing.
    expect(await pushOne(pushDeps(t.app), n!.id)).toBe('skipped');
    expect(fake.sends).toHaveLength(2);
  });

  it('receipts are fetched only once due (30 min), in chunks; DeviceNotRegistered deletes the token; tickets with receipts are done', async () => {
    const deps = pushDeps(t.app);
    expect(await checkReceipts(deps)).toEqual({ checked: 0, removedTokens: 0 });
    expect(fake.receiptRequests).toHaveLength(0);
    t.clock.advance(31 * 60_000);
    const r = await checkReceipts(deps);
    expect(r).toEqual({ checked: 149, removedTokens: 1 });
    expect(fake.receiptRequests.map((ids) => ids.length).reduce((a, b) => a + b, 0)).toBe(149);
    const left = await tokens(senderId);
    expect(left).toHaveLength(148);
    expect(left.some((x) => x.includes('gone'))).toBe(false);
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM expo_push_ticket`.execute(t.db.db);
    expect(rows[0]!.n).toBe(0);
  });
});
