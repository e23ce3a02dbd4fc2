import { assign, fromPromise, setup } from 'xstate';
import type { Failure } from '../contract/errors.ts';
import type { VoucherQr } from '../contract/voucher.ts';

/**
 * The QR code on an in-store voucher's page (API.md GET /voucher/{id}/qr; decision 107): the till
 * scans it, or types the token written under it.
 *
 * loading → showing ⇄ refreshing, or failed.
 * - showing: the token as a QR code and as text. A token lives 120 s; the page asks for a new one
 *   after `refreshDelay` (100 s), so the one shown never runs out at the till, and at once when the
 *   page becomes visible again (`page.visible`: a phone taken out of a pocket shows a fresh one).
 * - refreshing: a new token is on its way; the current one stays on screen until it comes.
 * - failed: the token could not be had (the voucher used up or expired meanwhile, no network);
 *   the reason is the one Failure, with 'Försök igen'. Coming back to the page tries again too.
 *
 * Side effects are the named actor `fetchQr` (GET /voucher/{id}/qr → `{ token, expiresAt }`,
 * rejecting with a Failure), given by the page (src/pages/voucher/voucherQr.ts).
 *
 * Tags say what the page shows: `loading`, `showing`, `refreshing`, `failed`.
 */

export interface VoucherQrInput {
  voucherId: string;
}

export interface VoucherQrContext {
  voucherId: string;
  /** The token shown (null until the first arrives). */
  qr: VoucherQr | null;
  /** Why the last request failed. */
  error: Failure | null;
}

export type VoucherQrEvent = { type: 'user.retry' } | { type: 'page.visible' };

/** What the page shows; every state has exactly one of these tags. */
export const VOUCHER_QR_SCREENS = ['loading', 'showing', 'refreshing', 'failed'] as const;
export type VoucherQrTag = (typeof VOUCHER_QR_SCREENS)[number];

/** When a shown token is replaced: 20 s before its 120 s run out. */
export const QR_REFRESH_MS = 100_000;

export const voucherQrMachine = setup({
  types: {
    context: {} as VoucherQrContext,
    events: {} as VoucherQrEvent,
    input: {} as VoucherQrInput,
    tags: {} as VoucherQrTag,
  },
  actors: {
    /** GET /voucher/{id}/qr → a new token; rejects with a Failure. */
    fetchQr: fromPromise<VoucherQr, { voucherId: string }>(async () => {
      throw new Error('fetchQr is not provided');
    }),
  },
  actions: {
    storeQr: assign((_, p: { qr: VoucherQr }) => ({ qr: p.qr, error: null })),
    assignFailure: assign((_, p: { error: Failure }) => ({ error: p.error, qr: null })),
  },
  delays: {
    refreshDelay: QR_REFRESH_MS,
  },
}).createMachine({
  id: 'voucherQr',
  description: 'Presentkortets QR-kod för kassan: en engångskod som byts innan den går ut (120 s) och när sidan visas igen.',
  context: ({ input }) => ({ voucherId: input.voucherId, qr: null, error: null }),
  initial: 'loading',
  states: {
    loading: {
      description: 'En QR-kod hämtas.',
      tags: ['loading'],
      invoke: {
        id: 'fetchQr',
        src: 'fetchQr',
        input: ({ context }) => ({ voucherId: context.voucherId }),
        onDone: {
          target: 'showing',
          actions: { type: 'storeQr', params: ({ event }) => ({ qr: event.output }) },
          description: 'Koden kom: den visas som QR-kod och som text.',
        },
        onError: {
          target: 'failed',
          actions: { type: 'assignFailure', params: ({ event }) => ({ error: event.error as Failure }) },
          description: 'Det gick inte att få en kod: skälet visas, med Försök igen.',
        },
      },
    },
    showing: {
      description: 'QR-koden och koden som text visas för personalen i kassan.',
      tags: ['showing'],
      after: {
        refreshDelay: { target: 'refreshing', description: 'Efter 100 s hämtas en ny kod, innan den visade går ut.' },
      },
      on: {
        'page.visible': { target: 'refreshing', description: 'Sidan visas igen: en ny kod hämtas direkt.' },
      },
    },
    refreshing: {
      description: 'En ny kod hämtas; den förra visas tills den nya kommer.',
      tags: ['refreshing'],
      invoke: {
        id: 'refreshQr',
        src: 'fetchQr',
        input: ({ context }) => ({ voucherId: context.voucherId }),
        onDone: {
          target: 'showing',
          actions: { type: 'storeQr', params: ({ event }) => ({ qr: event.output }) },
          description: 'Den nya koden visas; den förra slutar gälla.',
        },
        onError: {
          target: 'failed',
          actions: { type: 'assignFailure', params: ({ event }) => ({ error: event.error as Failure }) },
          description: 'Det gick inte att få en ny kod: skälet visas, med Försök igen.',
        },
      },
    },
    failed: {
      description: "Ingen kod kunde hämtas: skälet visas, med 'Försök igen'. Handlarkoden går fortfarande att använda.",
      tags: ['failed'],
      on: {
        'user.retry': { target: 'loading', description: "Mottagaren trycker 'Försök igen'." },
        'page.visible': { target: 'loading', description: 'Sidan visas igen: en kod hämtas på nytt.' },
      },
    },
  },
});
