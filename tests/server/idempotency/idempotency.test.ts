import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../server/app.ts';
import { purgeExpiredIdempotencyKeys } from '../../../server/idempotency/index.ts';
import { testConfig } from '../helpers.ts';
import { freshNumber } from '../auth/support.ts';
import { catalogue, greetieTestApp, person, type Catalogue, type Person } from '../greetie/support.ts';
import { MERCHANT_CODE, attempts, deliver, paidGreetie, voucherCatalogue, voucherIds, type VoucherCatalogue } from '../voucher/support.ts';

/**
 * Idempotency-Key on POST /greetie, /greetie/createv2 and /voucher/redeem (decision 084),
 * on real PostgreSQL: a repeat answers the first answer and changes nothing more,
 * one after the other, at the same time, and through two app instances on one database.
 */

type T = Awaited<ReturnType<typeof greetieTestApp>>;
let t: T;
let products: Catalogue;
let shop: VoucherCatalogue;
let alice: Person;

beforeAll(async () => {
  t = await greetieTestApp();
  products = await catalogue(t.db.db);
  shop = await voucherCatalogue(t.db.db);
  alice = await person(t.app);
});
afterAll(async () => {
  await t.close();
});

let keySeq = 0;
const newKey = () => `key-${Date.now()}-${++keySeq}`;

function post(app: FastifyInstance, who: Person, url: string, body: unknown, key?: string) {
  return app.inject({
    method: 'POST',
    url,
    headers: { ...who.auth, ...(key !== undefined ? { 'idempotency-key': key } : {}) },
    payload: body as Record<string, unknown>,
  });
}

/** Drafts `who` has to `to` (each test uses a number of its own). */
async function draftsTo(to: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM greetie WHERE recipient_number = ${to}`.execute(t.db.db);
  return rows[0]!.n;
}

const draftBody = (to: string) => ({ recipient: { mobileNumber: to, name: 'Vän' }, message: 'Hej!' });

describe('POST /api/greetie with an Idempotency-Key', () => {
  it('a repeat answers the first answer (status and body) and makes no second draft', async () => {
    const to = freshNumber();
    const key = newKey();
    const first = await post(t.app, alice, '/api/greetie', draftBody(to), key);
    expect(first.statusCode, first.body).toBe(200);
    const again = await post(t.app, alice, '/api/greetie', draftBody(to), key);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(await draftsTo(to)).toBe(1);
  });

  it('the same body with its keys in another order is the same request', async () => {
    const to = freshNumber();
    const key = newKey();
    const first = await post(t.app, alice, '/api/greetie', { message: 'Hej!', recipient: { name: 'Vän', mobileNumber: to } }, key);
    const again = await post(t.app, alice, '/api/greetie', draftBody(to), key);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(await draftsTo(to)).toBe(1);
  });

  it('repeats at the same time: one draft, every answer the same', async () => {
    const to = freshNumber();
    const key = newKey();
    const answers = await Promise.all(Array.from({ length: 6 }, () => post(t.app, alice, '/api/greetie', draftBody(to), key)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(6).fill(200));
    expect(new Set(answers.map((a) => (a.json() as { id: string }).id)).size).toBe(1);
    expect(await draftsTo(to)).toBe(1);
  });

  it('the same key with a different body is 422 IDEMPOTENCY_KEY_REUSED, nothing made', async () => {
    const to = freshNumber();
    const key = newKey();
    expect((await post(t.app, alice, '/api/greetie', draftBody(to), key)).statusCode).toBe(200);
    const other = await post(t.app, alice, '/api/greetie', { ...draftBody(to), message: 'Något annat' }, key);
    expect(other.statusCode).toBe(422);
    expect(other.json()).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED', message: expect.stringContaining('Idempotency-Key') });
    // The same body on another route is another request too.
    expect((await post(t.app, alice, '/api/greetie/createv2', draftBody(to), key)).statusCode).toBe(422);
    expect(await draftsTo(to)).toBe(1);
  });

  it("another person's same key is their own: independent drafts", async () => {
    const to = freshNumber();
    const key = newKey();
    const bob = await person(t.app);
    const a = await post(t.app, alice, '/api/greetie', draftBody(to), key);
    const b = await post(t.app, bob, '/api/greetie', draftBody(to), key);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect((a.json() as { id: string }).id).not.toBe((b.json() as { id: string }).id);
    expect(await draftsTo(to)).toBe(2);
  });

  it('a key that is empty or over 100 characters is 400, nothing made; 100 characters is fine', async () => {
    const to = freshNumber();
    for (const bad of ['', 'k'.repeat(101)]) {
      const res = await post(t.app, alice, '/api/greetie', draftBody(to), bad);
      expect(res.statusCode, `key of ${bad.length}`).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    }
    expect(await draftsTo(to)).toBe(0);
    expect((await post(t.app, alice, '/api/greetie', draftBody(to), 'k'.repeat(100))).statusCode).toBe(200);
  });

  it('without a key nothing changes: two requests, two drafts', async () => {
    const to = freshNumber();
    await post(t.app, alice, '/api/greetie', draftBody(to));
    await post(t.app, alice, '/api/greetie', draftBody(to));
    expect(await draftsTo(to)).toBe(2);
  });

  it('after 24 hours the key is new again, and the clean-up deletes it', async () => {
    const to = freshNumber();
    const key = newKey();
    expect((await post(t.app, alice, '/api/greetie', draftBody(to), key)).statusCode).toBe(200);
    await sql`UPDATE idempotency_key SET created_at = created_at - interval '24 hours 1 second' WHERE key = ${key}`.execute(t.db.db);
    expect((await post(t.app, alice, '/api/greetie', draftBody(to), key)).headers['idempotent-replayed']).toBeUndefined();
    expect(await draftsTo(to)).toBe(2);
    await sql`UPDATE idempotency_key SET created_at = created_at - interval '24 hours 1 second' WHERE key = ${key}`.execute(t.db.db);
    expect(await purgeExpiredIdempotencyKeys(t.db.db, t.app.services.now())).toBeGreaterThanOrEqual(1);
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM idempotency_key WHERE key = ${key}`.execute(t.db.db);
    expect(rows[0]!.n).toBe(0);
  });

  it('two app instances on one database: repeats through both at once make one draft', async () => {
    const other = await buildApp(testConfig(), { db: t.db.db, services: { now: t.app.services.now } });
    await other.ready();
    try {
      const to = freshNumber();
      const key = newKey();
      const answers = await Promise.all([0, 1, 2, 3].map((i) => post(i % 2 ? other : t.app, alice, '/api/greetie', draftBody(to), key)));
      expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200]);
      expect(new Set(answers.map((a) => a.body)).size).toBe(1);
      expect(await draftsTo(to)).toBe(1);
    } finally {
      await other.close();
    }
  });
});

