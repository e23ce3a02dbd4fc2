import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdParams, errorResponses } from '../../contract/common.ts';
import { Payment, PaymentCallback, RefundCallback, StartPayment } from '../../contract/payment.ts';
import { Greetie } from '../../contract/greetie.ts';
import { access, publicAccess } from '../access.ts';
import { HttpError } from '../errors.ts';
import { schemaProblems } from '../validation.ts';
import { paymentCallback, paymentOf, startPayment } from './rules.ts';
import { cancelGreetie, refundCallback } from './refunds.ts';
import { paymentStream } from './stream.ts';

/**
 * startpayment's body as the rules take it. The schema's only complaint being `withdrawalConsent`
 * (false, or not a boolean), the body goes on without it, so the rules answer CONSENT_REQUIRED in
 * their order; any other problem is the usual 400 VALIDATION_FAILED naming every bad field.
 */
function consentChecked(body: unknown, error: (Error & { validation?: unknown; validationContext?: string }) | undefined): StartPayment {
  if (!error) return body as StartPayment;
  // A bad id (or header) is refused as on every route: only the body's consent is the rules' to word.
  if (error.validationContext !== 'body') throw error;
  const rest = { ...(body as Record<string, unknown>) };
  delete rest.withdrawalConsent;
  const problems = schemaProblems(StartPayment, rest);
  if (problems.length || typeof body !== 'object' || body === null) {
    throw new HttpError(400, 'VALIDATION_FAILED', {}, problems.length ? problems : schemaProblems(StartPayment, body));
  }
  return rest as StartPayment;
}

/**
 * Paying for a greetie (API.md "Greetie": startpayment, payment, paymentCallBack). The rules are in
 * rules.ts; the provider is `app.services.payments` (the sandbox or Swish).
 */
