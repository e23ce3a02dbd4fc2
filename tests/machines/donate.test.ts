import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { Failure } from '../../contract/errors.ts';
import type { Voucher } from '../../contract/voucher.ts';
import { charityProductFor, DONATE_SCREENS, donateMachine, isDonatable, type CharityOption } from '../../machines/donate.ts';
import { screenOf } from '../../src/components/flow.ts';
import { charity, code, instore } from '../fixtures/vouchers.ts';

const sea: CharityOption = {
  merchant: { id: '2b2b2b2b-0000-4000-8000-0000000000c1', name: 'Östersjöns framtid', description: 'Vi städar stränder.', logoUrl: '/media/hav.svg' },
  product: { id: '3c3c3c3c-0000-4000-8000-0000000000c1', name: 'Valfri gåva' },
};
const warm: CharityOption = {
  merchant: { id: '2b2b2b2b-0000-4000-8000-0000000000c2', name: 'Föreningen Varma Händer', description: 'Mat och värme.', logoUrl: '/media/varm.svg' },
  product: { id: '3c3c3c3c-0000-4000-8000-0000000000c2', name: 'Valfri gåva' },
};
const given: Voucher = { ...charity, id: '1a1a1a1a-0000-4000-8000-0000000000d1', merchant: { ...sea.merchant }, product: { ...sea.product }, amount: instore.amount, balance: instore.amount };
const failure = (status: number, code: Failure['code']): Failure => ({ status, code, message: 'Serverns text', retryAt: null });

/** A donate actor whose calls the test settles by hand. */
function start(v: Voucher = instore) {
  const loads: { input: { amount: number }; resolve: (o: CharityOption[]) => void; reject: (e: Failure) => void }[] = [];
  const donations: { input: { voucherId: string; productId: string }; resolve: (v: Voucher) => void; reject: (e: Failure) => void }[] = [];
  const machine = donateMachine.provide({
    actors: {
      loadCharities: fromPromise<CharityOption[], { amount: number }>(({ input }) => new Promise((resolve, reject) => loads.push({ input, resolve, reject }))),
      donateVoucher: fromPromise<Voucher, { voucherId: string; productId: string }>(
        ({ input }) => new Promise((resolve, reject) => donations.push({ input, resolve, reject })),
      ),
    },
  });
  const actor = createActor(machine, { input: { voucher: v } }).start();
  const screen = () => screenOf(actor.getSnapshot(), DONATE_SCREENS);
  return { actor, loads, donations, screen };
}

async function choosing() {
  const t = start();
  t.actor.send({ type: 'user.start' });
  t.loads[0]!.resolve([sea, warm]);
  await waitFor(t.actor, (s) => s.hasTag('choosing'));
  return t;
}

