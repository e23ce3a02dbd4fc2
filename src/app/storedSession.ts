import { jwtDecode } from 'jwt-decode';

/**
 * What this browser keeps of a sign-in, read synchronously and without the session's code (the
 * auth machine, its implementations and the API client load after the first screen: decision 011).
 * The first load uses it to know, before that code is there, whether a visitor has anything to
 * restore at all (`maySignIn`), and the greetie view's early read (src/app/routes.tsx) to know who
 * asks; src/app/auth.ts (the session's code) checks the same token the same way at start-up.
 */

/** Where the session is kept in the browser (per tab): the access token, as the spec says, and the refresh token. */
export const ACCESS_TOKEN_KEY = 'accessToken';
export const REFRESH_TOKEN_KEY = 'refreshToken';
/** localStorage: '1' while this browser has a sign-in its refresh cookie can restore. */
export const SIGNED_IN_HINT_KEY = 'greetie.signedIn';

/** The access token's `exp` (seconds) as milliseconds, or null when it has none or is not a JWT. */
export function expiryOf(token: string): number | null {
  try {
    const { exp } = jwtDecode<{ exp?: number }>(token);
    return typeof exp === 'number' ? exp * 1000 : null;
  } catch {
    return null;
  }
}

/**
 * This tab's stored access token when it is still good for at least `marginMs` more, else null
 * (none, not a JWT, no expiry, or expiring within the margin).
 */
export function liveAccessToken(storage: Pick<Storage, 'getItem'>, marginMs: number, now: number = Date.now()): string | null {
  const token = storage.getItem(ACCESS_TOKEN_KEY);
  if (!token) return null;
  const expiresAt = expiryOf(token);
  return expiresAt !== null && expiresAt > now + marginMs ? token : null;
}

/**
 * Whether start-up may find a session: a live access token in this tab, or the signed-in hint of
 * this browser (its refresh cookie may restore one). False means the auth machine's start-up can
 * only end signed out, without a call, so the first screen need not wait for it. True when the
 * storage cannot be read (the machine decides).
 */
export function maySignIn(): boolean {
  try {
    return liveAccessToken(sessionStorage, 0) !== null || localStorage.getItem(SIGNED_IN_HINT_KEY) === '1';
  } catch {
    return true;
  }
}
