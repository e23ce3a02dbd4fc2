import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { Failure } from '../../contract/errors.ts';
import type { Merchant } from '../../contract/merchant.ts';
import {
  TYPING_PAUSE_MS,
  merchantSearchMachine,
  type MerchantFilters,
  type MerchantSearchInput,
  type MerchantSearchPage,
} from '../../machines/merchantSearch.ts';

/** A rejection as the page's implementations hand it over (src/components/flow.ts `fromCall`). */
const failure = (status: number, code: Failure['code'], message: string): Failure => ({ status, code, message, retryAt: null });

/** A `search` actor whose calls the test settles by hand. */
function manualSearch() {
  const calls: { input: MerchantSearchInput; resolve: (v: MerchantSearchPage) => void; reject: (e: unknown) => void; aborted: () => boolean }[] = [];
  const logic = fromPromise<MerchantSearchPage, MerchantSearchInput>(
    ({ input, signal }) =>
      new Promise((resolve, reject) => {
        calls.push({ input, resolve, reject, aborted: () => signal.aborted });
      }),
  );
  return { calls, logic };
}

const everything: MerchantFilters = { q: '', category: '', source: '' };
const merchant = (n: number, name: string): Merchant => ({
  id: `4d0e1a2b-0000-4000-8000-00000000000${n}`,
  name,
  description: `${name} i Stockholm.`,
  logoUrl: '/merchants/kanelbullen.svg',
  category: 'cafe',
  website: null,
  sources: ['InStore'],
  priceFrom: 6500,
  address: null,
  openingHours: null,
});
const [a, b, c] = [merchant(1, 'Café Kanelbullen'), merchant(2, 'Kaffebaren'), merchant(3, 'Bokhandeln')];

function start(filters: MerchantFilters = everything) {
  const search = manualSearch();
  const actor = createActor(merchantSearchMachine.provide({ actors: { search: search.logic } }), { input: filters }).start();
  const tags = () => [...actor.getSnapshot().tags];
  const names = () => actor.getSnapshot().context.items.map((m) => m.name);
  return { actor, calls: search.calls, tags, names };
}