describe('donate machine', () => {
  it('every state carries exactly one screen tag', () => {
    for (const [id, node] of Object.entries(donateMachine.states)) {
      expect([...node.tags].filter((t) => (DONATE_SCREENS as readonly string[]).includes(t)), id).toHaveLength(1);
    }
  });

  it("starts idle; 'Skänk värdet i stället' reads the charities that can take the voucher's amount", async () => {
    const { actor, loads, screen } = start();
    expect(screen()).toBe('idle');
    expect(loads).toHaveLength(0);
    actor.send({ type: 'user.start' });
    expect(screen()).toBe('loading');
    expect(loads.map((l) => l.input)).toEqual([{ amount: 14900 }]);
    loads[0]!.resolve([sea, warm]);
    await waitFor(actor, (s) => s.hasTag('choosing'));
    expect(actor.getSnapshot().context.options).toEqual([sea, warm]);
  });

  it('a failed read says why; retry reads again, close leaves the voucher as it was', async () => {
    const { actor, loads, screen } = start();
    actor.send({ type: 'user.start' });
    loads[0]!.reject(failure(503, 'DB_UNAVAILABLE'));
    await waitFor(actor, (s) => s.hasTag('loadFailed'));
    expect(actor.getSnapshot().context.error?.code).toBe('DB_UNAVAILABLE');
    actor.send({ type: 'user.retry' });
    expect(screen()).toBe('loading');
    expect(actor.getSnapshot().context.error).toBeNull();
    loads[1]!.reject(failure(503, 'DB_UNAVAILABLE'));
    await waitFor(actor, (s) => s.hasTag('loadFailed'));
    actor.send({ type: 'user.close' });
    expect(screen()).toBe('idle');
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it('only a charity from the list read can be chosen; choosing one asks first and sends nothing', async () => {
    const { actor, donations, screen } = await choosing();
    actor.send({ type: 'user.choose', productId: '3c3c3c3c-0000-4000-8000-00000000ffff' });
    expect(screen()).toBe('choosing');
    actor.send({ type: 'user.choose', productId: warm.product.id });
    expect(screen()).toBe('confirming');
    expect(actor.getSnapshot().context.choice).toEqual(warm);
    expect(donations).toHaveLength(0);
    actor.send({ type: 'user.back' });
    expect(screen()).toBe('choosing');
    expect(actor.getSnapshot().context.choice).toBeNull();
    actor.send({ type: 'user.choose', productId: sea.product.id });
    actor.send({ type: 'user.close' });
    expect(screen()).toBe('idle');
    expect(donations).toHaveLength(0);
  });

  it('confirmed: the donation is sent once, with the voucher and the product; the Charity voucher that replaces it is kept', async () => {
    const { actor, donations, screen } = await choosing();
    actor.send({ type: 'user.choose', productId: sea.product.id });
    actor.send({ type: 'user.confirm' });
    expect(screen()).toBe('busy');
    actor.send({ type: 'user.confirm' });
    actor.send({ type: 'user.close' });
    expect(screen()).toBe('busy');
    expect(donations.map((d) => d.input)).toEqual([{ voucherId: instore.id, productId: sea.product.id }]);
    donations[0]!.resolve(given);
    await waitFor(actor, (s) => s.hasTag('done'));
    expect(actor.getSnapshot().status).toBe('done');
    expect(actor.getSnapshot().context.donated).toEqual(given);
  });

  it('a refusal keeps its code; another charity may be chosen, or the flow closed', async () => {
    const { actor, donations, screen } = await choosing();
    actor.send({ type: 'user.choose', productId: sea.product.id });
    actor.send({ type: 'user.confirm' });
    donations[0]!.reject(failure(400, 'DONATION_AMOUNT_NOT_ACCEPTED'));
    await waitFor(actor, (s) => s.hasTag('failed'));
    expect(actor.getSnapshot().context.error?.code).toBe('DONATION_AMOUNT_NOT_ACCEPTED');
    actor.send({ type: 'user.back' });
    expect(screen()).toBe('choosing');
    actor.send({ type: 'user.choose', productId: warm.product.id });
    actor.send({ type: 'user.confirm' });
    donations[1]!.reject(failure(409, 'DONATION_VOUCHER_USED'));
    await waitFor(actor, (s) => s.hasTag('failed'));
    actor.send({ type: 'user.close' });
    expect(screen()).toBe('idle');
  });
});

describe("who is offered 'Skänk värdet i stället' (the server's rule)", () => {
  const now = new Date('2026-11-27T12:00:00Z');
  it('an unused, unexpired InStore voucher', () => {
    expect(isDonatable(instore, now)).toBe(true);
  });
  it('not a partly used or used one, an expired one, or a Code or Charity voucher', () => {
    expect(isDonatable({ ...instore, kind: 'value', amount: 34900, balance: 20000 }, now)).toBe(false);
    expect(isDonatable({ ...instore, balance: 0, isRedeemed: true, redeemedAt: '2026-11-26T12:00:00Z' }, now)).toBe(false);
    expect(isDonatable({ ...instore, expiresAt: '2026-11-27T11:59:59Z' }, now)).toBe(false);
    expect(isDonatable(code, now)).toBe(false);
    expect(isDonatable(charity, now)).toBe(false);
  });
});

describe('the charity product a gift becomes', () => {
  const p = (id: string, rest: object) => ({ id, name: id, source: 'Charity', ...rest });
  it('a fixed price equal to the amount first, else a range that holds it', () => {
    const products = [p('range', { minAmount: 5000, maxAmount: 500000 }), p('fixed', { price: 14900 }), p('other', { price: 10000 })];
    expect(charityProductFor(products, 14900)?.id).toBe('fixed');
    expect(charityProductFor(products, 20000)?.id).toBe('range');
  });
  it('none when nothing can take it, and never a product of another kind or one not available', () => {
    expect(charityProductFor([p('range', { minAmount: 5000, maxAmount: 10000 })], 14900)).toBeNull();
    expect(charityProductFor([{ id: 'shop', name: 'shop', source: 'InStore', price: 14900 }], 14900)).toBeNull();
    expect(charityProductFor([p('gone', { price: 14900, available: false })], 14900)).toBeNull();
  });
});
