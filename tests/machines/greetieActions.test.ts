import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { Failure } from '../../contract/errors.ts';
import type { Greetie } from '../../contract/greetie.ts';
import { GREETIE_ACTIONS_SCREENS, greetieActionsMachine, type GreetieAction } from '../../machines/greetieActions.ts';
import { screenOf } from '../../src/components/flow.ts';
import { gift, greetie } from '../model/hooks/compose.ts';

const delivered = greetie({
  status: 'delivered',
  recipient: { name: 'Mormor', mobileNumber: '+46701234567' },
  gifts: [gift],
  total: 34900,
  deliveredAt: '2026-11-20T08:00:00.000Z',
});

/** An actions actor whose server calls the test settles by hand. */
function start(g: Greetie = delivered) {
  const calls: { input: { greetieId: string; request: GreetieAction }; resolve: (v: Greetie) => void; reject: (e: Failure) => void }[] = [];
  const machine = greetieActionsMachine.provide({
    actors: {
      performAction: fromPromise<Greetie, { greetieId: string; request: GreetieAction }>(
        ({ input }) => new Promise((resolve, reject) => calls.push({ input, resolve, reject })),
      ),
    },
  });
  const actor = createActor(machine, { input: { greetie: g } }).start();
  const screen = () => screenOf(actor.getSnapshot(), GREETIE_ACTIONS_SCREENS);
  return { actor, calls, screen };
}

describe('greetieActions machine', () => {
  it('starts idle with the greetie it was given', () => {
    const { actor, screen } = start();
    expect(screen()).toBe('ready');
    expect(actor.getSnapshot().context.greetie).toBe(delivered);
  });

  it('every state carries exactly one screen tag', () => {
    for (const [id, node] of Object.entries(greetieActionsMachine.states)) {
      expect([...node.tags].filter((t) => (GREETIE_ACTIONS_SCREENS as readonly string[]).includes(t)), id).toHaveLength(1);
    }
  });

  it('an action is confirmed before anything is sent; closing sends nothing', () => {
    const { actor, calls, screen } = start();
    actor.send({ type: 'user.start', action: 'cancel' });
    expect(screen()).toBe('confirming');
    expect(actor.getSnapshot().context.action).toBe('cancel');
    expect(calls).toHaveLength(0);
    actor.send({ type: 'user.close' });
    expect(screen()).toBe('ready');
    expect(actor.getSnapshot().context.action).toBeNull();
    expect(calls).toHaveLength(0);
  });

  it('cancel: confirmed once, sent once, the answered greetie is kept', async () => {
    const { actor, calls, screen } = start();
    actor.send({ type: 'user.start', action: 'cancel' });
    actor.send({ type: 'user.confirm' });
    // A second tap while working is not another request.
    actor.send({ type: 'user.confirm' });
    expect(screen()).toBe('busy');
    expect(calls).toHaveLength(1);
    expect(calls[0]!.input).toEqual({ greetieId: delivered.id, request: { kind: 'cancel' } });
    const cancelled = { ...delivered, status: 'cancelled' as const, cancelledAt: '2026-11-21T08:00:00.000Z' };
    calls[0]!.resolve(cancelled);
    await waitFor(actor, (s) => s.hasTag('done'));
    expect(actor.getSnapshot().context.greetie).toEqual(cancelled);
    actor.send({ type: 'user.close' });
    expect(screen()).toBe('ready');
    expect(actor.getSnapshot().context.greetie.status).toBe('cancelled');
  });

  it('resend sends the resend request', () => {
    const { actor, calls } = start();
    actor.send({ type: 'user.start', action: 'resend' });
    actor.send({ type: 'user.confirm' });
    expect(calls[0]!.input.request).toEqual({ kind: 'resend' });
  });

  it('a correction to a number that cannot be a Swedish mobile number is refused on the phone', () => {
    const { actor, calls, screen } = start();
    actor.send({ type: 'user.start', action: 'correct' });
    actor.send({ type: 'user.confirm', mobileNumber: '12345' });
    expect(screen()).toBe('confirming');
    expect(actor.getSnapshot().context.error).toEqual({ status: 0, code: 'INVALID_MOBILE_NUMBER', message: '', retryAt: null });
    expect(calls).toHaveLength(0);
  });

  it('a correction sends the new number (trimmed) and name (blank: none)', () => {
    const { actor, calls } = start();
    actor.send({ type: 'user.start', action: 'correct' });
    actor.send({ type: 'user.confirm', mobileNumber: ' 070-765 43 21 ', name: '  ' });
    expect(calls[0]!.input.request).toEqual({ kind: 'correct', mobileNumber: '070-765 43 21', name: null });
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it.each(['GREETIE_ALREADY_OPENED', 'RECIPIENT_CHANGE_LIMIT', 'RESEND_LIMIT', 'SEND_LIMIT_PER_DAY'] as const)(
    'a refusal (%s) is kept as the Failure and shown; closing goes back to idle',
    async (code) => {
      const { actor, calls, screen } = start();
      actor.send({ type: 'user.start', action: 'resend' });
      actor.send({ type: 'user.confirm' });
      const failure: Failure = { status: 409, code, message: 'Nej.', retryAt: code === 'RESEND_LIMIT' ? '2026-11-22T08:00:00.000Z' : null };
      calls[0]!.reject(failure);
      await waitFor(actor, (s) => s.hasTag('failed'));
      expect(actor.getSnapshot().context.error).toEqual(failure);
      expect(actor.getSnapshot().context.greetie).toBe(delivered);
      actor.send({ type: 'user.close' });
      expect(screen()).toBe('ready');
      expect(actor.getSnapshot().context.error).toBeNull();
    },
  );
});
