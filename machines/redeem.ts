import { assign, fromPromise, setup } from 'xstate';
import type { Voucher } from '../contract/voucher.ts';
import { MERCHANT_CODE_PATTERN } from '../contract/merchant.ts';

/**
 * Redeeming one voucher at the till (/redeem/voucher/{id}): the customer shows the voucher, the
 * staff type the merchant's code ('Handlarkod') and press 'Lös in'.
 *
 * idle → validating → submitting → redeemed. The code is checked here before anything is sent: an
 * empty one never leaves idle (the guard says no), and one that cannot be a merchant code (the
 * contract's rule, 4–16 letters and digits) goes back to idle from validating; both with their own
 * message, and the server never hears of them, so they cost none of the voucher's five tries. The server's refusals each go back to idle with their own message: a wrong
 * code (400), already redeemed (409), expired (410), locked after five wrong codes (429, with when
 * to try again from Retry-After).
 *
 * Side effects are named: the pure check `checkCode` (the machine's own), the actor `redeemVoucher` (POST /voucher/redeem) and the action
 * `announceRedeemed` (tell the voucher store, so every list shows it redeemed without a reload).
 * The app provides them with `.provide()`.
 *
 * Tags say what the page shows: `ready` (the form), `busy` (sending), `redeemed`.
 */

export interface RedeemInput {
  voucherId: string;
}

export type RedeemErrorReason = 'missingCode' | 'malformedCode' | 'wrongCode' | 'alreadyRedeemed' | 'expired' | 'locked' | 'notFound' | 'unknown';

export interface RedeemError {
  reason: RedeemErrorReason;
  /** When a locked voucher can be tried again (ISO-8601), from Retry-After. */
  retryAt?: string;
  /** The server's own text (already in the request's language), for reasons without a message of ours. */
  message?: string;
}

/**
 * What the app's `redeemVoucher` rejects with: the answer's status, and for a 429 the moment
 * Retry-After points to (the app knows the time; the machine stays pure).
 */
export interface RedeemFailure {
  status: number;
  code?: string;
  message?: string;
  retryAt?: string;
}

export interface RedeemContext {
  voucherId: string;
  /** The code as sent (trimmed). */
  merchantCode: string;
  error: RedeemError | null;
  /** The voucher as the server answered once redeemed. */
  voucher: Voucher | null;
}

export type RedeemEvent = { type: 'user.submit'; merchantCode: string };

export type RedeemTag = 'ready' | 'busy' | 'redeemed';

// The rule every merchant code is made by (contract/merchant.ts): what cannot match it is never sent.
const codePattern = new RegExp(MERCHANT_CODE_PATTERN);

const reasonByCode: Record<string, RedeemErrorReason> = {
  MERCHANT_CODE_REQUIRED: 'missingCode',
  MERCHANT_CODE_WRONG: 'wrongCode',
  VOUCHER_ALREADY_REDEEMED: 'alreadyRedeemed',
  VOUCHER_EXPIRED: 'expired',
  VOUCHER_LOCKED: 'locked',
  VOUCHER_NOT_FOUND: 'notFound',
};
const reasonByStatus: Record<number, RedeemErrorReason> = { 400: 'wrongCode', 404: 'notFound', 409: 'alreadyRedeemed', 410: 'expired', 429: 'locked' };

