import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdParams, IdempotencyHeaders, errorResponses } from '../../contract/common.ts';
import { REDEEM_LOCK_MINUTES, REDEEM_MAX_WRONG, REDEEM_MAX_WRONG_AT_MERCHANT, RedeemBody, RedeemedQuery, Voucher } from '../../contract/voucher.ts';
import { access } from '../access.ts';
import { idempotency } from '../idempotency/index.ts';
import { listOwn, markUsed, readOwn, redeem } from './rules.ts';

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
        summary: "Redeem a voucher at the till with its merchant's code",
        description:
          'Exactly once, however many arrive at the same time. Empty code 400 MERCHANT_CODE_REQUIRED; a code that is not the ' +
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
