import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authTestApp, freshIp, freshNumber, lastCode, login, requestCode, wrongCodeFor } from './support.ts';

type T = Awaited<ReturnType<typeof authTestApp>>;

describe('POST /api/auth/verificationcode', () => {
  let t: T;
  beforeAll(async () => {
    t = await authTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it.each([
    ['070-123 45 67', '+46701234567'],
    ['+46 70 123 45 67', '+46701234567'],
    ['0046701234567', '+46701234567'],
    ['073 987 65 43', '+46739876543'],
  ])('accepts "%s" and sends the code by SMS to %s', async (typed, e164) => {
    t.clock.advance(16 * 60_000); // a new window for the per-number limit
    const res = await requestCode(t.app, typed);
    expect(res.statusCode).toBe(200);
    expect(res.json().token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    const outbox = await t.app.inject({ method: 'GET', url: `/api/sandbox/sms?to=${encodeURIComponent(e164)}` });
    const [sms] = outbox.json() as { to: string; body: string; sentAt: string }[];
    expect(sms!.to).toBe(e164);
    expect(sms!.sentAt).toBe(t.clock.now().toISOString());
    const code = /^Din Greetie-kod är (\d{6})\n\n@localhost #(\d{6})$/.exec(sms!.body);
    expect(code, sms!.body).not.toBeNull();
    expect(code![1]).toBe(code![2]);
  });

  it('also answers at the old spelling /api/Auth/verificationcode', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/Auth/verificationcode', payload: { mobileNumber: freshNumber() } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toHaveProperty('token');
  });

  it.each(['08-123 456 78', '+44 7911 123456', '0701234', 'hej', '+46 71 123 45 67', '070-123 45 67 ; DROP TABLE'])(
    'refuses "%s" with 400 in Swedish and creates nothing',
    async (typed) => {
      const before = await t.db.db.selectFrom('auth_verification').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      const smsBefore = await t.db.db.selectFrom('sandbox_sms').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      const res = await requestCode(t.app, typed);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ code: 'INVALID_MOBILE_NUMBER', message: expect.stringMatching(/svenskt mobilnummer/) });
      const after = await t.db.db.selectFrom('auth_verification').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      const smsAfter = await t.db.db.selectFrom('sandbox_sms').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      expect(after.n).toBe(before.n);
      expect(smsAfter.n).toBe(smsBefore.n);
    },
  );

  it('answers in English when asked', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/verificationcode',
      payload: { mobileNumber: '08-123 456 78' },
      headers: { 'accept-language': 'en' },
    });
    expect(res.json().message).toMatch(/Swedish mobile number/);
  });

  it('refuses a missing or oversized body field with 400 VALIDATION_FAILED', async () => {
    for (const payload of [{}, { mobileNumber: 'x'.repeat(41) }, { mobileNumber: ['0701234567', '0701234568'] }, { mobileNumber: '0701234567', extra: 1 }]) {
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/verificationcode', payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().code).toBe('VALIDATION_FAILED');
    }
  });

  it('stores neither the code nor the token, only hashes', async () => {
    const number = freshNumber();
    const res = await requestCode(t.app, number);
    const token = res.json().token as string;
    const code = await lastCode(t.app, number);
    const row = await t.db.db.selectFrom('auth_verification').selectAll().where('mobile_number', '=', number).executeTakeFirstOrThrow();
    const all = JSON.stringify(row);
    expect(all).not.toContain(token);
    expect(row.code_hash).not.toContain(code);
    expect(row.code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.expires_at.getTime() - row.created_at.getTime()).toBe(5 * 60_000);
  });

  it('limits codes to 3 per number per 15 minutes, with Retry-After, then lets the number in again', async () => {
    const number = freshNumber();
    for (let i = 0; i < 3; i++) {
      expect((await requestCode(t.app, number)).statusCode).toBe(200);
      t.clock.advance(60_000);
    }
    const limited = await requestCode(t.app, number);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe('CODE_RATE_LIMITED_NUMBER');
    // The first code was sent 3 minutes ago; it leaves the window in 12 minutes.
    expect(limited.headers['retry-after']).toBe(String(12 * 60));
    expect(limited.json().message).toContain('720');
    t.clock.advance(12 * 60_000 - 1000);
    expect((await requestCode(t.app, number)).statusCode).toBe(429);
    t.clock.advance(1000);
    expect((await requestCode(t.app, number)).statusCode).toBe(200);
  });

  it('limits code requests to 20 per minute per IP, without touching other IPs or numbers from elsewhere', async () => {
    t.clock.advance(60 * 60_000);
    const ip = freshIp();
    for (let i = 0; i < 20; i++) expect((await requestCode(t.app, freshNumber(), ip)).statusCode).toBe(200);
    const limited = await requestCode(t.app, freshNumber(), ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe('CODE_RATE_LIMITED_IP');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    // Another network is not affected.
    expect((await requestCode(t.app, freshNumber(), freshIp())).statusCode).toBe(200);
    // Signing in (login) is never limited per IP: codes already sent from the NAT still work.
    // And the NAT's ceiling lifts within the minute.
    t.clock.advance(60_000);
    expect((await requestCode(t.app, freshNumber(), ip)).statusCode).toBe(200);
  });

  it('holds the per-number limit under concurrent requests', async () => {
    t.clock.advance(60 * 60_000);
    const number = freshNumber();
    const answers = await Promise.all(Array.from({ length: 6 }, () => requestCode(t.app, number)));
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes).toEqual([200, 200, 200, 429, 429, 429]);
  });

  it('counts failed logins per number per hour: after 10 wrong codes the number waits', async () => {
    t.clock.advance(60 * 60_000);
    const number = freshNumber();
    for (let round = 0; round < 2; round++) {
      const token = (await requestCode(t.app, number)).json().token as string;
      const code = await lastCode(t.app, number);
      for (let i = 0; i < 5; i++) await login(t.app, token, wrongCodeFor(code));
    }
    const token = (await requestCode(t.app, number)).json().token as string;
    const code = await lastCode(t.app, number);
    const limited = await login(t.app, token, code);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe('LOGIN_RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBe(60 * 60);
    // The right code still works once the hour has passed (the code itself has expired by then,
    // so a new one is needed; the limit is what this shows).
    t.clock.advance(60 * 60_000);
    const fresh = (await requestCode(t.app, number)).json().token as string;
    expect((await login(t.app, fresh, await lastCode(t.app, number))).statusCode).toBe(200);
  });
});
