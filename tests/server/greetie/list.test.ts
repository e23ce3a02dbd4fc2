import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { Greetie } from '../../../contract/greetie.ts';
import { call, greetieTestApp, person, setStatus, type Person } from './support.ts';

/**
 * GET /api/greetie: what the caller sent and what was delivered to them, newest first, in keyset
 * pages whose next address is in `Link: <…>; rel="next"`. The clock stands still, so many
 * greeties share one created_at: the id breaks the tie, and no page repeats or skips one.
 */

type T = Awaited<ReturnType<typeof greetieTestApp>>;
let t: T;
let alice: Person;
let bob: Person;
let carol: Person;
const expected: string[] = [];

beforeAll(async () => {
  t = await greetieTestApp();
  alice = await person(t.app);
  bob = await person(t.app);
  carol = await person(t.app);
  const create = async (who: Person, body: Record<string, unknown> = {}) =>
    ((await call(t.app, who, 'POST', '/api/greetie', body)).json() as Greetie).id;
  // Alice's own: 9 drafts at one instant, 3 more a second later.
  for (let i = 0; i < 9; i++) expected.push(await create(alice));
  t.clock.advance(1000);
  for (let i = 0; i < 3; i++) expected.push(await create(alice));
  // To Alice: delivered ones are hers to see; a scheduled one and a draft are not yet.
  for (let i = 0; i < 4; i++) {
    const id = await create(bob, { recipient: { mobileNumber: alice.mobileNumber } });
    await setStatus(t.db.db, id, 'delivered', t.clock.now());
    expected.push(id);
  }
  await setStatus(t.db.db, await create(bob, { recipient: { mobileNumber: alice.mobileNumber } }), 'scheduled');
  await create(bob, { recipient: { mobileNumber: alice.mobileNumber } });
  // To herself, delivered: listed once.
  const self = await create(alice, { recipient: { mobileNumber: alice.mobileNumber } });
  await setStatus(t.db.db, self, 'delivered', t.clock.now());
  expected.push(self);
  // Somebody else's business.
  await create(carol, { recipient: { mobileNumber: bob.mobileNumber } });
  // Newest first: created_at, then id, both descending.
  const { rows } = await sql<{ id: string }>`
    SELECT id FROM greetie WHERE id = ANY(${expected}::uuid[]) ORDER BY created_at DESC, id DESC`.execute(t.db.db);
  expected.splice(0, expected.length, ...rows.map((r) => r.id));
});
afterAll(async () => {
  await t.close();
});

const list = (who: Person | undefined, query = '') => call(t.app, who, 'GET', `/api/greetie${query}`);

function nextOf(link: string | undefined): string | undefined {
  if (!link) return undefined;
  const m = /^<([^>]+)>; rel="next"$/.exec(link);
  expect(m, link).not.toBeNull();
  return m![1];
}

describe('GET /api/greetie', () => {
  it('lists sent and delivered-to-me, newest first, each once; 17 in all', async () => {
    const res = await list(alice);
    expect(res.statusCode).toBe(200);
    expect(res.headers.link).toBeUndefined();
    expect((res.json() as Greetie[]).map((g) => g.id)).toEqual(expected);
    expect(expected).toHaveLength(17);
  });

  for (const limit of [1, 2, 3, 5, 16, 17]) {
    it(`pages of ${limit} follow the Link header through all, no repeats, no gaps`, async () => {
      const seen: string[] = [];
      let url: string | undefined = `/api/greetie?limit=${limit}`;
      let pages = 0;
      while (url) {
        const res = await call(t.app, alice, 'GET', url);
        expect(res.statusCode, res.body).toBe(200);
        const items = res.json() as Greetie[];
        expect(items.length).toBeLessThanOrEqual(limit);
        seen.push(...items.map((g) => g.id));
        url = nextOf(res.headers.link as string | undefined);
        if (url) {
          expect(items).toHaveLength(limit);
          expect(url).toMatch(new RegExp(`^/api/greetie\\?limit=${limit}&cursor=[A-Za-z0-9_-]+$`));
        }
        pages += 1;
        expect(pages).toBeLessThan(30);
      }
      expect(seen).toEqual(expected);
      expect(pages).toBe(Math.ceil(expected.length / limit));
    });
  }

  it("the recipient's side: Bob sees what he sent, not Alice's mail, nor Carol's to him until delivered", async () => {
    const items = (await list(bob)).json() as Greetie[];
    expect(items).toHaveLength(6);
    expect(items.every((g) => g.recipient?.mobileNumber === alice.mobileNumber)).toBe(true);
  });

  it('defaults to 50 and refuses a limit above 100, below 1, and a bad cursor (400)', async () => {
    for (const q of ['?limit=101', '?limit=0', '?limit=x', '?cursor=***', '?cursor=WyJ4Il0', '?cursor=' + Buffer.from('["2026-01-01T00:00:00Z","x"]').toString('base64url')]) {
      const res = await list(alice, q);
      expect(res.statusCode, q).toBe(400);
      expect(['VALIDATION_FAILED', 'INVALID_CURSOR']).toContain(res.json().code);
    }
    const res = await list(alice, '?limit=100');
    expect(res.json()).toHaveLength(17);
  });

  it('needs a signed-in caller (401)', async () => {
    expect((await list(undefined)).statusCode).toBe(401);
  });
});
