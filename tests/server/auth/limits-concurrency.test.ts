import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../server/app.ts';
import { connect, type DatabaseHandle } from '../../../server/db/index.ts';
import { createTestApp, testConfig, type TestApp } from '../helpers.ts';
import { freshIp, freshNumber, lastCode, login, requestCode, wrongCodeFor } from './support.ts';

/**
 * The sign-in limits are exact however many requests arrive at once and however
 * many processes answer them (decision 023). Two apps, each with its own pool, on one database stand
 * for two API processes; their clock ticks on every read (as a real one does), so a request that
 * read the time before another took the lock ahead of it would, on the old code, not count the
 * other's event (its time was "later than now").
 */

/** A clock shared by both apps that moves 1 ms on every read; `jump` starts a fresh window. */
class TickingClock {
  ms = Date.parse('2026-11-21T08:00:00.000Z');
  now = () => new Date((this.ms += 1));
  jump(ms: number) {
    this.ms += ms;
  }
}

let clock: TickingClock;
let a: TestApp;
let second: DatabaseHandle;
let b: FastifyInstance;
/** The two processes, in turn. */
const app = (i: number) => (i % 2 === 0 ? a.app : b);

beforeAll(async () => {
  clock = new TickingClock();
  a = await createTestApp({ services: { now: clock.now } });
  second = connect(a.db.url, { max: 5 });
  b = await buildApp(testConfig(), { db: second.db, services: { now: clock.now } });
  await b.ready();
});
afterAll(async () => {
  await b.close();
  await second.close();
  await a.close();
});

const statuses = (answers: { statusCode: number }[]) => {
  const out: Record<number, number> = {};
  for (const s of answers.map((x) => x.statusCode)) out[s] = (out[s] ?? 0) + 1;
  return out;
};

describe('sign-in limits across two processes at once', () => {
  it('code requests per IP: of 25 at once from one IP, exactly 20 are sent', async () => {
    clock.jump(60 * 60_000);
    const ip = freshIp();
    const answers = await Promise.all(Array.from({ length: 25 }, (_, i) => requestCode(app(i), freshNumber(), ip)));
    expect(statuses(answers)).toEqual({ 200: 20, 429: 5 });
    expect(answers.filter((x) => x.statusCode === 429).every((x) => x.json().code === 'CODE_RATE_LIMITED_IP')).toBe(true);
  });

  it('code requests per number: of 20 at once for one number (from 20 addresses), exactly 3 are sent', async () => {
    clock.jump(60 * 60_000);
    const number = freshNumber();
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => requestCode(app(i), number, freshIp())));
    expect(statuses(answers)).toEqual({ 200: 3, 429: 17 });
    expect(answers.filter((x) => x.statusCode === 429).every((x) => x.json().code === 'CODE_RATE_LIMITED_NUMBER')).toBe(true);
    const { rows } = await a.db.pool.query<{ n: string }>('SELECT count(*) AS n FROM auth_verification WHERE mobile_number = $1', [number]);
    expect(Number(rows[0]!.n)).toBe(3);
  });

  it('wrong codes per number: of 15 at once (5 for each of 3 codes), exactly 10 are checked, the rest 429', async () => {
    clock.jump(60 * 60_000);
    const number = freshNumber();
    const tokens: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await requestCode(app(i), number);
      expect(res.statusCode, res.body).toBe(200);
      tokens.push(res.json().token as string);
    }
    const wrong = wrongCodeFor(await lastCode(a.app, number));
    // Wrong for the newest code, and for the two others but by a one-in-a-million chance (a right
    // one would answer 200 and fail the count below loudly).
    const answers = await Promise.all(Array.from({ length: 15 }, (_, i) => login(app(i), tokens[i % 3]!, wrong)));
    expect(statuses(answers)).toEqual({ 400: 10, 429: 5 });
    expect(answers.filter((x) => x.statusCode === 429).every((x) => x.json().code === 'LOGIN_RATE_LIMITED')).toBe(true);
    expect(answers.filter((x) => x.statusCode === 400).every((x) => ['WRONG_CODE', 'CODE_VOIDED'].includes(x.json().code as string))).toBe(true);
    const { rows } = await a.db.pool.query<{ n: string }>(`SELECT coalesce(sum(failed_attempts), 0) AS n FROM auth_verification WHERE mobile_number = $1`, [number]);
    expect(Number(rows[0]!.n)).toBe(10);
  });
});
