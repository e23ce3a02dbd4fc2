import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor, type NonReducibleUnknown } from 'xstate';
import type { Voucher } from '../../contract/voucher.ts';
import { vouchersMachine } from '../../machines/vouchers.ts';
import { all, charity, code, ids, instore, redeemedNow } from '../fixtures/vouchers.ts';
import type { Failure } from '../../contract/errors.ts';

type Call<I, O> = { input: I; resolve: (v: O) => void; reject: (e: unknown) => void; aborted: () => boolean };

/** The store with server calls the test settles by hand. */
function start() {
  const make = <I, O>() => {
    const calls: Call<I, O>[] = [];
    const logic = fromPromise<O, I>(({ input, signal }) => new Promise<O>((resolve, reject) => calls.push({ input, resolve, reject, aborted: () => signal.aborted })));
    return { calls, logic };
  };
  const list = make<NonReducibleUnknown, Voucher[]>();
  const one = make<{ id: string }, Voucher>();
  const greetie = make<{ greetieId: string }, Voucher[]>();
  const mark = make<{ id: string }, Voucher>();
  const actor = createActor(
    vouchersMachine.provide({ actors: { loadVouchers: list.logic, loadVoucher: one.logic, loadGreetieVouchers: greetie.logic, markUsed: mark.logic } }),
  ).start();
  return { actor, list: list.calls, one: one.calls, greetie: greetie.calls, mark: mark.calls };
}

const tags = (a: ReturnType<typeof start>['actor']) => [...a.getSnapshot().tags].sort();
const notFound: Failure = { status: 404, code: 'VOUCHER_NOT_FOUND', message: 'Presentkortet finns inte.', retryAt: null };
/** A rejection as the app's implementations hand it over (src/components/flow.ts `fromCall`). */
const unavailable: Failure = { status: 503, code: 'DB_UNAVAILABLE', message: 'Databasen svarar inte.', retryAt: null };

