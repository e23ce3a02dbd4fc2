import { sendTo } from 'xstate';
import type { MobileUser } from '../../contract/auth.ts';
import type { AuthUser, SessionData, authMachine } from '../../machines/auth.ts';
import { api as defaultClient, isApiError, type ApiClient } from '../api/client.ts';
import { toFailure } from '../api/errors.ts';
import { authApi } from '../api/auth.ts';
import { fromCall } from '../components/flow.ts';
import { translate } from '../i18n.ts';
import { ACCESS_TOKEN_KEY, REFRESH_TOKEN_KEY, SIGNED_IN_HINT_KEY, expiryOf, liveAccessToken } from './storedSession.ts';

export { ACCESS_TOKEN_KEY, REFRESH_TOKEN_KEY, SIGNED_IN_HINT_KEY, expiryOf, liveAccessToken };

/**
 * The auth machine's real implementations (machines/auth.ts): the calls of src/api/auth.ts, the
 * session kept in this tab's sessionStorage, the API client's bearer token set and cleared. The
 * app gives them to the machine where it starts it (src/app/AppActors.tsx).
 *
 * A new tab has an empty sessionStorage; the browser's HttpOnly refresh cookie (decision 022)
 * restores its session. Scripts cannot see that cookie, so a flag in localStorage (shared by the
 * tabs, no secret in it) says whether this browser signed in: without it a visitor's start-up
 * makes no call at all.
 */

/** The Web Lock that lets one tab at a time spend the shared refresh cookie. */
export const COOKIE_LOCK = 'greetie-refresh-cookie';

/**
 * Runs `fn` while holding the browser-wide cookie lock (navigator.locks), so two tabs starting at
 * once never present the same cookie twice (a reuse would revoke the sign-in); the second one
 * sends the cookie the first was given. Without Web Locks, `fn` runs as it is.
 */
export function withCookieLock<T>(fn: () => Promise<T>, locks: LockManager | undefined = globalThis.navigator?.locks): Promise<T> {
  return locks ? (locks.request(COOKIE_LOCK, fn) as Promise<T>) : fn();
}

/**
 * The toast text when a session could not be renewed, in the language the page shows now (from
 * `common`, whose strings every page has loaded: decision 011).
 */
export function sessionEndedMessage(): string {
  return translate('sessionEnded');
}

const toUser = (u: MobileUser): AuthUser => ({ id: u.id, mobileNumber: u.mobileNumber, name: u.name, merchants: u.merchants });

export interface AuthDeps {
  client?: ApiClient;
  storage?: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
  /** Shared by the browser's tabs (localStorage): the signed-in hint. */
  sharedStorage?: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
  /** navigator.locks by default; tests may give none. */
  locks?: LockManager;
  now?: () => number;
  /** Where start-up problems are written; never given a token. */
  logError?: (message: string, detail: { status?: number; code?: string }) => void;
}

/**
 * The real implementations of the auth machine's actors and actions (machines/auth.ts):
 * fetch-backed calls through the API client (each failure a Failure), the session kept in
 * sessionStorage.
 */
export function authImplementations(deps: AuthDeps = {}) {
  const client = deps.client ?? defaultClient;
  const storage = deps.storage ?? sessionStorage;
  const shared = deps.sharedStorage ?? localStorage;
  const locked = <T>(fn: () => Promise<T>) => withCookieLock(fn, 'locks' in deps ? deps.locks : globalThis.navigator?.locks);
  const now = deps.now ?? Date.now;
  const logError = deps.logError ?? ((message, detail) => console.warn(message, detail));
  const calls = authApi(client);

  /** Fetches the user with `token` as the bearer; on failure the bearer is dropped again. */
  async function sessionFor(pair: { token: string; refreshToken: string | null }): Promise<SessionData> {
    const expiresAt = expiryOf(pair.token);
    if (expiresAt === null) throw new Error('The access token has no expiry');
    client.setToken(pair.token);
    try {
      const user = await calls.my();
      return { user: toUser(user), accessToken: pair.token, refreshToken: pair.refreshToken, expiresAt };
    } catch (err) {
      client.setToken(null);
      throw err;
    }
  }

  const actors = {
    restoreSession: fromCall<SessionData | null>(async () => {
      const token = liveAccessToken(storage, 0, now());
      if (!token) return null;
      return sessionFor({ token, refreshToken: storage.getItem(REFRESH_TOKEN_KEY) });
    }),
    restoreFromCookie: fromCall<SessionData | null>(async () => {
      if (shared.getItem(SIGNED_IN_HINT_KEY) !== '1') return null;
      let pair;
      try {
        pair = await locked(() => calls.restore());
      } catch (err) {
        // 401: the browser's sign-in is gone (expired, revoked, signed out elsewhere). Nothing to report.
        if (isApiError(err) && err.status === 401) {
          shared.removeItem(SIGNED_IN_HINT_KEY);
          return null;
        }
        throw err;
      }
      return sessionFor(pair);
    }),
    requestCode: fromCall<{ token: string }, { mobileNumber: string }>(({ input }) => calls.requestCode(input.mobileNumber)),
    login: fromCall<SessionData, { token: string; code: string; deviceId: string }>(async ({ input }) => {
      const pair = await calls.login(input);
      return sessionFor(pair);
    }),
    refreshSession: fromCall<SessionData, { accessToken: string; refreshToken: string | null }>(async ({ input }) => {
      if (!input.refreshToken) throw new Error('No refresh token');
      const refreshToken = input.refreshToken;
      // The answer sets a new cookie and retires the one sent: one tab at a time.
      const pair = await locked(() => calls.refresh(input.accessToken, refreshToken));
      return sessionFor(pair);
    }),
    // Always called, even without a token of the tab's: the server ends the cookie's sign-in and clears it.
    revokeSession: fromCall<void, { refreshToken: string | null }>(async ({ input }) => {
      await calls.logout(input.refreshToken);
    }),
  };

  const actions = {
    persistSession: ({ context }: { context: { accessToken: string | null; refreshToken: string | null } }) => {
      if (!context.accessToken) return;
      storage.setItem(ACCESS_TOKEN_KEY, context.accessToken);
      if (context.refreshToken) storage.setItem(REFRESH_TOKEN_KEY, context.refreshToken);
      else storage.removeItem(REFRESH_TOKEN_KEY);
      shared.setItem(SIGNED_IN_HINT_KEY, '1');
      client.setToken(context.accessToken);
    },
    forgetSession: () => {
      storage.removeItem(ACCESS_TOKEN_KEY);
      storage.removeItem(REFRESH_TOKEN_KEY);
      shared.removeItem(SIGNED_IN_HINT_KEY);
      client.setToken(null);
    },
    reportRestoreError: ({ event }: { event: unknown }) => {
      const { status, code } = toFailure((event as { error?: unknown }).error);
      logError('Could not restore the session; starting signed out', { status, code });
    },
  };

  return { actors, actions };
}

/**
 * The auth machine with its real implementations. `sessionEndedMessage` gives the toast's text in
 * the language shown at that moment (required: the machine itself shows nothing).
 */
export function provideAuth(machine: typeof authMachine, deps: AuthDeps & { sessionEndedMessage: () => string }) {
  const { actors, actions } = authImplementations(deps);
  const message = deps.sessionEndedMessage;
  return machine.provide({
    actors,
    actions: {
      ...actions,
      notifySessionEnded: sendTo(
        ({ system }) => system.get('toasts'),
        () => ({ type: 'toast.show' as const, message: message(), variant: 'error' as const }),
      ),
    },
  });
}
