import { assign, fromPromise, setup } from 'xstate';
import type { Merchant, MerchantCategory, MerchantSource } from '../contract/merchant.ts';
import type { Failure } from '../contract/errors.ts';

/**
 * Searching the merchant catalogue on /merchant: the search text, the category and source
 * filters, and "show more" (keyset paging).
 *
 * - Typing waits for a pause (`typingPause`) before searching; a filter, a submitted form or
 *   "show all" searches at once. A new search drops one still running (its answer is ignored).
 * - A new search replaces the list; "show more" appends the next page to it.
 * - A failure keeps the Failure `search` rejected with and the list shown before it; retry
 *   repeats what failed (the
 *   search, or the page of "show more").
 *
 * The page starts it with the filters from the address as `input` and reads it through tags
 * (`searching`, `debouncing`, `showing`, `loadingMore`, `failed`). The server call is the named
 * actor `search`, given by the page with `.provide()`.
 */

export interface MerchantFilters {
  /** The search text as typed (the call trims it). */
  q: string;
  category: MerchantCategory | '';
  source: MerchantSource | '';
}

/** One page of the catalogue, as the `search` actor answers. */
export interface MerchantSearchPage {
  items: Merchant[];
  nextCursor: string | null;
}

export interface MerchantSearchInput {
  filters: MerchantFilters;
  /** The page after this cursor (null: the first page). */
  cursor: string | null;
}

export interface MerchantSearchContext {
  filters: MerchantFilters;
  /** The merchants shown: the last search's pages so far. */
  items: Merchant[];
  /** Where "show more" continues; null when there is no more. */
  nextCursor: string | null;
  /** The last failure; null while searching and after a success. */
  error: Failure | null;
}

export type MerchantSearchEvent =
  | { type: 'user.typed'; q: string }
  | { type: 'user.filtered'; filters: Partial<MerchantFilters> }
  | { type: 'user.submitted' }
  | { type: 'user.showMore' }
  | { type: 'user.retry' };

/** What the page shows; every state has exactly one of these tags. */
export const MERCHANT_SEARCH_TAGS = ['searching', 'debouncing', 'showing', 'loadingMore', 'failed'] as const;
export type MerchantSearchTag = (typeof MERCHANT_SEARCH_TAGS)[number];

/** How long typing must pause before the search runs. */
export const TYPING_PAUSE_MS = 300;

export const merchantSearchMachine = setup({
  types: {
    context: {} as MerchantSearchContext,
    events: {} as MerchantSearchEvent,
    input: {} as MerchantFilters,
    tags: {} as MerchantSearchTag,
  },
  actors: {
    search: fromPromise<MerchantSearchPage, MerchantSearchInput>(async () => {
      throw new Error('The "search" actor is given by the page with merchantSearchMachine.provide().');
    }),
  },
  actions: {
    storeQuery: assign(({ context }, p: { q: string }) => ({ filters: { ...context.filters, q: p.q } })),
    storeFilters: assign(({ context }, p: { filters: Partial<MerchantFilters> }) => ({ filters: { ...context.filters, ...p.filters } })),
    clearError: assign({ error: null }),
    showPage: assign((_, page: MerchantSearchPage) => ({ items: page.items, nextCursor: page.nextCursor, error: null })),
    appendPage: assign(({ context }, page: MerchantSearchPage) => ({
      items: [...context.items, ...page.items],
      nextCursor: page.nextCursor,
      error: null,
    })),
    storeError: assign((_, p: { error: Failure }) => ({ error: p.error })),
  },
  guards: {
    hasMore: ({ context }) => context.nextCursor !== null,
  },
  delays: {
    typingPause: TYPING_PAUSE_MS,
  },
}).createMachine({
  id: 'merchantSearch',
  description: 'Söker bland handlarna: text (efter en paus i skrivandet), filter och "visa fler".',
  context: ({ input }) => ({ filters: input, items: [], nextCursor: null, error: null }),
  initial: 'searching',
  on: {
    'user.typed': {
      target: '.debouncing',
      reenter: true,
      actions: { type: 'storeQuery', params: ({ event }) => ({ q: event.q }) },
      description: 'Personen skriver i sökfältet: sök när hen gör en paus.',
    },
    'user.filtered': {
      target: '.searching',
      reenter: true,
      actions: { type: 'storeFilters', params: ({ event }) => ({ filters: event.filters }) },
      description: 'Personen väljer en kategori eller en källa, eller visar alla handlare: sök direkt.',
    },
    'user.submitted': {
      target: '.searching',
      reenter: true,
      description: 'Personen skickar sökningen (Enter): sök direkt, utan att vänta på pausen.',
    },
  },
  states: {
    searching: {
      description: 'En ny sökning pågår; dess första sida ersätter listan.',
      tags: ['searching'],
      entry: 'clearError',
      invoke: {
        id: 'search',
        src: 'search',
        input: ({ context }) => ({ filters: context.filters, cursor: null }),
        onDone: {
          target: 'showing',
          actions: { type: 'showPage', params: ({ event }) => event.output },
          description: 'Första sidan kom.',
        },
        onError: {
          target: 'failed.firstPage',
          actions: { type: 'storeError', params: ({ event }) => ({ error: event.error as Failure }) },
          description: 'Sökningen misslyckades; felmeddelandet sparas.',
        },
      },
    },
    debouncing: {
      description: 'Personen skriver; listan som visas står kvar tills hen gör en paus.',
      tags: ['debouncing'],
      after: {
        typingPause: { target: 'searching', description: 'Ingen ny knapptryckning på en stund: sök nu.' },
      },
    },
    showing: {
      description: 'Listan visas (den kan vara tom), med "visa fler" när det finns en sida till.',
      tags: ['showing'],
      on: {
        'user.showMore': { guard: 'hasMore', target: 'loadingMore', description: 'Personen ber om nästa sida.' },
      },
    },
    loadingMore: {
      description: 'Nästa sida hämtas under handlarna som visas.',
      tags: ['loadingMore'],
      entry: 'clearError',
      invoke: {
        id: 'searchMore',
        src: 'search',
        input: ({ context }) => ({ filters: context.filters, cursor: context.nextCursor }),
        onDone: {
          target: 'showing',
          actions: { type: 'appendPage', params: ({ event }) => event.output },
          description: 'Nästa sida kom: den läggs till i listan.',
        },
        onError: {
          target: 'failed.nextPage',
          actions: { type: 'storeError', params: ({ event }) => ({ error: event.error as Failure }) },
          description: 'Nästa sida misslyckades; felmeddelandet sparas.',
        },
      },
    },
    failed: {
      description: 'Senaste hämtningen misslyckades: felmeddelandet och ett sätt att försöka igen, ovanför listan från förut.',
      tags: ['failed'],
      initial: 'firstPage',
      states: {
        firstPage: {
          description: 'En ny sökning misslyckades.',
          on: {
            'user.retry': { target: '#merchantSearch.searching', description: 'Personen försöker söka igen.' },
          },
        },
        nextPage: {
          description: 'En "visa fler" misslyckades.',
          on: {
            'user.retry': { target: '#merchantSearch.loadingMore', description: 'Personen försöker hämta nästa sida igen.' },
          },
        },
      },
    },
  },
});
