import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transaction } from '../../../server/db/index.ts';
import { deliverOne, scheduleDelivery } from '../../../server/delivery/rules.ts';
import { newRefId } from '../../../server/greetie/rules.ts';
import { createElksSms } from '../../../server/providers/sms/elks.ts';
import { SmsError } from '../../../server/providers/sms/index.ts';
import { createTestApp, type TestApp } from '../helpers.ts';
import { freshNumber } from '../auth/support.ts';
import { ELKS_PASSWORD, ELKS_USER, startFakeElks, type FakeElks } from '../auth/fake-46elks.ts';
import { crashedDelivery, row } from './support.ts';

/**
 * An interrupted delivery with the real SMS gateway's adapter: 46elks is asked, through its SMS
 * history (GET /a1/sms, filtered on the recipient), whether the message went out, so a crash
 * between the send and our write is resolved without sending twice. Against the local fake 46elks.
 */

let fake: FakeElks;
let t: TestApp;

beforeAll(async () => {
  fake = await startFakeElks();
  t = await createTestApp({ env: { SMS_PROVIDER: '46elks', ELKS_USERNAME: ELKS_USER, ELKS_PASSWORD, ELKS_BASE_URL: fake.url } });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

describe('the 46elks adapter’s confirmSent', () => {
  it('finds a message it sent by recipient and text, and nothing else', async () => {
    const sms = createElksSms({ baseUrl: fake.url, username: ELKS_USER, password: ELKS_PASSWORD, sender: 'Greetie' });
    const to = freshNumber();
    await sms.send({ to, body: 'Hej! Öppna: https://greetie.example/greetie/view/abc' });
    expect(await sms.confirmSent!({ to, body: 'Hej! Öppna: https://greetie.example/greetie/view/abc' })).toBe(true);
    expect(await sms.confirmSent!({ to, body: 'Hej! Öppna: https://greetie.example/greetie/view/xyz' })).toBe(false);
    expect(await sms.confirmSent!({ to: freshNumber(), body: 'Hej! Öppna: https://greetie.example/greetie/view/abc' })).toBe(false);
    const history = fake.requests.at(-1)!;
    expect(history.authorization).toBe(`Basic ${Buffer.from(`${ELKS_USER}:${ELKS_PASSWORD}`).toString('base64')}`);
  });

  it('a gateway that refuses us is an SmsError, never an answer', async () => {
    const wrong = createElksSms({ baseUrl: fake.url, username: ELKS_USER, password: 'wrong', sender: 'Greetie' });
    await expect(wrong.confirmSent!({ to: freshNumber(), body: 'x' })).rejects.toBeInstanceOf(SmsError);
  });
});

describe('reconciling a row left in sending, with 46elks', () => {
  /** A greetie whose worker claimed it, maybe got its SMS out (`smsWentOut`), and died. */
  async function crashedGreetie(opts: { smsWentOut: boolean }): Promise<{ id: string; to: string; body: string }> {
    const { rows: users } = await sql<{ id: string }>`
      INSERT INTO mobile_user (mobile_number, name) VALUES (${freshNumber()}, 'Alice') RETURNING id`.execute(t.db.db);
    const refId = newRefId();
    const to = freshNumber();
    const id = await transaction(t.db.db, async (tx) => {
      const { rows } = await sql<{ id: string }>`
        INSERT INTO greetie (ref_id, sender_id, recipient_number, status) VALUES (${refId}, ${users[0]!.id}, ${to}, 'scheduled') RETURNING id`.execute(tx);
      await scheduleDelivery(tx, t.app, rows[0]!.id);
      return rows[0]!.id;
    });
    await crashedDelivery(t.app, id, opts);
    return { id, to, body: `Alice har skickat en greetie till dig. Öppna: http://localhost:3000/greetie/view/${refId}` };
  }
  const posts = () => fake.requests.filter((r) => r.form.message !== undefined).length;

  it('46elks has it: delivered, nothing sent again', async () => {
    const g = await crashedGreetie({ smsWentOut: true });
    expect(fake.sent.filter((m) => m.to === g.to).map((m) => m.message)).toEqual([g.body]);
    // The sender renames themselves before the sweep: what was sent is still found.
    await sql`UPDATE mobile_user SET name = 'Bertil' WHERE id = (SELECT sender_id FROM greetie WHERE id = ${g.id})`.execute(t.db.db);
    const before = posts();
    await t.app.services.delivery.reconcile();
    expect(await row(t.db.db, g.id)).toMatchObject({ status: 'delivered', state: 'sent' });
    expect(posts()).toBe(before);
  });

  it('46elks does not have it: sent once more, once', async () => {
    const g = await crashedGreetie({ smsWentOut: false });
    await t.app.services.delivery.reconcile();
    expect(await row(t.db.db, g.id)).toMatchObject({ status: 'scheduled', state: 'pending', last_error: 'interrupted' });
    const deps = { db: t.app.db, config: t.app.config, services: t.app.services };
    expect(await deliverOne(deps, g.id, { dueBy: new Date(Date.now() + 3600_000) })).toBe('delivered');
    expect(fake.sent.filter((m) => m.to === g.to).map((m) => m.message)).toEqual([g.body]);
  });
});
