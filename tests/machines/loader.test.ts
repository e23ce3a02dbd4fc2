import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { loaderMachine, loaderErrorOf, LOADER_DEBOUNCE_MS } from '../../machines/loader.ts';

/** A `load` actor whose calls the test resolves or rejects by hand. */
function manualLoad() {
  const calls: { params: unknown; resolve: (v: unknown) => void; reject: (e: unknown) => void; aborted: () => boolean }[] = [];
  const logic = fromPromise<unknown, unknown>(
    ({ input, signal }) =>
      new Promise((resolve, reject) => {
        calls.push({ params: input, resolve, reject, aborted: () => signal.aborted });
      }),
  );
  return { calls, logic };
}

function start() {
  const load = manualLoad();
  const actor = createActor(loaderMachine.provide({ actors: { load: load.logic } }));
  actor.start();
  return { actor, calls: load.calls };
}

class HttpLikeError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly userMessage?: string,
  ) {
    super(message);
  }
}

describe('loaderMachine', () => {
  it('starts idle, with no data, not loading and no error', () => {
    const { actor } = start();
    const s = actor.getSnapshot();
    expect(s.value).toBe('idle');
    expect(s.context).toMatchObject({ data: null, loading: false, error: null });
  });

  it('a load sets the loading flag, passes its params to the load actor, and keeps the data it answers', async () => {
    const { actor, calls } = start();
    actor.send({ type: 'user.load', params: { q: 'kaffe' } });
    expect(actor.getSnapshot().value).toBe('loading');
    expect(actor.getSnapshot().context.loading).toBe(true);
    expect(calls[0]!.params).toEqual({ q: 'kaffe' });
    calls[0]!.resolve(['Café Kanelbullen']);
    const s = await waitFor(actor, (x) => x.matches('loaded'));
    expect(s.context).toMatchObject({ data: ['Café Kanelbullen'], loading: false, error: null });
  });

  it("a failure keeps the error's own message and status; the data of the last success stays", async () => {
    const { actor, calls } = start();
    actor.send({ type: 'user.load', params: 1 });
    calls[0]!.resolve('first');
    await waitFor(actor, (x) => x.matches('loaded'));
    actor.send({ type: 'user.load', params: 2 });
    calls[1]!.reject(new HttpLikeError('Internt serverfel', 500, 'Något gick fel hos oss. Försök igen om en stund.'));
    const s = await waitFor(actor, (x) => x.matches('failed'));
    expect(s.context.error).toEqual({ message: 'Något gick fel hos oss. Försök igen om en stund.', status: 500 });
    expect(s.context.loading).toBe(false);
    expect(s.context.data).toBe('first');

    const plain = start();
    plain.actor.send({ type: 'user.load', params: 1 });
    plain.calls[0]!.reject(new Error('Nätverket svarar inte'));
    expect((await waitFor(plain.actor, (x) => x.matches('failed'))).context.error).toEqual({ message: 'Nätverket svarar inte', status: null });
  });

  it('starting a load clears the earlier error; retry loads the same params again', async () => {
    const { actor, calls } = start();
    actor.send({ type: 'user.load', params: { id: 'a' } });
    calls[0]!.reject(new Error('Nope'));
    await waitFor(actor, (x) => x.matches('failed'));
    actor.send({ type: 'user.retry' });
    expect(actor.getSnapshot().value).toBe('loading');
    expect(actor.getSnapshot().context.error).toBeNull();
    expect(actor.getSnapshot().context.loading).toBe(true);
    expect(calls[1]!.params).toEqual({ id: 'a' });
    calls[1]!.resolve('ok');
    await waitFor(actor, (x) => x.matches('loaded'));
  });

  it('a 404 is the notFound state, with its message', async () => {
    const { actor, calls } = start();
    actor.send({ type: 'user.load', params: { id: 'x' } });
    calls[0]!.reject(new HttpLikeError('Hittades inte', 404, 'Handlaren finns inte.'));
    const s = await waitFor(actor, (x) => x.matches('notFound'));
    expect(s.context.error).toEqual({ message: 'Handlaren finns inte.', status: 404 });
    actor.send({ type: 'user.retry' }); // the same question would get the same answer
    expect(actor.getSnapshot().value).toBe('notFound');
    actor.send({ type: 'user.load', params: { id: 'y' } }); // another merchant
    expect(actor.getSnapshot().value).toBe('loading');
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it('a newer load drops the one still running: its answer is ignored and its request aborted', async () => {
    const { actor, calls } = start();
    actor.send({ type: 'user.load', params: 'old' });
    actor.send({ type: 'user.load', params: 'new' });
    expect(calls[0]!.aborted()).toBe(true);
    calls[0]!.resolve('old answer');
    calls[1]!.resolve('new answer');
    const s = await waitFor(actor, (x) => x.matches('loaded'));
    expect(s.context.data).toBe('new answer');
    expect(s.context.params).toBe('new');
  });

  it('retry does nothing while loading or after a success', async () => {
    const { actor, calls } = start();
    actor.send({ type: 'user.retry' });
    expect(actor.getSnapshot().value).toBe('idle');
    actor.send({ type: 'user.load', params: 1 });
    actor.send({ type: 'user.retry' });
    expect(calls).toHaveLength(1);
    calls[0]!.resolve('x');
    await waitFor(actor, (x) => x.matches('loaded'));
    actor.send({ type: 'user.retry' });
    expect(actor.getSnapshot().value).toBe('loaded');
  });

  describe('loading later (typing in a search field)', () => {
    beforeEach(() => {
      vi.useFakeTimers();
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    it('waits for a pause in typing, then loads only the last params', () => {
      const { actor, calls } = start();
      actor.send({ type: 'user.loadLater', params: 'k' });
      vi.advanceTimersByTime(LOADER_DEBOUNCE_MS - 1);
      actor.send({ type: 'user.loadLater', params: 'ka' });
      vi.advanceTimersByTime(LOADER_DEBOUNCE_MS - 1);
      actor.send({ type: 'user.loadLater', params: 'kaf' });
      expect(actor.getSnapshot().value).toBe('waiting');
      expect(calls).toHaveLength(0);
      vi.advanceTimersByTime(LOADER_DEBOUNCE_MS);
      expect(actor.getSnapshot().value).toBe('loading');
      expect(calls.map((c) => c.params)).toEqual(['kaf']);
    });

    it('a load now cancels a load that was waiting', () => {
      const { actor, calls } = start();
      actor.send({ type: 'user.loadLater', params: 'typed' });
      actor.send({ type: 'user.load', params: 'chosen' });
      vi.advanceTimersByTime(LOADER_DEBOUNCE_MS * 2);
      expect(calls.map((c) => c.params)).toEqual(['chosen']);
    });
  });

  it('loaderErrorOf reads any thrown value', () => {
    expect(loaderErrorOf('plain text')).toEqual({ message: 'plain text', status: null });
    expect(loaderErrorOf({ message: 'm', status: 503 })).toEqual({ message: 'm', status: 503 });
    expect(loaderErrorOf(null)).toEqual({ message: 'null', status: null });
  });
});
