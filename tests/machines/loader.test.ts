import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { Failure } from '../../contract/errors.ts';
import { createLoader } from '../../machines/loader.ts';

/** A `load` actor whose calls the test resolves or rejects by hand. */
function manualLoad<Params, Data>() {
  const calls: { params: Params; resolve: (v: Data) => void; reject: (e: unknown) => void; aborted: () => boolean }[] = [];
  const logic = fromPromise<Data, { params: Params }>(
    ({ input, signal }) =>
      new Promise<Data>((resolve, reject) => {
        calls.push({ params: input.params, resolve, reject, aborted: () => signal.aborted });
      }),
  );
  return { calls, logic };
}

/** A loader typed as a page would have it: a merchant's name by id. */
function start(params: { id: string } = { id: 'm1' }) {
  const load = manualLoad<{ id: string }, { name: string }>();
  const actor = createActor(createLoader<{ id: string }, { name: string }>().provide({ actors: { load: load.logic } }), { input: params });
  actor.start();
  return { actor, calls: load.calls };
}

const tagsOf = (actor: ReturnType<typeof start>['actor']) => [...actor.getSnapshot().tags];

/** A rejection as the page's implementations hand it over (src/components/flow.ts `fromCall`). */
const failure = (status: number, code: Failure['code'], message: string): Failure => ({ status, code, message, retryAt: null });

describe('createLoader', () => {
  it('starts loading its params at once: tag loading, no data, no error', () => {
    const { actor, calls } = start({ id: 'kaffe' });
    expect(tagsOf(actor)).toEqual(['loading']);
    expect(actor.getSnapshot().context).toMatchObject({ data: null, error: null });
    expect(calls.map((c) => c.params)).toEqual([{ id: 'kaffe' }]);
  });

  it('keeps the data it answers: tag loaded', async () => {
    const { actor, calls } = start();
    calls[0]!.resolve({ name: 'Café Kanelbullen' });
    const s = await waitFor(actor, (x) => x.hasTag('loaded'));
    expect(s.context).toMatchObject({ data: { name: 'Café Kanelbullen' }, error: null });
    expect([...s.tags]).toEqual(['loaded']);
  });

  it('a failure keeps the Failure as it came: tag failed', async () => {
    const { actor, calls } = start();
    calls[0]!.reject(failure(500, 'INTERNAL_ERROR', 'Något gick fel hos oss. Försök igen om en stund.'));
    const s = await waitFor(actor, (x) => x.hasTag('failed'));
    expect(s.context.error).toEqual(failure(500, 'INTERNAL_ERROR', 'Något gick fel hos oss. Försök igen om en stund.'));

    // A refused request is a failure, not "not found", whatever its status.
    const refused = start();
    refused.calls[0]!.reject(failure(400, 'VALIDATION_FAILED', 'Fel i frågan.'));
    expect((await waitFor(refused.actor, (x) => x.hasTag('failed'))).context.error?.code).toBe('VALIDATION_FAILED');
  });

  it('retry clears the error and loads the same params again', async () => {
    const { actor, calls } = start({ id: 'a' });
    calls[0]!.reject(failure(0, 'NETWORK', 'Nätverket svarar inte'));
    await waitFor(actor, (x) => x.hasTag('failed'));
    actor.send({ type: 'user.retry' });
    expect(tagsOf(actor)).toEqual(['loading']);
    expect(actor.getSnapshot().context.error).toBeNull();
    expect(calls[1]!.params).toEqual({ id: 'a' });
    calls[1]!.resolve({ name: 'ok' });
    await waitFor(actor, (x) => x.hasTag('loaded'));
  });

  it('a not-found code is notFound, with its message; retry does not ask again', async () => {
    const { actor, calls } = start({ id: 'x' });
    calls[0]!.reject(failure(404, 'MERCHANT_NOT_FOUND', 'Handlaren finns inte.'));
    const s = await waitFor(actor, (x) => x.hasTag('notFound'));
    expect(s.context.error).toEqual(failure(404, 'MERCHANT_NOT_FOUND', 'Handlaren finns inte.'));
    actor.send({ type: 'user.retry' }); // the same question would get the same answer
    expect(tagsOf(actor)).toEqual(['notFound']);
    expect(calls).toHaveLength(1);
  });

  it('retry does nothing while loading or after a success', async () => {
    const { actor, calls } = start();
    actor.send({ type: 'user.retry' });
    expect(calls).toHaveLength(1);
    calls[0]!.resolve({ name: 'x' });
    await waitFor(actor, (x) => x.hasTag('loaded'));
    actor.send({ type: 'user.retry' });
    expect(tagsOf(actor)).toEqual(['loaded']);
    expect(calls).toHaveLength(1);
  });

  it('stopping it (the page goes away) aborts the load', () => {
    const { actor, calls } = start();
    actor.stop();
    expect(calls[0]!.aborted()).toBe(true);
  });

});
