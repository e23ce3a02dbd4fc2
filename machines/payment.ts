import { assign, fromCallback, fromPromise, setup, type EventObject } from 'xstate';
import type { Failure } from '../contract/errors.ts';
import type { Payment } from '../contract/payment.ts';
import { looksLikeSwedishMobile } from './auth.ts';

/**
 * Paying for a greetie with Swish. The review step starts it ('Betala med Swish'); the
 * greetie's details page, where the Swish app sends the payer back (often in a new tab), resumes
 * it from the server's latest payment and continues where it stands.
 *
 * - starting: POST /greetie/{id}/startpayment. Without a payer number it is Swish's m-commerce
 *   flow: on a phone the page offers 'Öppna Swish' (the payment's swish:// link), on a desktop the
 *   QR code and a field for the payer's Swish number; a number starts the payment again as
 *   e-commerce (the request pops up in that person's Swish app). Which one is shown starts from
 *   the device (`input.device`, the page asks a media query) and the person can switch.
 * - open (awaiting the payer, then reading the result): the server tells the page as soon as the
 *   payment changes (`paymentEvents`: GET …/payment/events, server-sent events, decision 116) and a
 *   final status there settles it at once. Reading it (GET …/payment) goes on as the fallback,
 *   slower (`pollDelay` from 2 s to 5 s), at once when the person comes back to the page and
 *   when the stream is back after a break. A read that fails keeps the last answer and tries again.
 * - paid | declined | cancelled | expired | failed (Swish's error): each is its own page; all but
 *   paid offer to try again (a new m-commerce request). Going back to the review is the page's.
 * - The withdrawal consent (decision 097): every startpayment carries the buyer's consent. Compose
 *   hands it over (`input.consented`, ticked at review); the details page starts without it, so
 *   trying again there asks for the tick first (`user.consented`, guard `hasConsent`).
 *
 * Side effects are the named actors `startPayment` and `readPayment`, given by the page group
 * (src/pages/greetie/payment/implementations.ts); they reject with the one `Failure`
 * (contract/errors.ts) and the machine reads its `code`. Each state the page shows carries one
 * of `PAYMENT_SCREENS` as a tag; `busy` says a call runs. Compose invokes this machine for its hand-over
 * (machines/compose.ts); the details page runs it on its own.
 */

export type PaymentDevice = 'phone' | 'desktop';

export interface PaymentInput {
  greetieId: string;
  /** What to show first for an m-commerce payment: the app button (phone) or the QR code (desktop). */
  device: PaymentDevice;
  /** The buyer ticked the withdrawal consent at review (compose hands it over); left out: not yet. */
  consented?: boolean;
}

