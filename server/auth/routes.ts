import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses } from '../../contract/common.ts';
import { LoginBody, LogoutBody, MobileUser, RefreshQuery, TokenPair, VerificationCodeAnswer, VerificationCodeBody } from '../../contract/auth.ts';
import { access, publicAccess } from '../access.ts';
import { login, logout, refresh, requestCode, signedInUser } from './rules.ts';

/**
 * Sign-in (API.md "Auth"): a code by SMS, login with it, the current user, refresh, logout.
 * The authentication hook for other resources is in ./authenticate.ts.
 */
export const authRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const deps = { db: app.db, config: app.config, services: app.services };
  const verificationCode = {
    schema: {
      ...publicAccess(200, 'Anyone may ask for a code; rate limited per number and per IP'),
      operationId: 'requestVerificationCode',
      tags: ['Auth'],
      summary: 'Send a 6-digit sign-in code by SMS',
      description:
        'Accepts the forms people type ("070-123 45 67", "+46701234567", "0046701234567"). The code is valid 5 minutes, ' +
        'bound to the returned token, usable once. At most 3 codes per number per 15 minutes and 20 code requests per IP ' +
        'per minute (429 with Retry-After). 502/503 when the SMS could not be sent.',
      body: VerificationCodeBody,
      response: { 200: VerificationCodeAnswer, ...errorResponses(400, 429, 502, 503) },
    },
  };
  const handleVerificationCode = async (req: { body: VerificationCodeBody; ip: string; log: typeof app.log }) =>
    requestCode(deps, { mobileNumber: req.body.mobileNumber, ip: req.ip }, req.log);

  app.post('/auth/verificationcode', verificationCode, (req) => handleVerificationCode(req));
  // The old API's spelling; same route, not listed twice in the document.
  app.post('/Auth/verificationcode', { schema: { ...verificationCode.schema, hide: true } }, (req) => handleVerificationCode(req));

  app.post(
    '/auth/login',
    {
      schema: {
        ...publicAccess(200, 'Anyone holding a live verification token and its code; the bearer header plays no part'),
        operationId: 'login',
        tags: ['Auth'],
        summary: 'Sign in with the code from the SMS',
        description:
          'Returns an access token (JWT, 15 minutes) and a refresh token (30 days, single use). A wrong code answers 400 ' +
          'with `details.triesLeft`; the 5th wrong code voids the verification. The user is created on first sign-in. ' +
          'Too many wrong codes for one number within an hour: 429.',
        body: LoginBody,
        response: { 200: TokenPair, ...errorResponses(400, 429) },
      },
    },
    async (req) => login(deps, req.body),
  );

  app.get(
    '/auth/my',
    {
      preHandler: app.authenticate,
      schema: {
        ...access({ visitor: 401, owner: 200, other: 200 }),
        operationId: 'getSignedInUser',
        tags: ['Auth'],
        summary: 'The signed-in user',
        response: { 200: MobileUser, ...errorResponses(401) },
      },
    },
    async (req) => signedInUser(app.db, req.userId),
  );

  app.post(
    '/auth/refresh',
    {
      schema: {
        ...publicAccess(200, 'The pair travels in the query (a live refresh token and its user\'s access token); the bearer header plays no part'),
        operationId: 'refreshTokens',
        tags: ['Auth'],
        summary: 'A new token pair for a live refresh token',
        description:
          'Query `token` (the current access token, which may have expired) and `refreshToken`. Refresh tokens rotate: ' +
          'each works once. Presenting a used one again revokes its whole family (every token since that sign-in).',
        querystring: RefreshQuery,
        response: { 200: TokenPair, ...errorResponses(400, 401) },
      },
    },
    async (req) => refresh(deps, req.query),
  );

  app.post(
    '/auth/logout',
    {
      schema: {
        ...publicAccess(204, 'Revoking needs only the refresh token; unknown tokens are quietly accepted'),
        operationId: 'logout',
        tags: ['Auth'],
        summary: 'Sign out: revoke the refresh token and its whole family',
        body: LogoutBody,
        response: { 204: Type.Null(), ...errorResponses(400) },
      },
    },
    async (req, reply) => {
      await logout(deps, req.body);
      return reply.code(204).send(null);
    },
  );
};
