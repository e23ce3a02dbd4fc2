import { assign, fromPromise, setup } from 'xstate';
import type { Failure } from '../contract/errors.ts';

/**
 * "Byt handlarkod" on the merchant portal (/portal/{merchantId}, the owner only): a new till code
 * for the merchant (POST /portal/merchants/{id}/code).
 *
 * idle → confirming → rotating → shown → idle; rotating → failed → idle.
 * - confirming: a dialog says that the old code stops working at once, at every till; nothing is
 *   sent until the owner confirms.
 * - rotating: the server makes the new code, once (a second tap sends nothing more).
 * - shown: the new code, this once, large, with 'Kopiera'; 'Jag har sparat koden' closes it and
 *   forgets it. The code is in this machine's context only while it is shown: never logged,
 *   never stored, and the /flows channel carries state names only (src/inspect.ts).
 * - failed: the reason (the one Failure: OWNER_ONLY, NOT_FOUND, the network…), with 'Stäng'.
 *
 * Side effects are the named actor `rotateCode` (POST …/code → `{ merchantCode }`, rejecting with
 * a Failure), provided by the page (src/pages/portal/portal.ts).
 *
 * Tags say what the page shows: `ready`, `confirming`, `busy`, `shown`, `failed`.
 */

export interface CodeRotationInput {
  merchantId: string;
}

export interface CodeRotationContext {
  merchantId: string;
  /** The new code while it is shown; null at every other time. */
  merchantCode: string | null;
  /** Why the last rotation failed. */
  error: Failure | null;
}

export type CodeRotationEvent = { type: 'user.start' } | { type: 'user.confirm' } | { type: 'user.cancel' } | { type: 'user.saved' } | { type: 'user.close' };

/** What the page shows; every state has exactly one of these tags. */
export const CODE_ROTATION_SCREENS = ['ready', 'confirming', 'busy', 'shown', 'failed'] as const;
export type CodeRotationTag = (typeof CODE_ROTATION_SCREENS)[number];

export const codeRotationMachine = setup({
  types: {
    context: {} as CodeRotationContext,
    events: {} as CodeRotationEvent,
    input: {} as CodeRotationInput,
    tags: {} as CodeRotationTag,
  },
  actors: {
    /** POST /portal/merchants/{id}/code → the new code; rejects with a Failure. */
    rotateCode: fromPromise<{ merchantCode: string }, { merchantId: string }>(async () => {
      throw new Error('rotateCode is not provided');
    }),
  },
  actions: {
    storeCode: assign((_, p: { merchantCode: string }) => ({ merchantCode: p.merchantCode, error: null })),
    assignFailure: assign((_, p: { error: Failure }) => ({ error: p.error })),
    forget: assign({ merchantCode: null, error: null }),
  },
}).createMachine({
  id: 'codeRotation',
  description: 'Ägaren byter handlarkoden: den gamla slutar gälla direkt i alla kassor, den nya visas en gång.',
  context: ({ input }) => ({ merchantId: input.merchantId, merchantCode: null, error: null }),
  initial: 'idle',
  states: {
    idle: {
      description: "Knappen 'Byt handlarkod' visas.",
      tags: ['ready'],
      on: {
        'user.start': { target: 'confirming', description: "Ägaren trycker 'Byt handlarkod': en bekräftelse säger vad som händer." },
      },
    },
    confirming: {
      description: 'Bekräftelsen säger att den gamla koden slutar gälla direkt i alla kassor.',
      tags: ['confirming'],
      on: {
        'user.confirm': { target: 'rotating', description: 'Ägaren bekräftar: en ny kod skapas.' },
        'user.cancel': { target: 'idle', description: 'Ägaren ångrar sig: koden är som förut.' },
      },
    },
    rotating: {
      description: 'Servern skapar den nya koden, en gång.',
      tags: ['busy'],
      invoke: {
        id: 'rotateCode',
        src: 'rotateCode',
        input: ({ context }) => ({ merchantId: context.merchantId }),
        onDone: {
          target: 'shown',
          actions: { type: 'storeCode', params: ({ event }) => ({ merchantCode: event.output.merchantCode }) },
          description: 'Den nya koden kom: den visas, en gång.',
        },
        onError: {
          target: 'failed',
          actions: { type: 'assignFailure', params: ({ event }) => ({ error: event.error as Failure }) },
          description: 'Det gick inte (bara ägaren får byta, nätet…): skälet visas och den gamla koden gäller.',
        },
      },
    },
    shown: {
      description: "Den nya koden visas stort, en gång, med 'Kopiera'.",
      tags: ['shown'],
      on: {
        'user.saved': { target: 'idle', actions: 'forget', description: "Ägaren trycker 'Jag har sparat koden': koden glöms och visas aldrig igen." },
      },
    },
    failed: {
      description: 'Koden byttes inte: skälet visas.',
      tags: ['failed'],
      on: {
        'user.close': { target: 'idle', actions: 'forget', description: 'Ägaren stänger.' },
      },
    },
  },
});
