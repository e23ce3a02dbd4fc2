import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Greetie } from '../../../contract/greetie.ts';
import type { Voucher } from '../../../contract/voucher.ts';
import { deliverOne, type DeliveryDeps } from '../../../server/delivery/rules.ts';
import { transaction } from '../../../server/db/index.ts';
import { newRefId } from '../../../server/greetie/rules.ts';
import type { SmsSender } from '../../../server/providers/sms/index.ts';
import { call, freshNumber, greetieTestApp, person, type Person } from './support.ts';
import { MERCHANT_CODE, deliver, paidGreetie, voucherCatalogue, type VoucherCatalogue } from '../voucher/support.ts';
import { draft, outbox, send } from '../delivery/support.ts';

/**
 * After delivery (API.md "After delivery", "The recipient answers"): the sender corrects the
 * recipient (rules, limits, the old link, the vouchers moving, a delivery in flight for the old
 * number) or sends the link again; the recipient thanks the sender once.
 */

let t: Awaited<ReturnType<typeof greetieTestApp>>;
let alice: Person;
let products: VoucherCatalogue;
let deps: DeliveryDeps;

beforeAll(async () => {
  t = await greetieTestApp();
  alice = await person(t.app, undefined, 'Alice');
  products = await voucherCatalogue(t.db.db);
  deps = { db: t.app.db, config: t.app.config, services: t.app.services };
});
afterAll(async () => {
  await t.close();
});

const byRef = (refId: string) => t.app.inject({ method: 'GET', url: `/api/greetie/byRef?refId=${encodeURIComponent(refId)}` });
const correct = (who: Person, id: string, body: unknown) => call(t.app, who, 'POST', `/api/greetie/${id}/recipient`, body);

/** A paid greetie with one in-store voucher, delivered to `to`. */
async function delivered(to = freshNumber()): Promise<Greetie> {
  const g = await paidGreetie(t.app, alice, to, [products.inStore]);
  await deliver(t.app, g.id);
  return (await call(t.app, alice, 'GET', `/api/greetie/${g.id}`)).json() as Greetie;
}

/** A greetie without gifts, sent (scheduled, not delivered: the worker is off). */
async function scheduled(to = freshNumber()): Promise<Greetie> {
  const g = await draft(t.app, alice, to);
  expect((await send(t.app, alice, g.id)).statusCode).toBe(200);
  return g;
}

