import { describe, expect, it } from 'vitest';
import { createActor, setup, toPromise } from 'xstate';
import { ApiError } from '../../src/api/errors.ts';
import { fromCall, screenOf } from '../../src/components/flow.ts';

describe('fromCall: a flow’s errors are mapped once, where its implementations are', () => {
  it('rejects with the one Failure whatever the call threw', async () => {
    const refused = new ApiError({
      url: '/api/voucher/redeem',
      status: 429,
      statusText: 'Too Many Requests',
      body: { code: 'VOUCHER_LOCKED', message: 'För många försök.' },
      retryAfter: 60,
    });
    const actor = createActor(fromCall<never>(() => Promise.reject(refused))).start();
    const error = await toPromise(actor).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 429, code: 'VOUCHER_LOCKED', message: 'För många försök.' });
    expect(typeof (error as { retryAt: unknown }).retryAt).toBe('string');

    const offline = createActor(fromCall<never>(() => Promise.reject(new ApiError({ url: '/api/x', status: 0, statusText: '', body: null })))).start();
    expect(await toPromise(offline).catch((e: unknown) => e)).toMatchObject({ status: 0, code: 'NETWORK' });
  });

  it('passes the input and the abort signal to the call, and its answer back', async () => {
    const actor = createActor(fromCall<string, { id: string }>(async ({ input, signal }) => `${input.id}:${signal.aborted}`), { input: { id: 'a' } }).start();
    expect(await toPromise(actor)).toBe('a:false');
  });
});

describe('screenOf: the screen from the tags, one way', () => {
  const machine = setup({ types: { tags: {} as 'loading' | 'ready' | 'busy' } }).createMachine({
    initial: 'a',
    states: { a: { tags: ['ready', 'busy'], on: { next: 'b' } }, b: {} },
  });

  it('is the first of the screens the state carries, else the first', () => {
    const actor = createActor(machine).start();
    expect(screenOf(actor.getSnapshot(), ['loading', 'busy', 'ready'])).toBe('busy');
    actor.send({ type: 'next' });
    expect(screenOf(actor.getSnapshot(), ['loading', 'busy', 'ready'])).toBe('loading');
  });
});
