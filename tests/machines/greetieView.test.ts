import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, SimulatedClock } from 'xstate';
import type { Failure } from '../../contract/errors.ts';
import { greetieViewMachine, REVEAL_DELAY_MS, type GreetieView, type GreetieViewInput } from '../../machines/greetieView.ts';

/** A `loadGreetie` whose calls the test settles by hand. */
function manualLoad() {
  const calls: { input: { key: string; byId: boolean }; resolve: (v: GreetieView) => void; reject: (e: unknown) => void; aborted: () => boolean }[] = [];
  const logic = fromPromise<GreetieView, { key: string; byId: boolean }>(
    ({ input, signal }) => new Promise<GreetieView>((resolve, reject) => calls.push({ input, resolve, reject, aborted: () => signal.aborted })),
  );
  return { calls, logic };
}

function start(input: Partial<GreetieViewInput> = {}) {
  const load = manualLoad();
  const clock = new SimulatedClock();
  const actor = createActor(greetieViewMachine.provide({ actors: { loadGreetie: load.logic } }), {
    input: { key: 'AbCdEf123456', byId: false, reducedMotion: false, ...input },
    clock,
  });
  actor.start();
  return { actor, calls: load.calls, clock };
}

const view: GreetieView = {
  id: '8d3c1f2e-6a4b-4c5d-9e8f-0a1b2c3d4e5f',
  role: 'visitor',
  senderName: 'Anna',
  recipientName: 'Bo',
  message: 'Grattis!',
  content: [],
  media: { kind: 'photo', url: '/api/media/AAAAAAAAAAAAAAAAAAAAAA.webp', thumbnailUrl: null, overlayUrl: null },
  gifts: [],
  deliveredAt: '2026-11-23T08:00:00.000Z',
  viewedAt: null,
  thanks: null,
};

const settle = () => new Promise((r) => setTimeout(r, 0));
const tags = (actor: ReturnType<typeof start>['actor']) => [...actor.getSnapshot().tags].sort();
const failure = (status: number, code: Failure['code'], message: string): Failure => ({ status, code, message, retryAt: null });

afterEach(() => vi.useRealTimers());

describe('greetieView', () => {
  it('reads the greetie by its reference at once, or by its id when asked', () => {
    const byRef = start();
    expect(byRef.actor.getSnapshot().value).toBe('loading');
    expect(tags(byRef.actor)).toEqual(['loading']);
    expect(byRef.calls.map((c) => c.input)).toEqual([{ key: 'AbCdEf123456', byId: false }]);

    const byId = start({ key: view.id, byId: true });
    expect(byId.calls.map((c) => c.input)).toEqual([{ key: view.id, byId: true }]);
  });

  it('shows it as it arrives, and reveals the gifts once the moment has passed', async () => {
    const { actor, calls, clock } = start();
    calls[0]!.resolve(view);
    await settle();
    expect(actor.getSnapshot().value).toBe('showing');
    expect(tags(actor)).toEqual(['greetie', 'revealing']);
    expect(actor.getSnapshot().context.view).toEqual(view);

    clock.increment(REVEAL_DELAY_MS - 1);
    expect(actor.getSnapshot().value).toBe('showing');
    clock.increment(1);
    expect(actor.getSnapshot().value).toBe('viewed');
    expect(tags(actor)).toEqual(['greetie', 'revealed']);
  });

  it('reveals the gifts without waiting for someone who asked for reduced motion', async () => {
    const { actor, calls, clock } = start({ reducedMotion: true });
    calls[0]!.resolve(view);
    await settle();
    clock.increment(0);
    expect(actor.getSnapshot().value).toBe('viewed');
  });

  it('GREETIE_NOT_FOUND (no such greetie, or not this person’s) and a refused key (a broken link) are notFound, with nothing to retry', async () => {
    for (const [status, code] of [[404, 'GREETIE_NOT_FOUND'], [400, 'VALIDATION_FAILED'], [400, 'BAD_REQUEST']] as const) {
      const { actor, calls } = start();
      calls[0]!.reject(failure(status, code, 'Greetien finns inte.'));
      await settle();
      expect(actor.getSnapshot().value).toBe('notFound');
      expect(tags(actor)).toEqual(['notFound']);
      actor.send({ type: 'user.retry' });
      expect(actor.getSnapshot().value).toBe('notFound');
      expect(calls).toHaveLength(1);
    }
  });

  it('any other failure is an error with its own message, and a retry reads it again', async () => {
    const { actor, calls } = start();
    calls[0]!.reject(failure(503, 'SERVICE_UNAVAILABLE', 'Tjänsten är inte tillgänglig just nu.'));
    await settle();
    expect(actor.getSnapshot().value).toBe('error');
    expect(actor.getSnapshot().context.error).toEqual(failure(503, 'SERVICE_UNAVAILABLE', 'Tjänsten är inte tillgänglig just nu.'));

    actor.send({ type: 'user.retry' });
    expect(actor.getSnapshot().value).toBe('loading');
    expect(actor.getSnapshot().context.error).toBeNull();
    expect(calls).toHaveLength(2);
    calls[1]!.resolve(view);
    await settle();
    expect(actor.getSnapshot().value).toBe('showing');
  });

  it('a network failure is an error too, and so is a 404 that is not about the greetie', async () => {
    for (const f of [failure(0, 'NETWORK', 'Ingen anslutning.'), failure(404, 'ROUTE_NOT_FOUND', 'Finns inte.')]) {
      const { actor, calls } = start();
      calls[0]!.reject(f);
      await settle();
      expect(actor.getSnapshot().value).toBe('error');
      expect(actor.getSnapshot().context.error).toEqual(f);
    }
  });

  it('stopping the page aborts the read', () => {
    const { actor, calls } = start();
    actor.stop();
    expect(calls[0]!.aborted()).toBe(true);
  });
});
