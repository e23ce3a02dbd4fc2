import { decodeJwt, decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggerOptions } from '../../../server/app.ts';
import { createTestApp, testConfig } from '../helpers.ts';
import { DEVICE, authTestApp, freshNumber, lastCode, login, requestCode, signIn, wrongCodeFor } from './support.ts';

type T = Awaited<ReturnType<typeof authTestApp>>;

describe('POST /api/auth/login and GET /api/auth/my', () => {
  let t: T;
  beforeAll(async () => {
    t = await authTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  async function codeFor(number: string) {
    const res = await requestCode(t.app, number);
    expect(res.statusCode).toBe(200);
    return { token: res.json().token as string, code: await lastCode(t.app, number) };
  }

  it('signs in with the right code: a 15-minute HS256 JWT with sub, iss, aud, and a refresh token', async () => {
    const number = freshNumber();
    const { token, code } = await codeFor(number);
    const res = await login(t.app, token, code);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['refreshToken', 'token']);
    expect(decodeProtectedHeader(body.token).alg).toBe('HS256');
    const claims = decodeJwt(body.token);
    expect(claims.iss).toBe('greetie');
    expect(claims.aud).toBe('greetie-api');
    expect(claims.iat).toBe(Math.floor(t.clock.ms / 1000));
    expect(claims.exp! - claims.iat!).toBe(15 * 60);
    expect(body.refreshToken).toMatch(/^[A-Za-z0-9_-]{40,}$/);

    const me = await t.app.inject({ method: 'GET', url: '/api/auth/my', headers: { authorization: `Bearer ${body.token}` } });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual({ id: claims.sub, mobileNumber: number, name: null, allowMarketing: false, merchants: [], createdAt: expect.any(String) });
  });

  it('creates the user on the first sign-in only', async () => {
    const number = freshNumber();
    const first = await signIn(t.app, number);
    const second = await signIn(t.app, number);
    expect(decodeJwt(second.token).sub).toBe(decodeJwt(first.token).sub);
    const users = await t.db.db.selectFrom('mobile_user').select('id').where('mobile_number', '=', number).execute();
    expect(users).toHaveLength(1);
    // The refresh tokens are stored hashed: each sign-in's two (the tab's and the browser cookie's, decision 022).
    const rows = await t.db.db.selectFrom('auth_refresh_token').select('token_hash').where('user_id', '=', users[0]!.id).execute();
    expect(rows).toHaveLength(4);
    expect(JSON.stringify(rows)).not.toContain(first.refreshToken);
  });

  it('uses a code once: the same token and code again answer 400', async () => {
    const { token, code } = await codeFor(freshNumber());
    expect((await login(t.app, token, code)).statusCode).toBe(200);
    const again = await login(t.app, token, code);
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBe('VERIFICATION_INVALID');
  });

  it('lets exactly one of many concurrent logins with the same code through', async () => {
    const { token, code } = await codeFor(freshNumber());
    const answers = await Promise.all(Array.from({ length: 8 }, () => login(t.app, token, code)));
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.statusCode === 400)).toHaveLength(7);
    const users = await t.db.db.selectFrom('auth_refresh_token').select('id').execute();
    expect(users.length).toBeGreaterThan(0);
  });

  it('says how many tries remain and voids the verification at the 5th wrong code', async () => {
    const { token, code } = await codeFor(freshNumber());
    const wrong = wrongCodeFor(code);
    for (const left of [4, 3, 2, 1]) {
      const res = await login(t.app, token, wrong);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ code: 'WRONG_CODE', message: `Koden stämmer inte. Du har ${left} försök kvar.`, details: { triesLeft: left } });
    }
    const fifth = await login(t.app, token, wrong);
    expect(fifth.statusCode).toBe(400);
    expect(fifth.json().code).toBe('CODE_VOIDED');
    // Voided: even the right code is refused now.
    const right = await login(t.app, token, code);
    expect(right.statusCode).toBe(400);
    expect(right.json().code).toBe('VERIFICATION_INVALID');
  });

  it('counts concurrent wrong codes exactly: 10 at once leave 5 counted and the code void', async () => {
    const { token, code } = await codeFor(freshNumber());
    const answers = await Promise.all(Array.from({ length: 10 }, () => login(t.app, token, wrongCodeFor(code))));
    const codes = answers.map((a) => a.json().code);
    expect(codes.filter((c) => c === 'WRONG_CODE')).toHaveLength(4);
    expect(codes.filter((c) => c === 'CODE_VOIDED')).toHaveLength(1);
    expect(codes.filter((c) => c === 'VERIFICATION_INVALID')).toHaveLength(5);
  });

  it('refuses a code after its 5 minutes', async () => {
    const { token, code } = await codeFor(freshNumber());
    t.clock.advance(5 * 60_000);
    const res = await login(t.app, token, code);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VERIFICATION_INVALID');
  });

  it('binds a code to its own verification token', async () => {
    const a = await codeFor(freshNumber());
    const b = await codeFor(freshNumber());
    const res = await login(t.app, a.token, b.code === a.code ? wrongCodeFor(a.code) : b.code);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('WRONG_CODE');
  });

  it('answers 400 to an unknown token and to malformed bodies, changing nothing', async () => {
    const unknown = await login(t.app, 'not-a-real-token', '123456');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().code).toBe('VERIFICATION_INVALID');
    for (const payload of [
      { token: 'x', code: '12345', deviceId: DEVICE },
      { token: 'x', code: 'abcdef', deviceId: DEVICE },
      { token: 'x', code: '123456', deviceId: 'not-a-uuid' },
      { token: 'x', code: '123456' },
    ]) {
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().code).toBe('VALIDATION_FAILED');
    }
  });

  it('never writes a code or a token to the log', async () => {
    const lines: string[] = [];
    const logged = await createTestApp({
      // The app's own logger settings (redaction included), at the chattiest level.
      logger: { ...(loggerOptions(testConfig()) as object), level: 'trace', stream: { write: (l: string) => void lines.push(l) } } as never,
    });
    try {
      const number = freshNumber();
      const r = await logged.app.inject({ method: 'POST', url: '/api/auth/verificationcode', payload: { mobileNumber: number } });
      const token = r.json().token as string;
      const code = await lastCode(logged.app, number);
      await logged.app.inject({ method: 'POST', url: '/api/auth/login', payload: { token, code: wrongCodeFor(code), deviceId: DEVICE } });
      const ok = await logged.app.inject({ method: 'POST', url: '/api/auth/login', payload: { token, code, deviceId: DEVICE } });
      const pair = ok.json() as { token: string; refreshToken: string };
      await logged.app.inject({ method: 'GET', url: '/api/auth/my', headers: { authorization: `Bearer ${pair.token}` } });
      await logged.app.inject({
        method: 'POST',
        url: `/api/auth/refresh?token=${pair.token}&refreshToken=${pair.refreshToken}`,
      });
      const all = lines.join('\n');
      expect(lines.length).toBeGreaterThan(0);
      for (const secret of [token, code, pair.token, pair.refreshToken]) expect(all).not.toContain(secret);
    } finally {
      await logged.close();
    }
  });
});