describe('POST /greetie/{id}/recipient', () => {
  it('moves a delivered greetie to the new number: a new link (the old one 404s), delivered there at once, its vouchers with it', async () => {
    const wrong = freshNumber();
    const g = await delivered(wrong);
    const wrongPerson = await person(t.app, wrong, 'Fel person');
    expect(((await call(t.app, wrongPerson, 'GET', '/api/voucher')).json() as Voucher[]).map((v) => v.greetieId)).toContain(g.id);

    const right = freshNumber();
    const res = await correct(alice, g.id, { mobileNumber: right });
    expect(res.statusCode, res.body).toBe(200);
    const corrected = res.json() as Greetie;
    expect(corrected).toMatchObject({ status: 'scheduled', recipient: { mobileNumber: right, name: 'Mottagaren' }, deliveredAt: null });
    expect(corrected.refId).not.toBe(g.refId);
    expect((await byRef(g.refId)).statusCode).toBe(404);
    // The old number's lists no longer show it, nor its vouchers.
    expect(((await call(t.app, wrongPerson, 'GET', '/api/voucher')).json() as Voucher[]).map((v) => v.greetieId)).not.toContain(g.id);
    expect((await call(t.app, wrongPerson, 'GET', `/api/greetie/${g.id}`)).statusCode).toBe(404);
    // Until it is delivered there, the new number does not see it either: still a surprise.
    const rightPerson = await person(t.app, right, 'Rätt person');
    expect(((await call(t.app, rightPerson, 'GET', '/api/voucher')).json() as Voucher[]).map((v) => v.greetieId)).not.toContain(g.id);
    expect((await call(t.app, rightPerson, 'GET', `/api/greetie/${g.id}/vouchers`)).statusCode).toBe(404);

    expect(await deliverOne(deps, g.id)).toBe('delivered');
    const sms = (await outbox(t.db.db, right)).filter((b) => b.includes('/greetie/view/'));
    expect(sms).toHaveLength(1);
    expect(sms[0]).toContain(`/greetie/view/${corrected.refId}`);
    expect((await byRef(corrected.refId)).statusCode).toBe(200);
    const vouchers = (await call(t.app, rightPerson, 'GET', '/api/voucher')).json() as Voucher[];
    expect(vouchers.filter((v) => v.greetieId === g.id)).toHaveLength(1);
    // Its validity counts from the new delivery.
    expect(vouchers.find((v) => v.greetieId === g.id)!.expiresAt).toBe(new Date(t.clock.ms + 365 * 86_400_000).toISOString());
  });

  it('a scheduled greetie goes to the new number only', async () => {
    const g = await scheduled();
    const right = freshNumber();
    expect((await correct(alice, g.id, { mobileNumber: right, name: 'Bo' })).json()).toMatchObject({ status: 'scheduled', recipient: { mobileNumber: right, name: 'Bo' } });
    expect(await deliverOne(deps, g.id)).toBe('delivered');
    expect(await outbox(t.db.db, g.recipient!.mobileNumber)).toEqual([]);
    expect(await outbox(t.db.db, right)).toHaveLength(1);
  });

  it('a delivery claimed for the old number and still sending does not deliver after the correction', async () => {
    const g = await scheduled();
    const old = g.recipient!.mobileNumber;
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let atProvider!: () => void;
    const reached = new Promise<void>((r) => (atProvider = r));
    const slow: SmsSender = {
      async send(m) {
        atProvider();
        await held;
        await t.app.services.sms.send(m);
      },
    };
    const inFlight = deliverOne({ ...deps, services: { ...deps.services, sms: slow } }, g.id);
    await reached;
    const right = freshNumber();
    const res = await correct(alice, g.id, { mobileNumber: right });
    expect(res.statusCode, res.body).toBe(200);
    release();
    expect(await inFlight).toBe('skipped');
    const { rows } = await sql<{ status: string; state: string }>`
      SELECT g.status, d.state FROM greetie g JOIN delivery d ON d.greetie_id = g.id WHERE g.id = ${g.id}`.execute(t.db.db);
    expect(rows[0]).toEqual({ status: 'scheduled', state: 'pending' });
    // The old number's SMS carries the old link, which opens nothing.
    expect((await byRef(g.refId)).statusCode).toBe(404);
    expect(await outbox(t.db.db, old)).toHaveLength(1);
    expect(await deliverOne(deps, g.id)).toBe('delivered');
    const sms = await outbox(t.db.db, right);
    expect(sms).toHaveLength(1);
    expect(sms[0]).toContain((res.json() as Greetie).refId);
  });

  it('a claim that starts while a correction is being written waits for it and sends to the new number', async () => {
    const g = await scheduled();
    const old = g.recipient!.mobileNumber;
    const right = freshNumber();
    const refId = newRefId();
    let inFlight!: Promise<string>;
    // What correctRecipient does, held open in the middle: the greetie locked, the delivery row
    // written; a worker's claim starts meanwhile.
    await transaction(t.db.db, async (tx) => {
      await sql`SELECT id FROM greetie WHERE id = ${g.id} FOR UPDATE`.execute(tx);
      await sql`UPDATE delivery SET updated_at = updated_at WHERE greetie_id = ${g.id}`.execute(tx);
      inFlight = deliverOne(deps, g.id);
      await new Promise((r) => setTimeout(r, 300));
      await sql`UPDATE greetie SET recipient_number = ${right}, ref_id = ${refId} WHERE id = ${g.id}`.execute(tx);
    });
    expect(await inFlight).toBe('delivered');
    expect(await outbox(t.db.db, old)).toEqual([]);
    const sms = await outbox(t.db.db, right);
    expect(sms).toHaveLength(1);
    expect(sms[0]).toContain(refId);
  });

  it('at most 3 corrections (409 RECIPIENT_CHANGE_LIMIT)', async () => {
    const g = await scheduled();
    for (let i = 0; i < 3; i++) expect((await correct(alice, g.id, { mobileNumber: freshNumber() })).statusCode).toBe(200);
    const fourth = await correct(alice, g.id, { mobileNumber: freshNumber() });
    expect(fourth.statusCode).toBe(409);
    expect(fourth.json()).toMatchObject({ code: 'RECIPIENT_CHANGE_LIMIT' });
  });

  it('409 GREETIE_ALREADY_OPENED once viewed or a voucher is used; nothing changes', async () => {
    const viewed = await delivered();
    expect((await byRef(viewed.refId)).statusCode).toBe(200);
    const r1 = await correct(alice, viewed.id, { mobileNumber: freshNumber() });
    expect([r1.statusCode, r1.json().code]).toEqual([409, 'GREETIE_ALREADY_OPENED']);

    const used = await delivered();
    const owner = await person(t.app, used.recipient!.mobileNumber, 'Mottagaren');
    const voucher = ((await call(t.app, owner, 'GET', `/api/greetie/${used.id}/vouchers`)).json() as Voucher[])[0]!;
    // Read without marking it viewed: the voucher's use alone must stop the correction.
    await sql`UPDATE greetie SET viewed_at = NULL WHERE id = ${used.id}`.execute(t.db.db);
    const redeemed = await call(t.app, owner, 'POST', '/api/voucher/redeem', { voucherId: voucher.id, merchantCode: MERCHANT_CODE });
    expect(redeemed.statusCode, redeemed.body).toBe(200);
    const r2 = await correct(alice, used.id, { mobileNumber: freshNumber() });
    expect([r2.statusCode, r2.json().code]).toEqual([409, 'GREETIE_ALREADY_OPENED']);
    expect((await call(t.app, alice, 'GET', `/api/greetie/${used.id}`)).json()).toMatchObject({ status: 'delivered', refId: used.refId });
  });

  it('bad inputs and the wrong greetie: 400, 404, 409', async () => {
    const g = await scheduled();
    const bad = async (body: unknown, code: string) => {
      const r = await correct(alice, g.id, body);
      expect([r.statusCode, r.json().code], JSON.stringify(body)).toEqual([400, code]);
    };
    await bad({ mobileNumber: '12345' }, 'INVALID_MOBILE_NUMBER');
    await bad({ mobileNumber: g.recipient!.mobileNumber }, 'RECIPIENT_UNCHANGED');
    await bad({ mobileNumber: freshNumber(), name: 'Bo www.example.com' }, 'NAME_HAS_LINK');
    await bad({}, 'VALIDATION_FAILED');
    const other = await person(t.app, undefined, 'Eve');
    expect((await correct(other, g.id, { mobileNumber: freshNumber() })).statusCode).toBe(404);
    expect((await call(t.app, undefined, 'POST', `/api/greetie/${g.id}/recipient`, { mobileNumber: freshNumber() })).statusCode).toBe(401);
    const d = await draft(t.app, alice, freshNumber());
    const r = await correct(alice, d.id, { mobileNumber: freshNumber() });
    expect([r.statusCode, r.json().code]).toEqual([409, 'RECIPIENT_CHANGE_NOT_ALLOWED']);
  });

  it('a correction is a send to the new number: the sending limits apply (429 with Retry-After) and count it', async () => {
    const limits = t.app.config.delivery;
    const before = limits.limitPerRecipient;
    limits.limitPerRecipient = 3;
    try {
      const target = freshNumber();
      await scheduled(target);
      await scheduled(target);
      const g = await scheduled();
      expect((await correct(alice, g.id, { mobileNumber: target })).statusCode).toBe(200);
      // Two sends and a correction to `target`: the next send there is refused, and so is a correction.
      const next = await draft(t.app, alice, target);
      const refused = await send(t.app, alice, next.id);
      expect([refused.statusCode, refused.json().code]).toEqual([429, 'SEND_LIMIT_PER_RECIPIENT']);
      const h = await scheduled();
      const r = await correct(alice, h.id, { mobileNumber: target });
      expect([r.statusCode, r.json().code]).toEqual([429, 'SEND_LIMIT_PER_RECIPIENT']);
      expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      limits.limitPerRecipient = before;
    }
  });
});

