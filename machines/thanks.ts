import { assign, fromPromise, setup } from 'xstate';
import type { Failure } from '../contract/errors.ts';
import { THANKS_MAX_LENGTH, type GreetieThanks } from '../contract/greetie.ts';

/**
 * The recipient thanks the sender (/greetie/view/…, once the greetie is opened and its gifts are
 * shown): a short text and, if they like, one emoji from a small set. Once per greetie.
 *
 * composing → sending → sent | failed | refused. The draft (text and emoji) lives here, so nothing
 * is lost when a send fails: the form comes back with it. A text that is only spaces is never sent
 * (THANKS_MESSAGE_EMPTY, the server's code for it, stays in composing). The server's refusals are
 * kept as one Failure (contract/errors.ts) and split by code: THANKS_ALREADY_SENT (thanked already,
 * on another phone perhaps) and GREETIE_NOT_FOUND (the sender corrected the number meanwhile: not
 * this person's any more) cannot change by trying again, so they are `refused`; anything else is
 * `failed`, with the draft kept and a way to send it again.
 *
 * Side effects are named: the actor `sendThanks` (POST /greetie/{id}/thanks → the thanks as
 * saved, rejecting with a Failure), provided by the page (src/pages/greetie/view/thanks.ts).
 *
 * Tags say what the page shows: `composing`, `busy`, `sent`, `failed`, `refused`.
 */

/** The emoji one may add to a thank-you (none is a choice too). */
export const THANKS_EMOJIS = ['🎉', '❤️', '😊', '🙏', '🥰', '🤗'] as const;
export type ThanksEmoji = (typeof THANKS_EMOJIS)[number];

export interface ThanksInput {
  greetieId: string;
}

export interface ThanksContext {
  greetieId: string;
  /** The text as typed (at most THANKS_MAX_LENGTH characters). */
  message: string;
  /** The emoji picked, or null. */
  emoji: ThanksEmoji | null;
  /** The thank-you as the server saved it, once sent. */
  thanks: GreetieThanks | null;
  /** Why the last send was refused (the phone's check, or the server's answer). */
  error: Failure | null;
}

export type ThanksEvent =
  | { type: 'user.write'; message: string }
  | { type: 'user.pickEmoji'; emoji: ThanksEmoji | null }
  | { type: 'user.send' };

/** What the page shows; every state has exactly one of these tags. */
export const THANKS_SCREENS = ['composing', 'busy', 'sent', 'failed', 'refused'] as const;
export type ThanksTag = (typeof THANKS_SCREENS)[number];

/** The phone's own refusal of a text with nothing in it (the server's code for it). */
const emptyMessage: Failure = { status: 0, code: 'THANKS_MESSAGE_EMPTY', message: '', retryAt: null };

/** Refusals that trying again cannot change. */
const FINAL: readonly Failure['code'][] = ['THANKS_ALREADY_SENT', 'GREETIE_NOT_FOUND'];

const isEmojiChoice = (value: unknown): value is ThanksEmoji => (THANKS_EMOJIS as readonly unknown[]).includes(value);

export const thanksMachine = setup({
  types: {
    context: {} as ThanksContext,
    events: {} as ThanksEvent,
    input: {} as ThanksInput,
    tags: {} as ThanksTag,
  },
  actors: {
    /** POST /greetie/{id}/thanks → the thanks as saved; rejects with a Failure. */
    sendThanks: fromPromise<GreetieThanks, { greetieId: string; message: string; emoji: ThanksEmoji | null }>(async () => {
      throw new Error('sendThanks is not provided');
    }),
  },
  actions: {
    assignMessage: assign(({ event }) => (event.type === 'user.write' ? { message: event.message.slice(0, THANKS_MAX_LENGTH), error: null } : {})),
    assignEmoji: assign(({ event }) => (event.type === 'user.pickEmoji' ? { emoji: isEmojiChoice(event.emoji) ? event.emoji : null, error: null } : {})),
    assignEmptyMessage: assign({ error: emptyMessage }),
    clearError: assign({ error: null }),
    assignFailure: assign((_, p: { error: Failure }) => ({ error: p.error })),
    storeThanks: assign((_, p: { thanks: GreetieThanks }) => ({ thanks: p.thanks, error: null })),
  },
  guards: {
    /** Nothing but spaces: nothing is sent. */
    messageBlank: ({ context }) => context.message.trim().length === 0,
    /** A refusal that trying again cannot change. */
    isFinal: (_, p: { error: Failure }) => FINAL.includes(p.error.code),
  },
}).createMachine({
  id: 'thanks',
  description: 'Mottagaren tackar avsändaren för en öppnad greetie med en kort text och kanske en emoji, en gång.',
  context: ({ input }) => ({ greetieId: input.greetieId, message: '', emoji: null, thanks: null, error: null }),
  initial: 'composing',
  states: {
    composing: {
      description: "Formuläret 'Tacka': en emoji att välja (eller ingen), texten och hur många tecken som är kvar.",
      tags: ['composing'],
      on: {
        'user.write': { actions: 'assignMessage', description: 'Mottagaren skriver: räknaren följer med.' },
        'user.pickEmoji': { actions: 'assignEmoji', description: 'Mottagaren väljer en emoji, eller ingen.' },
        'user.send': [
          { guard: 'messageBlank', actions: 'assignEmptyMessage', description: 'Ingen text: det sägs under fältet, inget skickas.' },
          { target: 'sending', actions: 'clearError', description: "Mottagaren trycker 'Skicka tack'." },
        ],
      },
    },
    sending: {
      description: 'Tacket skickas till avsändaren, en gång.',
      tags: ['busy'],
      invoke: {
        id: 'sendThanks',
        src: 'sendThanks',
        input: ({ context }) => ({ greetieId: context.greetieId, message: context.message.trim(), emoji: context.emoji }),
        onDone: {
          target: 'sent',
          actions: { type: 'storeThanks', params: ({ event }) => ({ thanks: event.output }) },
          description: 'Skickat: sidan visar tacket som det sparades.',
        },
        onError: [
          {
            guard: { type: 'isFinal', params: ({ event }) => ({ error: event.error as Failure }) },
            target: 'refused',
            actions: { type: 'assignFailure', params: ({ event }) => ({ error: event.error as Failure }) },
            description: 'Redan tackat, eller greetien är inte längre din (numret rättades): skälet visas.',
          },
          {
            target: 'failed',
            actions: { type: 'assignFailure', params: ({ event }) => ({ error: event.error as Failure }) },
            description: 'Det gick inte att skicka: skälet visas, texten finns kvar.',
          },
        ],
      },
    },
    sent: {
      description: 'Tacket är skickat: sidan visar vad som skickades och när.',
      tags: ['sent'],
      type: 'final',
    },
    failed: {
      description: 'Det gick inte: skälet visas över formuläret, med texten och emojin kvar.',
      tags: ['failed'],
      on: {
        'user.send': { target: 'sending', actions: 'clearError', description: "Mottagaren försöker igen: samma tack skickas ('Skicka tack')." },
        'user.write': { target: 'composing', actions: 'assignMessage', description: 'Mottagaren ändrar texten.' },
        'user.pickEmoji': { target: 'composing', actions: 'assignEmoji', description: 'Mottagaren väljer en annan emoji.' },
      },
    },
    refused: {
      description: 'Tacket kan inte skickas (redan tackat, eller greetien är inte längre din): skälet visas.',
      tags: ['refused'],
      type: 'final',
    },
  },
});
