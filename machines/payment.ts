import { assign, fromPromise, setup } from 'xstate';
import type { Payment } from '../contract/payment.ts';
import { looksLikeSwedishMobile } from './auth.ts';

/**
 * Paying for a greetie with Swish (issue 13). The review step starts it ('Betala med Swish'); the
 * greetie's details page, where the Swish app sends the payer back (often in a new tab), resumes
 * it from the server's latest payment and continues where it stands.
 *
 * - starting: POST /greetie/{id}/startpayment. Without a payer number it is Swish's m-commerce
 *   flow: on a phone the page offers 'Öppna Swish' (the payment's swish:// link), on a desktop the
 *   QR code and a field for the payer's Swish number; a number starts the payment again as
 *   e-commerce (the request pops up in that person's Swish app). Which one is shown starts from
 *   the device (`input.device`, the page asks a media query) and the person can switch.
 * - open (awaiting the payer, then reading the result): the payment is read again and again
 *   (GET …/payment, `pollDelay` growing from 1 s to 5 s, and at once when the person comes back
 *   to the page) until it is final. A read that fails keeps the last answer and tries again.
 * - paid | declined | cancelled | expired | failed (Swish's error): each is its own page; all but
 *   paid offer to try again (a new m-commerce request). Going back to the review is the page's.
 *
 * Side effects are the named actors `startPayment` and `readPayment`, provided by the page.
 * Tags say what the page shows: `busy`, `starting`, `checking`, `open`, `awaitingPayer`,
 * `readingResult`, `paid`, `declined`, `cancelled`, `expired`, `failed`, `startFailed`,
 * `checkFailed`, `none`.
 */

export type PaymentDevice = 'phone' | 'desktop';

export interface PaymentInput {
  greetieId: string;
  /** What to show first for an m-commerce payment: the app button (phone) or the QR code (desktop). */
  device: PaymentDevice;
}

export interface PaymentFailure {
  /** The server's code (GIFT_CODE_POOL_EMPTY, PAYMENT_RP06, …), or 'UNKNOWN'. */
  code: string;
  /** The text to show (the server's, already in the request's language). */
  message: string;
  /** The HTTP status, or null when no answer came. */
  status: number | null;
}

export interface PaymentContext {
  greetieId: string;
  device: PaymentDevice;
  /** The latest payment the server answered with. */
  payment: Payment | null;
  /** The Swish number to start the next payment for (e-commerce); null: m-commerce. */
  payerAlias: string | null;
  /** The number typed does not look like a Swedish mobile number (nothing was sent). */
  payerInvalid: boolean;
  /** Reads since the payment opened: the wait before the next grows with it. */
  polls: number;
  /** The last read failed (the page says the connection is uncertain; reading goes on). */
  readFailed: boolean;
  error: PaymentFailure | null;
}

export type PaymentEvent =
  /** The page opened: 'start' (the review's 'Betala med Swish') or 'resume' (the details page picks the latest payment up). */
  | { type: 'user.opened'; mode: 'start' | 'resume' }
  | { type: 'user.showQr' }
  | { type: 'user.showAppButton' }
  | { type: 'user.openedSwish' }
  | { type: 'user.submitPayer'; payerAlias: string }
  | { type: 'user.changePayment' }
  | { type: 'user.returned' }
  | { type: 'user.retry' };

export type PaymentTag =
  | 'busy'
  | 'starting'
  | 'checking'
  | 'open'
  | 'awaitingPayer'
  | 'readingResult'
  | 'paid'
  | 'declined'
  | 'cancelled'
  | 'expired'
  | 'failed'
  | 'startFailed'
  | 'checkFailed'
  | 'none';

/** The first wait before reading the payment again, and the longest. */
export const POLL_FIRST_MS = 1000;
export const POLL_MAX_MS = 5000;

/** The wait before the next read: 1 s, 1.5 s, 2.25 s … up to 5 s. */
export function pollDelayMs(polls: number): number {
  return Math.min(Math.round(POLL_FIRST_MS * 1.5 ** polls), POLL_MAX_MS);
}

