import type { FastifyRequest } from 'fastify';
import { HttpError } from '../errors.ts';
import { REFRESH_TOKEN_TTL_MS } from './tokens.ts';

/**
 * The browser's copy of a refresh token (decision 022): a cookie the page's scripts cannot read
 * (HttpOnly), sent only to /api/auth, only by this site's own pages (SameSite=Strict), only over
 * HTTPS when the site is (Secure follows PUBLIC_URL). A new tab, whose sessionStorage is empty,
 * restores its session with it (POST /auth/refresh with no query).
 *
 * Written by hand rather than with @fastify/cookie: one cookie, one name, a value that is already
 * URL-safe (base64url), so the whole of it is the few lines below.
 */
export const REFRESH_COOKIE = 'greetie_refresh';
export const REFRESH_COOKIE_PATH = '/api/auth';

const secureFor = (publicUrl: string) => new URL(publicUrl).protocol === 'https:';

/** The Set-Cookie value that keeps `token` for the refresh token's lifetime. */
export function refreshCookie(token: string, config: { publicUrl: string }): string {
  const attributes = [
    `${REFRESH_COOKIE}=${token}`,
    `Path=${REFRESH_COOKIE_PATH}`,
    `Max-Age=${Math.floor(REFRESH_TOKEN_TTL_MS / 1000)}`,
    'HttpOnly',
    'SameSite=Strict',
  ];
  if (secureFor(config.publicUrl)) attributes.push('Secure');
  return attributes.join('; ');
}

/** The Set-Cookie value that makes the browser forget it. */
export function clearedRefreshCookie(config: { publicUrl: string }): string {
  const attributes = [`${REFRESH_COOKIE}=`, `Path=${REFRESH_COOKIE_PATH}`, 'Max-Age=0', 'HttpOnly', 'SameSite=Strict'];
  if (secureFor(config.publicUrl)) attributes.push('Secure');
  return attributes.join('; ');
}

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{1,200}$/;

/** The refresh token the request's Cookie header carries, or null (none, or not one of ours in shape). */
export function readRefreshCookie(req: Pick<FastifyRequest, 'headers'>): string | null {
  const header = req.headers.cookie;
  if (typeof header !== 'string') return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() !== REFRESH_COOKIE) continue;
    const value = part.slice(eq + 1).trim();
    return TOKEN_SHAPE.test(value) ? value : null;
  }
  return null;
}

/**
 * CSRF guard for calls a cookie alone can authorise (restoring a session, signing out). The cookie
 * is SameSite=Strict, so another site's page cannot make the browser send it; on top of that the
 * call refuses what a cross-site form or a "simple" cross-origin fetch could send: a body of any
 * type but JSON (415; JSON from another origin needs a CORS preflight, which we never grant), and
 * a request the browser itself marks as coming from another site (Sec-Fetch-Site other than
 * same-origin: 403). Requests without Sec-Fetch-Site (older browsers, other clients) rely on the
 * two checks before.
 */
export function refuseCrossSite(req: Pick<FastifyRequest, 'headers'>): void {
  const type = req.headers['content-type'];
  if (type !== undefined && !/^application\/json\s*(;|$)/i.test(type)) throw new HttpError(415, 'UNSUPPORTED_MEDIA_TYPE');
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin') throw new HttpError(403, 'CROSS_SITE_REQUEST');
}
