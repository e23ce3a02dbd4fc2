import { addMinutes, differenceInMilliseconds } from 'date-fns';
import { assign, fromPromise, setup } from 'xstate';
import type { ErrorCode, Failure } from '../contract/errors.ts';
import { QR_TOKEN_PATTERN, UNDO_MINUTES, type Voucher, type VoucherRedemption } from '../contract/voucher.ts';
import { OUTCOME_UNKNOWN, isAmountFailure, readAmount, redemptionOf, type AmountReading } from './redeem.ts';

/**
 * Till mode in the merchant portal (/portal/{merchantId}/kassa): the staff, signed in on their own
 * phone, scan the QR code the customer's voucher shows (or type the token printed under it), see
 * the voucher, type the amount for a "value" voucher, and redeem it. No merchant code: the staff
 * member's sign-in stands in for it.
 *
 * idle ⇄ scanning → lookingUp → found → redeeming → undoable (offered ⇄ asking) → undoing →
 * undone | closed, and 'Skanna nästa' back to idle from each of the last.
 *
 * - The token: 10 characters of A–Z and 2–9 (GET /voucher/{id}/qr). Typed, it is read leniently
 *   (`readToken`: lower case and spaces are fine); nothing typed is TOKEN_REQUIRED, anything else
 *   TOKEN_MALFORMED, and nothing is sent. A scanned QR code that holds no token is TOKEN_MALFORMED
 *   too, and the camera keeps looking.
 * - The camera is the page's (a <video> and a detector); it reports `camera.found` with what it
 *   read, or `camera.failed` (permission denied, no camera): the till goes back to the typed field
 *   and says why in plain words.
 * - Looking up (POST …/scan) redeems nothing; its refusals (TOKEN_EXPIRED, TOKEN_NOT_FOUND,
 *   TOKEN_LOCKED, VOUCHER_EXPIRED, NETWORK …) go back to idle with their code. A voucher with nothing left is
 *   VOUCHER_ALREADY_REDEEMED, said on the phone.
 * - The amount of a value voucher is read as the customer's-phone till reads it (machines/redeem.ts
 *   `readAmount`: "150", "150,50"; more than 0, at most the balance), with what is left shown live.
 * - Every redeem attempt carries an Idempotency-Key; an attempt whose outcome is unknown (no
 *   answer, a server error) keeps it, so pressing 'Lös in' again with the same amount sends the
 *   same key. A refusal about the token (TOKEN_EXPIRED: used or expired, TOKEN_NOT_FOUND …) ends
 *   this voucher: back to idle to scan again; others (over the balance, no answer) stay on it.
 * - Redeemed: the large "Inlöst" with what was taken and what is left, and 'Ångra' for 10 minutes
 *   by the phone's clock (POST …/redemptions/{id}/undo after a confirmation); UNDO_TOO_LATE and
 *   ALREADY_UNDONE end it plainly.
 *
 * Side effects are named: the actors `scanToken` (POST /portal/merchants/{id}/scan),
 * `redeemToken` (POST …/redeem) and `undoRedemption` (POST …/redemptions/{redemptionId}/undo),
 * each rejecting with a Failure; the page group provides them (src/pages/portal/till/till.ts).
 *
 * Tags say what the page shows: `ready` (the typed field and 'Skanna kund'), `scanning` (the
 * camera), `lookingUp`, `found` (the voucher, the amount, 'Lös in'), `redeeming`, `redeemed`
 * (Inlöst with 'Ångra'), `undoAsk` (are you sure), `undoBusy`, `undone`, `closed` (Inlöst, no more 'Ångra').
 */

export interface TillModeInput {
  merchantId: string;
}

/** A redeem attempt sent with its Idempotency-Key, kept while its outcome is unknown. */
export interface TillAttempt {
  key: string;
  token: string;
  amount: number | null;
}

/** Why the camera cannot be used: the person said no, or the phone has none (or no browser support). */
export type CameraProblem = 'denied' | 'unavailable';

