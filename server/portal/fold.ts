import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../db/index.ts';
import type { Listener } from '../db/listener.ts';
import { PORTAL_FOLD_CHANNEL } from '../db/migrations/031_portal_fold_notify.ts';
import { periodic, type PeriodicJob } from '../periodic.ts';

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
 *   others skip a turn while one folds (and try again a moment later).
 * - A day that folds to nothing (no open voucher left) is deleted.
 * - It waits for work (decision 147): the deltas' trigger notifies `greetie_portal_fold` (migration
 *   031), heard on the process's one LISTEN connection; the fold runs PORTAL_FOLD_SETTLE_MS after
 *   a notification (a burst of redeems is one fold), and otherwise only every
 *   PORTAL_FOLD_SWEEP_MS, for what a lost connection missed. Without a live LISTEN connection (none
 *   configured, or lost until it is back) it folds every PORTAL_FOLD_INTERVAL_MS as before.
 */

/** How often a process folds while it hears no notifications (no LISTEN connection, or lost): every 10 s. */
export const PORTAL_FOLD_INTERVAL_MS = 10_000;
/**
 * How long after a notification the fold runs: the deltas written meanwhile gather into one fold,
 * so under load it folds at the old pace (every 10 s) and not per redeem.
 */
export const PORTAL_FOLD_SETTLE_MS = 10_000;
/** The safety sweep while notifications are heard: every 5 minutes. */
export const PORTAL_FOLD_SWEEP_MS = 5 * 60_000;

/** Folds the deltas in one transaction; how many delta rows it folded (0 also when another process was folding). */
export async function foldPortalOpen(db: Db): Promise<number> {
  return (await tryFoldPortalOpen(db)).folded;
}

/** One fold: how many delta rows it folded, and whether it skipped because another process was folding. */
export async function tryFoldPortalOpen(db: Db): Promise<{ folded: number; busy: boolean }> {
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
 * The fold as the app's periodic job (server/periodic.ts): once when the app is ready, then as
 * notifications on `listener` ask (when given), stopped on close. A failure is logged and the
 * pace kept.
 */
export function portalFold(
  app: FastifyInstance,
  opts: { db: Db; listener?: Listener; settleMs?: number; sweepMs?: number; intervalMs?: number },
): PortalFold {
  const settleMs = opts.settleMs ?? PORTAL_FOLD_SETTLE_MS;
  const intervalMs = opts.intervalMs ?? PORTAL_FOLD_INTERVAL_MS;
  let listening = false;
  const job: PortalFold = periodic(app, {
    name: 'portal fold',
    everyMs: () => (listening ? (opts.sweepMs ?? PORTAL_FOLD_SWEEP_MS) : intervalMs),
    run: async () => {
      const { folded, busy } = await tryFoldPortalOpen(opts.db);
      // Another process is folding, from a snapshot that may predate what woke this one.
      if (busy) job.wake(settleMs);
      return folded;
    },
  });
  const { listener } = opts;
  if (listener) {
    let unsubscribe: (() => void) | undefined;
    app.addHook('onReady', async () => {
      unsubscribe = await listener.subscribe(PORTAL_FOLD_CHANNEL, {
        notify: () => job.wake(settleMs),
        // Listening (again): what was written while nobody listened is folded now.
        ready: () => {
          listening = true;
          job.wake();
        },
        lost: () => {
          listening = false;
          job.wake(intervalMs);
        },
      });
    });
    app.addHook('onClose', async () => unsubscribe?.());
  }
  return job;
}
