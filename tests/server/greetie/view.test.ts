import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { Value } from 'typebox/value';
import { PublicGreetie, type Greetie } from '../../../contract/greetie.ts';
import { call, greetieTestApp, person, type Person } from './support.ts';
import { codeOf, deliver, paidGreetie, voucherCatalogue, voucherIds, type VoucherCatalogue } from '../voucher/support.ts';

/**
 * Viewing a greetie on real PostgreSQL: the public view by reference (no phone
 * numbers, no codes), and who marks a greetie viewed: the recipient's reads and the link, never
 * the sender's own looks.
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

/** A delivered greetie from a fresh sender to a fresh recipient, with an InStore and a Code voucher, and the code. */
async function delivered(): Promise<{ g: Greetie; sender: Person; recipient: Person; code: string }> {
  const sender = await person(t.app);
  const recipient = await person(t.app);
  const g = await paidGreetie(t.app, sender, recipient.mobileNumber, [shop.inStore, shop.code]);
  const [, second] = await voucherIds(t.db.db, g.id);
  await deliver(t.app, g.id);
  return { g, sender, recipient, code: await codeOf(t.db.db, second!) };
}

async function viewedAt(id: string): Promise<Date | null> {
  const { rows } = await sql<{ viewed_at: Date | null }>`SELECT viewed_at FROM greetie WHERE id = ${id}`.execute(t.db.db);
  return rows[0]!.viewed_at;
}

const byRef = (refId: string, who?: Person | { auth: { authorization: string } }) =>
  t.app.inject({ method: 'GET', url: `/api/greetie/byRef?refId=${encodeURIComponent(refId)}`, headers: { ...(who?.auth ?? {}) } });

