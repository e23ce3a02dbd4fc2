import { afterAll, describe, expect, it } from 'vitest';
import type { Access, AccessStatus } from '../../server/access.ts';
import { answerProblems, say } from './common.ts';
import { FIXTURES, requestFor, type MatrixContext } from './fixtures.ts';
import { SUITE_ENV, startSuite } from './suite.ts';
import { createTestApp } from '../server/helpers.ts';
import { operationsOf } from './openapi.ts';
import { describeReq } from './target.ts';
import { deliverOne } from '../../server/delivery/rules.ts';

/**
 * The authorization matrix (docs/decisions/060-access-declarations.md): every operation of
 * /api/openapi.json × { visitor, owner, other }. The expected answer of each cell is the route's
 * own declaration (`x-access`, server/access.ts); an operation without one fails here.
 */
const suite = await startSuite();
const { t, send, ops } = suite;

afterAll(async () => {
  await t.close();
});

const ALLOWED: AccessStatus[] = [200, 201, 202, 204, 400, 401, 403, 404, 409, 410, 429];
const CALLERS = ['visitor', 'owner', 'other'] as const;
type Caller = (typeof CALLERS)[number];

say(`authorization matrix: ${ops.length} operations × ${suite.hasAuth ? 3 : 1} callers${suite.hasAuth ? '' : ' (no sign-in yet: visitor column only)'}`);

describe('authorization matrix from /api/openapi.json', () => {
  it('every operation declares who may call it (x-access)', () => {
    const missing = ops.filter((o) => !o.access).map((o) => o.key);
    expect(missing, `operations without an access declaration: add ...access({ visitor, owner, other }) to the route schema (server/access.ts)`).toEqual([]);
    const bad = ops.filter((o) => o.access && CALLERS.some((c) => !ALLOWED.includes((o.access as Access)[c]))).map((o) => o.key);
    expect(bad, 'declarations with a status outside the catalogue').toEqual([]);
  });

  it('a new route without a declaration is caught (the check above is not vacuous)', async () => {
    const probe = await createTestApp({
      env: SUITE_ENV,
      extend: (app) => {
        app.get('/api/undeclared-probe', { schema: { tags: ['Probe'], summary: 'added by this test only' } }, async () => ({ ok: true }));
      },
    });
    try {
      const doc = await probe.app.inject({ method: 'GET', url: '/api/openapi.json' });
      const op = operationsOf(doc.json()).find((o) => o.key === 'GET /api/undeclared-probe');
      expect(op, 'the probe route is in the document').toBeDefined();
      expect(op?.access).toBeUndefined();
    } finally {
      await probe.close();
    }
  });

  it('fixtures name only operations that exist (a renamed route must not leave a dead fixture)', () => {
    const keys = new Set(ops.map((o) => o.key));
    const dead = Object.keys(FIXTURES).filter((k) => !keys.has(k));
    expect(dead).toEqual([]);
  });

  const ctx = (caller?: Caller): MatrixContext => ({
    caller,
    send,
    owner: suite.users[0]!,
    other: suite.users[1]!,
    knownIds: suite.knownIds,
    // The suite runs without the delivery worker: fixtures that need a delivered greetie deliver it now.
    deliver: async (greetieId) => {
      await deliverOne({ db: t.app.db, config: t.app.config, services: t.app.services }, greetieId);
    },
  });
  const callers: readonly Caller[] = suite.hasAuth ? CALLERS : ['visitor'];

  for (const op of ops) {
    for (const caller of callers) {
      const expected = op.access?.[caller];
      it.skipIf(expected === undefined)(`${op.key} as ${caller} → ${expected}`, async () => {
        const req = await requestFor(op, ctx(caller));
        const session = caller === 'owner' ? suite.users[0] : caller === 'other' ? suite.users[1] : undefined;
        // A fixture that signed its own person in (DELETE /mobileuser/remove) keeps that header.
        if (session && !req.headers?.authorization) req.headers = { ...req.headers, authorization: `Bearer ${session.token}` };
        const res = await send(req);
        const context = `\n--- request ---\n${describeReq(req)}\n--- answer ---\n${res.status} ${res.body.slice(0, 300)}`;
        expect(res.status, `${op.key} as ${caller}: declared ${expected}${op.access?.note ? ` (${op.access.note})` : ''}${context}`).toBe(expected);
        expect(answerProblems(res), context).toEqual([]);
      });
    }
  }
});