describe('POST /api/greetie/createv2 with an Idempotency-Key', () => {
  it('a repeat, and repeats at once, make one draft with its gifts', async () => {
    const to = freshNumber();
    const key = newKey();
    const body = { ...draftBody(to), gifts: [{ productId: products.fixed }] };
    const answers = await Promise.all([0, 1, 2].map(() => post(t.app, alice, '/api/greetie/createv2', body, key)));
    const later = await post(t.app, alice, '/api/greetie/createv2', body, key);
    expect([...answers, later].map((a) => a.statusCode)).toEqual([200, 200, 200, 200]);
    expect(new Set([...answers, later].map((a) => a.body)).size).toBe(1);
    expect(await draftsTo(to)).toBe(1);
    const { rows } = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM greetie_gift gg JOIN greetie g ON g.id = gg.greetie_id WHERE g.recipient_number = ${to}`.execute(t.db.db);
    expect(rows[0]!.n).toBe(1);
  });
});

describe('POST /api/voucher/redeem with an Idempotency-Key', () => {
  async function voucherOf(owner: Person): Promise<string> {
    const g = await paidGreetie(t.app, await person(t.app), owner.mobileNumber, [shop.inStore]);
    await deliver(t.app, g.id);
    return (await voucherIds(t.db.db, g.id))[0]!;
  }

  it('a repeat answers the first 200 again and redeems nothing more; at once, one redeem', async () => {
    const owner = await person(t.app);
    const voucherId = await voucherOf(owner);
    const key = newKey();
    const body = { voucherId, merchantCode: MERCHANT_CODE };
    const answers = await Promise.all([0, 1, 2, 3].map(() => post(t.app, owner, '/api/voucher/redeem', body, key)));
    const later = await post(t.app, owner, '/api/voucher/redeem', body, key);
    // Without the key, the repeats would be 409 VOUCHER_ALREADY_REDEEMED and recorded as attempts.
    expect([...answers, later].map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set([...answers, later].map((a) => a.body)).size).toBe(1);
    expect((await attempts(t.db.db, voucherId)).map((a) => a.outcome)).toEqual(['redeemed']);
  });

  it('a wrong code answered once: its repeat is the same 400 and counts no second wrong code', async () => {
    const owner = await person(t.app);
    const voucherId = await voucherOf(owner);
    const key = newKey();
    const body = { voucherId, merchantCode: 'FEL12345' };
    const first = await post(t.app, owner, '/api/voucher/redeem', body, key);
    const again = await post(t.app, owner, '/api/voucher/redeem', body, key);
    expect([first.statusCode, again.statusCode]).toEqual([400, 400]);
    expect(again.body).toBe(first.body);
    expect((await attempts(t.db.db, voucherId)).map((a) => a.outcome)).toEqual(['wrongCode']);
    // The right code with the same key is another request: 422; with a new key it redeems.
    expect((await post(t.app, owner, '/api/voucher/redeem', { voucherId, merchantCode: MERCHANT_CODE }, key)).statusCode).toBe(422);
    expect((await post(t.app, owner, '/api/voucher/redeem', { voucherId, merchantCode: MERCHANT_CODE }, newKey())).statusCode).toBe(200);
  });

  it('a bad key is 400 before anything is tried', async () => {
    const owner = await person(t.app);
    const voucherId = await voucherOf(owner);
    const res = await post(t.app, owner, '/api/voucher/redeem', { voucherId, merchantCode: MERCHANT_CODE }, 'x'.repeat(101));
    expect(res.statusCode).toBe(400);
    expect(await attempts(t.db.db, voucherId)).toEqual([]);
  });
});
