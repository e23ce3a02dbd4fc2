import { addMinutes, differenceInMilliseconds } from 'date-fns';
import { assign, fromPromise, not, setup } from 'xstate';
import type { ErrorCode, Failure } from '../contract/errors.ts';
import { UNDO_MINUTES, type Voucher, type VoucherRedemption } from '../contract/voucher.ts';
import { MERCHANT_CODE_PATTERN } from '../contract/merchant.ts';

/**
 * Redeeming one voucher at the till (/redeem/voucher/{id}), and undoing it within 10 minutes: the
 * customer shows the voucher; for a "value" voucher the staff first type the amount to use, in
 * kronor ('Belopp'), and see at once what stays on it; then the merchant's code ('Handlarkod') and
 * 'Lös in'. A "fixed" voucher is used whole: no amount.
 *
 * idle → validating → submitting → undoable (offered ⇄ asking) → undoing → undone | closed.
 *
 * - The amount is read as it is typed (`readAmount`: "150", "150,50"; more than 0, at most the
 *   balance); a refusal keeps the staff in idle with its code (AMOUNT_REQUIRED, AMOUNT_MALFORMED,
 *   AMOUNT_TOO_SMALL, AMOUNT_OVER_BALANCE) and nothing is sent.
 * - The code is checked here before anything is sent: an empty one never leaves idle, one that
 *   cannot be a merchant code (4–16 letters and digits) goes back to idle from validating; the
 *   server never hears of them, so they cost none of the voucher's five tries.
 * - Every attempt carries an Idempotency-Key (a random UUID). An attempt whose outcome is unknown (no answer, a
 *   server error, the first still in progress) keeps its key: pressing 'Lös in' again with the
 *   same amount and code sends the same key, so the server answers what it did and never takes
 *   twice. Any other answer ends the attempt; the next one has a new key.
 * - The server's refusals go back to idle with their code: MERCHANT_CODE_WRONG,
 *   VOUCHER_BALANCE_TOO_LOW, VOUCHER_ALREADY_REDEEMED, VOUCHER_EXPIRED, VOUCHER_LOCKED (with when
 *   to try again).
 * - Redeemed, the till says what was taken and what is left, and offers 'Ångra' until 10 minutes
 *   after the answer came (the phone's own clock, so a phone set wrong does not matter; the server
 *   has the last word). The staff type the code again; the amount goes back on the voucher. After
 *   10 minutes, or when the server says UNDO_TOO_LATE or ALREADY_UNDONE, it says so and ends.
 *
 * Every refusal is kept as one Failure (contract/errors.ts); the page words it by its code.
 *
 * Side effects are named: the pure checks `checkCode` (an actor) and `readAmount` (exported), the
 * actors `redeemVoucher` (POST /voucher/redeem) and `undoRedemption` (POST
 * /voucher/{id}/redemptions/{redemptionId}/undo), rejecting with a Failure, and the action
 * `announceVoucher` (tell the voucher store, so every list shows
 * the voucher as the till left it without a reload). The page group provides the actors and the
 * action with `.provide()` (src/pages/redeem/redeem.ts).
 *
 * Tags say what the page shows: `ready` (the form), `busy` (sending), `redeemed` (Inlöst, with
 * 'Ångra'), `undoAsk` (the code again), `undoBusy`, `undone`, `closed` (Inlöst, no more 'Ångra').
 */

export interface RedeemInput {
  /** The voucher as the till screen loaded it. */
  voucher: Voucher;
}

/** An attempt sent with its Idempotency-Key, kept while its outcome is unknown. */
export interface RedeemAttempt {
  key: string;
  merchantCode: string;
  amount: number | null;
}

export interface RedeemContext {
  /** The voucher as last known: loaded, then as the server answered a redeem or an undo. */
  voucher: Voucher;
  /** The amount field as typed (value vouchers). */
  amountText: string;
  /** What the field says now: öre (1 ≤ amount ≤ balance), a refusal, or nothing typed. */
  amount: AmountReading;
  /** The code as sent (trimmed). */
  merchantCode: string;
  /** The attempt being sent, or the last one whose outcome is unknown; null otherwise. */
  attempt: RedeemAttempt | null;
  /** Why the last 'Lös in' or 'Ångra' was refused (a check of the phone's, or the server's answer). */
  error: Failure | null;
  /** The redemption this till made. */
  redemption: VoucherRedemption | null;
  /** Until when (ISO-8601, the phone's clock) 'Ångra' is offered. */
  undoUntil: string | null;
}

