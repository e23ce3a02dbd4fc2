import { sql } from 'kysely';
import type { Db } from '../../server/db/index.ts';

/**
 * Tables (or columns) a *refused* request may legitimately write, each with the reason. Anything
 * else that changes while the API answers 4xx is a half-written row and fails the fuzzer.
 * Keep this list short and explain every entry (docs/decisions/061-reliability-suite.md).
 *
 * `columns` undefined: the whole table is left out of the snapshot. Otherwise only those columns.
 */
export const WRITES_ON_REFUSAL: Record<string, { columns?: string[]; why: string }> = {
  kysely_migration: { why: 'migration bookkeeping; no request writes it' },
  kysely_migration_lock: { why: 'migration bookkeeping; no request writes it' },
  auth_rate_event: {
    why: 'rate-limit bookkeeping: a wrong code (400 WRONG_CODE / CODE_VOIDED) is counted per number so brute force hits 429',
  },
  portal_open: { why: 'the background fold (server/portal/fold.ts) moves portal_open_delta rows here at any moment; the sum of the two stays the same' },
  portal_open_delta: { why: 'emptied into portal_open by the background fold at any moment; written only by triggers on voucher and greetie, which are checked' },
  auth_verification: {
    columns: ['failed_attempts', 'voided_at'],
    why: 'a wrong code counts against its verification, and the 5th voids it (400); nothing else of the row may change',
  },
  auth_refresh_token: {
    columns: ['revoked_at'],
    why: 'a reused refresh token is refused (401 REFRESH_TOKEN_REUSED) and revokes its whole family, as API.md requires',
  },
};

export interface Snapshot {
  /** table → "rows:checksum" */
  tables: Record<string, string>;
}

let cachedQuery: { db: Db; text: string } | undefined;

async function buildQuery(db: Db): Promise<string> {
  const { rows } = await sql<{ table_name: string }>`
    SELECT table_name FROM information_schema.tables
    WHERE table_schema = 'public' AND table_type = 'BASE TABLE'
    ORDER BY table_name`.execute(db);
  const parts: string[] = [];
  for (const { table_name: t } of rows) {
    const rule = WRITES_ON_REFUSAL[t];
    if (rule && !rule.columns) continue;
    const ident = `"${t.replace(/"/g, '""')}"`;
    const minus = (rule?.columns ?? []).map((c) => ` - '${c.replace(/'/g, "''")}'`).join('');
    const row = `md5((to_jsonb(r)${minus})::text)`;
    parts.push(
      `SELECT '${t.replace(/'/g, "''")}' AS t, count(*)::text || ':' || md5(coalesce(string_agg(${row}, '' ORDER BY ${row}), '')) AS v FROM ${ident} r`,
    );
  }
  return parts.length ? parts.join(' UNION ALL ') : `SELECT 'none' AS t, '' AS v`;
}

/** Row count and a checksum of every user table (minus the whitelist), in one round trip. */
export async function snapshot(db: Db): Promise<Snapshot> {
  if (!cachedQuery || cachedQuery.db !== db) cachedQuery = { db, text: await buildQuery(db) };
  const { rows } = await sql<{ t: string; v: string }>`${sql.raw(cachedQuery.text)}`.execute(db);
  return { tables: Object.fromEntries(rows.map((r) => [r.t, r.v])) };
}

/** The tables whose snapshot differs, for a failure message. */
export function changedTables(before: Snapshot, after: Snapshot): string[] {
  const names = new Set([...Object.keys(before.tables), ...Object.keys(after.tables)]);
  return [...names].filter((n) => before.tables[n] !== after.tables[n]).sort();
}
