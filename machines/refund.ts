import { assign, fromPromise, setup } from 'xstate';
import type { Failure } from '../contract/errors.ts';
import type { Payment, Refund } from '../contract/payment.ts';

/**
 * The refund of a cancelled greetie as its sender follows it on the details page: where the money
 * is, kept up to date while it is on its way (API.md, Payment.refund).
 *
 * loading (GET /greetie/{id}/payment) → pending | paid | failed | none, or loadFailed.
 * - pending: the refund is on its way. The payment is read again every `pollDelay` (5 s) until
 *   Swish has answered. After `patience` (3 minutes) of reading it stops and says that it may take
 *   longer (`slow`), with 'Kolla igen' to read it once more and follow it again.
 * - paid: the money is back on the sender's Swish account.
 * - failed (the refund's status "error"): the reconciliation retries it as the same refund (the same
 *   instruction id), so no money is ever paid twice; the page says so plainly, with 'Kolla igen'.
 * - none: no refund (a greetie without payment, or no payment at all: PAYMENT_NOT_FOUND).
 * - loadFailed: the read failed; the reason is kept as the one Failure, with 'Försök igen'. A read
 *   while following a pending refund that fails keeps the last answer and reads again later.
 *
 * Side effects are the named actor `readRefund` (GET /greetie/{id}/payment → the payment, rejecting
 * with a Failure), given by the page (src/pages/greetie/refund.ts).
 *
 * Tags say what the page shows: `loading`, `pending`, `slow`, `paid`, `failed`, `none`, `loadFailed`.
 */

export interface RefundInput {
  greetieId: string;
}

export interface RefundContext {
  greetieId: string;
  /** The refund as the server last answered (null until read, or when there is none). */
  refund: Refund | null;
  /** Why the last read failed. */
  error: Failure | null;
}

export type RefundEvent = { type: 'user.check' } | { type: 'user.retry' };

/** What the page shows; every state has exactly one of these tags. */
export const REFUND_SCREENS = ['loading', 'pending', 'slow', 'paid', 'failed', 'none', 'loadFailed'] as const;
export type RefundTag = (typeof REFUND_SCREENS)[number];

/** The wait between two reads of a pending refund. */
export const REFUND_POLL_MS = 5_000;
/** How long a pending refund is followed before the page says it may take longer. */
export const REFUND_PATIENCE_MS = 3 * 60_000;

const refundOf = (p: { payment: Payment }) => p.payment.refund;

