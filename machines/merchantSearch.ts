import { assign, fromPromise, setup } from 'xstate';
import type { Merchant, MerchantCategory, MerchantSource } from '../contract/merchant.ts';
import { loaderErrorOf, type LoaderError } from './loader.ts';

/**
 * Searching the merchant catalogue on /merchant: the search text, the category and source
 * filters, and "show more" (keyset paging).
 *
 * - Typing waits for a pause (`typingPause`) before searching; a filter, a submitted form or
 *   "show all" searches at once. A new search drops one still running (its answer is ignored).
 * - A new search replaces the list; "show more" appends the next page to it.
 * - A failure keeps its message and the list shown before it; retry repeats what failed (the
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
  error: LoaderError | null;
}

export type MerchantSearchEvent =
  | { type: 'user.typed'; q: string }
  | { type: 'user.filtered'; filters: Partial<MerchantFilters> }
  | { type: 'user.submitted' }
  | { type: 'user.showMore' }
  | { type: 'user.retry' };

export type MerchantSearchTag = 'searching' | 'debouncing' | 'showing' | 'loadingMore' | 'failed';

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
    storeError: assign((_, p: { error: unknown }) => ({ error: loaderErrorOf(p.error) })),
  },
  guards: {
    hasMore: ({ context }) => context.nextCursor !== null,
  },
  delays: {
    typingPause: TYPING_PAUSE_MS,
  },
}).createMachine({
  id: 'merchantSearch',
  description: 'Searches the merchant catalogue: text (after a typing pause), filters, and "show more".',
  context: ({ input }) => ({ filters: input, items: [], nextCursor: null, error: null }),
  initial: 'searching',
  on: {
    'user.typed': {
      target: '.debouncing',
      reenter: true,
      actions: { type: 'storeQuery', params: ({ event }) => ({ q: event.q }) },
      description: 'The person types in the search field: search once they pause.',
    },
    'user.filtered': {
      target: '.searching',
      reenter: true,
      actions: { type: 'storeFilters', params: ({ event }) => ({ filters: event.filters }) },
      description: 'The person picks a category or a source, or shows all merchants: search now.',
    },
    'user.submitted': {
      target: '.searching',
      reenter: true,
      description: 'The person submits the search (Enter): search now, without waiting for the pause.',
    },
  },
  states: {
    searching: {
      description: 'A new search runs; its first page will replace the list.',
      tags: ['searching'],
      entry: 'clearError',
      invoke: {
        id: 'search',
        src: 'search',
        input: ({ context }) => ({ filters: context.filters, cursor: null }),
        onDone: {
          target: 'showing',
          actions: { type: 'showPage', params: ({ event }) => event.output },
          description: 'The first page arrived.',
        },
        onError: {
          target: 'failed.firstPage',
          actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
          description: 'The search failed; its message is kept.',
        },
      },
    },
    debouncing: {
      description: 'The person is typing; the list shown stays until they pause.',
      tags: ['debouncing'],
      after: {
        typingPause: { target: 'searching', description: 'No newer keystroke for a moment: search now.' },
      },
    },
    showing: {
      description: 'The list is shown (it may be empty), with "show more" when there is a next page.',
      tags: ['showing'],
      on: {
        'user.showMore': { guard: 'hasMore', target: 'loadingMore', description: 'The person asks for the next page.' },
      },
    },
    loadingMore: {
      description: 'The next page loads below the merchants shown.',
      tags: ['loadingMore'],
      entry: 'clearError',
      invoke: {
        id: 'searchMore',
        src: 'search',
        input: ({ context }) => ({ filters: context.filters, cursor: context.nextCursor }),
        onDone: {
          target: 'showing',
          actions: { type: 'appendPage', params: ({ event }) => event.output },
          description: 'The next page arrived: it is added to the list.',
        },
        onError: {
          target: 'failed.nextPage',
          actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
          description: 'The next page failed; its message is kept.',
        },
      },
    },
    failed: {
      description: 'The last request failed: its message and a way to retry, above the list shown before.',
      tags: ['failed'],
      initial: 'firstPage',
      states: {
        firstPage: {
          description: 'A new search failed.',
          on: {
            'user.retry': { target: '#merchantSearch.searching', description: 'The person tries the search again.' },
          },
        },
        nextPage: {
          description: 'A "show more" failed.',
          on: {
            'user.retry': { target: '#merchantSearch.loadingMore', description: 'The person tries the next page again.' },
          },
        },
      },
    },
  },
});
