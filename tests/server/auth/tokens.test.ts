import { SignJWT, UnsecuredJWT, decodeJwt, base64url } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authTestApp, signIn } from './support.ts';

type T = Awaited<ReturnType<typeof authTestApp>>;
const KEY = new TextEncoder().encode('test-signing-key-0123456789abcdef0123456789');

describe('access tokens, refresh and logout', () => {
  let t: T;
  beforeAll(async () => {
    t = await authTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const my = (authorization?: string) =>
    t.app.inject({ method: 'GET', url: '/api/auth/my', headers: authorization ? { authorization } : {} });
  const refresh = (token: string, refreshToken: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/auth/refresh?token=${encodeURIComponent(token)}&refreshToken=${encodeURIComponent(refreshToken)}`,
    });
  const nowS = () => Math.floor(t.clock.ms / 1000);

  async function sign(claims: Record<string, unknown>, opts: { alg?: string; key?: Uint8Array } = {}) {
    return new SignJWT(claims)
      .setProtectedHeader({ alg: opts.alg ?? 'HS256' })
      .sign(opts.key ?? KEY);
  }

  it('answers 401 with the error body without a token', async () => {
    const res = await my();
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ code: 'UNAUTHORIZED', message: 'Du behöver logga in.' });
  });

  it('refuses forged, unsigned, expired and foreign tokens with 401', async () => {
    const { token } = await signIn(t.app);
    const sub = decodeJwt(token).sub!;
    const base = { sub, iss: 'greetie', aud: 'greetie-api', iat: nowS(), exp: nowS() + 600 };
    const [h, p] = token.split('.');
    const tampered = `${h}.${base64url.encode(JSON.stringify({ ...decodeJwt(token), sub: '11111111-1111-1111-1111-111111111111' }))}.${token.split('.')[2]}`;
    const cases: Record<string, string> = {
      'alg none': new UnsecuredJWT(base).encode(),
      'alg none, signature kept': `${base64url.encode(JSON.stringify({ alg: 'none', typ: 'JWT' }))}.${p}.`,
      'another key': await sign(base, { key: new TextEncoder().encode('another-key-another-key-another-key!!') }),
      'HS512 with our key': await sign(base, { alg: 'HS512' }),
      'wrong issuer': await sign({ ...base, iss: 'someone-else' }),
      'wrong audience': await sign({ ...base, aud: 'other-api' }),
      'no sub': await sign({ iss: 'greetie', aud: 'greetie-api', iat: nowS(), exp: nowS() + 600 }),
      'a user who does not exist': await sign({ ...base, sub: '11111111-1111-1111-1111-111111111111' }),
      'not a uuid sub': await sign({ ...base, sub: 'admin' }),
      'payload changed': tampered,
      'not a JWT': 'hello',
    };
    for (const [name, bad] of Object.entries(cases)) {
      const res = await my(`Bearer ${bad}`);
      expect(res.statusCode, name).toBe(401);
      expect(res.json().code, name).toMatch(/^(INVALID_TOKEN|UNAUTHORIZED)$/);
      expect(typeof res.json().message).toBe('string');
    }
    expect((await my(`Basic ${token}`)).statusCode).toBe(401);
    expect((await my(`Bearer ${token}`)).statusCode).toBe(200);
  });

  it('expires the access token after 15 minutes', async () => {
    const { token } = await signIn(t.app);
    t.clock.advance(15 * 60_000 - 1000);
    expect((await my(`Bearer ${token}`)).statusCode).toBe(200);
    t.clock.advance(1000);
    const res = await my(`Bearer ${token}`);
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('INVALID_TOKEN');
  });

  it('rotates the refresh token on every use, also after the access token expired', async () => {
    const first = await signIn(t.app);
    t.clock.advance(20 * 60_000);
    const res = await refresh(first.token, first.refreshToken);
    expect(res.statusCode).toBe(200);
    const second = res.json() as { token: string; refreshToken: string };
    expect(second.refreshToken).not.toBe(first.refreshToken);
    expect(decodeJwt(second.token).sub).toBe(decodeJwt(first.token).sub);
    expect((await my(`Bearer ${second.token}`)).statusCode).toBe(200);
    const third = await refresh(second.token, second.refreshToken);
    expect(third.statusCode).toBe(200);
  });

  it('revokes the whole family when a used refresh token comes back', async () => {
    const first = await signIn(t.app);
    const second = (await refresh(first.token, first.refreshToken)).json() as { token: string; refreshToken: string };
    const reuse = await refresh(first.token, first.refreshToken);
    expect(reuse.statusCode).toBe(401);
    expect(reuse.json().code).toBe('REFRESH_TOKEN_REUSED');
    // The thief's copy and the rightful new token are both dead now.
    const after = await refresh(second.token, second.refreshToken);
    expect(after.statusCode).toBe(401);
    expect(after.json().code).toBe('REFRESH_TOKEN_INVALID');
  });

  it('lets only one of two concurrent refreshes with the same token win, and treats the other as reuse', async () => {
    const first = await signIn(t.app);
    const answers = await Promise.all([refresh(first.token, first.refreshToken), refresh(first.token, first.refreshToken)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 401]);
    const winner = answers.find((a) => a.statusCode === 200)!.json() as { token: string; refreshToken: string };
    expect((await refresh(winner.token, winner.refreshToken)).statusCode).toBe(401);
  });

  it('keeps other sign-ins (other families) alive when one family is revoked', async () => {
    const a = await signIn(t.app);
    const b = await signIn(t.app, a.mobileNumber);
    await refresh(a.token, a.refreshToken);
    await refresh(a.token, a.refreshToken); // reuse: family A revoked
    expect((await refresh(b.token, b.refreshToken)).statusCode).toBe(200);
  });

  it('needs the refresh token owner’s access token, signed by us', async () => {
    const a = await signIn(t.app);
    const b = await signIn(t.app);
    const crossed = await refresh(b.token, a.refreshToken);
    expect(crossed.statusCode).toBe(401);
    const forged = await refresh(await sign({ sub: decodeJwt(a.token).sub, iss: 'greetie', aud: 'greetie-api', iat: nowS(), exp: nowS() + 60 }, { alg: 'HS384' }), a.refreshToken);
    expect(forged.statusCode).toBe(401);
    expect(forged.json().code).toBe('INVALID_TOKEN');
    // Neither attempt used up A's refresh token.
    expect((await refresh(a.token, a.refreshToken)).statusCode).toBe(200);
  });

  it('expires refresh tokens after 30 days', async () => {
    const a = await signIn(t.app);
    t.clock.advance(30 * 24 * 60 * 60_000);
    const res = await refresh(a.token, a.refreshToken);
    expect(res.statusCode).toBe(401);
  });

  it('answers 400 when the query is incomplete', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/refresh?token=x' });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION_FAILED');
  });

  it('logs out: the refresh token family is revoked, and logging out twice is harmless', async () => {
    const a = await signIn(t.app);
    const second = (await refresh(a.token, a.refreshToken)).json() as { token: string; refreshToken: string };
    const out = await t.app.inject({ method: 'POST', url: '/api/auth/logout', payload: { refreshToken: second.refreshToken } });
    expect(out.statusCode).toBe(204);
    expect(out.body).toBe('');
    expect((await refresh(second.token, second.refreshToken)).statusCode).toBe(401);
    const again = await t.app.inject({ method: 'POST', url: '/api/auth/logout', payload: { refreshToken: second.refreshToken } });
    expect(again.statusCode).toBe(204);
    const unknown = await t.app.inject({ method: 'POST', url: '/api/auth/logout', payload: { refreshToken: 'nope' } });
    expect(unknown.statusCode).toBe(204);
    // No token at all (no body, no cookie): nothing to revoke.
    const nothing = await t.app.inject({ method: 'POST', url: '/api/auth/logout', payload: {} });
    expect(nothing.statusCode).toBe(204);
    const bad = await t.app.inject({ method: 'POST', url: '/api/auth/logout', payload: { refreshToken: '' } });
    expect(bad.statusCode).toBe(400);
  });

  it('documents the auth routes in the OpenAPI document, with bearer security on /auth/my', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    for (const p of ['/api/auth/verificationcode', '/api/auth/login', '/api/auth/refresh', '/api/auth/logout']) {
      expect(doc.paths[p]?.post?.tags, p).toEqual(['Auth']);
    }
    expect(doc.paths['/api/auth/my'].get.security).toEqual([{ bearer: [] }]);
    expect(doc.paths['/api/sandbox/sms'].get.tags).toEqual(['Sandbox']);
  });
});