describe('voucher store', () => {
  it('loads nothing until a page opens something', () => {
    const { actor, list, one, greetie } = start();
    expect(actor.getSnapshot().value).toEqual({ list: 'idle', selected: 'idle', greetie: 'idle' });
    expect(list.length + one.length + greetie.length).toBe(0);
  });

  it('the list: loading, then ready; a failure keeps its reason and opening again retries', async () => {
    const { actor, list } = start();
    actor.send({ type: 'user.openList', userId: 'u1' });
    expect(tags(actor)).toEqual(['list:loading']);
    list[0]!.reject(unavailable);
    await waitFor(actor, (s) => s.hasTag('list:failed'));
    expect(actor.getSnapshot().context.listError).toEqual(unavailable);
    actor.send({ type: 'user.openList', userId: 'u1' });
    expect(actor.getSnapshot().context.listError).toBeNull();
    list[1]!.resolve(all);
    await waitFor(actor, (s) => s.hasTag('list:ready'));
    expect(actor.getSnapshot().context.list).toEqual(all);
  });

  it('opening the list again keeps showing the kept one while it loads again', async () => {
    const { actor, list } = start();
    actor.send({ type: 'user.openList', userId: 'u1' });
    list[0]!.resolve(all);
    await waitFor(actor, (s) => s.hasTag('list:ready'));
    actor.send({ type: 'user.openList', userId: 'u1' });
    expect(tags(actor)).toEqual(['list:loading']);
    expect(actor.getSnapshot().context.list).toEqual(all);
    expect(list).toHaveLength(2);
    // Opened again while loading (React re-running the page's effect): one fresh call, the old one dropped.
    actor.send({ type: 'user.openList', userId: 'u1' });
    expect(list).toHaveLength(3);
    expect(list[1]!.aborted()).toBe(true);
  });

  it('a voucher opened from the list is shown at once while it loads; the one already shown is not loaded again', async () => {
    const { actor, list, one } = start();
    actor.send({ type: 'user.openList', userId: 'u1' });
    list[0]!.resolve(all);
    await waitFor(actor, (s) => s.hasTag('list:ready'));
    actor.send({ type: 'user.openVoucher', userId: 'u1', id: ids.instore });
    expect(actor.getSnapshot().context.selected).toEqual(instore);
    expect(tags(actor)).toContain('voucher:loading');
    one[0]!.resolve(instore);
    await waitFor(actor, (s) => s.hasTag('voucher:ready'));
    // The till screen, opened from the voucher's page, opens the same voucher: nothing to load.
    actor.send({ type: 'user.openVoucher', userId: 'u1', id: ids.instore });
    expect(one).toHaveLength(1);
    expect(tags(actor)).toContain('voucher:ready');
    // Another voucher is loaded.
    actor.send({ type: 'user.openVoucher', userId: 'u1', id: ids.code });
    expect(one).toHaveLength(2);
  });

  it("another user's voucher is not found: failed with 404", async () => {
    const { actor, one } = start();
    actor.send({ type: 'user.openVoucher', userId: 'u1', id: ids.code });
    one[0]!.reject(notFound);
    await waitFor(actor, (s) => s.hasTag('voucher:failed'));
    expect(actor.getSnapshot().context.selectedError).toMatchObject({ status: 404, code: 'VOUCHER_NOT_FOUND' });
  });

  it('a redeem changes isRedeemed and redeemedAt in the list, the selected voucher and the greetie\'s vouchers, without loading anything', async () => {
    const { actor, list, one, greetie } = start();
    actor.send({ type: 'user.openList', userId: 'u1' });
    actor.send({ type: 'user.openGreetie', userId: 'u1', greetieId: ids.greetie });
    actor.send({ type: 'user.openVoucher', userId: 'u1', id: ids.instore });
    list[0]!.resolve(all);
    greetie[0]!.resolve([instore, code, charity]);
    one[0]!.resolve(instore);
    await waitFor(actor, (s) => s.hasTag('list:ready') && s.hasTag('greetie:ready') && s.hasTag('voucher:ready'));

    const done = redeemedNow(instore);
    actor.send({ type: 'redeem.succeeded', voucher: done });
    const c = actor.getSnapshot().context;
    const find = (vs: Voucher[] | null) => vs?.find((v) => v.id === ids.instore);
    for (const v of [find(c.list), find(c.greetieVouchers), c.selected]) expect(v).toMatchObject({ isRedeemed: true, redeemedAt: done.redeemedAt });
    // Nothing else changed, nothing was loaded again.
    expect(c.list?.filter((v) => v.id !== ids.instore)).toEqual(all.filter((v) => v.id !== ids.instore));
    expect([list.length, greetie.length, one.length]).toEqual([1, 1, 1]);
  });

  it("a part of a value voucher's balance taken at the till shows its balance and its use everywhere, the voucher still open", async () => {
    const { actor, list, one, greetie } = start();
    const value: Voucher = { ...instore, kind: 'value', amount: 34900, balance: 34900 };
    actor.send({ type: 'user.openList', userId: 'u1' });
    actor.send({ type: 'user.openGreetie', userId: 'u1', greetieId: ids.greetie });
    actor.send({ type: 'user.openVoucher', userId: 'u1', id: ids.instore });
    list[0]!.resolve([value, code]);
    greetie[0]!.resolve([value, code]);
    one[0]!.resolve(value);
    await waitFor(actor, (s) => s.hasTag('list:ready') && s.hasTag('greetie:ready') && s.hasTag('voucher:ready'));

    const use = { id: '4d4d4d4d-0000-4000-8000-0000000000a1', amount: 14900, redeemedAt: '2026-11-23T10:15:00.000Z', via: 'code' as const, undone: false };
    const partly: Voucher = { ...value, balance: 20000, redemptions: [use] };
    actor.send({ type: 'redeem.succeeded', voucher: partly });
    const c = actor.getSnapshot().context;
    const find = (vs: Voucher[] | null) => vs?.find((v) => v.id === ids.instore);
    for (const v of [find(c.list), find(c.greetieVouchers), c.selected]) {
      expect(v).toMatchObject({ isRedeemed: false, redeemedAt: null, balance: 20000, redemptions: [use] });
    }
    // Opening the page again (back from the till) loads nothing: what it shows must be current.
    actor.send({ type: 'user.openVoucher', userId: 'u1', id: ids.instore });
    expect(one).toHaveLength(1);
    expect(actor.getSnapshot().context.selected?.balance).toBe(20000);
  });

  it('marks a Code voucher used: marking, then used everywhere', async () => {
    const { actor, list, one, mark } = start();
    actor.send({ type: 'user.openList', userId: 'u1' });
    list[0]!.resolve(all);
    actor.send({ type: 'user.openVoucher', userId: 'u1', id: ids.code });
    one[0]!.resolve(code);
    await waitFor(actor, (s) => s.hasTag('voucher:ready') && s.hasTag('list:ready'));
    actor.send({ type: 'user.markUsed' });
    expect(tags(actor)).toContain('voucher:marking');
    expect(mark.map((m) => m.input)).toEqual([{ id: ids.code }]);
    mark[0]!.resolve(redeemedNow(code));
    await waitFor(actor, (s) => !s.hasTag('voucher:marking'));
    const c = actor.getSnapshot().context;
    expect(c.selected?.isRedeemed).toBe(true);
    expect(c.list?.find((v) => v.id === ids.code)?.isRedeemed).toBe(true);
    // Once used it cannot be marked again.
    actor.send({ type: 'user.markUsed' });
    expect(mark).toHaveLength(1);
  });

  it('an InStore voucher is never marked used by its owner (it needs the till)', async () => {
    const { actor, one, mark } = start();
    actor.send({ type: 'user.openVoucher', userId: 'u1', id: ids.instore });
    one[0]!.resolve(instore);
    await waitFor(actor, (s) => s.hasTag('voucher:ready'));
    actor.send({ type: 'user.markUsed' });
    expect(mark).toHaveLength(0);
  });

  it('a failed mark keeps the voucher as it was and says why', async () => {
    const { actor, one, mark } = start();
    actor.send({ type: 'user.openVoucher', userId: 'u1', id: ids.charity });
    one[0]!.resolve(charity);
    await waitFor(actor, (s) => s.hasTag('voucher:ready'));
    actor.send({ type: 'user.markUsed' });
    mark[0]!.reject(unavailable);
    await waitFor(actor, (s) => !s.hasTag('voucher:marking'));
    expect(actor.getSnapshot().context.selected?.isRedeemed).toBe(false);
    expect(actor.getSnapshot().context.markError).toMatchObject({ code: 'DB_UNAVAILABLE' });
  });

  it('forgets everything kept for one user when a page opens something for another', async () => {
    const { actor, list, one } = start();
    actor.send({ type: 'user.openList', userId: 'u1' });
    list[0]!.resolve(all);
    actor.send({ type: 'user.openVoucher', userId: 'u1', id: ids.instore });
    one[0]!.resolve(instore);
    await waitFor(actor, (s) => s.hasTag('list:ready') && s.hasTag('voucher:ready'));
    actor.send({ type: 'user.openList', userId: 'u2' });
    const c = actor.getSnapshot().context;
    expect(c).toMatchObject({ userId: 'u2', list: null, selected: null, selectedId: null });
    // u2 opening the same voucher id loads it (it is not "the one already shown").
    actor.send({ type: 'user.openVoucher', userId: 'u2', id: ids.instore });
    expect(one).toHaveLength(2);
  });
});
