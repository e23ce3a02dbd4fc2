import { assign, fromPromise, setup } from 'xstate';
import type { Content, GreetieMedia, GreetieThanks } from '../contract/greetie.ts';
import type { Failure } from '../contract/errors.ts';

/**
 * Opening a greetie: /greetie/view/{refId} (the link in the recipient's SMS, public) and
 * /greetie/view/{id}?byId=true (the sender or the recipient, signed in).
 *
 * `loading` reads it (the read itself marks it viewed on the server when the recipient opens it);
 * `showing` plays the photo or video with its content elements appearing over it; after the
 * `revealDelay` (none when the person asked for reduced motion) the gifts are revealed and it is
 * `viewed`. A greetie that does not exist, or that this person may not see, is `notFound` (asking
 * again gets the same answer); any other failure is `error`, with a retry. The load rejects with
 * a Failure (contract/errors.ts); the machine reads its code.
 *
 * The work is the named actor `loadGreetie`, given by the page with `.provide()`: it reads the
 * greetie as the person may see it (a visitor gets the public view: no phone numbers, no codes)
 * and says who the person is to it (`role`).
 *
 * Tags say what the page shows: its screen, one of `loading`, `notFound`, `error`, `revealing`,
 * `revealed` (the gifts and what one can do with them), and `greetie` (the greetie is on the page).
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
  /** The recipient's thank-you (machines/thanks.ts), once sent; null until then. */
  thanks: GreetieThanks | null;
}

export interface GreetieViewInput {
  /** The refId from the link, or the greetie's id when `byId`. */
  key: string;
  byId: boolean;
  /** The person asked for less motion: the gifts are revealed at once. */
  reducedMotion: boolean;
}

export interface GreetieViewContext {
  key: string;
  byId: boolean;
  reducedMotion: boolean;
  view: GreetieView | null;
  error: Failure | null;
}

export type GreetieViewEvent = { type: 'user.retry' };

/** What the page shows; every state has exactly one of these tags. */
export const GREETIE_VIEW_SCREENS = ['loading', 'notFound', 'error', 'revealing', 'revealed'] as const;
export type GreetieViewScreen = (typeof GREETIE_VIEW_SCREENS)[number];
export type GreetieViewTag = GreetieViewScreen | 'greetie';

/**
 * How long the media and its content play before the gifts are revealed: a beat, short enough that
 * the gifts follow the greetie within a second (decision 118); the recipient's vouchers load meanwhile.
 */
export const REVEAL_DELAY_MS = 500;

/**
 * A link that leads nowhere: no such greetie, or not this person's (404 GREETIE_NOT_FOUND), or not
 * an id or reference at all (400 VALIDATION_FAILED or BAD_REQUEST).
 */
const NOT_FOUND: readonly Failure['code'][] = ['GREETIE_NOT_FOUND', 'VALIDATION_FAILED', 'BAD_REQUEST'];

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
    storeError: assign((_, p: { error: Failure }) => ({ error: p.error })),
    clearError: assign({ error: null }),
  },
  guards: {
    isNotFound: (_, p: { error: Failure }) => NOT_FOUND.includes(p.error.code),
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
            guard: { type: 'isNotFound', params: ({ event }) => ({ error: event.error as Failure }) },
            target: 'notFound',
            actions: { type: 'storeError', params: ({ event }) => ({ error: event.error as Failure }) },
            description: 'Ingen sådan greetie för den här personen (eller så är länken trasig).',
          },
          {
            target: 'error',
            actions: { type: 'storeError', params: ({ event }) => ({ error: event.error as Failure }) },
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
