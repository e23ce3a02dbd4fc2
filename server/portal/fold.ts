import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../db/index.ts';
import { periodic, type PeriodicJob } from '../periodic.ts';

/**
 * The fold of `portal_open_delta` into `portal_open` (migration 027; decision 124). Writers append
 * their changes to the open vouchers as delta rows and never wait for each other; the summary adds
 * the deltas to the folded rows, so its figures are right whether or not a fold has run. Folding
 * only keeps the summary's read short: the deltas of a busy till since the last fold, not all of
 * them.
 * - Every PORTAL_FOLD_INTERVAL_MS, in every process (decision 147). A run first asks, outside any
 *   transaction, whether there is a delta at all (one read: no BEGIN/COMMIT, no transaction id,
 *   no commit to flush, no lock but the table's share lock); only then it folds. An idle process
 *   costs that read every 10 s and nothing else.
 * - The fold is one transaction: the deltas deleted and added to `portal_open` at once, so any
 *   snapshot sees each change exactly once (in the deltas before, in `portal_open` after). Deltas
 *   inserted while it runs are not in its snapshot and stay for the next fold.
 * - One process at a time (`pg_try_advisory_xact_lock`): every API process runs the fold; one that
 *   finds the lock taken tries again PORTAL_FOLD_RETRY_MS later (the folding one's snapshot may
 *   predate what this one saw), and then mostly finds nothing left.
 * - A day that folds to nothing (no open voucher left) is deleted.
 * - Not woken by a NOTIFY from the deltas' trigger (tried and dropped, decision 147): PostgreSQL
 *   serializes the commits of all notifying transactions, and every redeem, issue and undo would
 *   have been one.
 */

/** How often a process folds (or finds nothing to fold): every 10 s. */
export const PORTAL_FOLD_INTERVAL_MS = 10_000;
/** How soon a process tries again when another one held the fold. */
export const PORTAL_FOLD_RETRY_MS = 1_000;

/** Folds the deltas in one transaction; how many delta rows it folded (0 also when there were none or another process was folding). */
export async function foldPortalOpen(db: Db): Promise<number> {
  return (await tryFoldPortalOpen(db)).folded;
}

/** Whether there is a delta to fold: one read, outside any transaction. */
export async function hasPortalOpenDeltas(db: Db): Promise<boolean> {
  const { rows } = await sql<{ pending: boolean }>`SELECT EXISTS (SELECT 1 FROM portal_open_delta) AS pending`.execute(db);
  return rows[0]!.pending;
}

/**
 * One fold: how many delta rows it folded, and whether it skipped because another process was
 * folding. No transaction when there is no delta.
 */
export async function tryFoldPortalOpen(db: Db): Promise<{ folded: number; busy: boolean }> {
  if (!(await hasPortalOpenDeltas(db))) return { folded: 0, busy: false };
  return db.transaction().execute(async (tx) => {
    const { rows: lock } = await sql<{ ok: boolean }>`SELECT pg_try_advisory_xact_lock(hashtext('greetie/portal-open-fold')) AS ok`.execute(tx);
    if (!lock[0]?.ok) return { folded: 0, busy: true };
    const { rows } = await sql<{ merchant_id: string[]; expires_day: string[]; folded: number }>`
      WITH moved AS (
        DELETE FROM portal_open_delta RETURNING merchant_id, expires_day, open_count, open_amount
      ), summed AS (
        SELECT merchant_id, expires_day, sum(open_count)::int AS open_count, sum(open_amount) AS open_amount, count(*) AS n
          FROM moved GROUP BY 1, 2
      ), upserted AS (
        INSERT INTO portal_open AS o (merchant_id, expires_day, open_count, open_amount)
        SELECT merchant_id, expires_day, open_count, open_amount FROM summed ORDER BY 1, 2
        ON CONFLICT (merchant_id, expires_day) DO UPDATE
          SET open_count = o.open_count + EXCLUDED.open_count, open_amount = o.open_amount + EXCLUDED.open_amount
      )
      SELECT coalesce(array_agg(merchant_id), '{}') AS merchant_id, coalesce(array_agg(expires_day::text), '{}') AS expires_day,
             coalesce(sum(n), 0)::int AS folded
        FROM summed`.execute(tx);
    const folded = rows[0]!;
    if (folded.folded > 0) {
      // The days just folded that have no open voucher left.
      await sql`
        DELETE FROM portal_open o
         USING unnest(${folded.merchant_id}::uuid[], ${folded.expires_day}::date[]) AS k (merchant_id, expires_day)
         WHERE o.merchant_id = k.merchant_id AND o.expires_day = k.expires_day AND o.open_count = 0 AND o.open_amount = 0`.execute(tx);
    }
    return { folded: folded.folded, busy: false };
  });
}

export type PortalFold = PeriodicJob<number>;

/**
 * The fold as the app's periodic job (server/periodic.ts): once when the app is ready, then every
 * `intervalMs` after the previous run ended, sooner (`retryMs`) when another process held the
 * fold; stopped on close. A failure is logged and the pace kept.
 */
export function portalFold(app: FastifyInstance, opts: { db: Db; intervalMs?: number; retryMs?: number }): PortalFold {
  const retryMs = opts.retryMs ?? PORTAL_FOLD_RETRY_MS;
  const job: PortalFold = periodic(app, {
    name: 'portal fold',
    everyMs: opts.intervalMs ?? PORTAL_FOLD_INTERVAL_MS,
    run: async () => {
      const { folded, busy } = await tryFoldPortalOpen(opts.db);
      if (busy) job.wake(retryMs);
      return folded;
    },
  });
  return job;
}