export const refundMachine = setup({
  types: {
    context: {} as RefundContext,
    events: {} as RefundEvent,
    input: {} as RefundInput,
    tags: {} as RefundTag,
  },
  actors: {
    /** GET /greetie/{id}/payment → the payment with its refund; rejects with a Failure. */
    readRefund: fromPromise<Payment, { greetieId: string }>(async () => {
      throw new Error('readRefund is not provided');
    }),
  },
  actions: {
    storeRefund: assign((_, p: { payment: Payment }) => ({ refund: refundOf(p), error: null })),
    assignFailure: assign((_, p: { error: Failure }) => ({ error: p.error })),
    clearError: assign({ error: null }),
  },
  guards: {
    hasNoRefund: (_, p: { payment: Payment }) => refundOf(p) === null,
    isPaid: (_, p: { payment: Payment }) => refundOf(p)?.status === 'paid',
    isError: (_, p: { payment: Payment }) => refundOf(p)?.status === 'error',
    /** No payment at all: nothing to refund. */
    isNoPayment: (_, p: { error: Failure }) => p.error.code === 'PAYMENT_NOT_FOUND',
  },
  delays: {
    pollDelay: REFUND_POLL_MS,
    patience: REFUND_PATIENCE_MS,
  },
}).createMachine({
  id: 'refund',
  description: 'Avsändaren följer återbetalningen av en avbruten greetie: på väg, tillbaka på Swish-kontot, eller inte igenom än (och försöks igen, aldrig två gånger).',
  context: ({ input }) => ({ greetieId: input.greetieId, refund: null, error: null }),
  initial: 'loading',
  states: {
    loading: {
      description: 'Betalningen och dess återbetalning hämtas.',
      tags: ['loading'],
      entry: 'clearError',
      invoke: {
        id: 'readRefund',
        src: 'readRefund',
        input: ({ context }) => ({ greetieId: context.greetieId }),
        onDone: [
          {
            guard: { type: 'hasNoRefund', params: ({ event }) => ({ payment: event.output }) },
            target: 'none',
            actions: { type: 'storeRefund', params: ({ event }) => ({ payment: event.output }) },
            description: 'Ingen återbetalning: inget visas.',
          },
          {
            guard: { type: 'isPaid', params: ({ event }) => ({ payment: event.output }) },
            target: 'paid',
            actions: { type: 'storeRefund', params: ({ event }) => ({ payment: event.output }) },
            description: 'Pengarna är redan tillbaka.',
          },
          {
            guard: { type: 'isError', params: ({ event }) => ({ payment: event.output }) },
            target: 'failed',
            actions: { type: 'storeRefund', params: ({ event }) => ({ payment: event.output }) },
            description: 'Återbetalningen har inte gått igenom än.',
          },
          {
            target: 'pending',
            actions: { type: 'storeRefund', params: ({ event }) => ({ payment: event.output }) },
            description: 'Återbetalningen är på väg: sidan följer den.',
          },
        ],
        onError: [
          {
            guard: { type: 'isNoPayment', params: ({ event }) => ({ error: event.error as Failure }) },
            target: 'none',
            description: 'Ingen betalning finns: inget att betala tillbaka.',
          },
          {
            target: 'loadFailed',
            actions: { type: 'assignFailure', params: ({ event }) => ({ error: event.error as Failure }) },
            description: 'Hämtningen misslyckades: skälet visas, med Försök igen.',
          },
        ],
      },
    },
    pending: {
      description: 'Pengarna är på väg tillbaka till Swish-kontot; sidan läser återbetalningen igen med jämna mellanrum.',
      tags: ['pending'],
      initial: 'waiting',
      after: {
        patience: { target: 'slow', description: 'Efter tre minuter slutar sidan fråga och säger att det kan ta längre tid.' },
      },
      states: {
        waiting: {
          description: 'Tills nästa läsning (5 s).',
          after: { pollDelay: { target: 'reading', description: 'Dags att läsa återbetalningen igen.' } },
        },
        reading: {
          description: 'Återbetalningen läses igen.',
          invoke: {
            id: 'pollRefund',
            src: 'readRefund',
            input: ({ context }) => ({ greetieId: context.greetieId }),
            onDone: [
              {
                guard: { type: 'isPaid', params: ({ event }) => ({ payment: event.output }) },
                target: '#refund.paid',
                actions: { type: 'storeRefund', params: ({ event }) => ({ payment: event.output }) },
                description: 'Swish har betalat tillbaka: pengarna är på kontot.',
              },
              {
                guard: { type: 'isError', params: ({ event }) => ({ payment: event.output }) },
                target: '#refund.failed',
                actions: { type: 'storeRefund', params: ({ event }) => ({ payment: event.output }) },
                description: 'Återbetalningen gick inte igenom: den försöks igen automatiskt.',
              },
              {
                target: 'waiting',
                actions: { type: 'storeRefund', params: ({ event }) => ({ payment: event.output }) },
                description: 'Fortfarande på väg: vänta och läs igen.',
              },
            ],
            onError: { target: 'waiting', description: 'Läsningen misslyckades: det senaste svaret står kvar; läs igen senare.' },
          },
        },
      },
    },
    slow: {
      description: "Det tar längre tid än vanligt: sidan säger att pengarna fortfarande är på väg, med 'Kolla igen'.",
      tags: ['slow'],
      on: {
        'user.check': { target: 'loading', description: "Avsändaren trycker 'Kolla igen': återbetalningen hämtas och följs igen." },
      },
    },
    paid: {
      description: 'Pengarna är tillbaka på avsändarens Swish-konto.',
      tags: ['paid'],
      type: 'final',
    },
    failed: {
      description: "Återbetalningen har inte gått igenom än: den försöks igen automatiskt som samma återbetalning, så inga pengar betalas ut två gånger. 'Kolla igen' finns.",
      tags: ['failed'],
      on: {
        'user.check': { target: 'loading', description: "Avsändaren trycker 'Kolla igen': återbetalningen hämtas igen." },
      },
    },
    none: {
      description: 'Ingen återbetalning (greetien var inte betald): inget visas.',
      tags: ['none'],
      type: 'final',
    },
    loadFailed: {
      description: "Det gick inte att hämta återbetalningen: skälet visas, med 'Försök igen'.",
      tags: ['loadFailed'],
      on: {
        'user.retry': { target: 'loading', description: "Avsändaren trycker 'Försök igen'." },
      },
    },
  },
});
