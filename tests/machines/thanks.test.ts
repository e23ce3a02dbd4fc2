import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { Failure } from '../../contract/errors.ts';
import { THANKS_MAX_LENGTH, type GreetieThanks } from '../../contract/greetie.ts';
import { THANKS_SCREENS, thanksMachine, type ThanksEmoji } from '../../machines/thanks.ts';
import { screenOf } from '../../src/components/flow.ts';

const GREETIE = '8d3c1f2e-6a4b-4c5d-9e8f-0a1b2c3d4e5f';
type Input = { greetieId: string; message: string; emoji: ThanksEmoji | null };

/** A thanks actor whose server call the test settles by hand. */
function start() {
  const calls: { input: Input; resolve: (v: GreetieThanks) => void; reject: (e: Failure) => void }[] = [];
  const machine = thanksMachine.provide({
    actors: {
      sendThanks: fromPromise<GreetieThanks, Input>(({ input }) => new Promise((resolve, reject) => calls.push({ input, resolve, reject }))),
    },
  });
  const actor = createActor(machine, { input: { greetieId: GREETIE } }).start();
  const screen = () => screenOf(actor.getSnapshot(), THANKS_SCREENS);
  const ctx = () => actor.getSnapshot().context;
  return { actor, calls, screen, ctx };
}

const failure = (status: number, code: Failure['code']): Failure => ({ status, code, message: 'Nej.', retryAt: null });

describe('thanks machine', () => {
  it('every state carries exactly one screen tag', () => {
    for (const [id, node] of Object.entries(thanksMachine.states)) {
      expect([...node.tags].filter((t) => (THANKS_SCREENS as readonly string[]).includes(t)), id).toHaveLength(1);
    }
  });

  it('starts composing with an empty draft', () => {
    const { screen, ctx } = start();
    expect(screen()).toBe('composing');
    expect(ctx()).toMatchObject({ greetieId: GREETIE, message: '', emoji: null, thanks: null, error: null });
  });

  it('a text of only spaces is never sent: THANKS_MESSAGE_EMPTY, still composing; writing clears it', () => {
    const { actor, calls, screen, ctx } = start();
    actor.send({ type: 'user.send' });
    actor.send({ type: 'user.write', message: '   ' });
    actor.send({ type: 'user.send' });
    expect(screen()).toBe('composing');
    expect(ctx().error?.code).toBe('THANKS_MESSAGE_EMPTY');
    expect(calls).toHaveLength(0);
    actor.send({ type: 'user.write', message: 'Tack!' });
    expect(ctx().error).toBeNull();
  });

  it('the text is kept to the limit; an emoji outside the set is none', () => {
    const { actor, ctx } = start();
    actor.send({ type: 'user.write', message: 'x'.repeat(THANKS_MAX_LENGTH + 20) });
    expect(ctx().message).toHaveLength(THANKS_MAX_LENGTH);
    actor.send({ type: 'user.pickEmoji', emoji: '💩' as ThanksEmoji });
    expect(ctx().emoji).toBeNull();
    actor.send({ type: 'user.pickEmoji', emoji: '🎉' });
    expect(ctx().emoji).toBe('🎉');
  });

  it('sends once (trimmed, with the emoji) and keeps what the server saved; nothing more can be sent', async () => {
    const { actor, calls, screen, ctx } = start();
    actor.send({ type: 'user.write', message: '  Vad glad jag blev!  ' });
    actor.send({ type: 'user.pickEmoji', emoji: '🎉' });
    actor.send({ type: 'user.send' });
    // A second press while sending is not another thank-you.
    actor.send({ type: 'user.send' });
    expect(screen()).toBe('busy');
    expect(calls).toHaveLength(1);
    expect(calls[0]!.input).toEqual({ greetieId: GREETIE, message: 'Vad glad jag blev!', emoji: '🎉' });
    const saved = { message: 'Vad glad jag blev!', emoji: '🎉', createdAt: '2026-11-27T10:00:00.000Z' };
    calls[0]!.resolve(saved);
    await waitFor(actor, (s) => s.hasTag('sent'));
    expect(ctx().thanks).toEqual(saved);
    // Final: the actor is done, nothing more can be sent.
    expect(actor.getSnapshot().status).toBe('done');
    expect(calls).toHaveLength(1);
  });

  it('a failed send keeps the draft and can be sent again as it was', async () => {
    const { actor, calls, screen, ctx } = start();
    actor.send({ type: 'user.write', message: 'Tack!' });
    actor.send({ type: 'user.pickEmoji', emoji: '🤗' });
    actor.send({ type: 'user.send' });
    const down = failure(503, 'SERVICE_UNAVAILABLE');
    calls[0]!.reject(down);
    await waitFor(actor, (s) => s.hasTag('failed'));
    expect(ctx()).toMatchObject({ message: 'Tack!', emoji: '🤗', error: down });
    actor.send({ type: 'user.send' });
    expect(screen()).toBe('busy');
    expect(ctx().error).toBeNull();
    expect(calls[1]!.input).toEqual({ greetieId: GREETIE, message: 'Tack!', emoji: '🤗' });
  });

  it('after a failure, changing the text or the emoji goes back to composing with it', async () => {
    const { actor, calls, screen, ctx } = start();
    actor.send({ type: 'user.write', message: 'Tack!' });
    actor.send({ type: 'user.send' });
    calls[0]!.reject(failure(400, 'THANKS_EMOJI_INVALID'));
    await waitFor(actor, (s) => s.hasTag('failed'));
    actor.send({ type: 'user.pickEmoji', emoji: '❤️' });
    expect(screen()).toBe('composing');
    expect(ctx()).toMatchObject({ message: 'Tack!', emoji: '❤️', error: null });
  });

  it.each(['THANKS_ALREADY_SENT', 'GREETIE_NOT_FOUND'] as const)('%s is refused for good: nothing more is sent', async (code) => {
    const { actor, calls, screen, ctx } = start();
    actor.send({ type: 'user.write', message: 'Tack!' });
    actor.send({ type: 'user.send' });
    calls[0]!.reject(failure(code === 'GREETIE_NOT_FOUND' ? 404 : 409, code));
    await waitFor(actor, (s) => s.hasTag('refused'));
    expect(ctx().error?.code).toBe(code);
    // Final: the actor is done, nothing more can be sent.
    expect(actor.getSnapshot().status).toBe('done');
    expect(screen()).toBe('refused');
    expect(calls).toHaveLength(1);
  });
});
