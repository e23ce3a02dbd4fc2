import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateKey } from '../../../server/auth/rateLimit.ts';
import { authTestApp, freshIp, freshNumber, requestCode } from './support.ts';

/**
 * The code request's limits after decision 093 made them one statement under two locks: still
 * exact under concurrency, a refused request writes nothing, and the IP's old events are
 * forgotten when it comes back (decision 020).
 */
type T = Awaited<ReturnType<typeof authTestApp>>;

describe('POST /api/auth/verificationcode: the limits, exactly', () => {
  let t: T;
  beforeAll(async () => {
    t = await authTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const events = async (ip: string) =>
    (await t.db.db.selectFrom('auth_rate_event').select('at').where('kind', '=', 'code-ip').where('key', '=', rateKey(t.app.config, ip)).execute()).length;
  const verifications = async (number: string) =>
    (await t.db.db.selectFrom('auth_verification').select('id').where('mobile_number', '=', number).execute()).length;
  /** A new IP in a new hour: no window of an earlier test reaches it. */
  const newIp = () => {
    t.clock.advance(60 * 60_000);
    return freshIp();
  };
  /** `n` code requests from `ip`, each for a new number, one after another; all must be sent. */
  const sendFrom = async (ip: string, n: number) => {
    for (let i = 0; i < n; i++) expect((await requestCode(t.app, freshNumber(), ip)).statusCode).toBe(200);
  };

  it('lets exactly 20 of 30 concurrent requests from one IP through, and counts exactly those', async () => {
    const ip = newIp();
    const answers = await Promise.all(Array.from({ length: 30 }, () => requestCode(t.app, freshNumber(), ip)));
    const ok = answers.filter((a) => a.statusCode === 200).length;
    expect(ok).toBe(20);
    expect(answers.filter((a) => a.statusCode === 429).every((a) => a.json().code === 'CODE_RATE_LIMITED_IP')).toBe(true);
    expect(await events(ip)).toBe(20);
  });

  it('holds both limits when one number is asked for from one IP at once (no deadlock, no extra code)', async () => {
    const ip = newIp();
    const number = freshNumber();
    const answers = await Promise.all(Array.from({ length: 8 }, () => requestCode(t.app, number, ip)));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 200, 200, 429, 429, 429, 429, 429]);
    expect(answers.filter((a) => a.statusCode === 429).every((a) => a.json().code === 'CODE_RATE_LIMITED_NUMBER')).toBe(true);
    expect(await verifications(number)).toBe(3);
    // Refused by the number's limit: not counted against the IP.
    expect(await events(ip)).toBe(3);
  });

  it('writes nothing for a request the IP limit refuses', async () => {
    const ip = newIp();
    await sendFrom(ip, 20);
    const number = freshNumber();
    const refused = await requestCode(t.app, number, ip);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe('CODE_RATE_LIMITED_IP');
    expect(await verifications(number)).toBe(0);
    expect(await events(ip)).toBe(20);
  });

  it("forgets the IP's events that left the window when it comes back", async () => {
    const ip = newIp();
    await sendFrom(ip, 5);
    expect(await events(ip)).toBe(5);
    t.clock.advance(60_000); // exactly the window: those five are out of it
    await sendFrom(ip, 1);
    expect(await events(ip)).toBe(1);
  });
});
