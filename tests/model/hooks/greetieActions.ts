import type { Failure } from '../../../contract/errors.ts';
import type { Greetie } from '../../../contract/greetie.ts';
import { defineHooks } from '../harness/types.ts';
import { gift, greetie } from './compose.ts';

/** A delivered, paid greetie its recipient has not opened: every action is open to the sender. */
export const delivered: Greetie = greetie({
  status: 'delivered',
  sender: { id: 'u1', name: 'Anna' },
  recipient: { name: 'Mormor', mobileNumber: '+46701234567' },
  gifts: [gift],
  total: 34900,
  deliveredAt: '2026-11-20T08:00:00.000Z',
});

export const opened: Failure = {
  status: 409,
  code: 'GREETIE_ALREADY_OPENED',
  message: 'Mottagaren har redan öppnat greetien.',
  retryAt: null,
};

export default defineHooks({
  input: { greetie: delivered },
  events: {
    'user.start': [{ action: 'cancel' }, { action: 'resend' }, { action: 'correct' }],
    // Without a number (a correction is refused on the phone), and with one that can be a number.
    'user.confirm': [{}, { mobileNumber: '070-765 43 21' }],
    // The answer leaves the greetie as it was (a resend), so every action stays open after it.
    'xstate.done.actor.performAction': [{ output: delivered }],
    'xstate.error.actor.performAction': [{ error: opened }],
  },
});
