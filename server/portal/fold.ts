import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../db/index.ts';
import { startPeriodic, type PeriodicJob } from '../periodic.ts';

/**
 * The fold of `portal_open_delta` into `portal_open` (migration 027; decision 124). Writers append
 * their changes to the open vouchers as delta rows and never wait for each other; the summary adds
 * the deltas to the folded rows, so its figures are right whether or not a fold has run. Folding
 * only keeps the summary's read short: the deltas of a busy till since the last fold, not all of
 * them.
 * - One transaction: the deltas deleted and added to `portal_open` at once, so any snapshot sees
 *   each change exactly once (in the deltas before, in `portal_open` after). Deltas inserted while
 *   it runs are not in its snapshot and stay for the next fold.
 * - One process at a time (`pg_try_advisory_xact_lock`): every API process runs the fold; the
 *   others skip a turn while one folds.
 * - A day that folds to nothing (no open voucher left) is deleted.
 */

/** How often each process folds: every 10 s. */
export const PORTAL_FOLD_INTERVAL_MS = 10_000;

/** Folds the deltas in one transaction; how many delta rows it folded (0 also when another process was folding). */
export async function foldPortalOpen(db: Db): Promise<number> {
  return db.transaction().execute(async (tx) => {
    const { rows: lock } = await sql<{ ok: boolean }>`SELECT pg_try_advisory_xact_lock(hashtext('greetie/portal-open-fold')) AS ok`.execute(tx);
    if (!lock[0]?.ok) return 0;
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
    return folded.folded;
  });
}

export type PortalFold = PeriodicJob;

/** Starts the fold: once now, then every `intervalMs`; a failure is logged and tried again next time. */
export function startPortalFold(opts: { db: Db; log: FastifyBaseLogger; intervalMs?: number }): PortalFold {
  return startPeriodic(() => foldPortalOpen(opts.db), { intervalMs: opts.intervalMs ?? PORTAL_FOLD_INTERVAL_MS, log: opts.log, failure: 'portal fold failed' });
}
