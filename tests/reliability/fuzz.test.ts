import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { LONG, runSeed, say } from './common.ts';
import { badRequestFor, strayRequest, type FuzzContext } from './arbitraries.ts';
import { makeChecker } from './checker.ts';
import { startSuite } from './suite.ts';

/**
 * Fuzzing generated from /api/openapi.json (docs/decisions/061-reliability-suite.md): for every
 * operation, requests with broken bodies, path parameters, query strings and headers. Every
 * answer: no 5xx, a non-2xx answer in the error shape of API.md, and a refused request changes
 * nothing in the database (except the whitelisted bookkeeping in db-snapshot.ts).
 *
 * Quick (in `npm test`): ≥ 2,000 requests. Long (`npm run test:reliability`): 30,000, or FUZZ_RUNS.
 * Replay a failure: FUZZ_SEED=<the printed seed>.
 */
const SEED = runSeed();
const TOTAL = Number(process.env.FUZZ_RUNS) || (LONG ? 30_000 : 2_400);

const suite = await startSuite();
const { t, send, ops } = suite;
const ctx: FuzzContext = { validTokens: suite.users.map((u) => u.token), knownIds: suite.knownIds, knownStrings: suite.knownStrings };
const perProperty = Math.ceil(TOTAL / (ops.length + 1));

say(
  `reliability fuzz: seed ${SEED} (replay: FUZZ_SEED=${SEED}); ${ops.length} operations × ${perProperty} requests + ${perProperty} stray; ` +
    `signed-in users: ${suite.users.length}; known ids: ${suite.knownIds.length}`,
);

const { check, stats, summary } = await makeChecker(send, t.db.db);

afterAll(async () => {
  say(`reliability fuzz: ${summary()}`);
  await t.close();
});

describe(`fuzzing every operation of /api/openapi.json (seed ${SEED})`, () => {
  it('finds operations to fuzz', () => {
    expect(ops.length).toBeGreaterThan(0);
  });

  ops.forEach((op, i) => {
    it(`${op.key}: no 5xx, errors in shape, refused requests change nothing`, { timeout: LONG ? 1_200_000 : 60_000 }, async () => {
      await fc.assert(
        fc.asyncProperty(badRequestFor(op, ctx), (req) => check(req)),
        { seed: SEED + i + 1, numRuns: perProperty },
      );
    });
  });

  it('paths and methods the API does not have: 404/405 in the error shape', { timeout: LONG ? 1_200_000 : 60_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(strayRequest, (req) => check(req)),
      { seed: SEED, numRuns: perProperty },
    );
  });

  it('the server still answers after the run', async () => {
    const res = await send({ method: 'GET', url: '/api/health' });
    expect(res.status).toBe(200);
    if (!LONG && !process.env.FUZZ_RUNS) expect(stats.sent).toBeGreaterThanOrEqual(2_000);
  });
});
