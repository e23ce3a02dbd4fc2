import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdParams, errorResponses } from '../../contract/common.ts';
import { MobileUser } from '../../contract/auth.ts';
import { AllowMarketingQuery, ProfileBody } from '../../contract/mobileuser.ts';
import { access } from '../access.ts';
import { profile, setMarketingConsent, updateOwnProfile, updateProfile } from './rules.ts';
import { Voucher } from '../../contract/voucher.ts';
import { listOwn } from '../voucher/rules.ts';

/**
 * One's own profile (API.md, "Mobile user"): complete it, read it, change it, and the marketing
 * consent. Signed in, self only: another person's id answers 404.
 */
export const mobileUserRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const deps = { db: app.db };
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
        response: { 200: Type.Array(Voucher), ...errorResponses(401) },
      },
    },
    async (req) => listOwn({ db: app.db, services: app.services }, req.userId),
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
        params: IdParams,
        response: { 200: MobileUser, ...errorResponses(400, 401, 404) },
      },
    },
    async (req) => profile(deps, req.userId, req.params.id),
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