export type RedeemEvent =
  | { type: 'user.amount'; text: string }
  | { type: 'user.submit'; merchantCode: string }
  | { type: 'user.undo' }
  | { type: 'user.cancelUndo' }
  | { type: 'user.confirmUndo'; merchantCode: string }
  | { type: 'user.again' };

/** What the till shows; every state has exactly one of these tags. */
export const REDEEM_SCREENS = ['ready', 'busy', 'redeemed', 'undoAsk', 'undoBusy', 'undone', 'closed'] as const;
export type RedeemTag = (typeof REDEEM_SCREENS)[number];

const check = (code: Failure['code']): Failure => ({ status: 0, code, message: '', retryAt: null });

/** The phone's own refusals: nothing typed (the server's code for it), or not a merchant code. */
const missingCode = check('MERCHANT_CODE_REQUIRED');
const malformedCode = check('MERCHANT_CODE_MALFORMED');

/** An amount as read from the field: nothing yet, öre, or why it cannot be used. */
export type AmountReading = { kind: 'empty' } | { kind: 'ok'; ore: number } | { kind: 'refused'; failure: Failure };

// Kronor as staff type them: digits, then a comma (or a point) and up to two digits of öre ("150,"
// on its way to "150,50" is 150 kr, not an error). Spaces (a thousands separator, a no-break one)
// and a trailing "kr" are allowed.
const KRONOR = /^(\d{1,7})(?:[.,](\d{0,2}))?$/;

/**
 * The amount field read as kronor, strictly: "150" → 15000 öre, "150,50" and "150.5" → 15050,
 * "1 000" → 100000. Empty is `empty`; anything else that is not kronor with at most two decimals
 * is AMOUNT_MALFORMED, 0 is AMOUNT_TOO_SMALL and more than the balance as the phone knows it
 * AMOUNT_OVER_BALANCE (the server's VOUCHER_BALANCE_TOO_LOW is its own answer: the balance may
 * have changed since the page loaded it).
 */
export function readAmount(text: string, balance: number): AmountReading {
  const cleaned = text.replace(/\s+/gu, '').replace(/kr$/iu, '');
  if (cleaned === '') return { kind: 'empty' };
  const m = KRONOR.exec(cleaned);
  if (!m) return { kind: 'refused', failure: check('AMOUNT_MALFORMED') };
  const ore = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  if (ore < 1) return { kind: 'refused', failure: check('AMOUNT_TOO_SMALL') };
  if (ore > balance) return { kind: 'refused', failure: check('AMOUNT_OVER_BALANCE') };
  return { kind: 'ok', ore };
}

/** The refusals that are about the amount (the page shows them under the amount field). */
export const AMOUNT_CODES: ReadonlySet<Failure['code']> = new Set<Failure['code']>([
  'AMOUNT_REQUIRED',
  'AMOUNT_MALFORMED',
  'AMOUNT_TOO_SMALL',
  'AMOUNT_OVER_BALANCE',
  'VOUCHER_BALANCE_TOO_LOW',
]);
export const isAmountFailure = (f: Failure): boolean => AMOUNT_CODES.has(f.code);

/** The öre a redeem asks for: the amount typed for a value voucher, nothing (the whole) for a fixed one. */
const amountToSend = (c: RedeemContext): number | null => (c.voucher.kind === 'value' && c.amount.kind === 'ok' ? c.amount.ore : null);

/**
 * Answers after which nobody knows whether the redeem was made: no answer, a server error, the
 * same key still being answered. The attempt keeps its key so that pressing again cannot take twice.
 */
export const OUTCOME_UNKNOWN: ReadonlySet<Failure['code']> = new Set<Failure['code']>([
  'NETWORK',
  'UNKNOWN',
  'INTERNAL_ERROR',
  'BAD_GATEWAY',
  'SERVICE_UNAVAILABLE',
  'DB_UNAVAILABLE',
  'IDEMPOTENCY_KEY_IN_PROGRESS',
]);

/** The undo's refusals that end it: the time is up, or it was undone already. */
const UNDO_OVER: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['UNDO_TOO_LATE', 'ALREADY_UNDONE']);