/** Turns whatever `redeemVoucher` rejected with into the message the page shows. */
export function toRedeemError(error: unknown): RedeemError {
  const e = (typeof error === 'object' && error !== null ? error : {}) as Partial<RedeemFailure>;
  // The server's code says it; the status is the fallback. A 400 that is not about the code (a
  // malformed request) is not "wrong code".
  const byCode = e.code ? reasonByCode[e.code] : undefined;
  const reason = byCode ?? (e.status === 400 && e.code === 'VALIDATION_FAILED' ? undefined : reasonByStatus[e.status ?? 0]) ?? 'unknown';
  return {
    reason,
    ...(reason === 'locked' && typeof e.retryAt === 'string' ? { retryAt: e.retryAt } : {}),
    ...(typeof e.message === 'string' && e.message !== '' ? { message: e.message } : {}),
  };
}

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
     * merchant code, trimmed, or a refusal `{ reason: 'malformedCode' }`.
     */
    checkCode: fromPromise<string, { merchantCode: string }>(async ({ input }) => {
      const code = input.merchantCode.trim();
      if (!codePattern.test(code)) throw { reason: 'malformedCode' } satisfies RedeemError;
      return code;
    }),
    /** POST /voucher/redeem `{ voucherId, merchantCode }` → the redeemed voucher; rejects with a RedeemFailure. */
    redeemVoucher: fromPromise<Voucher, { voucherId: string; merchantCode: string }>(async () => {
      throw new Error('redeemVoucher is not provided');
    }),
  },
  actions: {
    assignCode: assign(({ event }) => ({ merchantCode: event.merchantCode.trim(), error: null })),
    assignMissingCode: assign({ error: { reason: 'missingCode' } satisfies RedeemError }),
    assignInvalidCode: assign({ error: { reason: 'malformedCode' } satisfies RedeemError }),
    assignFailure: assign((_, p: { error: unknown }) => ({ error: toRedeemError(p.error) })),
    storeVoucher: assign((_, p: { voucher: Voucher }) => ({ voucher: p.voucher, error: null })),
    /** Tell the voucher store (every list, the selected voucher, the greetie's vouchers). Provided by the app. */
    announceRedeemed: (_, _p: { voucher: Voucher }) => {},
  },
  guards: {
    /** False for an empty code (or only spaces): nothing is checked, nothing is sent. */
    hasCode: ({ event }) => event.merchantCode.trim() !== '',
  },
}).createMachine({
  id: 'redeem',
  description: 'En gåva löses in i kassan med handlarkoden: kontrolleras här, sedan en gång av servern.',
  context: ({ input }) => ({ voucherId: input.voucherId, merchantCode: '', error: null, voucher: null }),
  initial: 'idle',
  states: {
    idle: {
      description: "Kassaskärmen väntar på att personalen skriver handlarkoden ('Handlarkod') och trycker 'Lös in'; ett nej visas här.",
      tags: ['ready'],
      on: {
        'user.submit': [
          { guard: 'hasCode', target: 'validating', actions: 'assignCode', description: "'Lös in' med en kod: den kontrolleras innan något skickas." },
          { actions: 'assignMissingCode', description: "'Lös in' utan att något är ifyllt: sägs under fältet, inget skickas." },
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
        onDone: { target: 'submitting', description: 'Det kan vara en handlarkod: skicka den.' },
        onError: {
          target: 'idle',
          actions: 'assignInvalidCode',
          description: 'Det kan inte vara en handlarkod: sägs under fältet, inget skickas (det kostar inget av de fem försöken).',
        },
      },
    },
    submitting: {
      description: 'Servern kontrollerar koden och löser in gåvan, en gång.',
      tags: ['busy'],
      invoke: {
        id: 'redeemVoucher',
        src: 'redeemVoucher',
        input: ({ context }) => ({ voucherId: context.voucherId, merchantCode: context.merchantCode }),
        onDone: {
          target: 'redeemed',
          actions: [
            { type: 'storeVoucher', params: ({ event }) => ({ voucher: event.output }) },
            { type: 'announceRedeemed', params: ({ event }) => ({ voucher: event.output }) },
          ],
          description: 'Inlöst: alla listor uppdateras, kassan visar "Inlöst".',
        },
        onError: {
          target: 'idle',
          actions: { type: 'assignFailure', params: ({ event }) => ({ error: event.error }) },
          description: 'Nej (fel kod, redan inlöst, för gammal, låst) eller misslyckat: skälet visas, personalen kan försöka igen.',
        },
      },
    },
    redeemed: {
      description: 'Inlöst: ett stort "Inlöst" med klockan som går, så att personalen ser det med en blick.',
      tags: ['redeemed'],
      type: 'final',
    },
  },
});
