import { describe, expect, it, vi } from 'vitest';
import { createActor, toPromise } from 'xstate';
import { createApiClient } from '../../../src/api/client.ts';
import { ACCESS_TOKEN_KEY, COOKIE_LOCK, SIGNED_IN_HINT_KEY, authImplementations } from '../../../src/app/auth.ts';

/**
 * A new tab's session (decision 022): sessionStorage is empty, the browser's HttpOnly refresh
 * cookie restores it. The fetch fake records what the browser would be told about cookies.
 */
const NOW = Date.parse('2026-11-21T08:00:00Z');
const jwt = (exp: number) => `${btoa(JSON.stringify({ alg: 'HS256' }))}.${btoa(JSON.stringify({ sub: 'u1', exp }))}.sig`;
const me = { id: 'u1', mobileNumber: '+46701234567', name: 'Anna', allowMarketing: false, createdAt: '2026-11-21T08:00:00.000Z' };

type Call = { url: string; method: string; credentials: RequestCredentials | undefined; body: unknown; contentType: string | undefined };

function setup(answers: Record<string, { status: number; body?: unknown } | 'offline'> = {}, opts: { locks?: LockManager } = {}) {
  const calls: Call[] = [];
  const fetch = vi.fn(async (url: string, init: RequestInit) => {
    const headers = init.headers as Record<string, string>;
    calls.push({ url, method: init.method ?? 'GET', credentials: init.credentials, body: init.body ?? undefined, contentType: headers['Content-Type'] });
    const a = answers[url.split('?')[0]!] ?? { status: 404, body: { code: 'ROUTE_NOT_FOUND', message: 'nej' } };
    if (a === 'offline') throw new TypeError('Failed to fetch');
    return new Response(a.body === undefined ? null : JSON.stringify(a.body), { status: a.status, headers: { 'content-type': 'application/json' } });
  });
  const client = createApiClient({ fetch: fetch as unknown as typeof globalThis.fetch, language: () => 'sv' });
  const logError = vi.fn();
  const impl = authImplementations({ client, storage: sessionStorage, sharedStorage: localStorage, now: () => NOW, logError, locks: opts.locks });
  return { calls, client, impl, logError };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const run = <T,>(logic: any, input?: unknown): Promise<T> => toPromise(createActor(logic, { input }).start()) as Promise<T>;

/** A LockManager that grants at once and remembers which locks were asked for. */
function recordingLocks() {
  const names: string[] = [];
  const locks = {
    request: async (name: string, fn: () => Promise<unknown>) => {
      names.push(name);
      return fn();
    },
  } as unknown as LockManager;
  return { locks, names };
}

describe('restoring from the refresh cookie (restoreFromCookie)', () => {
  it('in a browser that never signed in: no request at all', async () => {
    const t = setup();
    expect(await run(t.impl.actors.restoreFromCookie)).toBeNull();
    expect(t.calls).toHaveLength(0);
  });

  it('in a browser that signed in: POST /api/auth/refresh with no query and no body, the cookie sent, under the cookie lock; then the user', async () => {
    const token = jwt(NOW / 1000 + 900);
    const { locks, names } = recordingLocks();
    const t = setup({ '/api/auth/refresh': { status: 200, body: { token, refreshToken: 'tab-refresh' } }, '/api/auth/my': { status: 200, body: me } }, { locks });
    localStorage.setItem(SIGNED_IN_HINT_KEY, '1');
    const session = await run(t.impl.actors.restoreFromCookie);
    expect(session).toEqual({ user: { id: 'u1', mobileNumber: '+46701234567', name: 'Anna' }, accessToken: token, refreshToken: 'tab-refresh', expiresAt: NOW + 900_000 });
    expect(t.calls[0]).toEqual({ url: '/api/auth/refresh', method: 'POST', credentials: 'same-origin', body: undefined, contentType: undefined });
    expect(t.calls[1]).toMatchObject({ url: '/api/auth/my' });
    expect(names).toEqual([COOKIE_LOCK]);
    expect(t.client.getToken()).toBe(token);
  });

  it('when the browser\'s sign-in is gone (401): signed out quietly, and the hint forgotten so the next start asks nothing', async () => {
    const t = setup({ '/api/auth/refresh': { status: 401, body: { code: 'REFRESH_TOKEN_INVALID', message: 'Logga in igen.' } } });
    localStorage.setItem(SIGNED_IN_HINT_KEY, '1');
    expect(await run(t.impl.actors.restoreFromCookie)).toBeNull();
    expect(localStorage.getItem(SIGNED_IN_HINT_KEY)).toBeNull();
    expect(t.logError).not.toHaveBeenCalled();
  });

  it('when the server cannot be reached: rejects (the machine reports it) and keeps the hint for next time', async () => {
    const t = setup({ '/api/auth/refresh': 'offline' });
    localStorage.setItem(SIGNED_IN_HINT_KEY, '1');
    const err = await run(t.impl.actors.restoreFromCookie).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 0 });
    expect(localStorage.getItem(SIGNED_IN_HINT_KEY)).toBe('1');
  });

  it('works where the browser has no Web Locks', async () => {
    const token = jwt(NOW / 1000 + 900);
    const t = setup({ '/api/auth/refresh': { status: 200, body: { token, refreshToken: 'r' } }, '/api/auth/my': { status: 200, body: me } }, { locks: undefined });
    localStorage.setItem(SIGNED_IN_HINT_KEY, '1');
    expect(await run(t.impl.actors.restoreFromCookie)).toMatchObject({ accessToken: token });
  });
});

