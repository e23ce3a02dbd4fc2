import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/index.ts';
import { purgeExpiredIdempotencyKeys } from '../idempotency/index.ts';
import { createPeriodic, type PeriodicJob, type PeriodicOptions } from '../periodic.ts';

/**
 * The privacy policy (src/pages/legal/documents.ts) promises that IP addresses kept to stop
 * misuse are kept at most 30 days. They live in auth_rate_event (the `code-ip` kind; the other
 * kinds count mobile numbers), as an HMAC of the value since decision 024, never the value itself,
 * but kept no longer for that. recordEvent forgets a key's old events only when that key comes
 * back, so an address or a number seen once would stay for ever: this sweep deletes every event
 * older than the retention, at start-up and then every hour, in whichever process runs it (each
 * API process does; the DELETE is idempotent, so several at once do no harm).
 */

/** How long a rate-limit event may be kept: 30 days (the policy's promise). */
export const RATE_EVENT_RETENTION_MS = 30 * 24 * 60 * 60_000;

/** How often the sweep runs after the first one at start-up: hourly. */
export const RATE_EVENT_PURGE_INTERVAL_MS = 60 * 60_000;

/**
 * Deletes rate-limit events recorded more than `retentionMs` before `now`; answers how many went.
 * No limit is longer than a day (server/auth/rateLimit.ts LIMITS), so nothing still counted is
 * ever deleted.
 */
export async function purgeOldRateEvents(db: Db, now: Date, retentionMs = RATE_EVENT_RETENTION_MS): Promise<number> {
  const result = await db
    .deleteFrom('auth_rate_event')
    .where('at', '<', new Date(now.getTime() - retentionMs))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export type RateEventPurge = PeriodicJob<number>;

/** The sweep as a periodic job (server/periodic.ts): at start, then every `intervalMs`; a failure is logged and tried again next time. */
export function rateEventPurgeJob(opts: { db: Db; now: () => Date; log: FastifyBaseLogger; intervalMs?: number }): PeriodicOptions<number> {
  const { db, now, log } = opts;
  return {
    name: 'rate-limit event clean-up',
    everyMs: opts.intervalMs ?? RATE_EVENT_PURGE_INTERVAL_MS,
    log,
    run: async () => {
      const n = await purgeOldRateEvents(db, now());
      if (n > 0) log.info({ deleted: n }, 'old rate-limit events deleted');
      // The same hourly sweep deletes Idempotency-Keys past their 24 hours (decision 084).
      const keys = await purgeExpiredIdempotencyKeys(db, now());
      if (keys > 0) log.info({ deleted: keys }, 'expired idempotency keys deleted');
      return n;
    },
  };
}

/** Starts the sweep on its own (tests; the app runs it through `periodic`, server/plugins/lifecycle.ts). */
export function startRateEventPurge(opts: { db: Db; now: () => Date; log: FastifyBaseLogger; intervalMs?: number }): RateEventPurge {
  const job = createPeriodic(rateEventPurgeJob(opts));
  job.start();
  return job;
}
