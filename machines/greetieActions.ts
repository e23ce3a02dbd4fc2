import { assign, fromPromise, setup } from 'xstate';
import type { Failure } from '../contract/errors.ts';
import type { Greetie } from '../contract/greetie.ts';
import { looksLikeSwedishMobile } from './auth.ts';

/**
 * The sender's actions on a greetie not yet opened (/greetie/details/{id}): correct the
 * recipient's number ('Rätta numret'), send the link again ('Skicka länken igen', delivered only)
 * or cancel it and get the money back ('Avbryt och få pengarna tillbaka').
 *
 * idle → confirming → working → done | failed → idle. Every action is confirmed first, in words
 * that say exactly what happens; a correction's new number is checked on the phone (the rule the
 * compose recipient step uses) before anything is sent, and one that cannot be a Swedish mobile
 * number stays in confirming with INVALID_MOBILE_NUMBER. The server's refusals are kept as one
 * Failure (contract/errors.ts) and worded by code: GREETIE_ALREADY_OPENED, RECIPIENT_CHANGE_LIMIT,
 * RESEND_LIMIT (with when to try again), SEND_LIMIT_PER_RECIPIENT / SEND_LIMIT_PER_DAY,
 * INVALID_MOBILE_NUMBER and the rest.
 *
 * Side effects are named: the actor `performAction` (POST /greetie/{id}/cancel, /resend or
 * /recipient, rejecting with a Failure), provided by the page (src/pages/greetie/actions.ts).
 *
 * Tags say what the page shows: `ready`, `confirming`, `busy`, `done`, `failed`.
 */

export type GreetieActionKind = 'cancel' | 'resend' | 'correct';

export type GreetieAction =
  | { kind: 'cancel' }
  | { kind: 'resend' }
  | { kind: 'correct'; mobileNumber: string; name: string | null };

export interface GreetieActionsInput {
  greetie: Greetie;
}

export interface GreetieActionsContext {
  /** The greetie as last answered (updated by a done action). */
  greetie: Greetie;
  /** The action being confirmed or performed, or null. */
  action: GreetieActionKind | null;
  /** The action as sent (a correction with its number). */
  request: GreetieAction | null;
  /** Why the last action was refused (the phone's check, or the server's answer). */
  error: Failure | null;
}

export type GreetieActionsEvent =
  | { type: 'user.start'; action: GreetieActionKind }
  | { type: 'user.confirm'; mobileNumber?: string; name?: string }
  | { type: 'user.close' };

/** What the page shows; every state has exactly one of these tags. */
export const GREETIE_ACTIONS_SCREENS = ['ready', 'confirming', 'busy', 'done', 'failed'] as const;
export type GreetieActionsTag = (typeof GREETIE_ACTIONS_SCREENS)[number];

/** The phone's own refusal of a new number (the server's code for it). */
const invalidNumber: Failure = { status: 0, code: 'INVALID_MOBILE_NUMBER', message: '', retryAt: null };

function requestOf(action: GreetieActionKind, event: { mobileNumber?: string; name?: string }): GreetieAction {
  if (action !== 'correct') return { kind: action };
  return { kind: 'correct', mobileNumber: (event.mobileNumber ?? '').trim(), name: event.name?.trim() ? event.name.trim() : null };
}

export const greetieActionsMachine = setup({
  types: {
    context: {} as GreetieActionsContext,
    events: {} as GreetieActionsEvent,
    input: {} as GreetieActionsInput,
    tags: {} as GreetieActionsTag,
  },
  actors: {
    /** POST /greetie/{id}/cancel, /resend or /recipient → the updated greetie; rejects with a Failure. */
    performAction: fromPromise<Greetie, { greetieId: string; request: GreetieAction }>(async () => {
      throw new Error('performAction is not provided');
    }),
  },
  actions: {
    startAction: assign(({ event }) => (event.type === 'user.start' ? { action: event.action, request: null, error: null } : {})),
    assignRequest: assign(({ context, event }) =>
      event.type === 'user.confirm' && context.action ? { request: requestOf(context.action, event), error: null } : {},
    ),
    assignInvalidNumber: assign({ error: invalidNumber }),
    assignFailure: assign((_, p: { error: Failure }) => ({ error: p.error })),
    storeGreetie: assign((_, p: { greetie: Greetie }) => ({ greetie: p.greetie, error: null })),
    clearAction: assign({ action: null, request: null, error: null }),
  },
  guards: {
    /** A correction whose new number cannot be a Swedish mobile number: nothing is sent. */
    numberLooksWrong: ({ context, event }) =>
      context.action === 'correct' && event.type === 'user.confirm' && !looksLikeSwedishMobile(event.mobileNumber ?? ''),
  },
}).createMachine({
  id: 'greetieActions',
  description: 'Avsändaren rättar numret, skickar länken igen eller avbryter greetien, så länge den inte är öppnad.',
  context: ({ input }) => ({ greetie: input.greetie, action: null, request: null, error: null }),
  initial: 'idle',
  states: {
    idle: {
      description: "Greetien visas med avsändarens knappar: 'Rätta numret', 'Skicka länken igen', 'Avbryt och få pengarna tillbaka'.",
      tags: ['ready'],
      on: {
        'user.start': { target: 'confirming', actions: 'startAction', description: 'Avsändaren väljer en åtgärd: en bekräftelse säger exakt vad som händer.' },
      },
    },
    confirming: {
      description: 'Bekräftelsen visas (för en rättning med fältet för det nya numret).',
      tags: ['confirming'],
      on: {
        'user.confirm': [
          {
            guard: 'numberLooksWrong',
            actions: 'assignInvalidNumber',
            description: 'Det nya numret kan inte vara ett svenskt mobilnummer: sägs under fältet, inget skickas.',
          },
          { target: 'working', actions: 'assignRequest', description: 'Avsändaren bekräftar: åtgärden skickas.' },
        ],
        'user.close': { target: 'idle', actions: 'clearAction', description: 'Avsändaren ångrar sig: inget händer.' },
      },
    },
    working: {
      description: 'Servern avbryter, skickar länken igen eller rättar numret, en gång.',
      tags: ['busy'],
      invoke: {
        id: 'performAction',
        src: 'performAction',
        input: ({ context }) => ({ greetieId: context.greetie.id, request: context.request! }),
        onDone: {
          target: 'done',
          actions: { type: 'storeGreetie', params: ({ event }) => ({ greetie: event.output }) },
          description: 'Klart: sidan visar greetien som servern svarade.',
        },
        onError: {
          target: 'failed',
          actions: { type: 'assignFailure', params: ({ event }) => ({ error: event.error as Failure }) },
          description: 'Nej (redan öppnad, för många rättningar eller utskick, fel nummer) eller misslyckat: skälet visas.',
        },
      },
    },
    done: {
      description: 'Klart: bekräftelsen säger vad som hände.',
      tags: ['done'],
      on: {
        'user.close': { target: 'idle', actions: 'clearAction', description: 'Avsändaren stänger: greetien visas som den är nu.' },
      },
    },
    failed: {
      description: 'Det gick inte: skälet visas i bekräftelsen.',
      tags: ['failed'],
      on: {
        'user.close': { target: 'idle', actions: 'clearAction', description: 'Avsändaren stänger.' },
      },
    },
  },
});
