import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { IdParams, errorResponses } from '../../contract/common.ts';
import { Greetie, RecipientCorrection, ThanksInput } from '../../contract/greetie.ts';
import { access } from '../access.ts';
import { correctRecipient, resendGreetie, sendThanks } from './after.ts';

/**
 * After delivery (API.md "After delivery", "The recipient answers"): correct the recipient, send
 * the link again, thank the sender. Registered by greetieRoutes on its own instance.
 */
export function greetieAfterRoutes(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const deps = { db: app.db, config: app.config, services: app.services };
  const sender = access({ visitor: 401, owner: 200, other: 404, note: "The sender's own greetie; anybody else's is 404, never a hint that it exists" });

  app.post(
    '/greetie/:id/recipient',
    {
      preHandler: app.authenticate,
      schema: {
        ...sender,
        operationId: 'correctGreetieRecipient',
        tags: ['Greetie'],
        summary: 'Correct the recipient of a greetie on its way or delivered, while it is not opened',
        description:
          'A scheduled or delivered greetie goes to `mobileNumber` instead (a Swedish mobile number in any common form, 400 ' +
          'INVALID_MOBILE_NUMBER; 400 RECIPIENT_UNCHANGED for the number it has). `name` follows the name rule (400); left out, the ' +
          'name stays. It gets a new `refId`: the old link answers 404 from then on. A delivered one is delivered to the new number at ' +
          'once (its vouchers are the new number\'s, their validity counted from that delivery); a scheduled one at its time. ' +
          'At most 3 corrections (409 RECIPIENT_CHANGE_LIMIT). A correction is a send to the new number: 429 SEND_LIMIT_PER_DAY / ' +
          'SEND_LIMIT_PER_RECIPIENT with Retry-After. 409 GREETIE_ALREADY_OPENED once it is viewed or a voucher is used; 409 ' +
          'RECIPIENT_CHANGE_NOT_ALLOWED for a draft, a greetie awaiting payment or one whose delivery failed.',
        params: IdParams,
        body: RecipientCorrection,
        response: { 200: Greetie, ...errorResponses(400, 401, 404, 409, 429) },
      },
    },
    async (req) => correctRecipient(deps, req.userId, req.params.id, req.body),
  );

  app.post(
    '/greetie/:id/resend',
    {
      preHandler: app.authenticate,
      schema: {
        ...sender,
        operationId: 'resendGreetie',
        tags: ['Greetie'],
        summary: 'Send the link of a delivered, unopened greetie again',
        description:
          'The same SMS with the same link to the same number, now. Once per greetie in 24 hours (429 RESEND_LIMIT with ' +
          'Retry-After); not counted toward the sending limits. 409 RESEND_NOT_ALLOWED unless it is delivered, 409 ' +
          'GREETIE_ALREADY_OPENED once it is viewed; 503 SMS_UNAVAILABLE / 502 SMS_REJECTED when the SMS gateway does not take it ' +
          '(the resend is not used up).',
        params: IdParams,
        response: { 200: Greetie, ...errorResponses(400, 401, 404, 409, 429, 502, 503) },
      },
    },
    async (req) => resendGreetie(deps, req.userId, req.params.id),
  );

  app.post(
    '/greetie/:id/thanks',
    {
      preHandler: app.authenticate,
      schema: {
        ...access({ visitor: 401, owner: 200, other: 404, note: 'Its recipient, once delivered; anybody else (its sender too) gets 404' }),
        operationId: 'thankGreetieSender',
        tags: ['Greetie'],
        summary: "The recipient thanks the greetie's sender, once",
        description:
          '`message`: 1 to 500 characters, not only spaces (400 THANKS_MESSAGE_EMPTY); `emoji`: one emoji or none (400 ' +
          'THANKS_EMOJI_INVALID). Once per greetie: 409 THANKS_ALREADY_SENT after (also for the second of two at once). It marks ' +
          'the greetie viewed; the sender is notified (type `thanks`, with a push) and sees it as the greetie\'s `thanks`.',
        params: IdParams,
        body: ThanksInput,
        response: { 200: Greetie, ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (req) => sendThanks(deps, req.userId, req.params.id, req.body),
  );
}