export interface TillModeContext {
  merchantId: string;
  /** The token field as typed. */
  tokenText: string;
  /** The token being looked up or redeemed (normalized). */
  token: string;
  /** Why the camera is not used, once it failed; the page says so over the typed field. */
  camera: CameraProblem | null;
  /** The voucher as the scan found it, then as the server answered a redeem or an undo. */
  voucher: Voucher | null;
  amountText: string;
  amount: AmountReading;
  attempt: TillAttempt | null;
  /** Why the last lookup, 'Lös in' or 'Ångra' was refused (a check of the phone's, or the server's answer). */
  error: Failure | null;
  redemption: VoucherRedemption | null;
  /** Until when (ISO-8601, the phone's clock) 'Ångra' is offered. */
  undoUntil: string | null;
}

export type TillModeEvent =
  | { type: 'user.token'; text: string }
  | { type: 'user.lookup' }
  | { type: 'user.scan' }
  | { type: 'user.stopScan' }
  | { type: 'camera.found'; text: string }
  | { type: 'camera.failed'; reason: CameraProblem }
  | { type: 'user.amount'; text: string }
  | { type: 'user.redeem' }
  | { type: 'user.cancel' }
  | { type: 'user.undo' }
  | { type: 'user.cancelUndo' }
  | { type: 'user.confirmUndo' }
  | { type: 'user.next' };

export const TILL_MODE_SCREENS = ['ready', 'scanning', 'lookingUp', 'found', 'redeeming', 'redeemed', 'undoAsk', 'undoBusy', 'undone', 'closed'] as const;
export type TillModeTag = (typeof TILL_MODE_SCREENS)[number];

const check = (code: Failure['code']): Failure => ({ status: 0, code, message: '', retryAt: null });

/** A voucher's QR token: 10 characters of A–Z and 2–9 (no 0/O, 1/I that read alike). */
export const TILL_TOKEN = new RegExp(QR_TOKEN_PATTERN);

/** A token as typed: spaces, dashes and case do not matter ("abcd efgh 23" is ABCDEFGH23). Empty, the token, or null for anything else. */
export function readToken(text: string): string | null {
  const cleaned = text.replace(/[\s-]+/gu, '').toUpperCase();
  if (cleaned === '') return '';
  return TILL_TOKEN.test(cleaned) ? cleaned : null;
}

/**
 * What a QR code read by the camera holds: the bare token, or a link that ends with it (a path
 * segment or a query value). Null when it holds no token (another shop's QR code, say).
 */
