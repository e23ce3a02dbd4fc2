import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdParams, errorResponses } from '../../contract/common.ts';
import { MobileUser } from '../../contract/auth.ts';
import { AllowMarketingQuery, ProfileBody } from '../../contract/mobileuser.ts';
import { access } from '../access.ts';
import { AccountExport } from '../../contract/account.ts';
import { GreetieList, GreetieListQuery } from '../../contract/greetie.ts';
import {
  exportAccount,
  exportFileName,
  listOwnGreeties,
  profile,
  removeAccount,
  setMarketingConsent,
  updateOwnProfile,
  updateProfile,
} from './rules.ts';
import { Voucher } from '../../contract/voucher.ts';
import { listOwn } from '../voucher/rules.ts';

/**
 * One's own profile (API.md, "Mobile user"): complete it, read it, change it, and the marketing
 * consent. Signed in, self only: another person's id answers 404.
 */
export const mobileUserRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const deps = { db: app.db };
  const fullDeps = { db: app.db, config: app.config, services: app.services };
  const self = access({ visitor: 401, owner: 200, other: 200, note: 'About the caller themselves: nothing of anybody else is named' });
  const ownId = access({ visitor: 401, owner: 200, other: 404, note: 'Another person\'s id is 404, never a hint that it exists' });

  app.post(
    '/mobileuser',
    {
      preHandler: app.authenticate,
      schema: {
        ...self,
        operationId: 'completeProfile',
        tags: ['Mobile user'],
        summary: "Complete the caller's own profile",
        description:
          'Any of `name` (trimmed; 1 to 100 characters, no control characters) and `allowMarketing`. ' +
          'Fields left out keep their value. A refused name is 400 NAME_EMPTY, NAME_TOO_LONG or NAME_INVALID_CHARACTERS.',
        body: ProfileBody,
        response: { 200: MobileUser, ...errorResponses(400, 401) },
      },
    },
    async (req) => updateProfile(deps, req.userId, req.body),
  );

  app.post(
    '/mobileuser/allowmarketing',
    {
      preHandler: app.authenticate,
      schema: {
        ...self,
        operationId: 'setMarketingConsent',
        tags: ['Mobile user'],
        summary: 'Give or withdraw consent to marketing',
        description: '`isAllowed=true` records consent to marketing messages, `false` withdraws it; answers the caller\'s MobileUser.',
        querystring: AllowMarketingQuery,
        response: { 200: MobileUser, ...errorResponses(400, 401) },
      },
    },
    async (req) => setMarketingConsent(deps, req.userId, req.query.isAllowed),
  );

  app.get(
    '/mobileuser/vouchers',
    {
      preHandler: app.authenticate,
      schema: {
        ...self,
        operationId: 'listMobileUserVouchers',
        tags: ['Mobile user'],
        summary: "The caller's vouchers (the same list as GET /voucher)",
        description: 'The vouchers of greeties delivered to the caller\'s mobile number, with their codes (the same list as GET /voucher).',
        response: { 200: Type.Array(Voucher), ...errorResponses(401) },
      },
    },
    async (req) => listOwn({ db: app.db, services: app.services }, req.userId),
  );

  const lists = [
    ['/mobileuser/greeties', 'all', 'listMobileUserGreeties', 'Greeties the caller sent or received, newest first (as GET /greetie)'],
    ['/mobileuser/sentgreeties', 'sent', 'listSentGreeties', 'Greeties the caller sent (drafts included), newest first'],
    ['/mobileuser/receivedgreeties', 'received', 'listReceivedGreeties', "Greeties delivered to the caller's number, newest first"],
  ] as const;
  for (const [url, which, operationId, summary] of lists) {
    app.get(
      url,
      {
        preHandler: app.authenticate,
        schema: {
          ...self,
          operationId,
          tags: ['Mobile user'],
          summary,
          description:
            'Keyset paged as GET /greetie: `limit` (≤ 100, default 50) and `cursor`; when more follow, the answer has a ' +
            `\`Link: </api${url}?limit=…&cursor=…>; rel="next"\` header. A received greetie is listed once it is delivered ` +
            '(a scheduled one is still a surprise); one sent to oneself is both sent and received, and listed once in /greeties.',
          querystring: GreetieListQuery,
          response: { 200: GreetieList, ...errorResponses(400, 401) },
        },
      },
      async (req, reply) => {
        const page = await listOwnGreeties(fullDeps, req.userId, req.query, which);
        if (page.nextCursor) reply.header('link', `</api${url}?limit=${page.limit}&cursor=${page.nextCursor}>; rel="next"`);
        return page.items;
      },
    );
  }

  app.get(
    '/mobileuser/export',
    {
      preHandler: app.authenticate,
      schema: {
        ...self,
        operationId: 'exportMobileUser',
        tags: ['Mobile user'],
        summary: 'Everything held about the caller, as one JSON download (GDPR access)',
        description:
          'The profile, consents, greeties sent and received, the vouchers the caller owns, the payments of their greeties, ' +
          'their redeem attempts, sign-ins (device and times) and, where kept, notifications and push registrations. ' +
          '`Content-Disposition: attachment` with a dated file name. No secret is in it: no token or hash, no code of a ' +
          'voucher the caller does not own, no merchant code.',
        response: { 200: AccountExport, ...errorResponses(401) },
      },
    },
    async (req, reply) => {
      const body = await exportAccount(fullDeps, req.userId);
      reply
        .header('content-disposition', `attachment; filename="${exportFileName(new Date(body.exportedAt))}"`)
        .header('cache-control', 'no-store');
      return body;
    },
  );

  app.delete(
    '/mobileuser/remove',
    {
      preHandler: app.authenticate,
      schema: {
        ...access({ visitor: 401, owner: 204, other: 204, note: 'Removes the caller themselves: nothing of anybody else is named' }),
        operationId: 'removeMobileUser',
        tags: ['Mobile user'],
        summary: "Delete the caller's account and personal data",
        description:
          'In one transaction: the profile, sign-ins (refresh tokens), notifications, push registrations, drafts and greeties ' +
          'awaiting payment (with their media; an open payment is cancelled with the provider first). Greeties already paid ' +
          'or sent stay with their recipients with no sender (`sender: { id: null, name: null }`, shown as "en tidigare ' +
          "användare\"). The caller's number is forgotten on greeties delivered to it, so their unredeemed vouchers are given " +
          'up: GET /mobileuser/vouchers lists them for the confirmation. Any access token of the account answers 401 from now ' +
          'on. 409 ACCOUNT_PAYMENT_PENDING: a payment was started while this ran; nothing changed.',
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(401, 409, 502, 503) },
      },
    },
    async (req, reply) => {
      await removeAccount(fullDeps, req.userId, (err) => req.log.warn({ err }, 'stored media of a removed account not deleted'));
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/mobileuser/:id',
    {
      preHandler: app.authenticate,
      schema: {
        ...ownId,
        operationId: 'getProfile',
        tags: ['Mobile user'],
        summary: "The caller's own profile (own id only)",
        description: 'The caller\'s own MobileUser. Any other id answers 404, never a hint that it exists.',
        params: IdParams,
        response: { 200: MobileUser, ...errorResponses(400, 401, 404) },
      },
    },
    async (req) => profile(req.signedInUser!, req.params.id),
  );

  app.post(
    '/mobileuser/:id',
    {
      preHandler: app.authenticate,
      schema: {
        ...ownId,
        operationId: 'updateProfile',
        tags: ['Mobile user'],
        summary: "Change the caller's own profile (own id only)",
        description: 'The same body and rules as POST /mobileuser.',
        params: IdParams,
        body: ProfileBody,
        response: { 200: MobileUser, ...errorResponses(400, 401, 404) },
      },
    },
    async (req) => updateOwnProfile(deps, req.userId, req.params.id, req.body),
  );
};
