import type { Failure } from '../../../contract/errors.ts';
import type { GreetieThanks } from '../../../contract/greetie.ts';
import { defineHooks } from '../harness/types.ts';

export const GREETIE_ID = '8d3c1f2e-6a4b-4c5d-9e8f-0a1b2c3d4e5f';

/** The thank-you as the server saved it. */
export const saved: GreetieThanks = { message: 'Vad glad jag blev!', emoji: null, createdAt: '2026-11-27T10:00:00.000Z' };

export const alreadySent: Failure = { status: 409, code: 'THANKS_ALREADY_SENT', message: 'Du har redan tackat för den här greetien.', retryAt: null };
export const unavailable: Failure = { status: 503, code: 'SERVICE_UNAVAILABLE', message: 'Tjänsten är inte tillgänglig just nu.', retryAt: null };

export default defineHooks({
  input: { greetieId: GREETIE_ID },
  events: {
    // Nothing written (refused on the phone), and the text the saved thank-you has.
    'user.write': [{ message: '' }, { message: 'Vad glad jag blev!' }],
    'user.pickEmoji': [{ emoji: '🎉' }],
    'xstate.done.actor.sendThanks': [{ output: saved }],
    'xstate.error.actor.sendThanks': [{ error: alreadySent }, { error: unavailable }],
  },
});
