import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdParams, IdempotencyHeaders, errorResponses } from '../../contract/common.ts';
import {
  DonateBody,
  REDEEM_LOCK_MINUTES,
  REDEEM_MAX_WRONG,
  REDEEM_MAX_WRONG_AT_MERCHANT,
  RedeemBody,
  RedeemedQuery,
  UNDO_MINUTES,
  UndoBody,
  QR_TOKEN_SECONDS,
  UndoParams,
  Voucher,
  VoucherQr,
} from '../../contract/voucher.ts';
import { access } from '../access.ts';
import { idempotency } from '../idempotency/index.ts';
import { donate, listOwn, markUsed, readOwn, redeem, undoRedemption } from './rules.ts';
import { issueQrToken } from './qr.ts';

/**
 * Vouchers (API.md "Voucher"): the caller's own, one of them, redeeming one at a till with the
 * merchant's code, and marking a Code or Charity voucher used. Signed in, owner only: a voucher is
 * its greetie's recipient's once delivered; anybody else's is 404.
 */
export const voucherRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const deps = { db: app.db, config: app.config, services: app.services };
  const idem = idempotency({ db: app.db, now: () => app.services.now() });
  const owners = (note: string) => access({ visitor: 401, owner: 200, other: 404, note });

  app.get(
    '/voucher',
    {
      preHandler: app.authenticate,
      schema: {
        ...access({ visitor: 401, owner: 200, other: 200, note: "The caller's own vouchers: nothing of anybody else is named" }),
        operationId: 'listVouchers',
        tags: ['Voucher'],
        summary: "The caller's vouchers, the usable ones first",
        description:
          'The vouchers of greeties delivered to the caller\'s mobile number (a scheduled greetie\'s stay a surprise). ' +
          'Not redeemed and not expired first, then the rest; newest first within each. A "Code" voucher carries its code.',
        response: { 200: Type.Array(Voucher), ...errorResponses(401) },
      },
    },
    async (req) => listOwn(deps, req.userId),
  );

  app.get(
    '/voucher/:id',
    {
      preHandler: app.authenticate,
      schema: {
        ...owners("The voucher's owner (its greetie's recipient, once delivered); anybody else gets 404"),
        operationId: 'getVoucher',
        tags: ['Voucher'],
        summary: 'One of the caller\'s vouchers',
        description: 'One voucher the caller owns (delivered to the caller\'s number), with its code for a "Code" voucher; any other is 404.',
        params: IdParams,
        response: { 200: Voucher, ...errorResponses(400, 401, 404) },
      },
    },
    async (req) => readOwn(deps, req.userId, req.params.id),
  );

  app.get(
    '/voucher/:id/qr',
    {
      preHandler: app.authenticate,
      schema: {
        ...owners("The voucher's owner; anybody else gets 404"),
        operationId: 'getVoucherQr',
        tags: ['Voucher'],
        summary: 'A one-time token for the till, shown as a QR code on the voucher',
        description:
          `A new token (10 characters of A–Z and 2–9), valid ${QR_TOKEN_SECONDS} seconds; the voucher's previous token stops working at ` +
          'once. The till scans it (POST /portal/merchants/{id}/scan and /redeem) or types it from the text under the QR. Only for ' +
          'an unexpired "InStore" voucher with a balance: another source 409 VOUCHER_NOT_IN_STORE, used up 409 VOUCHER_ALREADY_REDEEMED, ' +
          'expired 410 VOUCHER_EXPIRED. Not cached (`Cache-Control: no-store`).',
        params: IdParams,
        response: { 200: VoucherQr, ...errorResponses(400, 401, 404, 409, 410) },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return issueQrToken(deps, req.userId, req.params.id);
    },
  );

  app.post(
    '/voucher/redeem',
    {
      // Idempotency-Key (decision 084) around the redeem, at the route: the redeem's rules are unchanged.
      preHandler: [app.authenticate, idem.preHandler],
      onSend: idem.onSend,
      schema: {
        ...owners("The voucher's owner redeems it (the till staff type the code on the owner's phone); anybody else gets 404"),
        operationId: 'redeemVoucher',
        tags: ['Voucher'],
        summary: "Redeem a voucher, or part of a value voucher's balance, at the till with its merchant's code",
        description:
          'Takes `amount` öre from the balance (a "value" voucher: 1 ≤ amount ≤ balance, absent: the whole balance, the rest stays; ' +
          'a "fixed" voucher is used whole, any other amount 400 AMOUNT_NOT_ALLOWED; more than the balance 409 VOUCHER_BALANCE_TOO_LOW ' +
          'with `details.balance`) and records one redemption. Concurrent redeems never take more than the balance. ' +
          'Empty code 400 MERCHANT_CODE_REQUIRED; a code that is not the ' +
          `voucher's merchant's 400 MERCHANT_CODE_WRONG (\`details.attemptsLeft\`); already redeemed 409 VOUCHER_ALREADY_REDEEMED; ` +
          `expired 410 VOUCHER_EXPIRED; after ${REDEEM_MAX_WRONG} wrong codes for the voucher, or ${REDEEM_MAX_WRONG_AT_MERCHANT} by the caller ` +
          `at the voucher's merchant (any of its vouchers), within ${REDEEM_LOCK_MINUTES} minutes ` +
          'every code is 429 VOUCHER_LOCKED with Retry-After until the oldest of them is that old. Every attempt is recorded for the merchant. ' +
          'With an `Idempotency-Key`, a repeat by the same person within 24 hours answers the first answer and redeems nothing more ' +
          '(the same key with a different body: 422 IDEMPOTENCY_KEY_REUSED).',
        headers: IdempotencyHeaders,
        body: RedeemBody,
        response: { 200: Voucher, ...errorResponses(400, 401, 404, 409, 410, 422, 429) },
      },
    },
    async (req) => redeem(deps, req.userId, req.body),
  );

  app.post(
    '/voucher/:id/redemptions/:redemptionId/undo',
    {
      preHandler: app.authenticate,
      schema: {
        ...owners("The voucher's owner (the till staff type the code again on the owner's phone); anybody else gets 404"),
        operationId: 'undoRedemption',
        tags: ['Voucher'],
        summary: 'Undo a redemption at the till within 10 minutes, with the merchant\'s code',
        description:
          `Within ${UNDO_MINUTES} minutes of the redemption: its amount goes back on the balance and it shows \`undone: true\`; once. ` +
          'Another voucher\'s or an unknown redemption 404 REDEMPTION_NOT_FOUND; undone already 409 ALREADY_UNDONE (of two at once, one ' +
          `undoes); later 409 UNDO_TOO_LATE; then the merchant code as for the redeem, under the same limits (400 MERCHANT_CODE_WRONG, ` +
          `429 VOUCHER_LOCKED after ${REDEEM_MAX_WRONG} wrong codes for the voucher or ${REDEEM_MAX_WRONG_AT_MERCHANT} at the merchant).`,
        params: UndoParams,
        body: UndoBody,
        response: { 200: Voucher, ...errorResponses(400, 401, 404, 409, 429) },
      },
    },
    async (req) => undoRedemption(deps, req.userId, req.params.id, req.params.redemptionId, req.body),
  );

  app.post(
    '/voucher/:id/donate',
    {
      preHandler: app.authenticate,
      schema: {
        ...owners("The voucher's owner; anybody else gets 404"),
        operationId: 'donateVoucher',
        tags: ['Voucher'],
        summary: 'Give an unused in-store voucher to a charity instead, for the same amount',
        description:
          'An unused (balance equal to its amount), unexpired "InStore" voucher becomes a new "Charity" voucher of the same amount ' +
          'in the same greetie, of `productId`; the answer is the new voucher, and the old one answers 404 from then on (of two at ' +
          'once, one donates and the other is 404). Not InStore 409 DONATION_NOT_IN_STORE, used 409 DONATION_VOUCHER_USED, expired ' +
          '409 DONATION_VOUCHER_EXPIRED; an unknown or inactive product 404 PRODUCT_NOT_FOUND, not a charity 400 ' +
          'DONATION_PRODUCT_NOT_CHARITY, a charity that cannot take the amount (a range that does not hold it, or another fixed ' +
          'price) 400 DONATION_AMOUNT_NOT_ACCEPTED.',
        params: IdParams,
        body: DonateBody,
        response: { 200: Voucher, ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (req) => donate(deps, req.userId, req.params.id, req.body),
  );

  app.post(
    '/voucher/redeemed',
    {
      preHandler: app.authenticate,
      schema: {
        ...owners("The voucher's owner; anybody else gets 404"),
        operationId: 'markVoucherUsed',
        tags: ['Voucher'],
        summary: 'Mark a "Code" or "Charity" voucher used',
        description:
          'Once: 409 VOUCHER_ALREADY_REDEEMED after. An "InStore" voucher needs the merchant\'s code at the till (409 ' +
          'VOUCHER_NEEDS_MERCHANT_CODE); an expired one is 410 VOUCHER_EXPIRED.',
        querystring: RedeemedQuery,
        response: { 200: Voucher, ...errorResponses(400, 401, 404, 409, 410) },
      },
    },
    async (req) => markUsed(deps, req.userId, req.query.id),
  );
};
