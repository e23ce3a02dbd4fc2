import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { Failure } from '../../contract/errors.ts';
import { CODE_ROTATION_SCREENS, codeRotationMachine } from '../../machines/codeRotation.ts';
import { screenOf } from '../../src/components/flow.ts';

const MERCHANT = '4d0e1a2b-0000-4000-8000-000000000001';
const ownerOnly: Failure = { status: 403, code: 'OWNER_ONLY', message: 'Bara ägaren kan göra det här.', retryAt: null };

/** A rotation actor whose server call the test settles by hand. */
function start() {
  const calls: { input: { merchantId: string }; resolve: (v: { merchantCode: string }) => void; reject: (e: Failure) => void }[] = [];
  const machine = codeRotationMachine.provide({
    actors: {
      rotateCode: fromPromise<{ merchantCode: string }, { merchantId: string }>(({ input }) => new Promise((resolve, reject) => calls.push({ input, resolve, reject }))),
    },
  });
  const actor = createActor(machine, { input: { merchantId: MERCHANT } }).start();
  const screen = () => screenOf(actor.getSnapshot(), CODE_ROTATION_SCREENS);
  return { actor, calls, screen };
}

describe('codeRotation machine', () => {
  it('starts ready, holding no code', () => {
    const { actor, screen } = start();
    expect(screen()).toBe('ready');
    expect(actor.getSnapshot().context).toEqual({ merchantId: MERCHANT, merchantCode: null, error: null });
  });

  it('every state carries exactly one screen tag', () => {
    for (const [id, node] of Object.entries(codeRotationMachine.states)) {
      expect([...node.tags].filter((t) => (CODE_ROTATION_SCREENS as readonly string[]).includes(t)), id).toHaveLength(1);
    }
  });

  it('idle → confirming; cancel goes back and sends nothing', () => {
    const { actor, calls, screen } = start();
    actor.send({ type: 'user.start' });
    expect(screen()).toBe('confirming');
    actor.send({ type: 'user.cancel' });
    expect(screen()).toBe('ready');
    expect(calls).toHaveLength(0);
  });

  it('confirming → rotating → shown → idle: one call, the code shown, then forgotten', async () => {
    const { actor, calls, screen } = start();
    actor.send({ type: 'user.start' });
    actor.send({ type: 'user.confirm' });
    // A second tap while rotating sends nothing more.
    actor.send({ type: 'user.confirm' });
    expect(screen()).toBe('busy');
    expect(calls).toHaveLength(1);
    expect(calls[0]!.input).toEqual({ merchantId: MERCHANT });
    calls[0]!.resolve({ merchantCode: 'K7PQ42XM' });
    await waitFor(actor, (s) => s.hasTag('shown'));
    expect(actor.getSnapshot().context.merchantCode).toBe('K7PQ42XM');
    // Closing is not how a shown code goes away: only 'Jag har sparat koden'.
    actor.send({ type: 'user.close' });
    actor.send({ type: 'user.cancel' });
    expect(screen()).toBe('shown');
    actor.send({ type: 'user.saved' });
    expect(screen()).toBe('ready');
    expect(actor.getSnapshot().context.merchantCode).toBeNull();
  });

  it('rotating → failed keeps the Failure; close → idle forgets it; a new try works', async () => {
    const { actor, calls, screen } = start();
    actor.send({ type: 'user.start' });
    actor.send({ type: 'user.confirm' });
    calls[0]!.reject(ownerOnly);
    await waitFor(actor, (s) => s.hasTag('failed'));
    expect(actor.getSnapshot().context.error).toEqual(ownerOnly);
    expect(actor.getSnapshot().context.merchantCode).toBeNull();
    actor.send({ type: 'user.saved' });
    expect(screen()).toBe('failed');
    actor.send({ type: 'user.close' });
    expect(screen()).toBe('ready');
    expect(actor.getSnapshot().context.error).toBeNull();
    actor.send({ type: 'user.start' });
    actor.send({ type: 'user.confirm' });
    expect(calls).toHaveLength(2);
  });

  it('ignores what does not belong to a state', () => {
    const { actor, calls, screen } = start();
    actor.send({ type: 'user.confirm' });
    actor.send({ type: 'user.saved' });
    actor.send({ type: 'user.close' });
    actor.send({ type: 'user.cancel' });
    expect(screen()).toBe('ready');
    expect(calls).toHaveLength(0);
  });
});
