import { assign, fromPromise, setup } from 'xstate';
import type { Failure } from '../contract/errors.ts';
import type { SandboxRefund, SandboxRefundSettle } from '../contract/payment.ts';

/**
 * The sandbox's pending refunds on /sandbox (GET /api/sandbox/refunds), each settled by hand as
 * Swish would answer it: "paid" (Återbetald) or "error" (Fel).
 *
 * Read once when the page opens, then again every `pollInterval` (a cancel makes one within
 * seconds) and whenever the person asks. While it is read again, what was shown stays; the answer
 * replaces it. Reading goes on after a failure, so the list comes back by itself.
 *
 * Settling one waits for the server's answer (one settle at a time: the buttons are off meanwhile),
 * keeps what happened as the `notice` (the refund settled, or the Failure that stopped it) and
 * reads the list again.
 *
 * The page reads it through tags (`loading`, `showing`, `settling`, `failed`). The server calls are
 * the named actors `readRefunds` and `settleRefund`, given by the page with `.provide()`.
 */

export type RefundOutcome = SandboxRefundSettle['outcome'];

export type RefundNotice = { kind: 'settled'; amount: number; outcome: RefundOutcome } | { kind: 'failed'; failure: Failure };

export interface SandboxRefundsContext {
  /** The refunds of the last successful read, newest first. */
  refunds: SandboxRefund[];
  /** What the last settle came to (null before any, and while one is under way). */
  notice: RefundNotice | null;
  /** The settle under way (null otherwise). */
  settling: { refund: SandboxRefund; outcome: RefundOutcome } | null;
}

export type SandboxRefundsEvent = { type: 'user.refresh' } | { type: 'user.settle'; refund: SandboxRefund; outcome: RefundOutcome };

/** What the page shows; every state has exactly one of these tags. */
export const SANDBOX_REFUNDS_TAGS = ['loading', 'showing', 'settling', 'failed'] as const;
export type SandboxRefundsTag = (typeof SANDBOX_REFUNDS_TAGS)[number];

/** How often the pending refunds are read again while the page is open. */
export const REFUNDS_POLL_MS = 3000;

export const sandboxRefundsMachine = setup({
  types: {
    context: {} as SandboxRefundsContext,
    events: {} as SandboxRefundsEvent,
    tags: {} as SandboxRefundsTag,
  },
  actors: {
    readRefunds: fromPromise<SandboxRefund[]>(async () => {
      throw new Error('The "readRefunds" actor is given by the page with sandboxRefundsMachine.provide().');
    }),
    settleRefund: fromPromise<SandboxRefund, { refundId: string; outcome: RefundOutcome }>(async () => {
      throw new Error('The "settleRefund" actor is given by the page with sandboxRefundsMachine.provide().');
    }),
  },
  actions: {
    storeRefunds: assign((_, refunds: SandboxRefund[]) => ({ refunds })),
    startSettle: assign((_, p: { refund: SandboxRefund; outcome: RefundOutcome }) => ({ settling: p, notice: null })),
    noteSettled: assign(({ context }) => ({
      notice: context.settling ? { kind: 'settled' as const, amount: context.settling.refund.amount, outcome: context.settling.outcome } : null,
      settling: null,
    })),
    noteFailed: assign((_, failure: Failure) => ({ notice: { kind: 'failed' as const, failure }, settling: null })),
  },
  delays: {
    pollInterval: REFUNDS_POLL_MS,
  },
}).createMachine({
  id: 'sandboxRefunds',
  description: 'Testmiljöns väntande återbetalningar: läses direkt, sedan med några sekunders mellanrum; var och en avgörs för hand (Återbetald eller Fel).',
  context: { refunds: [], notice: null, settling: null },
  initial: 'loading',
  states: {
    loading: {
      description: 'Första läsningen pågår.',
      tags: ['loading'],
      invoke: {
        id: 'readRefunds',
        src: 'readRefunds',
        onDone: {
          target: 'showing',
          actions: { type: 'storeRefunds', params: ({ event }) => event.output },
          description: 'Återbetalningarna kom.',
        },
        onError: { target: 'failed', description: 'Återbetalningarna kunde inte läsas.' },
      },
    },
    showing: {
      description: 'Återbetalningarna visas (kanske inga).',
      tags: ['showing'],
      initial: 'waiting',
      on: {
        'user.refresh': { target: '.reading', description: 'Personen ber om att läsa nu.' },
        'user.settle': {
          target: 'settling',
          actions: { type: 'startSettle', params: ({ event }) => ({ refund: event.refund, outcome: event.outcome }) },
          description: 'Personen avgör en återbetalning: Återbetald eller Fel.',
        },
      },
      states: {
        waiting: {
          description: 'Tills det är dags att läsa igen.',
          after: {
            pollInterval: { target: 'reading', description: 'Dags att läsa igen.' },
          },
        },
        reading: {
          description: 'Läser igen; listan som visas står kvar tills svaret kommer.',
          invoke: {
            id: 'readRefunds',
            src: 'readRefunds',
            onDone: {
              target: 'waiting',
              actions: { type: 'storeRefunds', params: ({ event }) => event.output },
              description: 'Återbetalningarna kom: de ersätter dem som visas.',
            },
            onError: { target: '#sandboxRefunds.failed', description: 'Återbetalningarna kunde inte läsas.' },
          },
        },
      },
    },
    settling: {
      description: 'Svaret skickas genom sandlådans Swish och dess callback; knapparna är avstängda så länge.',
      tags: ['settling'],
      invoke: {
        id: 'settleRefund',
        src: 'settleRefund',
        input: ({ context }) => ({ refundId: context.settling!.refund.id, outcome: context.settling!.outcome }),
        onDone: { target: 'showing.reading', actions: 'noteSettled', description: 'Återbetalningen avgjordes: listan läses igen.' },
        onError: {
          target: 'showing.reading',
          actions: { type: 'noteFailed', params: ({ event }) => event.error as Failure },
          description: 'Den kunde inte avgöras: felet visas och listan läses igen.',
        },
      },
    },
    failed: {
      description: 'Senaste läsningen misslyckades: sidan säger det (läsningen fortsätter).',
      tags: ['failed'],
      initial: 'waiting',
      on: {
        'user.refresh': { target: '.reading', description: 'Personen ber om att läsa nu.' },
      },
      states: {
        waiting: {
          description: 'Tills det är dags att försöka igen.',
          after: {
            pollInterval: { target: 'reading', description: 'Dags att försöka igen.' },
          },
        },
        reading: {
          description: 'Försöker igen; felet visas tills svaret kommer.',
          invoke: {
            id: 'readRefunds',
            src: 'readRefunds',
            onDone: {
              target: '#sandboxRefunds.showing',
              actions: { type: 'storeRefunds', params: ({ event }) => event.output },
              description: 'Återbetalningarna kom.',
            },
            onError: { target: 'waiting', description: 'Fortfarande fel.' },
          },
        },
      },
    },
  },
});
