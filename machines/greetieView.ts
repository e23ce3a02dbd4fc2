import { assign, fromPromise, setup } from 'xstate';
import type { Content, GreetieMedia } from '../contract/greetie.ts';

/**
 * Opening a greetie: /greetie/view/{refId} (the link in the recipient's SMS, public) and
 * /greetie/view/{id}?byId=true (the sender or the recipient, signed in).
 *
 * `loading` reads it (the read itself marks it viewed on the server when the recipient opens it);
 * `showing` plays the photo or video with its content elements appearing over it; after the
 * `revealDelay` (none when the person asked for reduced motion) the gifts are revealed and it is
 * `viewed`. A greetie that does not exist, or that this person may not see, is `notFound` (asking
 * again gets the same answer); any other failure is `error`, with a retry.
 *
 * The work is the named actor `loadGreetie`, given by the page with `.provide()`: it reads the
 * greetie as the person may see it (a visitor gets the public view: no phone numbers, no codes)
 * and says who the person is to it (`role`).
 *
 * Tags say what the page shows: `loading`, `notFound`, `error`, `greetie` (the greetie is on the
 * page), `revealing`, `revealed` (the gifts and what one can do with them).
 */

/** Who is looking: a visitor (not signed in), its recipient or sender, or someone else signed in. */
export type ViewerRole = 'visitor' | 'recipient' | 'sender' | 'other';

/** One gift as the view shows it: the voucher once issued (its id only to the recipient), else what was chosen. */
export interface ViewGift {
  /** Stable React key. */
  key: string;
  /** The recipient's voucher (for Mina gåvor and Lös in); null for anyone else. */
  voucherId: string | null;
  merchantName: string;
  productName: string;
  /** öre */
  amount: number;
  isRedeemed: boolean;
  redeemedAt: string | null;
}

/** The greetie as this person may see it. */
export interface GreetieView {
  id: string;
  role: ViewerRole;
  senderName: string | null;
  recipientName: string | null;
  message: string;
  content: Content;
  media: GreetieMedia | null;
  gifts: ViewGift[];
  deliveredAt: string | null;
  viewedAt: string | null;
}

export interface GreetieViewInput {
  /** The refId from the link, or the greetie's id when `byId`. */
  key: string;
  byId: boolean;
  /** The person asked for less motion: the gifts are revealed at once. */
  reducedMotion: boolean;
}

export interface GreetieViewError {
  /** The server's code, or 'UNKNOWN'. */
  code: string;
  /** The error's own text (already in the request's language), when there is one. */
  message: string | null;
  /** The HTTP status when the error came from an answer, else null. */
  status: number | null;
}

export interface GreetieViewContext {
  key: string;
  byId: boolean;
  reducedMotion: boolean;
  view: GreetieView | null;
  error: GreetieViewError | null;
}

export type GreetieViewEvent = { type: 'user.retry' };

export type GreetieViewTag = 'loading' | 'notFound' | 'error' | 'greetie' | 'revealing' | 'revealed';

/** How long the media and its content play before the gifts are revealed. */
export const REVEAL_DELAY_MS = 1200;

/** Turns whatever the load rejected with into a GreetieViewError. */
export function toViewError(error: unknown): GreetieViewError {
  const e = (typeof error === 'object' && error !== null ? error : {}) as { code?: unknown; userMessage?: unknown; message?: unknown; status?: unknown };
  const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
  return {
    code: text(e.code) ?? 'UNKNOWN',
    message: text(e.userMessage) ?? text(e.message),
    status: typeof e.status === 'number' ? e.status : null,
  };
}

/** A link that leads nowhere: no such greetie (404), not this person's (404), or not an id or reference at all (400). */
const isNotFound = (error: unknown) => {
  const status = toViewError(error).status;
  return status === 404 || status === 400;
};

export const greetieViewMachine = setup({
  types: {
    context: {} as GreetieViewContext,
    events: {} as GreetieViewEvent,
    input: {} as GreetieViewInput,
    tags: {} as GreetieViewTag,
  },
  actors: {
    /** GET /greetie/byRef?refId= or GET /greetie/{id} (and the recipient's vouchers), as this person may see it. */
    loadGreetie: fromPromise<GreetieView, { key: string; byId: boolean }>(async () => {
      throw new Error('loadGreetie is not provided');
    }),
  },
  actions: {
    storeView: assign((_, p: { view: GreetieView }) => ({ view: p.view, error: null })),
    storeError: assign((_, p: { error: unknown }) => ({ error: toViewError(p.error) })),
    clearError: assign({ error: null }),
  },
  guards: {
    isNotFound: (_, p: { error: unknown }) => isNotFound(p.error),
  },
  delays: {
    /** The media plays alone for a moment; with reduced motion the gifts come at once. */
    revealDelay: ({ context }) => (context.reducedMotion ? 0 : REVEAL_DELAY_MS),
  },
}).createMachine({
  id: 'greetieView',
  description: 'En greetie som öppnas via sin länk (öppet) eller sitt id (av avsändaren eller mottagaren): hämtas, spelas upp med sitt innehåll, och gåvorna visas.',
  context: ({ input }) => ({ key: input.key, byId: input.byId, reducedMotion: input.reducedMotion, view: null, error: null }),
  initial: 'loading',
  states: {
    loading: {
      description: 'Greetien hämtas som den här personen får se den; när mottagaren läser den markeras den som sedd.',
      tags: ['loading'],
      entry: 'clearError',
      invoke: {
        id: 'loadGreetie',
        src: 'loadGreetie',
        input: ({ context }) => ({ key: context.key, byId: context.byId }),
        onDone: {
          target: 'showing',
          actions: { type: 'storeView', params: ({ event }) => ({ view: event.output }) },
          description: 'Den kom: fotot eller videon startar.',
        },
        onError: [
          {
            guard: { type: 'isNotFound', params: ({ event }) => ({ error: event.error }) },
            target: 'notFound',
            actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
            description: 'Ingen sådan greetie för den här personen (eller så är länken trasig).',
          },
          {
            target: 'error',
            actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
            description: 'Något annat gick fel; skälet visas.',
          },
        ],
      },
    },
    showing: {
      description: 'Fotot eller videon spelas med sitt innehåll ovanpå.',
      tags: ['greetie', 'revealing'],
      after: {
        revealDelay: { target: 'viewed', description: 'Ögonblicket har passerat (direkt med minskad rörelse): gåvorna visas.' },
      },
    },
    viewed: {
      description: 'Sedd: gåvorna visas med vad personen kan göra med dem (logga in, Mina gåvor, Lös in), eller, för avsändaren, när den sågs.',
      tags: ['greetie', 'revealed'],
    },
    notFound: {
      description: 'Det finns ingen greetie bakom länken för den här personen.',
      tags: ['notFound'],
    },
    error: {
      description: 'Den kunde inte hämtas; sidan erbjuder att försöka igen.',
      tags: ['error'],
      on: {
        'user.retry': { target: 'loading', description: 'Försök hämta den igen.' },
      },
    },
  },
});
