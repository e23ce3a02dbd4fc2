import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { PortalUndoParams, ScanBody, TOKEN_LOCK_MINUTES, TOKEN_MAX_WRONG, TillRedeemBody } from '../../contract/portal.ts';
import { IdParams, IdempotencyHeaders, errorResponses } from '../../contract/common.ts';
import { QR_TOKEN_SECONDS, UNDO_MINUTES, Voucher } from '../../contract/voucher.ts';
import { access } from '../access.ts';
import { idempotency } from '../idempotency/index.ts';
import { redeemByQrToken, scanQrToken, undoAtMerchant } from '../voucher/qr.ts';
import { requireRole } from './rules.ts';

/**
 * The portal's till mode (API.md "Merchant portal": scan, redeem, undo; decision 106): the
 * merchant's owner or staff scan the QR of a customer's voucher and redeem it, their sign-in
 * standing in for the merchant code. Who may call is the portal's rule (404 for anybody who does
 * not work for the merchant), checked before the token is looked at; the token's rules are the
 * voucher's (server/voucher/qr.ts).
 */
export const tillRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const deps = { db: app.db, config: app.config, services: app.services };
  const idem = idempotency({ db: app.db, now: () => app.services.now() });
  const tags = ['Merchant portal'];
  const members = access({ visitor: 401, owner: 200, other: 404, note: "The merchant's owner and staff; anybody who does not work for it gets 404" });
  const tokenRules =
    `A token no voucher of this merchant has (unknown, or another merchant's voucher's) is 404 TOKEN_NOT_FOUND; a used, replaced or ` +
    `expired one (${QR_TOKEN_SECONDS} s) 410 TOKEN_EXPIRED. After ${TOKEN_MAX_WRONG} wrong tokens by the caller at the merchant within ` +
    `${TOKEN_LOCK_MINUTES} minutes every token there is 429 TOKEN_LOCKED with Retry-After until the oldest of them is that old.`;

  app.post(
    '/portal/merchants/:id/scan',
    {
      preHandler: app.authenticate,
      schema: {
        ...members,
        operationId: 'scanVoucherQr',
        tags,
        summary: "Look up the voucher behind a customer's QR token, redeeming nothing",
        description: `The Voucher as the till needs it (product, kind, amount, balance, expiresAt; never a code); the token stays usable. ${tokenRules}`,
        params: IdParams,
        body: ScanBody,
        response: { 200: Voucher, ...errorResponses(400, 401, 404, 410, 429) },
      },
    },
    async (req) => {
      requireRole(req.signedInUser, req.params.id, 'any');
      return scanQrToken(deps, req.userId, req.params.id, req.body.token);
    },
  );

  app.post(
    '/portal/merchants/:id/redeem',
    {
      preHandler: [app.authenticate, idem.preHandler],
      onSend: idem.onSend,
      schema: {
        ...members,
        operationId: 'redeemVoucherByQr',
        tags,
        summary: "Redeem a customer's voucher, or part of a value voucher's balance, by its QR token",
        description:
          'As POST /voucher/redeem, the staff member\'s sign-in standing in for the merchant code, recorded `via: "qr"`: `amount` öre ' +
          '(a "value" voucher: 1 ≤ amount ≤ balance, absent: the whole balance; a "fixed" voucher whole, any other amount 400 ' +
          'AMOUNT_NOT_ALLOWED; more than the balance 409 VOUCHER_BALANCE_TOO_LOW with `details.balance`; used up 409 ' +
          'VOUCHER_ALREADY_REDEEMED; expired 410 VOUCHER_EXPIRED), and a refused redeem leaves the token usable. A redeem ends its ' +
          `token: of several redeems of one token at once, one redeems and the others get 410 TOKEN_EXPIRED. ${tokenRules} ` +
          'With an `Idempotency-Key`, a repeat by the same person within 24 hours answers the first answer and redeems nothing more.',
        headers: IdempotencyHeaders,
        params: IdParams,
        body: TillRedeemBody,
        response: { 200: Voucher, ...errorResponses(400, 401, 404, 409, 410, 422, 429) },
      },
    },
    async (req) => {
      requireRole(req.signedInUser, req.params.id, 'any');
      return redeemByQrToken(deps, req.userId, req.params.id, req.body);
    },
  );

  app.post(
    '/portal/merchants/:id/redemptions/:redemptionId/undo',
    {
      preHandler: app.authenticate,
      schema: {
        ...members,
        operationId: 'undoPortalRedemption',
        tags,
        summary: `Undo a redemption at the merchant within ${UNDO_MINUTES} minutes`,
        description:
          `No body. Within ${UNDO_MINUTES} minutes of a redemption at this merchant (by QR or by code): its amount goes back on the ` +
          'balance and it shows `undone: true`; the answer is the Voucher. Once: 409 ALREADY_UNDONE (of two at once, one undoes); ' +
          'later 409 UNDO_TOO_LATE; another merchant\'s or an unknown redemption 404 REDEMPTION_NOT_FOUND.',
        params: PortalUndoParams,
        response: { 200: Voucher, ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (req) => {
      requireRole(req.signedInUser, req.params.id, 'any');
      return undoAtMerchant(deps, req.userId, req.params.id, req.params.redemptionId);
    },
  );
};
