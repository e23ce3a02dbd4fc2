import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type Compilable } from 'kysely';
import { createTestDb, type TestDb } from '../helpers.ts';
import { planNodes } from '../plan.ts';
import { greetiePageQuery, type ListFilter } from '../../../server/greetie/queries.ts';

/**
 * GET /api/greetie reads two lists, what the caller sent and what was delivered to their number,
 * each through its own index of 004_greetie in (created_at, id) order. On a realistically sized
 * table (2 000 people, 60 000 greeties, statistics gathered) the planner's choice is read back
 * with EXPLAIN: greetie is never read by a sequential scan, and each branch names its index.
 */

describe('indexes behind the greetie list', () => {
  let db: TestDb;
  let userId: string;
  const mobileNumber = '+46701000007';

  beforeAll(async () => {
    db = await createTestDb();
    await sql`
      INSERT INTO mobile_user (mobile_number, created_at)
      SELECT '+4670' || lpad((1000000 + g)::text, 7, '0'), now() FROM generate_series(1, 2000) AS g`.execute(db.db);
    await sql`
      INSERT INTO greetie (ref_id, sender_id, recipient_number, status, created_at, updated_at)
      SELECT md5(g::text) || 'AAAA', u.ids[1 + g % 2000], '+4670' || lpad((1000000 + (g * 7) % 2000 + 1)::text, 7, '0'),
             (ARRAY['draft', 'scheduled', 'delivered', 'delivered'])[1 + g % 4],
             now() - (g || ' minutes')::interval, now()
      FROM generate_series(1, 60000) AS g
      CROSS JOIN (SELECT array_agg(id ORDER BY mobile_number) AS ids FROM mobile_user) u`.execute(db.db);
    await sql`ANALYZE greetie`.execute(db.db);
    await sql`ANALYZE mobile_user`.execute(db.db);
    const { rows } = await sql<{ id: string }>`SELECT id FROM mobile_user WHERE mobile_number = ${mobileNumber}`.execute(db.db);
    userId = rows[0]!.id;
  });
  afterAll(async () => {
    await db.drop();
  });

  const plan = (query: Compilable) => planNodes(db.pool, query);

  const page = (f: Partial<ListFilter>) => greetiePageQuery(db.db, { userId, mobileNumber, limit: 51, ...f });
  const after = { at: new Date(Date.now() - 20 * 24 * 3600_000).toISOString().replace('Z', '000Z'), id: 'ffffffff-ffff-4fff-bfff-ffffffffffff' };

  for (const [name, query] of [
    ['the first page', () => page({})],
    ['a later page', () => page({ after })],
  ] as const) {
    it(`${name}: no sequential scan of greetie; sent through greetie_sender_created, received through greetie_recipient_created`, async () => {
      const nodes = await plan(query());
      const onGreetie = nodes.filter((n) => n['Relation Name'] === 'greetie');
      expect(onGreetie.length).toBeGreaterThanOrEqual(2);
      expect(onGreetie.map((n) => n['Node Type'])).not.toContain('Seq Scan');
      const indexes = nodes.map((n) => n['Index Name'] ?? '');
      expect(indexes).toContain('greetie_sender_created');
      expect(indexes).toContain('greetie_recipient_created');
    });
  }
});