/** Turns whatever a call rejected with into a PaymentFailure. */
export function toPaymentFailure(error: unknown): PaymentFailure {
  const e = (typeof error === 'object' && error !== null ? error : {}) as { code?: unknown; userMessage?: unknown; message?: unknown; status?: unknown };
  const code = typeof e.code === 'string' && e.code !== '' ? e.code : 'UNKNOWN';
  const message = typeof e.userMessage === 'string' && e.userMessage !== '' ? e.userMessage : typeof e.message === 'string' ? e.message : String(error);
  return { code, message, status: typeof e.status === 'number' ? e.status : null };
}

const isOpen = (p: Payment | null) => p !== null && (p.status === 'created' || p.status === 'pending');

/** The payment an answer carries, as the params of the guards and actions that read it. */
const answered = ({ event }: { event: { output: Payment } }) => ({ payment: event.output });

/** Where each final answer leads (checking the payment, or reading it again while open). */
function settledBy(why: string) {
  const to = (guard: 'isPaid' | 'isDeclined' | 'isCancelled' | 'isExpired' | 'isError', target: string, what: string) => ({
    guard: { type: guard, params: answered },
    target,
    actions: { type: 'storePayment' as const, params: answered },
    description: `${why}: ${what}`,
  });
  return [
    to('isPaid', '#payment.paid', 'paid, the receipt.'),
    to('isDeclined', '#payment.declined', 'the payer declined in Swish.'),
    to('isCancelled', '#payment.cancelled', 'cancelled in Swish (or in BankID).'),
    to('isExpired', '#payment.expired', 'not answered in time.'),
    to('isError', '#payment.failed', 'Swish reported an error.'),
  ];
}