describe('POST /greetie/{id}/resend', () => {
  it('sends the same link to the same number again, once a day (429 with Retry-After)', async () => {
    const g = await delivered();
    const to = g.recipient!.mobileNumber;
    const first = await call(t.app, alice, 'POST', `/api/greetie/${g.id}/resend`);
    expect(first.statusCode, first.body).toBe(200);
    const sms = await outbox(t.db.db, to);
    expect(sms).toHaveLength(2);
    expect(sms[1]).toBe(sms[0]);
    const again = await call(t.app, alice, 'POST', `/api/greetie/${g.id}/resend`);
    expect([again.statusCode, again.json().code]).toEqual([429, 'RESEND_LIMIT']);
    expect(Number(again.headers['retry-after'])).toBe(24 * 3600);
    t.clock.advance(24 * 3600_000);
    alice = await person(t.app, alice.mobileNumber, 'Alice'); // the access token ran out meanwhile
    expect((await call(t.app, alice, 'POST', `/api/greetie/${g.id}/resend`)).statusCode).toBe(200);
    expect(await outbox(t.db.db, to)).toHaveLength(3);
  });

  it('two at once send one', async () => {
    const g = await delivered();
    const answers = await Promise.all([0, 1, 2, 3].map(() => call(t.app, alice, 'POST', `/api/greetie/${g.id}/resend`)));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 429, 429, 429]);
    expect(await outbox(t.db.db, g.recipient!.mobileNumber)).toHaveLength(2);
  });

  it('409 unless delivered and unopened; 404 for anyone but the sender', async () => {
    const s = await scheduled();
    const r1 = await call(t.app, alice, 'POST', `/api/greetie/${s.id}/resend`);
    expect([r1.statusCode, r1.json().code]).toEqual([409, 'RESEND_NOT_ALLOWED']);
    const v = await delivered();
    await byRef(v.refId);
    const r2 = await call(t.app, alice, 'POST', `/api/greetie/${v.id}/resend`);
    expect([r2.statusCode, r2.json().code]).toEqual([409, 'GREETIE_ALREADY_OPENED']);
    const other = await person(t.app, undefined, 'Eve');
    expect((await call(t.app, other, 'POST', `/api/greetie/${v.id}/resend`)).statusCode).toBe(404);
  });
});

