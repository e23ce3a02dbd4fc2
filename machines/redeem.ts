import { assign, fromPromise, setup } from 'xstate';
import type { Failure } from '../contract/errors.ts';
import type { Voucher } from '../contract/voucher.ts';
import { MERCHANT_CODE_PATTERN } from '../contract/merchant.ts';

/**
 * Redeeming one voucher at the till (/redeem/voucher/{id}): the customer shows the voucher, the
 * staff type the merchant's code ('Handlarkod') and press 'Lös in'.
 *
 * idle → validating → submitting → redeemed. The code is checked here before anything is sent: an
 * empty one never leaves idle (the guard says no), and one that cannot be a merchant code (the
 * contract's rule, 4–16 letters and digits) goes back to idle from validating; both with their own
 * code, and the server never hears of them, so they cost none of the voucher's five tries. The
 * server's refusals each go back to idle with their own code: MERCHANT_CODE_WRONG,
 * VOUCHER_ALREADY_REDEEMED, VOUCHER_EXPIRED, VOUCHER_LOCKED (after five wrong codes, with when to
 * try again). Every refusal is kept as one Failure (contract/errors.ts); the page words it by its
 * code.
 *
 * Side effects are named: the pure check `checkCode` (the machine's own), the actor
 * `redeemVoucher` (POST /voucher/redeem, rejecting with a Failure) and the action
 * `announceRedeemed` (tell the voucher store, so every list shows it redeemed without a reload).
 * The page group provides them with `.provide()` (src/pages/redeem/redeem.ts).
 *
 * Tags say what the page shows: `ready` (the form), `busy` (sending), `redeemed`.
 */

export interface RedeemInput {
  voucherId: string;
}

export interface RedeemContext {
  voucherId: string;
  /** The code as sent (trimmed). */
  merchantCode: string;
  /** Why the last 'Lös in' was refused (a check of the phone's, or the server's answer). */
  error: Failure | null;
  /** The voucher as the server answered once redeemed. */
  voucher: Voucher | null;
}

export type RedeemEvent = { type: 'user.submit'; merchantCode: string };

/** What the till shows; every state has exactly one of these tags. */
export const REDEEM_SCREENS = ['ready', 'busy', 'redeemed'] as const;
export type RedeemTag = (typeof REDEEM_SCREENS)[number];

/** The phone's own refusals: nothing typed (the server's code for it), or not a merchant code. */
const missingCode: Failure = { status: 0, code: 'MERCHANT_CODE_REQUIRED', message: '', retryAt: null };
const malformedCode: Failure = { status: 0, code: 'MERCHANT_CODE_MALFORMED', message: '', retryAt: null };

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
    /** POST /voucher/redeem `{ voucherId, merchantCode }` → the redeemed voucher; rejects with a Failure. */
    redeemVoucher: fromPromise<Voucher, { voucherId: string; merchantCode: string }>(async () => {
      throw new Error('redeemVoucher is not provided');
    }),
  },
  actions: {
    assignCode: assign(({ event }) => ({ merchantCode: event.merchantCode.trim(), error: null })),
    assignMissingCode: assign({ error: missingCode }),
    assignInvalidCode: assign({ error: malformedCode }),
    assignFailure: assign((_, p: { error: Failure }) => ({ error: p.error })),
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
          actions: { type: 'assignFailure', params: ({ event }) => ({ error: event.error as Failure }) },
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
