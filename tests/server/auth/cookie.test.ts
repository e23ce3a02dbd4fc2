import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { loggerOptions } from '../../../server/app.ts';
import { createTestApp, testConfig } from '../helpers.ts';
import { authTestApp, freshNumber, lastCode, login, requestCode } from './support.ts';

type T = Awaited<ReturnType<typeof authTestApp>>;
type Pair = { token: string; refreshToken: string };

/** The browser's copy of the refresh token (decision 022): the cookie a new tab restores its session from. */

function setCookie(res: LightMyRequestResponse): string {
  const header = res.headers['set-cookie'];
  const value = Array.isArray(header) ? header.join('\n') : header;
  if (typeof value !== 'string') throw new Error(`no Set-Cookie (status ${res.statusCode}: ${res.body})`);
  return value;
}

/** The cookie's token from a Set-Cookie header. */
function cookieToken(res: LightMyRequestResponse): string {
  const m = /^greetie_refresh=([^;]*)/.exec(setCookie(res));
  if (!m) throw new Error('no greetie_refresh cookie');
  return m[1]!;
}

const attributes = (res: LightMyRequestResponse) =>
  setCookie(res)
    .split(';')
    .slice(1)
    .map((a) => a.trim())
    .sort();

describe('the refresh cookie', () => {
  let t: T;
  beforeAll(async () => {
    t = await authTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  /** Signs in and returns the pair and the login answer (whose Set-Cookie holds the cookie). */
  async function signInWithCookie() {
    const number = freshNumber();
    const code = await requestCode(t.app, number);
    const res = await login(t.app, code.json().token, await lastCode(t.app, number));
    expect(res.statusCode).toBe(200);
    return { pair: res.json() as Pair, cookie: cookieToken(res), res };
  }

  const restore = (cookie: string | null, headers: Record<string, string> = {}, extra: { payload?: string } = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      headers: { ...(cookie !== null ? { cookie: `other=1; greetie_refresh=${cookie}` } : {}), ...headers },
      ...(extra.payload !== undefined ? { payload: extra.payload } : {}),
    });
  const refreshByQuery = (pair: Pair, cookie?: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/auth/refresh?token=${encodeURIComponent(pair.token)}&refreshToken=${encodeURIComponent(pair.refreshToken)}`,
      headers: cookie ? { cookie: `greetie_refresh=${cookie}` } : {},
    });
  const my = (token: string) => t.app.inject({ method: 'GET', url: '/api/auth/my', headers: { authorization: `Bearer ${token}` } });

  it('is set by login: HttpOnly, SameSite=Strict, Path=/api/auth, 30 days, not Secure on http, and a token other than the tab\'s', async () => {
    const { pair, cookie, res } = await signInWithCookie();
    expect(attributes(res)).toEqual(['HttpOnly', 'Max-Age=2592000', 'Path=/api/auth', 'SameSite=Strict']);
    expect(cookie).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(cookie).not.toBe(pair.refreshToken);
    // The body is API.md's pair and nothing more.
    expect(Object.keys(res.json()).sort()).toEqual(['refreshToken', 'token']);
  });

  it('restores the session with the cookie alone (a new tab), rotating it', async () => {
    const { pair, cookie } = await signInWithCookie();
    const res = await restore(cookie);
    expect(res.statusCode).toBe(200);
    const restored = res.json() as Pair;
    expect((await my(restored.token)).json().id).toBe((await my(pair.token)).json().id);
    const next = cookieToken(res);
    expect(next).not.toBe(cookie);
    expect(attributes(res)).toContain('HttpOnly');
    // The new cookie works once more; the tab's own token from login still works too (its own chain).
    expect((await restore(next)).statusCode).toBe(200);
    expect((await refreshByQuery(pair)).statusCode).toBe(200);
  });

  it('revokes the whole sign-in when a used cookie comes back, and clears it', async () => {
    const { pair, cookie } = await signInWithCookie();
    const first = await restore(cookie);
    expect(first.statusCode).toBe(200);
    const reuse = await restore(cookie);
    expect(reuse.statusCode).toBe(401);
    expect(reuse.json().code).toBe('REFRESH_TOKEN_REUSED');
    expect(setCookie(reuse)).toMatch(/^greetie_refresh=;.*Max-Age=0/);
    // Everything of that sign-in is gone: the rotated cookie, the restored tab's token, the first tab's token.
    expect((await restore(cookieToken(first))).statusCode).toBe(401);
    expect((await refreshByQuery(first.json() as Pair)).statusCode).toBe(401);
    expect((await refreshByQuery(pair)).statusCode).toBe(401);
  });

  it('answers 401 without a cookie and without a query, and for a cookie that is not ours', async () => {
    const none = await restore(null);
    expect(none.statusCode).toBe(401);
    expect(none.json().code).toBe('REFRESH_TOKEN_MISSING');
    const unknown = await restore('x'.repeat(43));
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().code).toBe('REFRESH_TOKEN_INVALID');
    expect(setCookie(unknown)).toMatch(/Max-Age=0/);
    const malformed = await t.app.inject({ method: 'POST', url: '/api/auth/refresh', headers: { cookie: 'greetie_refresh=a"b' } });
    expect(malformed.statusCode).toBe(401);
  });

  it('sets a new cookie on a refresh by query too, and retires the one that came with it', async () => {
    const { pair, cookie } = await signInWithCookie();
    const res = await refreshByQuery(pair, cookie);
    expect(res.statusCode).toBe(200);
    const next = cookieToken(res);
    expect(next).not.toBe(cookie);
    // The old cookie is refused, but that is not a reuse: the sign-in lives on.
    const old = await restore(cookie);
    expect(old.statusCode).toBe(401);
    expect(old.json().code).toBe('REFRESH_TOKEN_INVALID');
    expect((await restore(next)).statusCode).toBe(200);
    expect((await refreshByQuery(res.json() as Pair)).statusCode).toBe(200);
  });

  it('leaves another sign-in\'s cookie alone on a refresh by query', async () => {
    const a = await signInWithCookie();
    const b = await signInWithCookie();
    expect((await refreshByQuery(a.pair, b.cookie)).statusCode).toBe(200);
    expect((await restore(b.cookie)).statusCode).toBe(200);
  });

  it('lets one of two concurrent restores with the same cookie win; the other is a reuse', async () => {
    const { cookie } = await signInWithCookie();
    const answers = await Promise.all([restore(cookie), restore(cookie)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 401]);
  });

  it('refuses what a cross-site form could send: a body that is not JSON (415), another site (403); nothing is used up', async () => {
    const { cookie } = await signInWithCookie();
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const res = await restore(cookie, { 'content-type': type }, { payload: 'a=1' });
      expect(res.statusCode, type).toBe(415);
      expect(res.json().code).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
    for (const site of ['cross-site', 'same-site']) {
      const res = await restore(cookie, { 'sec-fetch-site': site });
      expect(res.statusCode, site).toBe(403);
      expect(res.json().code).toBe('CROSS_SITE_REQUEST');
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    // The cookie was not spent by any of them.
    expect((await restore(cookie, { 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' }, { payload: '{}' })).statusCode).toBe(200);
  });

  it('answers GET with 404 and never sets a cookie on it', async () => {
    const { cookie } = await signInWithCookie();
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/refresh', headers: { cookie: `greetie_refresh=${cookie}` } });
    expect(res.statusCode).toBe(404);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect((await restore(cookie)).statusCode).toBe(200);
  });

  it('still answers 400 to half a query', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/refresh?refreshToken=x' });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION_FAILED');
  });

  it('logs out with the cookie alone: the sign-in is revoked and the cookie cleared', async () => {
    const { pair, cookie } = await signInWithCookie();
    const out = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie: `greetie_refresh=${cookie}` } });
    expect(out.statusCode).toBe(204);
    expect(setCookie(out)).toBe('greetie_refresh=; Path=/api/auth; Max-Age=0; HttpOnly; SameSite=Strict');
    expect((await restore(cookie)).statusCode).toBe(401);
    expect((await refreshByQuery(pair)).statusCode).toBe(401);
  });

  it('logs out with the body\'s token and clears the cookie all the same; a cross-site logout is refused', async () => {
    const { pair, cookie } = await signInWithCookie();
    const cross = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { cookie: `greetie_refresh=${cookie}`, 'sec-fetch-site': 'cross-site' },
    });
    expect(cross.statusCode).toBe(403);
    expect((await restore(cookie)).statusCode).toBe(200);
    const out = await t.app.inject({ method: 'POST', url: '/api/auth/logout', payload: { refreshToken: pair.refreshToken } });
    expect(out.statusCode).toBe(204);
    expect(setCookie(out)).toMatch(/Max-Age=0/);
    expect((await refreshByQuery(pair)).statusCode).toBe(401);
  });

  it('never writes the cookie\'s token to the log', async () => {
    const lines: string[] = [];
    const logged = await createTestApp({
      logger: { ...(loggerOptions(testConfig()) as object), level: 'trace', stream: { write: (l: string) => void lines.push(l) } } as never,
    });
    try {
      const number = freshNumber();
      const code = await requestCode(logged.app, number);
      const res = await login(logged.app, code.json().token, await lastCode(logged.app, number));
      const first = cookieToken(res);
      const restored = await logged.app.inject({ method: 'POST', url: '/api/auth/refresh', headers: { cookie: `greetie_refresh=${first}` } });
      const second = cookieToken(restored);
      await logged.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie: `greetie_refresh=${second}` } });
      const all = lines.join('\n');
      expect(lines.length).toBeGreaterThan(0);
      for (const secret of [first, second, (restored.json() as Pair).refreshToken]) expect(all).not.toContain(secret);
    } finally {
      await logged.close();
    }
  });
});

describe('the refresh cookie on https', () => {
  let t: T;
  beforeAll(async () => {
    t = await authTestApp({ env: { PUBLIC_URL: 'https://greetie.example' } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('is Secure when PUBLIC_URL is https', async () => {
    const number = freshNumber();
    const code = await requestCode(t.app, number);
    const res = await login(t.app, code.json().token, await lastCode(t.app, number));
    expect(attributes(res)).toEqual(['HttpOnly', 'Max-Age=2592000', 'Path=/api/auth', 'SameSite=Strict', 'Secure']);
    const out = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie: `greetie_refresh=${cookieToken(res)}` } });
    expect(setCookie(out)).toMatch(/; Secure$/);
  });
});
