/**
 * THE authentication hook for every protected route. Use it like this in any resource plugin
 * registered under apiRoutes (server/routes.ts installs it before any resource):
 *
 *   app.get('/voucher', {
 *     preHandler: app.authenticate,
 *     schema: { ...access({ visitor: 401, owner: 200, other: 404 }), response: { 200: ..., ...errorResponses(401) } },
 *   }, async (req) => listVouchers(app.db, req.userId));
 *
 * It accepts only `Authorization: Bearer <access token>` with a token this server signed
 * (HS256 only, issuer and audience checked, unexpired by app.services.now()) for a user who still
 * exists, and sets `req.userId` and `req.signedInUser` (that user's row with the merchants they
 * work for, read by the existence check itself, so GET /auth/my and the portal's role check ask
 * the database nothing more). Anything else is 401 with the error
 * body; the token itself is never logged (the logger redacts the header).
 *
 * A public route that answers a signed-in caller differently uses `app.authenticateOptional`
 * instead: the same token check, but no token or an invalid one leaves `req.userId` empty ('')
 * and the request goes on as a visitor's. It reads no database row (public read paths stay one
 * query), so a removed account's still-unexpired token names an id that owns nothing.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isUuid } from '../../contract/common.ts';
import type { Db } from '../db/index.ts';
import { unauthorized } from '../errors.ts';
import { keysFor, verifyAccessToken } from './tokens.ts';
import { findUser, type UserRow } from './queries.ts';

export type AuthenticateHook = (req: FastifyRequest, reply: FastifyReply) => Promise<void>;

declare module 'fastify' {
  interface FastifyInstance {
    /** preHandler for protected routes; see server/auth/authenticate.ts. */
    authenticate: AuthenticateHook;
    /** preHandler for public routes that know a signed-in caller: sets `req.userId` or leaves it ''. */
    authenticateOptional: AuthenticateHook;
    /**
     * preHandler for the few hot reads whose own statement does the user check (decision 144): the
     * token check of `authenticate` (401 as there), no database read; `req.signedInUser` stays null
     * and the route MUST refuse a token whose user is gone (`userGone()`), as `authenticate` would.
     */
    authenticateToken: AuthenticateHook;
  }
  interface FastifyRequest {
    /** The signed-in user's id; set by app.authenticate or app.authenticateOptional ('' when nobody is signed in). */
    userId: string;
    /** The signed-in user's row as app.authenticate found it (null on routes that do not use it). */
    signedInUser: UserRow | null;
  }
}

/** The answer to a valid token whose user no longer exists (an account removed since it was issued). */
export const userGone = () => unauthorized('INVALID_TOKEN');

/**
 * For a route behind `authenticateToken` that answers before its own statement ran (a bad query
 * string): the user check `authenticate` would have made first, so a removed account still gets
 * its 401 rather than the 400.
 */
export async function requireUser(db: Db, userId: string): Promise<void> {
  if (!(await findUser(db, userId))) throw userGone();
}

const BEARER = /^Bearer ([A-Za-z0-9._~+/-]+=*)$/;

/** The user id a request's Authorization header carries in a token this server signed, or why not. */
function tokenUserId(app: FastifyInstance, req: FastifyRequest): { userId: string } | { code: 'UNAUTHORIZED' | 'INVALID_TOKEN' } {
  const header = req.headers.authorization;
  if (!header) return { code: 'UNAUTHORIZED' };
  const match = BEARER.exec(header.trim());
  if (!match) return { code: 'INVALID_TOKEN' };
  const userId = verifyAccessToken(keysFor(app.config), match[1]!, app.services.now());
  if (!userId || !isUuid(userId)) return { code: 'INVALID_TOKEN' };
  return { userId };
}

export function installAuthentication(app: FastifyInstance): void {
  if (app.hasDecorator('authenticate')) return;
  app.decorateRequest('userId', '');
  app.decorateRequest('signedInUser', null);
  app.decorate('authenticateOptional', async function authenticateOptional(req: FastifyRequest): Promise<void> {
    const token = tokenUserId(app, req);
    req.userId = 'userId' in token ? token.userId : '';
  });
  app.decorate('authenticate', async function authenticate(req: FastifyRequest): Promise<void> {
    const token = tokenUserId(app, req);
    if ('code' in token) throw unauthorized(token.code);
    const { userId } = token;
    // An account removed since the token was issued signs out at once, not in 15 minutes.
    const user = await findUser(app.db, userId);
    if (!user) throw userGone();
    req.userId = userId;
    req.signedInUser = user;
  });
  app.decorate('authenticateToken', async function authenticateToken(req: FastifyRequest): Promise<void> {
    const token = tokenUserId(app, req);
    if ('code' in token) throw unauthorized(token.code);
    req.userId = token.userId;
  });
}
