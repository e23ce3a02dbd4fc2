import { assign, fromPromise, setup } from 'xstate';
import type { Failure } from '../contract/errors.ts';
import type { PortalRedemption } from '../contract/portal.ts';

/**
 * The redemptions at a merchant on its portal page (/portal/{merchantId}): newest first, a page at
 * a time ('Visa fler', keyset paging by the Link header), for a period of Europe/Stockholm days.
 *
 * - A new period loads its first page and replaces the list; 'Visa fler' appends the next page.
 * - A failure keeps the Failure and the list shown before it; 'Försök igen' repeats what failed
 *   (the first page, or the next).
 *
 * The server call is the named actor `loadPage` (GET /portal/merchants/{id}/redemptions),
 * given by the page with `.provide()` (src/pages/portal/portal.ts).
 *
 * Tags say what the page shows: `loading`, `showing`, `loadingMore`, `failed`.
 */

/** Europe/Stockholm days, `2026-11-26`: [from, to); null is open. */
export interface PortalPeriodFilter {
  from: string | null;
  to: string | null;
}

export interface PortalRedemptionsInput {
  merchantId: string;
  period: PortalPeriodFilter;
}

export interface PortalRedemptionsPage {
  items: PortalRedemption[];
  nextCursor: string | null;
}

export interface PortalRedemptionsContext {
  merchantId: string;
  period: PortalPeriodFilter;
  /** The redemptions shown: the period's pages so far. */
  items: PortalRedemption[];
  /** Where 'Visa fler' continues; null at the end. */
  nextCursor: string | null;
  error: Failure | null;
}

export type PortalRedemptionsEvent = { type: 'user.period'; period: PortalPeriodFilter } | { type: 'user.showMore' } | { type: 'user.retry' };

/** What the page shows; every state has exactly one of these tags. */
export const PORTAL_REDEMPTIONS_SCREENS = ['loading', 'showing', 'loadingMore', 'failed'] as const;
export type PortalRedemptionsTag = (typeof PORTAL_REDEMPTIONS_SCREENS)[number];

export const portalRedemptionsMachine = setup({
  types: {
    context: {} as PortalRedemptionsContext,
    events: {} as PortalRedemptionsEvent,
    input: {} as PortalRedemptionsInput,
    tags: {} as PortalRedemptionsTag,
  },
  actors: {
    /** One page of the period's redemptions after `cursor` (null: the first). */
    loadPage: fromPromise<PortalRedemptionsPage, { merchantId: string; period: PortalPeriodFilter; cursor: string | null }>(async () => {
      throw new Error('loadPage is not provided');
    }),
  },
  actions: {
    storePeriod: assign((_, p: { period: PortalPeriodFilter }) => ({ period: p.period, items: [], nextCursor: null })),
    clearError: assign({ error: null }),
    showPage: assign((_, page: PortalRedemptionsPage) => ({ items: page.items, nextCursor: page.nextCursor, error: null })),
    appendPage: assign(({ context }, page: PortalRedemptionsPage) => ({ items: [...context.items, ...page.items], nextCursor: page.nextCursor, error: null })),
    storeError: assign((_, p: { error: Failure }) => ({ error: p.error })),
  },
  guards: {
    hasMore: ({ context }) => context.nextCursor !== null,
  },
}).createMachine({
  id: 'portalRedemptions',
  description: 'Inlösta presenter hos handlaren, nyast först, en sida i taget, för en vald period.',
  context: ({ input }) => ({ merchantId: input.merchantId, period: input.period, items: [], nextCursor: null, error: null }),
  initial: 'loading',
  on: {
    'user.period': {
      target: '.loading',
      reenter: true,
      actions: { type: 'storePeriod', params: ({ event }) => ({ period: event.period }) },
      description: 'Personen väljer en annan period: listan hämtas från början.',
    },
  },
  states: {
    loading: {
      description: 'Periodens första sida hämtas.',
      tags: ['loading'],
      entry: 'clearError',
      invoke: {
        id: 'loadPage',
        src: 'loadPage',
        input: ({ context }) => ({ merchantId: context.merchantId, period: context.period, cursor: null }),
        onDone: { target: 'showing', actions: { type: 'showPage', params: ({ event }) => event.output }, description: 'Första sidan kom (den kan vara tom).' },
        onError: {
          target: 'failed.firstPage',
          actions: { type: 'storeError', params: ({ event }) => ({ error: event.error as Failure }) },
          description: 'Hämtningen misslyckades: skälet visas.',
        },
      },
    },
    showing: {
      description: "Listan visas (eller 'Inga inlösta presenter under perioden'), med 'Visa fler' när det finns fler.",
      tags: ['showing'],
      on: {
        'user.showMore': { guard: 'hasMore', target: 'loadingMore', description: "Personen trycker 'Visa fler'." },
      },
    },
    loadingMore: {
      description: 'Nästa sida hämtas under listan.',
      tags: ['loadingMore'],
      entry: 'clearError',
      invoke: {
        id: 'loadMore',
        src: 'loadPage',
        input: ({ context }) => ({ merchantId: context.merchantId, period: context.period, cursor: context.nextCursor }),
        onDone: { target: 'showing', actions: { type: 'appendPage', params: ({ event }) => event.output }, description: 'Nästa sida kom: den läggs till.' },
        onError: {
          target: 'failed.nextPage',
          actions: { type: 'storeError', params: ({ event }) => ({ error: event.error as Failure }) },
          description: 'Nästa sida misslyckades: skälet visas under listan.',
        },
      },
    },
    failed: {
      description: "Hämtningen misslyckades: skälet och 'Försök igen', under listan från förut.",
      tags: ['failed'],
      initial: 'firstPage',
      states: {
        firstPage: {
          description: 'Första sidan misslyckades.',
          on: { 'user.retry': { target: '#portalRedemptions.loading', description: "Personen trycker 'Försök igen'." } },
        },
        nextPage: {
          description: "'Visa fler' misslyckades.",
          on: { 'user.retry': { target: '#portalRedemptions.loadingMore', description: "Personen trycker 'Försök igen'." } },
        },
      },
    },
  },
});