/** Lets the settled fake promise reach the actor. */
const settle = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('merchantSearch machine', () => {
  it('searches the filters it starts with, from the first page', async () => {
    const t = start({ q: 'kaffe', category: 'cafe', source: '' });
    expect(t.tags()).toEqual(['searching']);
    expect(t.calls[0]!.input).toEqual({ filters: { q: 'kaffe', category: 'cafe', source: '' }, cursor: null });
    t.calls[0]!.resolve({ items: [b], nextCursor: null });
    await settle();
    expect(t.tags()).toEqual(['showing']);
    expect(t.names()).toEqual(['Kaffebaren']);
  });

  it('typing waits for a pause, keeps the list meanwhile, then searches only the last text', async () => {
    const t = start();
    t.calls[0]!.resolve({ items: [a, b, c], nextCursor: null });
    await settle();
    t.actor.send({ type: 'user.typed', q: 'k' });
    vi.advanceTimersByTime(TYPING_PAUSE_MS - 1);
    t.actor.send({ type: 'user.typed', q: 'ka' });
    vi.advanceTimersByTime(TYPING_PAUSE_MS - 1);
    t.actor.send({ type: 'user.typed', q: 'kaf' });
    expect(t.tags()).toEqual(['debouncing']);
    expect(t.names()).toEqual(['Café Kanelbullen', 'Kaffebaren', 'Bokhandeln']);
    expect(t.actor.getSnapshot().context.filters.q).toBe('kaf');
    expect(t.calls).toHaveLength(1);
    vi.advanceTimersByTime(TYPING_PAUSE_MS);
    expect(t.tags()).toEqual(['searching']);
    expect(t.calls.map((x) => x.input.filters.q)).toEqual(['', 'kaf']);
  });

  it('a filter, or submitting the form, searches at once and cancels a search that was waiting', () => {
    const t = start();
    t.actor.send({ type: 'user.typed', q: 'bok' });
    t.actor.send({ type: 'user.filtered', filters: { category: 'books' } });
    expect(t.tags()).toEqual(['searching']);
    expect(t.calls.at(-1)!.input.filters).toEqual({ q: 'bok', category: 'books', source: '' });
    t.actor.send({ type: 'user.typed', q: 'bokh' });
    t.actor.send({ type: 'user.submitted' });
    expect(t.calls.at(-1)!.input.filters.q).toBe('bokh');
    vi.advanceTimersByTime(TYPING_PAUSE_MS * 2);
    expect(t.calls).toHaveLength(3); // start, filter, submit: the typed text never ran by itself
  });

  it('a newer search drops the one still running: its answer is ignored and its request aborted', async () => {
    const t = start();
    t.actor.send({ type: 'user.filtered', filters: { category: 'cafe' } });
    expect(t.calls[0]!.aborted()).toBe(true);
    t.calls[0]!.resolve({ items: [a, b, c], nextCursor: null });
    t.calls[1]!.resolve({ items: [a, b], nextCursor: null });
    await settle();
    expect(t.names()).toEqual(['Café Kanelbullen', 'Kaffebaren']);
  });

  it('"show more" asks for the page after the cursor with the same filters, and appends it', async () => {
    const t = start({ ...everything, source: 'InStore' });
    t.calls[0]!.resolve({ items: [a], nextCursor: 'c1' });
    await settle();
    t.actor.send({ type: 'user.showMore' });
    expect(t.tags()).toEqual(['loadingMore']);
    expect(t.names()).toEqual(['Café Kanelbullen']);
    expect(t.calls[1]!.input).toEqual({ filters: { ...everything, source: 'InStore' }, cursor: 'c1' });
    t.calls[1]!.resolve({ items: [b, c], nextCursor: null });
    await settle();
    expect(t.tags()).toEqual(['showing']);
    expect(t.names()).toEqual(['Café Kanelbullen', 'Kaffebaren', 'Bokhandeln']);
    // The last page: no more to show.
    t.actor.send({ type: 'user.showMore' });
    expect(t.tags()).toEqual(['showing']);
    expect(t.calls).toHaveLength(2);
  });

  it('a new search replaces the list that "show more" grew', async () => {
    const t = start();
    t.calls[0]!.resolve({ items: [a], nextCursor: 'c1' });
    await settle();
    t.actor.send({ type: 'user.showMore' });
    t.calls[1]!.resolve({ items: [b], nextCursor: 'c2' });
    await settle();
    t.actor.send({ type: 'user.filtered', filters: { category: 'books' } });
    expect(t.calls[2]!.input.cursor).toBeNull();
    t.calls[2]!.resolve({ items: [c], nextCursor: null });
    await settle();
    expect(t.names()).toEqual(['Bokhandeln']);
    expect(t.actor.getSnapshot().context.nextCursor).toBeNull();
  });

  it('a failed search keeps its message and the list shown before; retry searches again', async () => {
    const t = start();
    t.calls[0]!.resolve({ items: [a], nextCursor: null });
    await settle();
    t.actor.send({ type: 'user.submitted' });
    t.calls[1]!.reject(failure(500, 'INTERNAL_ERROR', 'Något gick fel hos oss.'));
    await settle();
    expect(t.tags()).toEqual(['failed']);
    expect(t.actor.getSnapshot().context.error).toEqual(failure(500, 'INTERNAL_ERROR', 'Något gick fel hos oss.'));
    expect(t.names()).toEqual(['Café Kanelbullen']);
    t.actor.send({ type: 'user.retry' });
    expect(t.tags()).toEqual(['searching']);
    expect(t.actor.getSnapshot().context.error).toBeNull();
    expect(t.calls[2]!.input).toEqual({ filters: everything, cursor: null });
  });

  it('a failed "show more" is retried as "show more" (same cursor), not as a new search', async () => {
    const t = start();
    t.calls[0]!.resolve({ items: [a], nextCursor: 'c1' });
    await settle();
    t.actor.send({ type: 'user.showMore' });
    t.calls[1]!.reject(failure(0, 'NETWORK', 'Nätverket svarar inte'));
    await settle();
    expect(t.tags()).toEqual(['failed']);
    t.actor.send({ type: 'user.retry' });
    expect(t.tags()).toEqual(['loadingMore']);
    expect(t.calls[2]!.input.cursor).toBe('c1');
    t.calls[2]!.resolve({ items: [b], nextCursor: null });
    await settle();
    expect(t.names()).toEqual(['Café Kanelbullen', 'Kaffebaren']);
  });
});