/** What the machine ends with (a parent that invokes it reads it): the payment as it stands. */
export interface PaymentOutput {
  payment: Payment | null;
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
  error: Failure | null;
  /** The withdrawal consent is ticked: a payment may start (startpayment's `withdrawalConsent`). */
  consented: boolean;
  /** 'Försök igen' was pressed without the tick: the page says so at the box. */
  consentMissing: boolean;
  /** No consent was handed over (the details page): the page shows the box before trying again. */
  asksConsent: boolean;
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
  | { type: 'user.retry' }
  /** The withdrawal consent's box, ticked or not (asked before a new payment on the details page). */
  | { type: 'user.consented'; consented: boolean }
  /** The server's stream (GET …/payment/events) told of the payment as it is now. */
  | { type: 'stream.payment'; payment: Payment }
  /** The stream is open again after a break: anything may have happened meanwhile. */
  | { type: 'stream.reconnected' };

/** What the `paymentEvents` actor sends to the machine. */
export type PaymentStreamEvent = Extract<PaymentEvent, { type: 'stream.payment' | 'stream.reconnected' }>;

/**
 * What the page shows: every state the page shows carries exactly one of these tags (read with
 * `screenOf`, src/components/flow.ts); 'opening' is no state's, it is what shows before the
 * page has said what it opens.
 */
export const PAYMENT_SCREENS = ['opening', 'starting', 'checking', 'awaitingPayer', 'readingResult', 'paid', 'declined', 'cancelled', 'expired', 'failed', 'startFailed', 'checkFailed', 'none'] as const;
export type PaymentScreen = (typeof PAYMENT_SCREENS)[number];

export type PaymentTag = PaymentScreen | 'busy';

/**
 * The first wait before reading the payment again, and the longest: reading is the fallback of
 * the server's stream, which tells of a change as it happens.
 */
export const POLL_FIRST_MS = 2000;
export const POLL_MAX_MS = 5000;

/** The wait before the next read: 2 s, 3 s, 4.5 s, then 5 s. */
export function pollDelayMs(polls: number): number {
  return Math.min(Math.round(POLL_FIRST_MS * 1.5 ** polls), POLL_MAX_MS);
}

const isOpen = (p: Payment | null) => p !== null && (p.status === 'created' || p.status === 'pending');

/** The payment an answer carries, as the params of the guards and actions that read it. */
const answered = ({ event }: { event: { output: Payment } }) => ({ payment: event.output });

/** The failure an implementation rejected with (contract/errors.ts), as the params of the guards and actions that read it. */
const failed = ({ event }: { event: { error: unknown } }) => ({ failure: event.error as Failure });

/** The payment the server's stream told of. */
const streamed = ({ event }: { event: PaymentEvent }) => ({ payment: (event as Extract<PaymentEvent, { type: 'stream.payment' }>).payment });

/** Where each final answer leads (checking the payment, reading it again while open, or the stream's word). */
function settledBy<E>(why: string, params: (a: { event: E }) => { payment: Payment }) {
  const to = (guard: 'isPaid' | 'isDeclined' | 'isCancelled' | 'isExpired' | 'isError', target: string, what: string) => ({
    guard: { type: guard, params },
    target,
    actions: { type: 'storePayment' as const, params },
    description: `${why}: ${what}`,
  });
  return [
    to('isPaid', '#payment.paid', 'betald, kvittot visas.'),
    to('isDeclined', '#payment.ended.declined', 'den som betalar sa nej i Swish.'),
    to('isCancelled', '#payment.ended.cancelled', 'avbruten i Swish (eller i BankID).'),
    to('isExpired', '#payment.ended.expired', 'inte besvarad i tid.'),
    to('isError', '#payment.ended.failed', 'Swish rapporterade ett fel.'),
  ];
}

/** What startpayment sends: the payer (e-commerce) or none, and the buyer's withdrawal consent. */
export interface StartPaymentInput {
  greetieId: string;
  payerAlias: string | null;
  withdrawalConsent: boolean;
}

export const paymentMachine = setup({
  types: {
    context: {} as PaymentContext,
    events: {} as PaymentEvent,
    input: {} as PaymentInput,
    output: {} as PaymentOutput,
    tags: {} as PaymentTag,
  },
  actors: {
    /** POST /greetie/{id}/startpayment. */
    startPayment: fromPromise<Payment, StartPaymentInput>(async () => {
      throw new Error('startPayment is given by the page with paymentMachine.provide()');
    }),
    /** GET /greetie/{id}/payment. */
    readPayment: fromPromise<Payment, { greetieId: string }>(async () => {
      throw new Error('readPayment is given by the page with paymentMachine.provide()');
    }),
    /**
     * GET /greetie/{id}/payment/events: sends `stream.payment` for each payment the server tells
     * of, and `stream.reconnected` when it is back after a break. The page gives it; without it the
     * machine only reads.
     */
    paymentEvents: fromCallback<EventObject, { greetieId: string }>(() => undefined),
  },
  actions: {
    storePayment: assign((_, p: { payment: Payment }) => ({ payment: p.payment, error: null, readFailed: false })),
    storeRead: assign(({ context }, p: { payment: Payment }) => ({ payment: p.payment, readFailed: false, polls: context.polls + 1 })),
    markReadFailed: assign(({ context }) => ({ readFailed: true, polls: context.polls + 1 })),
    storeError: assign((_, p: { failure: Failure }) => ({ error: p.failure })),
    prepareStart: assign({ error: null, payerInvalid: false, polls: 0, readFailed: false }),
    prepareCheck: assign({ error: null, polls: 0 }),
    assignPayer: assign(({ event }) => (event.type === 'user.submitPayer' ? { payerAlias: event.payerAlias.trim(), payerInvalid: false } : {})),
    markPayerInvalid: assign({ payerInvalid: true }),
    forgetPayer: assign({ payerAlias: null }),
    showQr: assign({ device: 'desktop' as const, payerInvalid: false }),
    showAppButton: assign({ device: 'phone' as const, payerInvalid: false }),
    storeConsent: assign((_, p: { consented: boolean }) => ({ consented: p.consented, consentMissing: false })),
    markConsentMissing: assign({ consentMissing: true }),
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
    isNotFound: (_, p: { failure: Failure }) => p.failure.code === 'PAYMENT_NOT_FOUND',
    /** The number field is on the desktop view only, as the QR code is. */
    isValidPayer: ({ context, event }) => context.device === 'desktop' && event.type === 'user.submitPayer' && looksLikeSwedishMobile(event.payerAlias),
    onPhone: ({ context }) => context.device === 'phone',
    onDesktop: ({ context }) => context.device === 'desktop',
    /** The open payment is m-commerce: its app link and QR code can be shown again as they are. */
    hasAppLink: ({ context }) => context.payment?.token != null,
    /** The buyer has ticked the withdrawal consent (at review, or here). */
    hasConsent: ({ context }) => context.consented,
  },
  delays: {
    pollDelay: ({ context }) => pollDelayMs(context.polls),
  },
}).createMachine({
  id: 'payment',
  description: 'Betalning av en greetie med Swish: startas från granskningen (eller tas upp på detaljsidan), inväntas, och blir sedan betald, nekad, avbruten, för sen eller misslyckad.',
  context: ({ input }) => ({
    greetieId: input.greetieId,
    device: input.device,
    payment: null,
    payerAlias: null,
    payerInvalid: false,
    polls: 0,
    readFailed: false,
    error: null,
    consented: input.consented ?? false,
    consentMissing: false,
    asksConsent: !(input.consented ?? false),
  }),
  initial: 'opening',
  // What a parent (compose's hand-over) learns when it ends: the payment as it stands.
  output: ({ context }) => ({ payment: context.payment }),
  states: {
    opening: {
      description: 'Sidan öppnar betalningen: en ny från granskningen, eller den senaste på detaljsidan.',
      on: {
        'user.opened': [
          {
            guard: 'resumes',
            target: 'checking',
            description: 'Detaljsidan (dit Swish skickar tillbaka den som betalar): läs den senaste betalningen.',
          },
          { target: 'starting', description: "'Betala med Swish' i granskningen: starta en betalning." },
        ],
      },
    },
    starting: {
      description: 'Servern ombeds skapa en Swish-betalning (samma igen om en redan är öppen för samma betalare).',
      tags: ['starting', 'busy'],
      entry: 'prepareStart',
      invoke: {
        id: 'startPayment',
        src: 'startPayment',
        input: ({ context }) => ({ greetieId: context.greetieId, payerAlias: context.payerAlias, withdrawalConsent: context.consented }),
        // startpayment answers an open payment (a new one, or the one still open for this payer).
        onDone: [
          {
            guard: { type: 'isForPayer', params: answered },
            target: '#payment.open.view.readingResult',
            actions: { type: 'storePayment', params: answered },
            description: 'Skickad till betalarens Swish-nummer: vänta på svar från den telefonen.',
          },
          {
            target: '#payment.open.view.awaitingPayer',
            actions: { type: 'storePayment', params: answered },
            description: 'Betalningen är skapad: visa hur man betalar (knappen till appen eller QR-koden).',
          },
        ],
        onError: {
          target: 'ended.startFailed',
          actions: { type: 'storeError', params: failed },
          description: 'Servern sa nej eller svarade inte (slutsålt, en gräns för utskick, ett felaktigt Swish-nummer, Swish otillgängligt…): felmeddelandet visas.',
        },
      },
    },
    checking: {
      description: 'Den senaste betalningen läses (servern frågar Swish om den fortfarande är öppen).',
      tags: ['checking', 'busy'],
      entry: 'prepareCheck',
      invoke: {
        id: 'readPayment',
        src: 'readPayment',
        input: ({ context }) => ({ greetieId: context.greetieId }),
        onDone: [
          ...settledBy('Betalningen som den står', answered),
          {
            target: '#payment.open.view.readingResult',
            actions: { type: 'storePayment', params: answered },
            description: 'Fortfarande öppen: personen är tillbaka från Swish (eller har den öppen någon annanstans): vänta på svaret.',
          },
        ],
        onError: [
          {
            guard: { type: 'isNotFound', params: failed },
            target: 'none',
            description: 'Ingen betalning har startats för den här greetien.',
          },
          {
            target: 'checkFailed',
            actions: { type: 'storeError', params: failed },
            description: 'Den kunde inte läsas: skälet och ett sätt att försöka igen.',
          },
        ],
      },
    },
    open: {
      description: 'Betalningen är öppen i Swish: sidan visar hur man betalar, eller att den väntar, medan betalningen läses om och om igen.',
      type: 'parallel',
      states: {
        view: {
          description: 'Det personen ser.',
          initial: 'awaitingPayer',
          states: {
            awaitingPayer: {
              description: "Väntar på den som betalar: 'Öppna Swish' på en telefon; QR-koden och ett fält för Swish-numret på en dator.",
              tags: ['awaitingPayer'],
              on: {
                'user.showQr': { guard: 'onPhone', actions: 'showQr', description: "'Betala på en annan enhet': QR-koden och nummerfältet." },
                'user.showAppButton': { guard: 'onDesktop', actions: 'showAppButton', description: "'Betala med Swish på den här enheten': knappen till appen." },
                'user.openedSwish': {
                  guard: 'onPhone',
                  target: 'readingResult',
                        description: "Personen trycker 'Öppna Swish' (i telefonvyn): vänta på svaret.",
                },
                'user.submitPayer': [
                  {
                    guard: 'isValidPayer',
                    target: '#payment.starting',
                    actions: 'assignPayer',
                    description: 'Ett svenskt mobilnummer: betalningen startas om som en begäran till den Swish-appen.',
                  },
                  { guard: 'onDesktop', actions: 'markPayerInvalid', description: 'Inte ett svenskt mobilnummer: sägs under fältet, inget skickas.' },
                ],
              },
            },
            readingResult: {
              description: 'Väntar på resultatet: personen är i Swish; sidan väntar på svaret.',
              tags: ['readingResult'],
              on: {
                'user.changePayment': [
                  {
                    guard: 'hasAppLink',
                    target: 'awaitingPayer',
                    description: 'Visa knappen till appen eller QR-koden för samma betalning igen.',
                  },
                  {
                    target: '#payment.starting',
                    actions: 'forgetPayer',
                    description: 'Betalningen gick till ett Swish-nummer: starta en ny utan nummer (QR-koden och knappen till appen).',
                  },
                ],
              },
            },
          },
        },
        poll: {
          description: 'Betalningen läses om tills Swish har svarat.',
          initial: 'waiting',
          states: {
            waiting: {
              description: 'Tills nästa läsning (väntan växer från 1 s till 5 s).',
              after: { pollDelay: { target: 'reading', description: 'Dags att läsa betalningen igen.' } },
              on: {
                'user.returned': { target: 'reading', description: 'Personen kom tillbaka till sidan (från Swish): läs den nu.' },
                'stream.reconnected': { target: 'reading', description: 'Serverns ström är tillbaka efter ett avbrott: läs betalningen nu.' },
              },
            },
            reading: {
              description: 'Betalningen läses (servern frågar Swish om den fortfarande är öppen).',
              invoke: {
                id: 'pollPayment',
                src: 'readPayment',
                input: ({ context }) => ({ greetieId: context.greetieId }),
                onDone: [
                  {
                    guard: { type: 'isStillOpen', params: ({ event }) => ({ payment: event.output }) },
                    target: 'waiting',
                    actions: { type: 'storeRead', params: ({ event }) => ({ payment: event.output }) },
                    description: 'Fortfarande öppen: vänta och läs igen.',
                  },
                  ...settledBy('Swish har svarat', answered),
                ],
                onError: { target: 'waiting', actions: 'markReadFailed', description: 'Läsningen misslyckades: det senaste svaret står kvar; läs igen senare.' },
              },
            },
          },
        },
        listen: {
          description: 'Servern säger till så fort betalningen ändras (server-sent events); läsningarna är reserven.',
          invoke: { id: 'paymentEvents', src: 'paymentEvents', input: ({ context }) => ({ greetieId: context.greetieId }) },
          // An open payment told of changes nothing: the page already waits for it.
          on: { 'stream.payment': settledBy('Servern berättade', streamed) },
        },
      },
    },
    paid: {
      description: 'Betald: kvittot (vad som köptes, summan, säljaren, när den levereras).',
      tags: ['paid'],
      type: 'final',
    },
    ended: {
      initial: 'failed',
      description: 'Betalningen blev inte av (nekad, avbruten, för sen, fel i Swish, eller kunde inte startas): försök igen, eller tillbaka till granskningen.',
      on: {
        'user.consented': {
          actions: { type: 'storeConsent', params: ({ event }) => ({ consented: event.consented }) },
          description: 'Personen kryssar i (eller ur) rutan om leverans direkt och ångerrätten.',
        },
        'user.retry': [
          { guard: 'hasConsent', target: 'starting', actions: 'forgetPayer', description: 'Försök igen: en ny betalning utan nummer (rutan om ångerrätten är ikryssad).' },
          {
            actions: 'markConsentMissing',
            description: 'Försök igen utan ikryssad ruta om ångerrätten: ingen betalning startar; felet sägs vid rutan, som får fokus.',
          },
        ],
      },
      states: {
        declined: { description: 'Den som betalar sa nej i Swish.', tags: ['declined'] },
        cancelled: { description: 'Avbruten i Swish (eller i BankID).', tags: ['cancelled'] },
        expired: { description: 'Swish besvarades inte i tid.', tags: ['expired'] },
        failed: { description: 'Något gick fel i Swish.', tags: ['failed'] },
        startFailed: { description: 'Betalningen kunde inte startas: serverns skäl visas.', tags: ['startFailed'] },
      },
    },
    checkFailed: {
      description: 'Betalningen kunde inte läsas: skälet och ett sätt att försöka igen.',
      tags: ['checkFailed'],
      on: { 'user.retry': { target: 'checking', description: 'Läs den igen.' } },
    },
    none: {
      description: 'Ingen betalning har startats för den här greetien (detaljsidan visar inget om den).',
      tags: ['none'],
      type: 'final',
    },
  },
});