describe('POST /greetie/{id}/thanks', () => {
  it('the recipient thanks once; the sender sees it and is notified', async () => {
    const g = await delivered();
    const bob = await person(t.app, g.recipient!.mobileNumber, 'Bob');
    const res = await call(t.app, bob, 'POST', `/api/greetie/${g.id}/thanks`, { message: ' Tack så mycket! ', emoji: '🥰' });
    expect(res.statusCode, res.body).toBe(200);
    const thanks = { message: 'Tack så mycket!', emoji: '🥰', createdAt: t.clock.now().toISOString() };
    expect(res.json()).toMatchObject({ thanks, viewed: true });
    expect((await call(t.app, alice, 'GET', `/api/greetie/${g.id}`)).json()).toMatchObject({ thanks });
    const { rows } = await sql<{ type: string; n: number }>`
      SELECT type, count(*)::int AS n FROM notification WHERE greetie_id = ${g.id} AND type = 'thanks' GROUP BY type`.execute(t.db.db);
    expect(rows).toEqual([{ type: 'thanks', n: 1 }]);
    const again = await call(t.app, bob, 'POST', `/api/greetie/${g.id}/thanks`, { message: 'Igen' });
    expect([again.statusCode, again.json().code]).toEqual([409, 'THANKS_ALREADY_SENT']);
  });

  it('of many at once, one is saved and the rest are 409', async () => {
    const g = await delivered();
    const bob = await person(t.app, g.recipient!.mobileNumber, 'Bob');
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => call(t.app, bob, 'POST', `/api/greetie/${g.id}/thanks`, { message: `Tack ${i}` })));
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.statusCode === 409 && a.json().code === 'THANKS_ALREADY_SENT')).toHaveLength(7);
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM notification WHERE greetie_id = ${g.id} AND type = 'thanks'`.execute(t.db.db);
    expect(rows[0]!.n).toBe(1);
  });

  it('bad inputs are 400; the sender, a stranger and a greetie not delivered are 404', async () => {
    const g = await delivered();
    const bob = await person(t.app, g.recipient!.mobileNumber, 'Bob');
    const bad = async (body: unknown, code: string) => {
      const r = await call(t.app, bob, 'POST', `/api/greetie/${g.id}/thanks`, body);
      expect([r.statusCode, r.json().code], JSON.stringify(body)).toEqual([400, code]);
    };
    await bad({ message: '   ' }, 'THANKS_MESSAGE_EMPTY');
    await bad({ message: '' }, 'VALIDATION_FAILED');
    await bad({ message: 'x'.repeat(501) }, 'VALIDATION_FAILED');
    await bad({ message: 'Tack', emoji: 'abc' }, 'THANKS_EMOJI_INVALID');
    expect((await call(t.app, alice, 'POST', `/api/greetie/${g.id}/thanks`, { message: 'Tack' })).statusCode).toBe(404);
    const eve = await person(t.app, undefined, 'Eve');
    expect((await call(t.app, eve, 'POST', `/api/greetie/${g.id}/thanks`, { message: 'Tack' })).statusCode).toBe(404);
    const s = await scheduled();
    const carl = await person(t.app, s.recipient!.mobileNumber, 'Carl');
    expect((await call(t.app, carl, 'POST', `/api/greetie/${s.id}/thanks`, { message: 'Tack' })).statusCode).toBe(404);
    expect((await call(t.app, alice, 'GET', `/api/greetie/${g.id}`)).json()).toMatchObject({ thanks: null });
  });
});
