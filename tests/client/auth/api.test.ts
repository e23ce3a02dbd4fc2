import { describe, expect, it, vi } from 'vitest';
import { createActor, toPromise } from 'xstate';
import { createApiClient } from '../../../src/api/client.ts';
import { ACCESS_TOKEN_KEY, REFRESH_TOKEN_KEY, authImplementations, expiryOf } from '../../../src/app/auth.ts';

const NOW = Date.parse('2026-11-21T08:00:00Z');
/** An unsigned JWT-shaped token; the client only reads `exp` (seconds). */
const jwt = (exp: number) => `${btoa(JSON.stringify({ alg: 'HS256' }))}.${btoa(JSON.stringify({ sub: 'u1', exp }))}.sig`;
const me = { id: 'u1', mobileNumber: '+46701234567', name: null, allowMarketing: false, createdAt: '2026-11-21T08:00:00.000Z' };

function setup(answers: Record<string, { status: number; body?: unknown }> = {}) {
  const calls: { url: string; method: string; auth: string | undefined; body: unknown }[] = [];
  const fetch = vi.fn(async (url: string, init: RequestInit) => {
    const headers = init.headers as Record<string, string>;
    calls.push({ url, method: init.method ?? 'GET', auth: headers.Authorization, body: init.body ? JSON.parse(init.body as string) : undefined });
    const path = url.split('?')[0]!;
    const a = answers[path] ?? { status: 404, body: { code: 'ROUTE_NOT_FOUND', message: 'nej' } };
    return new Response(a.body === undefined ? null : JSON.stringify(a.body), { status: a.status, headers: { 'content-type': 'application/json' } });
  });
  const client = createApiClient({ fetch: fetch as unknown as typeof globalThis.fetch, language: () => 'sv' });
  const logError = vi.fn();
  const impl = authImplementations({ client, storage: sessionStorage, now: () => NOW, logError });
  return { calls, client, impl, logError };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const run = <T,>(logic: any, input?: unknown): Promise<T> => toPromise(createActor(logic, { input }).start()) as Promise<T>;

describe('start-up (restoreSession)', () => {
  it('with no stored token: no user, no request', async () => {
    const t = setup();
    expect(await run(t.impl.actors.restoreSession)).toBeNull();
    expect(t.calls).toHaveLength(0);
  });

  it('with an expired token (exp in seconds, not later than now): no user, no request', async () => {
    const t = setup();
    sessionStorage.setItem(ACCESS_TOKEN_KEY, jwt(NOW / 1000));
    expect(await run(t.impl.actors.restoreSession)).toBeNull();
    expect(t.calls).toHaveLength(0);
  });

  it('with an unexpired token: applies it as the bearer and fetches the user', async () => {
    const t = setup({ '/api/auth/my': { status: 200, body: me } });
    const token = jwt(NOW / 1000 + 60);
    sessionStorage.setItem(ACCESS_TOKEN_KEY, token);
    sessionStorage.setItem(REFRESH_TOKEN_KEY, 'refresh-1');
    const session = await run<{ user: unknown; accessToken: string; refreshToken: string; expiresAt: number }>(t.impl.actors.restoreSession);
    expect(session).toEqual({ user: { id: 'u1', mobileNumber: '+46701234567', name: null }, accessToken: token, refreshToken: 'refresh-1', expiresAt: NOW + 60_000 });
    expect(t.calls[0]).toMatchObject({ url: '/api/auth/my', auth: `Bearer ${token}` });
    expect(t.client.getToken()).toBe(token);
  });

  it('when fetching the user fails: rejects, drops the bearer, and the report never includes the token', async () => {
    const t = setup({ '/api/auth/my': { status: 401, body: { code: 'INVALID_TOKEN', message: 'Logga in igen.' } } });
    const token = jwt(NOW / 1000 + 60);
    sessionStorage.setItem(ACCESS_TOKEN_KEY, token);
    const err = await run(t.impl.actors.restoreSession).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 401, code: 'INVALID_TOKEN' });
    expect(t.client.getToken()).toBeNull();
    t.impl.actions.reportRestoreError({ event: { error: err } });
    expect(t.logError).toHaveBeenCalledWith(expect.any(String), { status: 401, code: 'INVALID_TOKEN' });
    expect(JSON.stringify(t.logError.mock.calls)).not.toContain(token);
  });

  it('reads exp from a JWT, and null from anything else', () => {
    expect(expiryOf(jwt(1_800_000_000))).toBe(1_800_000_000_000);
    expect(expiryOf('not-a-jwt')).toBeNull();
  });
});

describe('login, refresh, logout', () => {
  it('login posts the credentials with the all-zero device id, then fetches the user with the new token', async () => {
    const token = jwt(NOW / 1000 + 900);
    const t = setup({
      '/api/auth/login': { status: 200, body: { token, refreshToken: 'refresh-1' } },
      '/api/auth/my': { status: 200, body: me },
    });
    const input = { token: 'verif', code: '123456', deviceId: '00000000-0000-0000-0000-000000000000' };
    const session = await run<{ accessToken: string; expiresAt: number }>(t.impl.actors.login, input);
    expect(t.calls[0]).toMatchObject({ url: '/api/auth/login', method: 'POST', body: input });
    expect(t.calls[1]).toMatchObject({ url: '/api/auth/my', auth: `Bearer ${token}` });
    expect(session).toMatchObject({ accessToken: token, expiresAt: NOW + 900_000 });
    // persistSession keeps it under `accessToken` in sessionStorage; forgetSession removes it.
    t.impl.actions.persistSession({ context: { accessToken: token, refreshToken: 'refresh-1' } });
    expect(sessionStorage.getItem(ACCESS_TOKEN_KEY)).toBe(token);
    expect(sessionStorage.getItem(REFRESH_TOKEN_KEY)).toBe('refresh-1');
    t.impl.actions.forgetSession();
    expect(sessionStorage.getItem(ACCESS_TOKEN_KEY)).toBeNull();
    expect(sessionStorage.getItem(REFRESH_TOKEN_KEY)).toBeNull();
    expect(t.client.getToken()).toBeNull();
  });

  it('a wrong code rejects with the server’s code and message', async () => {
    const t = setup({ '/api/auth/login': { status: 400, body: { code: 'WRONG_CODE', message: 'Koden stämmer inte. Du har 4 försök kvar.' } } });
    const err = await run(t.impl.actors.login, { token: 'v', code: '000000', deviceId: 'x' }).catch((e: unknown) => e);
    expect(err).toEqual({ status: 400, code: 'WRONG_CODE', message: 'Koden stämmer inte. Du har 4 försök kvar.', retryAt: null });
  });

  it('refresh sends token and refreshToken in the query', async () => {
    const token = jwt(NOW / 1000 + 900);
    const t = setup({ '/api/auth/refresh': { status: 200, body: { token, refreshToken: 'refresh-2' } }, '/api/auth/my': { status: 200, body: me } });
    await run(t.impl.actors.refreshSession, { accessToken: 'old', refreshToken: 'refresh-1' });
    expect(t.calls[0]!.url).toBe('/api/auth/refresh?token=old&refreshToken=refresh-1');
    expect(t.calls[0]!.method).toBe('POST');
  });

  it('logout revokes the refresh token on the server', async () => {
    const t = setup({ '/api/auth/logout': { status: 204 } });
    await run(t.impl.actors.revokeSession, { refreshToken: 'refresh-1' });
    expect(t.calls[0]).toMatchObject({ url: '/api/auth/logout', method: 'POST', body: { refreshToken: 'refresh-1' } });
  });
});
