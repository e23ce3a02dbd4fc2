import { describe, expect, it } from 'vitest';
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, sql, type CompiledQuery, type DatabaseConnection } from 'kysely';
import { compiledOnce } from '../../../server/db/prepared.ts';
import type { Database } from '../../../server/db/schema.ts';

/**
 * compiledOnce (decision 128): a hot read is built and compiled once per shape, then each call
 * sends the same text with its own values in the right places.
 */

const sent: CompiledQuery[] = [];
class RecordingDriver extends DummyDriver {
  override async acquireConnection(): Promise<DatabaseConnection> {
    return {
      executeQuery: async (q) => {
        sent.push(q);
        return { rows: [] };
      },
      streamQuery: async function* () {},
    };
  }
}
const db = new Kysely<Database>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new RecordingDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

describe('compiledOnce', () => {
  it('builds once per shape and sends the text a fresh build makes, with each value where the build put it', async () => {
    let builds = 0;
    const build = (k: Kysely<Database>, v: { id: string; from: string | null; at: Date }) => {
      builds += 1;
      let q = k.selectFrom('mobile_user').select('id').where('id', '=', v.id).where('created_at', '<', v.at);
      if (v.from !== null) q = q.where('name', '>=', v.from).where('name', '<>', v.id);
      return q.compile();
    };
    const read = compiledOnce(build);
    const at = new Date('2026-12-06T12:00:00Z');
    sent.length = 0;
    await read(db, { id: 'a', from: null, at });
    await read(db, { id: 'b', from: null, at });
    await read(db, { id: 'c', from: 'x', at });
    await read(db, { id: 'd', from: 'y', at });
    expect(builds).toBe(2);
    const fresh = (v: { id: string; from: string | null; at: Date }) => {
      const q = build(db, v);
      return { sql: q.sql, parameters: q.parameters };
    };
    expect(sent.map((q) => ({ sql: q.sql, parameters: q.parameters }))).toEqual([
      fresh({ id: 'a', from: null, at }),
      fresh({ id: 'b', from: null, at }),
      fresh({ id: 'c', from: 'x', at }),
      fresh({ id: 'd', from: 'y', at }),
    ]);
    expect(sent[3]!.parameters).toEqual(['d', at, 'y', 'd']);
  });

  it('refuses a build that puts in a value of its own making (it would be frozen at the first call)', async () => {
    const read = compiledOnce((k, v: { id: string }) => sql`SELECT ${v.id}, ${`${String(v.id)}!`}`.compile(k));
    await expect(read(db, { id: 'a' })).rejects.toThrow(/not one of the values/);
  });
});
