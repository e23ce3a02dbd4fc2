import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdParams, IdempotencyHeaders, errorResponses } from '../../contract/common.ts';
import {
  Greetie,
  GreetieCreate,
  GreetieCreateV2,
  ByRefQuery,
  GreetieInfo,
  GreetieList,
  GreetieListQuery,
  PublicGreetie,
  GreetieReadQuery,
  GreetieUpdate,
} from '../../contract/greetie.ts';
import { Voucher } from '../../contract/voucher.ts';
import { access, publicAccess } from '../access.ts';
import { idempotency } from '../idempotency/index.ts';
import {
  createDraft,
  deleteOwn,
  type GreetiePayments,
  greetieInfo,
  greetieVouchers,
  listGreeties,
  markAsViewed,
  readGreetie,
  sendDraft,
  updateDraft,
  viewByRef,
} from './rules.ts';
import { greetieAfterRoutes } from './afterRoutes.ts';

/**
 * Greeties (API.md "Greetie"): create a draft, change it while it is one, send it, list, read and
 * delete. Someone else's greetie is 404, never a hint that it exists. Media uploads are the media
 * resource's (server/media). The payment resource, above this one, comes in as `payments`.
 */
export const greetieRoutes: FastifyPluginAsyncTypebox<{ payments: GreetiePayments }> = async (app, { payments }) => {
  const deps = { db: app.db, config: app.config, services: app.services };
  const signedIn = access({ visitor: 401, owner: 200, other: 200, note: "The caller's own: nothing of anybody else is named" });
  // POST /greetie and /createv2 take an Idempotency-Key (server/idempotency, decision 084).
  const idem = idempotency({ db: app.db, now: () => app.services.now() });
  const senders = (owner: 200 | 204) =>
    access({ visitor: 401, owner, other: 404, note: "The sender's own greetie; anybody else's is 404, never a hint that it exists" });

  app.post(
    '/greetie',
    {
      preHandler: [app.authenticate, idem.preHandler],
      onSend: idem.onSend,
      schema: {
        ...signedIn,
        operationId: 'createGreetie',
        tags: ['Greetie'],
        summary: 'Start a draft (no gifts)',
        description:
          'Nothing is required: the media step comes first and the upload needs the draft\'s id. ' +
          '`recipient.mobileNumber` is a Swedish mobile number in any common form (400 INVALID_MOBILE_NUMBER); ' +
          '`deliverAt` is in the future and at most one year ahead (400 DELIVER_AT_PAST, DELIVER_AT_TOO_FAR); ' +
          'sticker and lottie elements name the app\'s own catalogue, a picture element one uploaded to this greetie. ' +
          'With an `Idempotency-Key`, a retry within 24 hours answers the first answer and makes no second draft.',
        headers: IdempotencyHeaders,
        body: GreetieCreate,
        response: { 200: Greetie, ...errorResponses(400, 401, 409, 422) },
      },
    },
    async (req) => createDraft(deps, req.userId, req.body),
  );

  app.post(
    '/greetie/createv2',
    {
      preHandler: [app.authenticate, idem.preHandler],
      onSend: idem.onSend,
      schema: {
        ...signedIn,
        operationId: 'createGreetieWithGifts',
        tags: ['Greetie'],
        summary: 'Start a draft with gifts',
        description:
          'As POST /greetie, plus up to 10 gifts. A fixed-price product takes its price (an `amount` other than it is ' +
          '400 GIFT_AMOUNT_FIXED); a value voucher needs an `amount` inside its min/max (400 GIFT_AMOUNT_REQUIRED, ' +
          'GIFT_AMOUNT_OUT_OF_RANGE); a product that is inactive, or whose merchant is, is 400 GIFT_PRODUCT_UNAVAILABLE; ' +
          'a "Code" product named more often than its pool has free codes is 409 GIFT_CODE_POOL_EMPTY. ' +
          '`total` is computed by the server. Takes an `Idempotency-Key` as POST /greetie does.',
        headers: IdempotencyHeaders,
        body: GreetieCreateV2,
        response: { 200: Greetie, ...errorResponses(400, 401, 409, 422) },
      },
    },
    async (req) => createDraft(deps, req.userId, req.body),
  );

  app.get(
    '/greetie',
    {
      preHandler: app.authenticate,
      schema: {
        ...signedIn,
        operationId: 'listGreeties',
        tags: ['Greetie'],
        summary: 'Greeties the caller sent or received, newest first',
        description:
          'Sent: every greetie of the caller\'s, drafts included. Received: those delivered to the caller\'s mobile number ' +
          '(a scheduled one stays a surprise until it is delivered). A greetie sent to oneself is listed once. ' +
          'When more follow, the answer has a `Link: </api/greetie?limit=…&cursor=…>; rel="next"` header.',
        querystring: GreetieListQuery,
        response: {
          200: GreetieList,
          ...errorResponses(400, 401),
        },
      },
    },
    async (req, reply) => {
      const page = await listGreeties(deps, req.userId, req.query);
      if (page.nextCursor) {
        reply.header('link', `</api/greetie?limit=${page.limit}&cursor=${page.nextCursor}>; rel="next"`);
      }
      return page.items;
    },
  );

  app.get(
    '/greetie/byRef',
    {
      schema: {
        ...publicAccess(200, 'Anyone holding the reference (it went only to the recipient): no phone numbers, no voucher codes'),
        operationId: 'getGreetieByRef',
        tags: ['Greetie'],
        summary: 'The public view of a delivered greetie, by the reference in its link',
        description:
          "404 unless it is delivered. Opening it marks it viewed, unless the caller is its signed-in sender and it went to somebody " +
          'else (the route reads an optional bearer token for that; an invalid one counts as no token). The recipient has a name ' +
          'only, and the vouchers no codes.',
        querystring: ByRefQuery,
        response: { 200: PublicGreetie, ...errorResponses(400, 404) },
      },
      preHandler: app.authenticateOptional,
    },
    async (req) => viewByRef(deps, req.query.refId, req.userId || null),
  );

  app.get(
    '/greetie/:id',
    {
      preHandler: app.authenticate,
      schema: {
        ...access({
          visitor: 401,
          owner: 200,
          other: 404,
          note: 'Its sender, or its recipient once delivered; anybody else gets 404, never a hint that it exists',
        }),
        operationId: 'getGreetie',
        tags: ['Greetie'],
        summary: 'One greetie, to its sender or its recipient',
        description:
          'The recipient sees it once it is delivered. Their read marks it viewed, unless `markAsViewed=false`; ' +
          "the sender's reads never do.",
        params: IdParams,
        querystring: GreetieReadQuery,
        response: { 200: Greetie, ...errorResponses(400, 401, 404) },
      },
    },
    async (req) => readGreetie(deps, req.userId, req.params.id, req.query.markAsViewed ?? true),
  );

  app.patch(
    '/greetie/:id',
    {
      preHandler: app.authenticate,
      schema: {
        ...senders(200),
        operationId: 'updateGreetie',
        tags: ['Greetie'],
        summary: "Change the sender's draft",
        description:
          'Any of `recipient`, `message`, `content`, `gifts` and `deliverAt`; the ones given replace the draft\'s ' +
          '(`recipient: null` and `deliverAt: null` clear them; `gifts` replaces the whole list and the total). ' +
          'All of it is saved, or, on any refusal, none of it. 409 GREETIE_NOT_DRAFT once it is no longer a draft; ' +
          '409 GIFT_CODE_POOL_EMPTY for gifts naming a "Code" product more often than its pool has free codes.',
        params: IdParams,
        body: GreetieUpdate,
        response: { 200: Greetie, ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (req) => updateDraft(deps, req.userId, req.params.id, req.body),
  );

  app.delete(
    '/greetie/:id',
    {
      preHandler: app.authenticate,
      schema: {
        ...senders(204),
        operationId: 'deleteGreetie',
        tags: ['Greetie'],
        summary: "Delete the sender's greetie while it is a draft or awaiting payment",
        description:
          'Its gifts and stored media go with it. A pending payment is cancelled with the provider first. ' +
          '409 GREETIE_NOT_DELETABLE once it is paid or sent (also when it was paid meanwhile), PAYMENT_PENDING when a ' +
          'payment could not be cancelled; 503 PAYMENT_UNAVAILABLE when the provider cannot be reached.',
        params: IdParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (req, reply) => {
      await payments.cancelBeforeDelete(deps, req.userId, req.params.id);
      await deleteOwn(deps, payments, req.userId, req.params.id, (err) => req.log.error({ err, greetieId: req.params.id }, 'stored media not deleted'));
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/greetie/:id/info',
    {
      schema: {
        ...publicAccess(200, 'Anyone with the id: a summary without phone numbers, message or content'),
        operationId: 'getGreetieInfo',
        tags: ['Greetie'],
        summary: 'A public summary: sender and recipient names, whether it has gifts, its thumbnail',
        description: 'What anyone holding the id may see, for a link preview or the sign-in page: names, whether it has gifts, a thumbnail. No phone numbers, no message, no vouchers.',
        params: IdParams,
        response: { 200: GreetieInfo, ...errorResponses(400, 404) },
      },
    },
    async (req) => greetieInfo(deps, req.params.id),
  );

  app.post(
    '/greetie/:id/send',
    {
      preHandler: app.authenticate,
      schema: {
        ...senders(200),
        operationId: 'sendGreetie',
        tags: ['Greetie'],
        summary: 'Send a draft without gifts: it becomes scheduled',
        description:
          'Delivered at once, or at `deliverAt`. 400 GREETIE_NO_RECIPIENT without a recipient, 400 DELIVER_AT_PAST when ' +
          'its delivery time has passed meanwhile; 409 GREETIE_HAS_GIFTS when it has gifts (those start with ' +
          'startpayment), 409 GREETIE_NOT_DRAFT once sent, 409 SENDER_NAME_REQUIRED while the sender has no profile name; 429 SEND_LIMIT_PER_DAY / SEND_LIMIT_PER_RECIPIENT (with ' +
          'Retry-After) beyond the sending limits: 20 greeties a day, 3 of them to one number (settings).',
        params: IdParams,
        response: { 200: Greetie, ...errorResponses(400, 401, 404, 409, 429) },
      },
    },
    async (req) => sendDraft(deps, req.userId, req.params.id),
  );

  app.post(
    '/greetie/:id/markasviewed',
    {
      preHandler: app.authenticate,
      schema: {
        ...access({ visitor: 401, owner: 200, other: 404, note: 'Its recipient, once delivered; anybody else (its sender too) gets 404' }),
        operationId: 'markGreetieViewed',
        tags: ['Greetie'],
        summary: 'The recipient marks a delivered greetie viewed',
        description: 'Once: a later call keeps the first time and answers the greetie as it is.',
        params: IdParams,
        response: { 200: Greetie, ...errorResponses(400, 401, 404) },
      },
    },
    async (req) => markAsViewed(deps, req.userId, req.params.id),
  );

  app.get(
    '/greetie/:id/vouchers',
    {
      preHandler: app.authenticate,
      schema: {
        ...access({ visitor: 401, owner: 200, other: 404, note: 'Its sender (no codes), or its recipient once delivered; anybody else gets 404' }),
        operationId: 'listGreetieVouchers',
        tags: ['Greetie'],
        summary: "A greetie's vouchers",
        description: 'The sender sees what was given, never a code; the recipient sees them once the greetie is delivered, codes too.',
        params: IdParams,
        response: { 200: Type.Array(Voucher), ...errorResponses(400, 401, 404) },
      },
    },
    async (req) => greetieVouchers(deps, req.userId, req.params.id),
  );

  // After delivery: correct the recipient, resend, thanks (server/greetie/after.ts).
  greetieAfterRoutes(app);
};