export const paymentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const deps = { db: app.db, config: app.config, services: app.services };
  const senders = access({ visitor: 401, owner: 200, other: 404, note: "The sender's own greetie; anybody else's is 404, never a hint that it exists" });

  app.post(
    '/greetie/:id/startpayment',
    {
      preHandler: app.authenticate,
      attachValidation: true,
      schema: {
        ...senders,
        operationId: 'startGreetiePayment',
        tags: ['Payment'],
        summary: 'Start paying for a greetie with gifts: it awaits payment',
        description:
          'Without `payerAlias`, the m-commerce flow: the answer has `appUrl` (swish://, for a phone), `qrCode` (an SVG, ' +
          'for a desktop) and `token`. With one (a Swedish mobile number), the request pops up in that Swish app. ' +
          'Called again while a payment is pending it returns that one, unless the payer changes (the pending one is then ' +
          'cancelled and a new one made). The total is computed again. Every call carries `withdrawalConsent: true` (the ' +
          "buyer's consent at review, recorded with the payment as its `consentedAt`). 400 CONSENT_REQUIRED (missing or false; " +
          'nothing is written), GREETIE_NO_RECIPIENT, INVALID_MOBILE_NUMBER, ' +
          "PAYMENT_{code} (the provider's refusal); 409 GREETIE_NO_GIFTS, GREETIE_NOT_PAYABLE, SENDER_NAME_REQUIRED, GIFT_CODE_POOL_EMPTY " +
          '(a "Code" product\'s pool has fewer free codes than its gifts need; nothing is written), PAYMENT_RP06; 503 PAYMENT_UNAVAILABLE (try again: the same request).',
        params: IdParams,
        body: StartPayment,
        // A missing or false `withdrawalConsent` is the rules' 400 CONSENT_REQUIRED (after 404 and
        // 409), not the schema's VALIDATION_FAILED: the schema's verdict is read in the handler.
        // 429 SEND_LIMIT_PER_DAY / SEND_LIMIT_PER_RECIPIENT (Retry-After): the sending limits, checked before money moves.
        response: { 200: Payment, ...errorResponses(400, 401, 404, 409, 429) },
      },
    },
    async (req) => startPayment(deps, req.userId, req.params.id, consentChecked(req.body, req.validationError)),
  );

  app.get(
    '/greetie/:id/payment',
    {
      preHandler: app.authenticate,
      schema: {
        ...senders,
        operationId: 'getGreetiePayment',
        tags: ['Payment'],
        summary: "The greetie's latest payment",
        description: 'A payment still open after a few seconds is checked with the provider first. 404 PAYMENT_NOT_FOUND before any.',
        params: IdParams,
        response: { 200: Payment, ...errorResponses(400, 401, 404) },
      },
    },
    async (req) => paymentOf(deps, req.userId, req.params.id, req.log),
  );

  app.get(
    '/greetie/:id/payment/events',
    {
      preHandler: app.authenticate,
      schema: {
        ...senders,
        operationId: 'streamGreetiePayment',
        tags: ['Payment'],
        summary: "The greetie's latest payment as it changes (server-sent events)",
        description:
          'A `text/event-stream`: `event: payment` with the Payment at once, then each time its status (or the latest ' +
          'payment) changes, whichever process heard the callback; the stream ends after a final status (paid, declined, ' +
          'error, cancelled, expired), so one opened after that answers at once and ends. The Payment leaves out `token`, ' +
          '`appUrl` and `qrCode` (null). A `: hb` comment every 15 s; the stream ends after 5 minutes (open another). ' +
          '404 GREETIE_NOT_FOUND, PAYMENT_NOT_FOUND before any; 429 PAYMENT_STREAMS_LIMIT past 4 open streams per user.',
        params: IdParams,
        response: {
          200: { description: 'Server-sent events, each `data` a Payment', content: { 'text/event-stream': { schema: Type.String() } } },
          ...errorResponses(400, 401, 404, 429),
        },
      },
    },
    async (req, reply) => paymentStream(deps, app.paymentEvents, req.params.id, req, reply),
  );

  app.post(
    '/greetie/paymentCallBack',
    {
      schema: {
        ...publicAccess(200, 'The payment provider calls it; the body is never believed, the status is asked of the provider'),
        operationId: 'paymentCallback',
        tags: ['Payment'],
        summary: "The payment provider's callback",
        description:
          'Swish calls it when a payment request ends. Only `id` is read: the payment is found by it and its status asked ' +
          'of the provider, then applied once. Always 200 for a well-formed body.',
        body: PaymentCallback,
        response: { 200: Type.Object({}), ...errorResponses(400) },
      },
    },
    async (req) => {
      await paymentCallback(deps, req.body.id, req.log);
      return {};
    },
  );

  app.post(
    '/greetie/:id/cancel',
    {
      preHandler: app.authenticate,
      schema: {
        ...senders,
        operationId: 'cancelGreetie',
        tags: ['Greetie'],
        summary: 'Cancel a sent greetie that is not yet opened, and get the money back',
        description:
          'While scheduled or delivered, not yet viewed and with no voucher used: the greetie becomes `cancelled` ' +
          '(`cancelledAt`), its link answers 404, its vouchers are void, no delivery happens any more, and when it was paid ' +
          'its Payment gets one `refund` of the whole amount through the payment provider (GET /greetie/{id}/payment shows ' +
          'it: pending, paid, or error and retried). Cancelling again answers the same greetie and refunds nothing more. ' +
          '409 GREETIE_ALREADY_OPENED once viewed or a voucher is used, GREETIE_NOT_CANCELLABLE for a draft, one awaiting ' +
          'payment or one whose delivery failed.',
        params: IdParams,
        response: { 200: Greetie, ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (req) => cancelGreetie(deps, req.userId, req.params.id, req.log),
  );

  app.post(
    '/greetie/refundCallBack',
    {
      schema: {
        ...publicAccess(200, 'The payment provider calls it; the body is never believed, the status is asked of the provider'),
        operationId: 'refundCallback',
        tags: ['Payment'],
        summary: "The payment provider's refund callback",
        description:
          'Swish calls it when a refund ends. Only `id` (the refund\'s instruction id) is read: the refund is found by it ' +
          'and its status asked of the provider, then applied once. Always 200 for a well-formed body.',
        body: RefundCallback,
        response: { 200: Type.Object({}), ...errorResponses(400) },
      },
    },
    async (req) => {
      await refundCallback(deps, req.body.id, req.log);
      return {};
    },
  );
};
