import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers.ts';
import { person } from '../greetie/support.ts';
import { paidGreetie, voucherCatalogue } from '../voucher/support.ts';
import { readSandboxPush } from '../../../server/providers/push/sandbox.ts';
import { until } from '../delivery/support.ts';
import { notificationsOf, userIdOf } from './support.ts';

/**
 * With the workers running in the app, as in production: paying schedules the delivery, the
 * delivery worker delivers, and the notification worker pushes each notification (pg-boss jobs
 * added in those transactions) into the sandbox outbox, once, without any call from the test.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { DELIVERY_WORKER: 'on', DELIVERY_POLL_MS: '500' } });
});
afterAll(async () => {
  await t.close();
});

it('paid and delivered: the sender and the recipient get their pushes from the job queue, each once', async () => {
  const shop = await voucherCatalogue(t.db.db);
  const sender = await person(t.app);
  const recipient = await person(t.app);
  const senderId = await userIdOf(t.db.db, sender.mobileNumber);
  const recipientId = await userIdOf(t.db.db, recipient.mobileNumber);
  await paidGreetie(t.app, sender, recipient.mobileNumber, [shop.inStore]);

  const received = await until(
    () => readSandboxPush(t.db.db, { userId: recipientId }),
    (rows) => rows.length > 0,
  );
  expect(received.map((r) => r.title)).toEqual(['Du har fått en greetie!']);
  const sent = await until(
    () => readSandboxPush(t.db.db, { userId: senderId }),
    (rows) => rows.length >= 2,
  );
  expect(sent.map((r) => r.title).sort()).toEqual(['Betalningen är klar', 'Din greetie är levererad']);
  await until(
    () => notificationsOf(t.db.db, senderId),
    (rows) => rows.every((n) => n.push_state === 'sent'),
  );
  // Nothing more arrives: each was pushed once.
  await new Promise((r) => setTimeout(r, 1500));
  expect(await readSandboxPush(t.db.db, { userId: senderId })).toHaveLength(2);
  expect(await readSandboxPush(t.db.db, { userId: recipientId })).toHaveLength(1);
});