describe('the cookie in the other auth calls', () => {
  it('login, refresh and logout send and take cookies; the refresh by query holds the cookie lock', async () => {
    const token = jwt(NOW / 1000 + 900);
    const { locks, names } = recordingLocks();
    const t = setup(
      {
        '/api/auth/login': { status: 200, body: { token, refreshToken: 'r1' } },
        '/api/auth/refresh': { status: 200, body: { token, refreshToken: 'r2' } },
        '/api/auth/my': { status: 200, body: me },
        '/api/auth/logout': { status: 204 },
      },
      { locks },
    );
    await run(t.impl.actors.login, { token: 'v', code: '123456', deviceId: '00000000-0000-0000-0000-000000000000' });
    await run(t.impl.actors.refreshSession, { accessToken: 'old', refreshToken: 'r1' });
    await run(t.impl.actors.revokeSession, { refreshToken: 'r2' });
    const byUrl = (u: string) => t.calls.find((c) => c.url.startsWith(u))!;
    expect(byUrl('/api/auth/login').credentials).toBe('same-origin');
    expect(byUrl('/api/auth/refresh?').credentials).toBe('same-origin');
    expect(byUrl('/api/auth/logout').credentials).toBe('same-origin');
    expect(byUrl('/api/auth/my').credentials).toBe('omit');
    expect(names).toEqual([COOKIE_LOCK]);
  });

  it('signing out with no token of the tab\'s still asks the server (the cookie\'s sign-in ends; no body)', async () => {
    const t = setup({ '/api/auth/logout': { status: 204 } });
    await run(t.impl.actors.revokeSession, { refreshToken: null });
    expect(t.calls).toEqual([{ url: '/api/auth/logout', method: 'POST', credentials: 'same-origin', body: undefined, contentType: undefined }]);
  });

  it('keeping a session sets the browser\'s hint; forgetting it removes the hint', () => {
    const t = setup();
    t.impl.actions.persistSession({ context: { accessToken: 'a', refreshToken: 'r' } });
    expect(localStorage.getItem(SIGNED_IN_HINT_KEY)).toBe('1');
    expect(sessionStorage.getItem(ACCESS_TOKEN_KEY)).toBe('a');
    t.impl.actions.forgetSession();
    expect(localStorage.getItem(SIGNED_IN_HINT_KEY)).toBeNull();
  });
});