/** The redemption a redeem's answer carries: the newest not undone of the amount asked (the whole balance for none). */
export function redemptionOf(voucher: Voucher, amount: number | null): VoucherRedemption | null {
  const candidates = voucher.redemptions.filter((r) => !r.undone && (amount === null || r.amount === amount));
  return candidates.at(-1) ?? null;
}

// The rule every merchant code is made by (contract/merchant.ts): what cannot match it is never sent.
const codePattern = new RegExp(MERCHANT_CODE_PATTERN);

export const redeemMachine = setup({
  types: {
    context: {} as RedeemContext,
    events: {} as RedeemEvent,
    input: {} as RedeemInput,
    tags: {} as RedeemTag,
  },
  actors: {
    /**
     * The phone's own check of a code (pure, so it is the machine's): something that can be a
     * merchant code, trimmed, or a refusal with MERCHANT_CODE_MALFORMED.
     */
    checkCode: fromPromise<string, { merchantCode: string }>(async ({ input }) => {
      const code = input.merchantCode.trim();
      if (!codePattern.test(code)) throw malformedCode;
      return code;
    }),
    /**
     * POST /voucher/redeem `{ voucherId, merchantCode, amount? }` with the attempt's
     * Idempotency-Key → the voucher as it is after the redeem; rejects with a Failure.
     */
    redeemVoucher: fromPromise<Voucher, { voucherId: string; merchantCode: string; amount: number | null; idempotencyKey: string }>(async () => {
      throw new Error('redeemVoucher is not provided');
    }),
    /** POST /voucher/{id}/redemptions/{redemptionId}/undo `{ merchantCode }` → the voucher with the amount back; rejects with a Failure. */
    undoRedemption: fromPromise<Voucher, { voucherId: string; redemptionId: string; merchantCode: string }>(async () => {
      throw new Error('undoRedemption is not provided');
    }),
  },
  actions: {
    /** The field read as typed; a refusal of the amount given at 'Lös in' gives way to what it says now. */
    readAmount: assign(({ context, event }) =>
      event.type === 'user.amount'
        ? {
            amountText: event.text,
            amount: readAmount(event.text, context.voucher.balance),
            error: context.error && isAmountFailure(context.error) ? null : context.error,
          }
        : {},
    ),
    assignAmountRequired: assign({ error: check('AMOUNT_REQUIRED') }),
    assignAmountRefused: assign(({ context }) => ({ error: context.amount.kind === 'refused' ? context.amount.failure : null })),
    assignCode: assign(({ event }) => (event.type === 'user.submit' || event.type === 'user.confirmUndo' ? { merchantCode: event.merchantCode.trim(), error: null } : {})),
    assignMissingCode: assign({ error: missingCode }),
    assignInvalidCode: assign({ error: malformedCode }),
    /**
     * The attempt about to be sent: the one whose outcome is unknown when it is the same amount
     * and code (its key again, so the server answers what it did), else a new one with a new key.
     */
    startAttempt: assign(({ context }) => {
      const amount = amountToSend(context);
      const same = context.attempt !== null && context.attempt.merchantCode === context.merchantCode && context.attempt.amount === amount;
      return { attempt: same ? context.attempt : { key: crypto.randomUUID(), merchantCode: context.merchantCode, amount } };
    }),
    /** A refusal: kept, and the attempt kept only when nobody knows whether it was made. */
    assignRedeemFailure: assign((_, p: { error: Failure }) => ({ error: p.error })),
    endAttemptUnlessUnknown: assign(({ context }) => ({ attempt: context.error && OUTCOME_UNKNOWN.has(context.error.code) ? context.attempt : null })),
    assignFailure: assign((_, p: { error: Failure }) => ({ error: p.error })),
    clearError: assign({ error: null }),
    storeRedeemed: assign(({ context }, p: { voucher: Voucher }) => ({
      voucher: p.voucher,
      redemption: redemptionOf(p.voucher, context.attempt?.amount ?? null),
      undoUntil: addMinutes(new Date(), UNDO_MINUTES).toISOString(),
      attempt: null,
      error: null,
    })),
    storeUndone: assign((_, p: { voucher: Voucher }) => ({ voucher: p.voucher, error: null })),
    startAgain: assign(() => ({
      amountText: '',
      amount: { kind: 'empty' } as AmountReading,
      merchantCode: '',
      attempt: null,
      error: null,
      redemption: null,
      undoUntil: null,
    })),
    /** Tell the voucher store (every list, the selected voucher, the greetie's vouchers). Provided by the app. */
    announceVoucher: (_, _p: { voucher: Voucher }) => {},
  },
  guards: {
    /** A value voucher with nothing in the amount field: nothing is sent. */
    amountMissing: ({ context }) => context.voucher.kind === 'value' && context.amount.kind === 'empty',
    /** A value voucher whose amount cannot be used (not kronor, 0, more than the balance): nothing is sent. */
    amountRefused: ({ context }) => context.voucher.kind === 'value' && context.amount.kind === 'refused',
    /** False for an empty code (or only spaces): nothing is checked, nothing is sent. */
    hasCode: ({ event }) => (event.type === 'user.submit' || event.type === 'user.confirmUndo') && event.merchantCode.trim() !== '',
    /** A code typed for the undo that cannot be a merchant code: nothing is sent. */
    codeMalformed: ({ event }) => event.type === 'user.confirmUndo' && !codePattern.test(event.merchantCode.trim()),
    undoOver: (_, p: { error: Failure }) => UNDO_OVER.has(p.error.code as ErrorCode),
  },
  delays: {
    /**
     * What is left of the 10 minutes by the phone's clock (date-fns), in whole seconds rounded up:
     * the window never closes early, and read again a moment later it is the same delay.
     */
    undoWindow: ({ context }) =>
      context.undoUntil ? Math.max(0, Math.ceil(differenceInMilliseconds(new Date(context.undoUntil), new Date()) / 1000) * 1000) : 0,
  },
}).createMachine({
  id: 'redeem',
  description: 'En gåva löses in i kassan med handlarkoden (ett värdebevis med ett belopp), och kan ångras inom 10 minuter.',
  context: ({ input }) => ({
    voucher: input.voucher,
    amountText: '',
    amount: { kind: 'empty' },
    merchantCode: '',
    attempt: null,
    error: null,
    redemption: null,
    undoUntil: null,
  }),
  initial: 'idle',
  states: {
    idle: {
      description:
        "Kassaskärmen väntar: för ett värdebevis skriver personalen beloppet ('Belopp') och ser direkt vad som blir kvar, sedan handlarkoden ('Handlarkod') och 'Lös in'; ett nej visas här.",
      tags: ['ready'],
      on: {
        'user.amount': { actions: 'readAmount', description: "Personalen skriver beloppet: 'Kvar efter köpet' (eller vad som är fel) visas direkt." },
        'user.submit': [
          { guard: 'amountMissing', actions: 'assignAmountRequired', description: "'Lös in' utan belopp på ett värdebevis: sägs under beloppet, inget skickas." },
          {
            guard: 'amountRefused',
            actions: 'assignAmountRefused',
            description: "'Lös in' med ett belopp som inte går (inte kronor, 0 kr, mer än saldot): sägs under beloppet, inget skickas.",
          },
          { guard: 'hasCode', target: 'validating', actions: 'assignCode', description: "'Lös in' med en kod: den kontrolleras innan något skickas." },
          { actions: 'assignMissingCode', description: "'Lös in' utan att koden är ifylld: sägs under fältet, inget skickas." },
        ],
      },
    },
    validating: {
      description: 'Telefonen kontrollerar koden: 4–16 bokstäver och siffror, som alla handlarkoder.',
      tags: ['busy'],
      invoke: {
        id: 'checkCode',
        src: 'checkCode',
        input: ({ context }) => ({ merchantCode: context.merchantCode }),
        onDone: {
          target: 'submitting',
          actions: 'startAttempt',
          description: 'Det kan vara en handlarkod: skicka den, med en egen nyckel för försöket (samma nyckel om förra försöket inte fick svar).',
        },
        onError: {
          target: 'idle',
          actions: 'assignInvalidCode',
          description: 'Det kan inte vara en handlarkod: sägs under fältet, inget skickas (det kostar inget av de fem försöken).',
        },
      },
    },
    submitting: {
      description: 'Servern kontrollerar koden och drar beloppet (eller hela gåvan), en gång: samma nyckel drar aldrig två gånger.',
      tags: ['busy'],
      invoke: {
        id: 'redeemVoucher',
        src: 'redeemVoucher',
        input: ({ context }) => ({
          voucherId: context.voucher.id,
          merchantCode: context.merchantCode,
          amount: context.attempt?.amount ?? null,
          idempotencyKey: context.attempt?.key ?? '',
        }),
        onDone: {
          target: 'undoable',
          actions: [
            { type: 'storeRedeemed', params: ({ event }) => ({ voucher: event.output }) },
            { type: 'announceVoucher', params: ({ event }) => ({ voucher: event.output }) },
          ],
          description: 'Inlöst: alla listor uppdateras, kassan visar "Inlöst" med vad som drogs och vad som är kvar.',
        },
        onError: {
          target: 'idle',
          actions: [{ type: 'assignRedeemFailure', params: ({ event }) => ({ error: event.error as Failure }) }, 'endAttemptUnlessUnknown'],
          description:
            'Nej (fel kod, mer än saldot, redan inlöst, för gammal, låst) eller inget svar: skälet visas, personalen kan försöka igen (utan svar med samma nyckel).',
        },
      },
    },
    undoable: {
      description: "Inlöst, och i 10 minuter kan personalen ångra ('Ångra').",
      initial: 'offered',
      after: {
        undoWindow: { target: 'closed', actions: 'clearError', description: 'De 10 minuterna har gått: det går inte längre att ångra.' },
      },
      states: {
        offered: {
          description: 'Ett stort "Inlöst" med klockan som går, vad som drogs och vad som är kvar, och knappen \'Ångra\'.',
          tags: ['redeemed'],
          on: {
            'user.undo': { target: 'asking', actions: 'clearError', description: "Personalen trycker 'Ångra': handlarkoden igen." },
          },
        },
        asking: {
          description: "Personalen skriver handlarkoden igen och trycker 'Ångra köpet'; ett nej visas här.",
          tags: ['undoAsk'],
          on: {
            'user.confirmUndo': [
              { guard: not('hasCode'), actions: 'assignMissingCode', description: 'Ingen kod: sägs under fältet, inget skickas.' },
              {
                guard: 'codeMalformed',
                actions: 'assignInvalidCode',
                description: 'Det kan inte vara en handlarkod (4–16 bokstäver och siffror): sägs under fältet, inget skickas.',
              },
              { target: '#redeem.undoing', actions: 'assignCode', description: 'En kod som kan vara rätt: ångringen skickas.' },
            ],
            'user.cancelUndo': { target: 'offered', actions: 'clearError', description: "'Avbryt': köpet står kvar." },
          },
        },
      },
    },
    undoing: {
      description: 'Servern kontrollerar koden och lägger tillbaka beloppet på gåvan, en gång.',
      tags: ['undoBusy'],
      invoke: {
        id: 'undoRedemption',
        src: 'undoRedemption',
        input: ({ context }) => ({ voucherId: context.voucher.id, redemptionId: context.redemption?.id ?? '', merchantCode: context.merchantCode }),
        onDone: {
          target: 'undone',
          actions: [
            { type: 'storeUndone', params: ({ event }) => ({ voucher: event.output }) },
            { type: 'announceVoucher', params: ({ event }) => ({ voucher: event.output }) },
          ],
          description: 'Ångrat: beloppet är tillbaka på gåvan, alla listor uppdateras.',
        },
        onError: [
          {
            guard: { type: 'undoOver', params: ({ event }) => ({ error: event.error as Failure }) },
            target: 'closed',
            actions: { type: 'assignFailure', params: ({ event }) => ({ error: event.error as Failure }) },
            description: 'För sent (mer än 10 minuter) eller redan ångrat: det sägs rakt ut, ingen mer ångring.',
          },
          {
            target: 'undoable.asking',
            actions: { type: 'assignFailure', params: ({ event }) => ({ error: event.error as Failure }) },
            description: 'Nej (fel kod, låst) eller inget svar: skälet visas, personalen kan försöka igen.',
          },
        ],
      },
    },
    undone: {
      description: 'Ångrat: beloppet är tillbaka och saldot visas; personalen kan lösa in på nytt.',
      tags: ['undone'],
      on: {
        'user.again': { target: 'idle', actions: 'startAgain', description: "'Lös in på nytt': kassaskärmen med saldot som det är nu." },
      },
    },
    closed: {
      description: 'Inlöst, och det går inte längre att ångra (tiden är slut eller det är redan ångrat): det sägs rakt ut.',
      tags: ['closed'],
      type: 'final',
    },
  },
});