export function tokenFromScan(text: string): string | null {
  const bare = readToken(text);
  if (bare) return bare;
  const m = /(?:^|[/=#])([A-Za-z2-9]{10})\/?$/u.exec(text.trim());
  return m ? m[1]!.toUpperCase() : null;
}

/** Refusals about the token or the voucher itself: this voucher is done with, scan again. */
const TOKEN_GONE: ReadonlySet<Failure['code']> = new Set<Failure['code']>([
  'TOKEN_EXPIRED',
  'TOKEN_NOT_FOUND',
  'TOKEN_LOCKED',
  'VOUCHER_NOT_IN_STORE',
  'VOUCHER_NOT_FOUND',
  'VOUCHER_ALREADY_REDEEMED',
  'VOUCHER_EXPIRED',
  'FORBIDDEN',
  'NOT_FOUND',
]);

const UNDO_OVER: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['UNDO_TOO_LATE', 'ALREADY_UNDONE']);

const fresh = {
  token: '',
  voucher: null,
  amountText: '',
  amount: { kind: 'empty' } as AmountReading,
  attempt: null,
  error: null,
  redemption: null,
  undoUntil: null,
};

const amountToSend = (c: TillModeContext): number | null => (c.voucher?.kind === 'value' && c.amount.kind === 'ok' ? c.amount.ore : null);

export const tillModeMachine = setup({
  types: {
    context: {} as TillModeContext,
    events: {} as TillModeEvent,
    input: {} as TillModeInput,
    tags: {} as TillModeTag,
  },
  actors: {
    /** POST /portal/merchants/{id}/scan `{ token }` → the voucher, redeeming nothing; rejects with a Failure. */
    scanToken: fromPromise<Voucher, { merchantId: string; token: string }>(async () => {
      throw new Error('scanToken is not provided');
    }),
    /** POST /portal/merchants/{id}/redeem `{ token, amount? }` with the attempt's Idempotency-Key → the voucher after the redeem. */
    redeemToken: fromPromise<Voucher, { merchantId: string; token: string; amount: number | null; idempotencyKey: string }>(async () => {
      throw new Error('redeemToken is not provided');
    }),
    /** POST /portal/merchants/{id}/redemptions/{redemptionId}/undo → the voucher with the amount back. */
    undoRedemption: fromPromise<Voucher, { merchantId: string; redemptionId: string }>(async () => {
      throw new Error('undoRedemption is not provided');
    }),
  },
  actions: {
    assignTokenText: assign(({ event }) => (event.type === 'user.token' ? { tokenText: event.text } : {})),
    /** The typed token, normalized, about to be looked up. */
    takeTypedToken: assign(({ context }) => ({ token: readToken(context.tokenText) ?? '', error: null })),
    /** The scanned token, about to be looked up; the field shows it too. */
    takeScannedToken: assign(({ event }) => {
      const token = event.type === 'camera.found' ? (tokenFromScan(event.text) ?? '') : '';
      return { token, tokenText: token, error: null };
    }),
    assignTokenRequired: assign({ error: check('TOKEN_REQUIRED') }),
    assignTokenMalformed: assign({ error: check('TOKEN_MALFORMED') }),
    assignCameraProblem: assign(({ event }) => (event.type === 'camera.failed' ? { camera: event.reason } : {})),
    clearError: assign({ error: null }),
    startScan: assign({ error: null, camera: null }),
    storeFound: assign((_, p: { voucher: Voucher }) => ({ voucher: p.voucher, amountText: '', amount: { kind: 'empty' } as AmountReading, attempt: null, error: null })),
    assignUsedUp: assign({ error: check('VOUCHER_ALREADY_REDEEMED') }),
    readAmount: assign(({ context, event }) =>
      event.type === 'user.amount'
        ? {
            amountText: event.text,
            amount: readAmount(event.text, context.voucher?.balance ?? 0),
            error: context.error && isAmountFailure(context.error) ? null : context.error,
          }
        : {},
    ),
    assignAmountRequired: assign({ error: check('AMOUNT_REQUIRED') }),
    assignAmountRefused: assign(({ context }) => ({ error: context.amount.kind === 'refused' ? context.amount.failure : null })),
    /** The attempt about to be sent: the one whose outcome is unknown when it is the same (its key again), else a new key. */
    startAttempt: assign(({ context }) => {
      const amount = amountToSend(context);
      const same = context.attempt !== null && context.attempt.token === context.token && context.attempt.amount === amount;
      return { error: null, attempt: same ? context.attempt : { key: crypto.randomUUID(), token: context.token, amount } };
    }),
    assignFailure: assign((_, p: { error: Failure }) => ({ error: p.error })),
    endAttemptUnlessUnknown: assign(({ context }) => ({ attempt: context.error && OUTCOME_UNKNOWN.has(context.error.code) ? context.attempt : null })),
    /** The token is gone (used, expired) or the voucher cannot be used: start over with the field empty. */
    dropVoucher: assign({ voucher: null, token: '', tokenText: '', attempt: null, amountText: '', amount: { kind: 'empty' } as AmountReading }),
    storeRedeemed: assign(({ context }, p: { voucher: Voucher }) => ({
      voucher: p.voucher,
      redemption: redemptionOf(p.voucher, context.attempt?.amount ?? null),
      undoUntil: addMinutes(new Date(), UNDO_MINUTES).toISOString(),
      attempt: null,
      error: null,
    })),
    storeUndone: assign((_, p: { voucher: Voucher }) => ({ voucher: p.voucher, error: null })),
    startAgain: assign({ ...fresh, tokenText: '' }),
  },
  guards: {
    tokenEmpty: ({ context }) => readToken(context.tokenText) === '',
    tokenMalformed: ({ context }) => readToken(context.tokenText) === null,
    scannedToken: ({ event }) => event.type === 'camera.found' && tokenFromScan(event.text) !== null,
    usedUp: (_, p: { voucher: Voucher }) => p.voucher.balance <= 0,
    amountMissing: ({ context }) => context.voucher?.kind === 'value' && context.amount.kind === 'empty',
    amountRefused: ({ context }) => context.voucher?.kind === 'value' && context.amount.kind === 'refused',
    tokenGone: (_, p: { error: Failure }) => TOKEN_GONE.has(p.error.code),
    undoOver: (_, p: { error: Failure }) => UNDO_OVER.has(p.error.code as ErrorCode),
  },
  delays: {
    /** What is left of the 10 minutes by the phone's clock, in whole seconds rounded up. */
    undoWindow: ({ context }) =>
      context.undoUntil ? Math.max(0, Math.ceil(differenceInMilliseconds(new Date(context.undoUntil), new Date()) / 1000) * 1000) : 0,
  },
}).createMachine({
  id: 'tillMode',
  description:
    'Kassaläget i handlarportalen: personalen skannar kundens QR-kod (eller skriver koden), skriver beloppet för ett värdebevis och löser in; ångra inom 10 minuter.',
  context: ({ input }) => ({ merchantId: input.merchantId, tokenText: '', camera: null, ...fresh }),
  initial: 'idle',
  states: {
    idle: {
      description: "Kassaläget väntar: 'Skanna kund' (kameran) eller koden under QR-koden i fältet och 'Hämta'; ett nej visas här.",
      tags: ['ready'],
      on: {
        'user.token': { actions: 'assignTokenText', description: 'Personalen skriver koden (små bokstäver och mellanslag går bra).' },
        'user.lookup': [
          { guard: 'tokenEmpty', actions: 'assignTokenRequired', description: "'Hämta' utan kod: sägs under fältet, inget skickas." },
          {
            guard: 'tokenMalformed',
            actions: 'assignTokenMalformed',
            description: 'Det kan inte vara en kod (10 tecken, A–Z och 2–9): sägs under fältet, inget skickas.',
          },
          { target: 'lookingUp', actions: 'takeTypedToken', description: 'En kod som kan vara rätt: gåvan hämtas.' },
        ],
        'user.scan': { target: 'scanning', actions: 'startScan', description: "'Skanna kund': kameran startar." },
      },
    },
    scanning: {
      description: 'Kameran letar efter kundens QR-kod; fältet för koden finns kvar.',
      tags: ['scanning'],
      on: {
        'camera.found': [
          { guard: 'scannedToken', target: 'lookingUp', actions: 'takeScannedToken', description: 'En QR-kod med en kod: gåvan hämtas.' },
          { actions: 'assignTokenMalformed', description: 'En QR-kod som inte är en gåvas: det sägs, kameran letar vidare.' },
        ],
        'camera.failed': {
          target: 'idle',
          actions: 'assignCameraProblem',
          description: 'Ingen kamera, eller personalen sa nej till kameran: det förklaras, och fältet för koden gäller.',
        },
        'user.stopScan': { target: 'idle', actions: 'clearError', description: "'Skriv koden i stället': kameran stängs." },
      },
    },
    lookingUp: {
      description: 'Servern letar upp gåvan med koden (inget löses in).',
      tags: ['lookingUp'],
      invoke: {
        id: 'scanToken',
        src: 'scanToken',
        input: ({ context }) => ({ merchantId: context.merchantId, token: context.token }),
        onDone: [
          {
            guard: { type: 'usedUp', params: ({ event }) => ({ voucher: event.output }) },
            target: 'idle',
            actions: ['assignUsedUp', 'dropVoucher'],
            description: 'Gåvan är redan helt använd: det sägs, skanna nästa.',
          },
          {
            target: 'found',
            actions: { type: 'storeFound', params: ({ event }) => ({ voucher: event.output }) },
            description: 'Gåvan visas: vad det är och vad som finns kvar.',
          },
        ],
        onError: {
          target: 'idle',
          actions: { type: 'assignFailure', params: ({ event }) => ({ error: event.error as Failure }) },
          description: 'Nej (koden har gått ut, finns inte här, gåvan har gått ut) eller inget svar: skälet visas, koden står kvar i fältet.',
        },
      },
    },
    found: {
      description: "Gåvan visas; för ett värdebevis skriver personalen beloppet ('Belopp att dra') och ser direkt vad som blir kvar; sedan 'Lös in'.",
      tags: ['found'],
      on: {
        'user.amount': { actions: 'readAmount', description: "Personalen skriver beloppet: 'Kvar efter köpet' (eller vad som är fel) visas direkt." },
        'user.redeem': [
          { guard: 'amountMissing', actions: 'assignAmountRequired', description: "'Lös in' utan belopp på ett värdebevis: sägs under beloppet, inget skickas." },
          { guard: 'amountRefused', actions: 'assignAmountRefused', description: "'Lös in' med ett belopp som inte går: sägs under beloppet, inget skickas." },
          { target: 'redeeming', actions: 'startAttempt', description: "'Lös in': skickas med en egen nyckel (samma nyckel om förra försöket inte fick svar)." },
        ],
        'user.cancel': { target: 'idle', actions: 'startAgain', description: "'Avbryt': inget löses in, skanna nästa." },
      },
    },
    redeeming: {
      description: 'Servern drar beloppet (eller hela gåvan), en gång: samma nyckel drar aldrig två gånger, och koden kan bara lösas in en gång.',
      tags: ['redeeming'],
      invoke: {
        id: 'redeemToken',
        src: 'redeemToken',
        input: ({ context }) => ({
          merchantId: context.merchantId,
          token: context.attempt?.token ?? context.token,
          amount: context.attempt?.amount ?? null,
          idempotencyKey: context.attempt?.key ?? '',
        }),
        onDone: {
          target: 'undoable',
          actions: { type: 'storeRedeemed', params: ({ event }) => ({ voucher: event.output }) },
          description: 'Inlöst: ett stort "Inlöst" med vad som drogs och vad som är kvar.',
        },
        onError: [
          {
            guard: { type: 'tokenGone', params: ({ event }) => ({ error: event.error as Failure }) },
            target: 'idle',
            actions: [{ type: 'assignFailure', params: ({ event }) => ({ error: event.error as Failure }) }, 'dropVoucher'],
            description: 'Koden har gått ut eller är använd (eller gåvan finns inte, har gått ut): skälet visas, skanna igen.',
          },
          {
            target: 'found',
            actions: [{ type: 'assignFailure', params: ({ event }) => ({ error: event.error as Failure }) }, 'endAttemptUnlessUnknown'],
            description: 'Nej (mer än saldot) eller inget svar: skälet visas, personalen kan försöka igen (utan svar med samma nyckel).',
          },
        ],
      },
    },
    undoable: {
      description: "Inlöst, och i 10 minuter kan personalen ångra ('Ångra').",
      initial: 'offered',
      after: {
        undoWindow: { target: 'closed', actions: 'clearError', description: 'De 10 minuterna har gått: det går inte längre att ångra.' },
      },
      on: {
        'user.next': { target: 'idle', actions: 'startAgain', description: "'Skanna nästa': kassaläget för nästa kund." },
      },
      states: {
        offered: {
          description: 'Ett stort "Inlöst" med klockan som går, vad som drogs och vad som är kvar, \'Ångra\' och \'Skanna nästa\'.',
          tags: ['redeemed'],
          on: {
            'user.undo': { target: 'asking', actions: 'clearError', description: "Personalen trycker 'Ångra': en fråga om att ångra köpet." },
          },
        },
        asking: {
          description: "'Ångra köpet?' med 'Ja, ångra' och 'Avbryt'; ett nej från servern visas här.",
          tags: ['undoAsk'],
          on: {
            'user.confirmUndo': { target: '#tillMode.undoing', description: "'Ja, ångra': ångringen skickas." },
            'user.cancelUndo': { target: 'offered', actions: 'clearError', description: "'Avbryt': köpet står kvar." },
          },
        },
      },
    },
    undoing: {
      description: 'Servern lägger tillbaka beloppet på gåvan, en gång.',
      tags: ['undoBusy'],
      invoke: {
        id: 'undoRedemption',
        src: 'undoRedemption',
        input: ({ context }) => ({ merchantId: context.merchantId, redemptionId: context.redemption?.id ?? '' }),
        onDone: {
          target: 'undone',
          actions: { type: 'storeUndone', params: ({ event }) => ({ voucher: event.output }) },
          description: 'Ångrat: beloppet är tillbaka på gåvan.',
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
            description: 'Inget svar eller ett annat nej: skälet visas, personalen kan försöka igen.',
          },
        ],
      },
    },
    undone: {
      description: "Ångrat: beloppet är tillbaka och saldot visas; 'Skanna nästa'.",
      tags: ['undone'],
      on: {
        'user.next': { target: 'idle', actions: 'startAgain', description: "'Skanna nästa': kassaläget för nästa kund." },
      },
    },
    closed: {
      description: "Inlöst, och det går inte längre att ångra (tiden är slut eller det är redan ångrat): det sägs rakt ut; 'Skanna nästa'.",
      tags: ['closed'],
      on: {
        'user.next': { target: 'idle', actions: 'startAgain', description: "'Skanna nästa': kassaläget för nästa kund." },
      },
    },
  },
});
