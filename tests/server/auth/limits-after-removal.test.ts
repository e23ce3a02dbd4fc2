import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { rateKey } from '../../../server/auth/rateLimit.ts';
import { authTestApp, freshIp, freshNumber, lastCode, login, requestCode, signIn, wrongCodeFor } from './support.ts';

/**
 * Limits after an account's removal (decision 024): removing an account does not reset its number's sign-in limits.
 * What they need for their windows stays, under a keyed hash of the number (never the number), so
 * signing in again right after the removal meets the same limits; and nothing the limits keep
 * names the person.
 */
type T = Awaited<ReturnType<typeof authTestApp>>;
let t: T;

beforeAll(async () => {
  t = await authTestApp();
});
afterAll(async () => {
  await t.close();
});

const remove = (token: string) => t.app.inject({ method: 'DELETE', url: '/api/mobileuser/remove', headers: { authorization: `Bearer ${token}` } });

describe('DELETE /mobileuser/remove keeps the number\'s limits', () => {
  it('codes per number and wrong codes per number still apply after the removal; the limits keep no number', async () => {
    t.clock.advance(2 * 60 * 60_000);
    const number = freshNumber();
    // Code 1 of 3 signs in; codes 2 and 3 take 10 wrong codes (5 each voids them).
    const session = await signIn(t.app, number);
    for (let v = 0; v < 2; v++) {
      const res = await requestCode(t.app, number);
      expect(res.statusCode, res.body).toBe(200);
      const wrong = wrongCodeFor(await lastCode(t.app, number));
      for (let i = 0; i < 5; i++) expect((await login(t.app, res.json().token as string, wrong)).statusCode).toBe(400);
    }
    expect((await requestCode(t.app, number)).statusCode).toBe(429);

    expect((await remove(session.token)).statusCode).toBe(204);

    // Nothing kept names the number; what is kept is under its keyed hash.
    const { rows: plain } = await sql<{ n: string }>`
      SELECT count(*) AS n FROM auth_rate_event WHERE key = ${number} OR key = ${number.slice(1)}`.execute(t.db.db);
    expect(Number(plain[0]!.n)).toBe(0);
    const { rows: kept } = await sql<{ kind: string; n: string }>`
      SELECT kind, count(*) AS n FROM auth_rate_event WHERE key = ${rateKey(t.app.config, number)} GROUP BY kind ORDER BY kind`.execute(t.db.db);
    expect(kept.map((r) => [r.kind, Number(r.n)])).toEqual([
      ['code-number', 3],
      ['login-failed', 10],
    ]);
    const { rows: codes } = await sql<{ n: string }>`SELECT count(*) AS n FROM auth_verification WHERE mobile_number = ${number}`.execute(t.db.db);
    expect(Number(codes[0]!.n)).toBe(0);

    // Right after the removal: still 3 codes in 15 minutes (from another address too).
    const again = await requestCode(t.app, number, freshIp());
    expect(again.statusCode).toBe(429);
    expect(again.json().code).toBe('CODE_RATE_LIMITED_NUMBER');
    expect(Number(again.headers['retry-after'])).toBeGreaterThan(0);

    // Once the codes' window has passed a code is sent, but the hour's 10 wrong codes still stand:
    // even the right code is refused until the hour is over.
    t.clock.advance(15 * 60_000);
    const fresh = await requestCode(t.app, number);
    expect(fresh.statusCode, fresh.body).toBe(200);
    const refused = await login(t.app, fresh.json().token as string, await lastCode(t.app, number));
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe('LOGIN_RATE_LIMITED');
    expect(refused.headers['retry-after']).toBe(String(45 * 60));

    t.clock.advance(45 * 60_000);
    const later = await requestCode(t.app, number);
    expect(later.statusCode, later.body).toBe(200);
    expect((await login(t.app, later.json().token as string, await lastCode(t.app, number))).statusCode).toBe(200);
  });
});
