import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses } from '../../contract/common.ts';
import { LoginBody, LogoutBody, MobileUser, RefreshQuery, TokenPair, VerificationCodeAnswer, VerificationCodeBody } from '../../contract/auth.ts';
import { access, publicAccess } from '../access.ts';
import { HttpError, badRequest, unauthorized } from '../errors.ts';
import { clearedRefreshCookie, readRefreshCookie, refreshCookie, refuseCrossSite } from './cookie.ts';
import { login, logout, refresh, requestCode, restore, toMobileUser, type IssuedSession } from './rules.ts';

/**
 * Sign-in (API.md "Auth"): a code by SMS, login with it, the current user, refresh, logout.
 * The authentication hook for other resources is in ./authenticate.ts.
 */
export const authRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const deps = { db: app.db, config: app.config, services: app.services };
  /** The pair for the tab; the cookie's token in Set-Cookie (server/auth/cookie.ts). */
  const answer = (reply: { header: (k: string, v: string) => unknown }, issued: IssuedSession) => {
    reply.header('set-cookie', refreshCookie(issued.cookieToken, deps.config));
    return issued.pair;
  };
  /** A refused cookie is forgotten by the browser, so it is not presented again. */
  const forgettingCookie = (err: unknown) =>
    err instanceof HttpError && err.statusCode === 401
      ? new HttpError(err.statusCode, err.code, err.params, err.details, { ...err.headers, 'set-cookie': clearedRefreshCookie(deps.config) })
      : err;
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
          'Returns an access token (JWT, 15 minutes) and a refresh token (30 days, single use), and sets a second refresh ' +
          'token of the same sign-in as the browser\'s cookie `greetie_refresh` (HttpOnly, SameSite=Strict, Path=/api/auth, ' +
          'Secure on https), which restores the session in a new tab (POST /auth/refresh without a query). A wrong code answers 400 ' +
          'with `details.triesLeft`; the 5th wrong code voids the verification. The user is created on first sign-in. ' +
          'Too many wrong codes for one number within an hour: 429.',
        body: LoginBody,
        response: { 200: TokenPair, ...errorResponses(400, 429) },
      },
    },
    async (req, reply) => answer(reply, await login(deps, req.body)),
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
        description: 'The MobileUser of the access token\'s `sub`: the same shape GET /mobileuser/{id} gives for one\'s own id.',
        response: { 200: MobileUser, ...errorResponses(401) },
      },
    },
    // The row app.authenticate read to know the user still exists: one query, not two.
    async (req) => toMobileUser(req.signedInUser!),
  );

  app.post(
    '/auth/refresh',
    {
      schema: {
        ...publicAccess(
          200,
          'The pair travels in the query (a live refresh token and its user\'s access token), or the browser\'s refresh cookie alone; the bearer header plays no part',
        ),
        operationId: 'refreshTokens',
        tags: ['Auth'],
        summary: 'A new token pair for a live refresh token (the query\'s, or the browser\'s cookie)',
        description:
          'Query `token` (the current access token, which may have expired) and `refreshToken`; or no query at all, and the ' +
          'refresh cookie `greetie_refresh` set at login restores the session (a new tab). Refresh tokens rotate: each works ' +
          'once, and each answer sets a new cookie too. Presenting a used one again revokes its whole family (every token since ' +
          'that sign-in). No query and no cookie: 401. The cookie form refuses a body that is not JSON (415) and a request ' +
          'the browser marks as coming from another site (403, `Sec-Fetch-Site`); a refused cookie is cleared.',
        querystring: RefreshQuery,
        response: { 200: TokenPair, ...errorResponses(400, 401, 403, 415) },
      },
    },
    async (req, reply) => {
      const { token, refreshToken } = req.query;
      const cookie = readRefreshCookie(req);
      if (token !== undefined || refreshToken !== undefined) {
        if (token === undefined || refreshToken === undefined) {
          throw badRequest('VALIDATION_FAILED', {}, [{ field: `querystring.${token === undefined ? 'token' : 'refreshToken'}`, problem: 'required' }]);
        }
        return answer(reply, await refresh(deps, { token, refreshToken }, cookie));
      }
      refuseCrossSite(req);
      if (cookie === null) throw forgettingCookie(unauthorized('REFRESH_TOKEN_MISSING'));
      try {
        return answer(reply, await restore(deps, cookie));
      } catch (err) {
        throw forgettingCookie(err);
      }
    },
  );

  app.post(
    '/auth/logout',
    {
      // No body at all is a logout by the cookie alone: validated as the empty object.
      preValidation: async (req) => {
        if (req.body === undefined || req.body === null) req.body = {};
      },
      schema: {
        ...publicAccess(204, 'Revoking needs only the refresh token (the body\'s, or the browser\'s cookie); unknown tokens are quietly accepted'),
        operationId: 'logout',
        tags: ['Auth'],
        summary: 'Sign out: revoke the refresh token and its whole family, and clear the refresh cookie',
        description:
          'Body `{ refreshToken }` (the tab\'s), or no body: the refresh cookie says which sign-in ends. Both families are ' +
          'revoked when both come, and the cookie is always cleared. With the cookie, the same cross-site checks as the ' +
          'refresh (415 for a body that is not JSON, 403 from another site).',
        body: LogoutBody,
        response: { 204: Type.Null(), ...errorResponses(400, 403, 415) },
      },
    },
    async (req, reply) => {
      const cookie = readRefreshCookie(req);
      if (cookie !== null) refuseCrossSite(req);
      await logout(deps, [req.body?.refreshToken, cookie]);
      return reply.code(204).header('set-cookie', clearedRefreshCookie(deps.config)).send(null);
    },
  );
};