describe('GET /api/greetie/byRef', () => {
  it('shows a delivered greetie to anyone with the reference: no phone number, no code anywhere in the JSON; a visitor marks it viewed', async () => {
    const { g, sender, recipient, code } = await delivered();
    const res = await byRef(g.refId);
    expect(res.statusCode, res.body).toBe(200);
    const view = res.json() as PublicGreetie;
    expect(Value.Check(PublicGreetie, view), res.body).toBe(true);
    expect(view).toMatchObject({ id: g.id, status: 'delivered', recipient: { name: 'Mottagaren' }, message: 'Grattis!', viewed: true });
    expect(view.vouchers.map((v) => v.product.name)).toEqual(['Fika för två', 'Presentkod för webbutiken']);
    // The text itself: neither number in any form, no code.
    for (const n of [recipient.mobileNumber, sender.mobileNumber]) {
      expect(res.body).not.toContain(n);
      expect(res.body).not.toContain(n.slice(3));
      expect(res.body).not.toContain(`0${n.slice(3)}`);
    }
    expect(res.body).not.toContain(code);
    expect(res.body).not.toContain('"code"');
    expect(await viewedAt(g.id)).toEqual(t.clock.now());
    // The first time stays.
    t.clock.advance(60_000);
    await byRef(g.refId);
    expect((await viewedAt(g.id))?.getTime()).toBe(t.clock.now().getTime() - 60_000);
  });

  it('the signed-in sender of a greetie to somebody else does not mark it; the recipient does; an invalid token counts as a visitor', async () => {
    const { g, sender, recipient, code } = await delivered();
    const bySender = await byRef(g.refId, sender);
    expect(bySender.statusCode).toBe(200);
    expect((bySender.json() as PublicGreetie).viewed).toBe(false);
    expect(await viewedAt(g.id)).toBeNull();
    const byRecipient = await byRef(g.refId, recipient);
    expect((byRecipient.json() as PublicGreetie).viewed).toBe(true);
    expect(byRecipient.body).not.toContain(code);

    const other = await delivered();
    const forged = await byRef(other.g.refId, { auth: { authorization: 'Bearer not.a.token' } });
    expect(forged.statusCode).toBe(200);
    expect(await viewedAt(other.g.id)).not.toBeNull();
  });

  it('a greetie sent to oneself is marked when its sender opens the link', async () => {
    const me = await person(t.app);
    const g = await paidGreetie(t.app, me, me.mobileNumber, [shop.inStore]);
    await deliver(t.app, g.id);
    await byRef(g.refId, me);
    expect(await viewedAt(g.id)).not.toBeNull();
  });

  it('not delivered yet (a scheduled surprise, a draft), an unknown reference: 404; a malformed one 400; nothing is marked', async () => {
    const sender = await person(t.app);
    const scheduled = await paidGreetie(t.app, sender, (await person(t.app)).mobileNumber, [shop.inStore]);
    const res = await byRef(scheduled.refId);
    expect(res.statusCode).toBe(404);
    expect((res.json() as { code: string }).code).toBe('GREETIE_NOT_FOUND');
    const draft = await call(t.app, sender, 'POST', '/api/greetie', {});
    expect((await byRef((draft.json() as Greetie).refId)).statusCode).toBe(404);
    expect((await byRef('AAAAAAAAAAAAAAAAAAAAAA')).statusCode).toBe(404);
    expect((await byRef('not a ref!')).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/api/greetie/byRef' })).statusCode).toBe(400);
    expect(await viewedAt(scheduled.id)).toBeNull();
  });
});

describe('GET /api/greetie/{id} and POST /api/greetie/{id}/markasviewed', () => {
  it("the sender's reads never mark; the recipient's with markAsViewed=false do not; their plain read does, once", async () => {
    const { g, sender, recipient } = await delivered();
    const own = await call(t.app, sender, 'GET', `/api/greetie/${g.id}`);
    expect(own.statusCode).toBe(200);
    expect((own.json() as Greetie).viewed).toBe(false);
    expect((await call(t.app, recipient, 'GET', `/api/greetie/${g.id}?markAsViewed=false`)).json()).toMatchObject({ viewed: false, viewedAt: null });
    expect(await viewedAt(g.id)).toBeNull();
    const read = await call(t.app, recipient, 'GET', `/api/greetie/${g.id}`);
    expect(read.json()).toMatchObject({ viewed: true, viewedAt: t.clock.now().toISOString() });
    t.clock.advance(1000);
    await call(t.app, recipient, 'GET', `/api/greetie/${g.id}`);
    const seen = await call(t.app, sender, 'GET', `/api/greetie/${g.id}`);
    expect(seen.json()).toMatchObject({ viewed: true, viewedAt: new Date(t.clock.now().getTime() - 1000).toISOString() });
  });

  it('markasviewed: the recipient marks it (once); the sender, anybody else and a greetie not yet delivered are 404; a visitor 401', async () => {
    const { g, sender, recipient, code } = await delivered();
    const stranger = await person(t.app);
    expect((await call(t.app, sender, 'POST', `/api/greetie/${g.id}/markasviewed`)).statusCode).toBe(404);
    expect((await call(t.app, stranger, 'POST', `/api/greetie/${g.id}/markasviewed`)).statusCode).toBe(404);
    expect((await call(t.app, undefined, 'POST', `/api/greetie/${g.id}/markasviewed`)).statusCode).toBe(401);
    expect(await viewedAt(g.id)).toBeNull();
    const marked = await call(t.app, recipient, 'POST', `/api/greetie/${g.id}/markasviewed`);
    expect(marked.statusCode, marked.body).toBe(200);
    expect(marked.json()).toMatchObject({ id: g.id, viewed: true, viewedAt: t.clock.now().toISOString() });
    expect((marked.json() as Greetie).vouchers.find((v) => v.source === 'Code')?.code).toBe(code);
    t.clock.advance(1000);
    const again = await call(t.app, recipient, 'POST', `/api/greetie/${g.id}/markasviewed`);
    expect(again.json()).toMatchObject({ viewedAt: new Date(t.clock.now().getTime() - 1000).toISOString() });

    const scheduledTo = await person(t.app);
    const scheduled = await paidGreetie(t.app, await person(t.app), scheduledTo.mobileNumber, [shop.inStore]);
    expect((await call(t.app, scheduledTo, 'POST', `/api/greetie/${scheduled.id}/markasviewed`)).statusCode).toBe(404);
  });
});