export const paymentMachine = setup({
  types: {
    context: {} as PaymentContext,
    events: {} as PaymentEvent,
    input: {} as PaymentInput,
    tags: {} as PaymentTag,
  },
  actors: {
    /** POST /greetie/{id}/startpayment. */
    startPayment: fromPromise<Payment, { greetieId: string; payerAlias: string | null }>(async () => {
      throw new Error('startPayment is given by the page with paymentMachine.provide()');
    }),
    /** GET /greetie/{id}/payment. */
    readPayment: fromPromise<Payment, { greetieId: string }>(async () => {
      throw new Error('readPayment is given by the page with paymentMachine.provide()');
    }),
  },
  actions: {
    storePayment: assign((_, p: { payment: Payment }) => ({ payment: p.payment, error: null, readFailed: false })),
    storeRead: assign(({ context }, p: { payment: Payment }) => ({ payment: p.payment, readFailed: false, polls: context.polls + 1 })),
    markReadFailed: assign(({ context }) => ({ readFailed: true, polls: context.polls + 1 })),
    storeError: assign((_, p: { error: unknown }) => ({ error: toPaymentFailure(p.error) })),
    prepareStart: assign({ error: null, payerInvalid: false, polls: 0, readFailed: false }),
    prepareCheck: assign({ error: null, polls: 0 }),
    assignPayer: assign(({ event }) => (event.type === 'user.submitPayer' ? { payerAlias: event.payerAlias.trim(), payerInvalid: false } : {})),
    markPayerInvalid: assign({ payerInvalid: true }),
    forgetPayer: assign({ payerAlias: null }),
    showQr: assign({ device: 'desktop' as const, payerInvalid: false }),
    showAppButton: assign({ device: 'phone' as const, payerInvalid: false }),
  },
  guards: {
    resumes: ({ event }) => event.type === 'user.opened' && event.mode === 'resume',
    isPaid: (_, p: { payment: Payment }) => p.payment.status === 'paid',
    isDeclined: (_, p: { payment: Payment }) => p.payment.status === 'declined',
    isCancelled: (_, p: { payment: Payment }) => p.payment.status === 'cancelled',
    isExpired: (_, p: { payment: Payment }) => p.payment.status === 'expired',
    isError: (_, p: { payment: Payment }) => p.payment.status === 'error',
    /** The request went to a Swish number (e-commerce): it waits in that phone's Swish app. */
    isForPayer: (_, p: { payment: Payment }) => p.payment.payerAlias !== null,
    isStillOpen: (_, p: { payment: Payment }) => isOpen(p.payment),
    isNotFound: (_, p: { error: unknown }) => toPaymentFailure(p.error).status === 404,
    /** The number field is on the desktop view only, as the QR code is. */
    isValidPayer: ({ context, event }) => context.device === 'desktop' && event.type === 'user.submitPayer' && looksLikeSwedishMobile(event.payerAlias),
    onPhone: ({ context }) => context.device === 'phone',
    onDesktop: ({ context }) => context.device === 'desktop',
    /** The open payment is m-commerce: its app link and QR code can be shown again as they are. */
    hasAppLink: ({ context }) => context.payment?.token != null,
  },
  delays: {
    pollDelay: ({ context }) => pollDelayMs(context.polls),
  },
}).createMachine({
  id: 'payment',
  description: 'Paying for a greetie with Swish: started from the review (or picked up on its details page), awaited, then paid, declined, cancelled, expired or failed.',
  context: ({ input }) => ({
    greetieId: input.greetieId,
    device: input.device,
    payment: null,
    payerAlias: null,
    payerInvalid: false,
    polls: 0,
    readFailed: false,
    error: null,
  }),
  initial: 'opening',
  states: {
    opening: {
      description: 'The page opens the payment: a new one from the review, or the latest one on the details page.',
      on: {
        'user.opened': [
          {
            guard: 'resumes',
            target: 'checking',
            description: 'The details page (where Swish sends the payer back): read the latest payment.',
          },
          { target: 'starting', description: "'Betala med Swish' on the review: start a payment." },
        ],
      },
    },
    starting: {
      description: 'Asking the server for a Swish payment request (the same one again while one is open for the same payer).',
      tags: ['starting', 'busy'],
      entry: 'prepareStart',
      invoke: {
        id: 'startPayment',
        src: 'startPayment',
        input: ({ context }) => ({ greetieId: context.greetieId, payerAlias: context.payerAlias }),
        // startpayment answers an open payment (a new one, or the one still open for this payer).
        onDone: [
          {
            guard: { type: 'isForPayer', params: answered },
            target: '#payment.open.view.readingResult',
            actions: { type: 'storePayment', params: answered },
            description: "Sent to the payer's Swish number: wait for the answer from that phone.",
          },
          {
            target: '#payment.open.view.awaitingPayer',
            actions: { type: 'storePayment', params: answered },
            description: 'The request exists: show how to pay (the app button or the QR code).',
          },
        ],
        onError: {
          target: 'startFailed',
          actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
          description: 'The server refused or did not answer (sold out, a send limit, a bad Swish number, Swish unavailable…): its message is shown.',
        },
      },
    },
    checking: {
      description: 'Reading the latest payment (the server asks Swish when it is still open).',
      tags: ['checking', 'busy'],
      entry: 'prepareCheck',
      invoke: {
        id: 'readPayment',
        src: 'readPayment',
        input: ({ context }) => ({ greetieId: context.greetieId }),
        onDone: [
          ...settledBy('The payment as it stands'),
          {
            target: '#payment.open.view.readingResult',
            actions: { type: 'storePayment', params: answered },
            description: 'Still open: the person is back from Swish (or has it open elsewhere): wait for the answer.',
          },
        ],
        onError: [
          {
            guard: { type: 'isNotFound', params: ({ event }) => ({ error: event.error }) },
            target: 'none',
            description: 'No payment has been started for this greetie.',
          },
          {
            target: 'checkFailed',
            actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
            description: 'It could not be read: the reason and a way to try again.',
          },
        ],
      },
    },
    open: {
      description: 'The payment request is open in Swish: the page shows how to pay, or that it waits, while the payment is read again and again.',
      tags: ['open'],
      type: 'parallel',
      states: {
        view: {
          description: 'What the person sees.',
          initial: 'awaitingPayer',
          states: {
            awaitingPayer: {
              description: "Awaiting the payer: 'Öppna Swish' on a phone; the QR code and a field for the Swish number on a desktop.",
              tags: ['awaitingPayer'],
              on: {
                'user.showQr': { guard: 'onPhone', actions: 'showQr', description: "'Betala på en annan enhet': the QR code and the number field." },
                'user.showAppButton': { guard: 'onDesktop', actions: 'showAppButton', description: "'Betala med Swish på den här enheten': the app button." },
                'user.openedSwish': {
                  guard: 'onPhone',
                  target: 'readingResult',
                        description: "The person tapped 'Öppna Swish' (on the phone view): wait for the answer.",
                },
                'user.submitPayer': [
                  {
                    guard: 'isValidPayer',
                    target: '#payment.starting',
                    actions: 'assignPayer',
                    description: 'A Swedish mobile number: the payment starts again as a request to that Swish app.',
                  },
                  { guard: 'onDesktop', actions: 'markPayerInvalid', description: 'Not a Swedish mobile number: said under the field, nothing is sent.' },
                ],
              },
            },
            readingResult: {
              description: 'Reading the result: the person is in Swish; the page waits for the answer.',
              tags: ['readingResult'],
              on: {
                'user.changePayment': [
                  {
                    guard: 'hasAppLink',
                    target: 'awaitingPayer',
                    description: 'Show the app button or the QR code of the same request again.',
                  },
                  {
                    target: '#payment.starting',
                    actions: 'forgetPayer',
                    description: 'The request went to a Swish number: start a new one without it (the QR code and the app button).',
                  },
                ],
              },
            },
          },
        },
        poll: {
          description: 'The payment is read again until Swish has answered.',
          initial: 'waiting',
          states: {
            waiting: {
              description: 'Until the next read (the wait grows from 1 s to 5 s).',
              after: { pollDelay: { target: 'reading', description: 'Time to read the payment again.' } },
              on: { 'user.returned': { target: 'reading', description: 'The person came back to the page (from Swish): read it now.' } },
            },
            reading: {
              description: 'Reading the payment (the server asks Swish when it is still open).',
              invoke: {
                id: 'pollPayment',
                src: 'readPayment',
                input: ({ context }) => ({ greetieId: context.greetieId }),
                onDone: [
                  {
                    guard: { type: 'isStillOpen', params: ({ event }) => ({ payment: event.output }) },
                    target: 'waiting',
                    actions: { type: 'storeRead', params: ({ event }) => ({ payment: event.output }) },
                    description: 'Still open: wait and read again.',
                  },
                  ...settledBy('Swish has answered'),
                ],
                onError: { target: 'waiting', actions: 'markReadFailed', description: 'The read failed: the last answer stays; read again later.' },
              },
            },
          },
        },
      },
    },
    paid: {
      description: 'Paid: the receipt (what was bought, the total, the seller, when it is delivered).',
      tags: ['paid'],
      type: 'final',
    },
    declined: {
      description: 'The payer declined in Swish: try again, or back to the review.',
      tags: ['declined'],
      on: { 'user.retry': { target: 'starting', actions: 'forgetPayer', description: 'Try again: a new payment request.' } },
    },
    cancelled: {
      description: 'Cancelled in Swish: try again, or back to the review.',
      tags: ['cancelled'],
      on: { 'user.retry': { target: 'starting', actions: 'forgetPayer', description: 'Try again: a new payment request.' } },
    },
    expired: {
      description: 'Swish was not answered in time: try again, or back to the review.',
      tags: ['expired'],
      on: { 'user.retry': { target: 'starting', actions: 'forgetPayer', description: 'Try again: a new payment request.' } },
    },
    failed: {
      description: 'Something went wrong in Swish: try again, or back to the review.',
      tags: ['failed'],
      on: { 'user.retry': { target: 'starting', actions: 'forgetPayer', description: 'Try again: a new payment request.' } },
    },
    startFailed: {
      description: "The payment could not be started: the server's reason, a way to try again, or back to the review.",
      tags: ['startFailed'],
      on: { 'user.retry': { target: 'starting', actions: 'forgetPayer', description: 'Try again: a new payment request without a number.' } },
    },
    checkFailed: {
      description: 'The payment could not be read: the reason and a way to try again.',
      tags: ['checkFailed'],
      on: { 'user.retry': { target: 'checking', description: 'Read it again.' } },
    },
    none: {
      description: 'No payment has been started for this greetie (the details page shows nothing of it).',
      tags: ['none'],
      type: 'final',
    },
  },
});

export type PaymentMachine = typeof paymentMachine;
