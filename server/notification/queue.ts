import { CompiledQuery } from 'kysely';
import PgBoss from 'pg-boss';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Db, Tx } from '../db/index.ts';
import type { Services } from '../services.ts';
import { NOTIFICATION_QUEUE } from '../db/migrations/011_notification.ts';
import { createPeriodic } from '../periodic.ts';
import { checkReceipts, pushOne, remindExpiry, sweepPushes, type PushDeps } from './rules.ts';

/**
 * The notification jobs on pg-boss (the delivery queue's library, its own queue `notification`,
 * made by migration 011): push one notification, and a voucher's expiry reminder at its time.
 * Jobs are added in the caller's transaction. The worker also runs, every NOTIFICATION_SWEEP_MS
 * (15 s), the sweep (pushes no job took) and, every RECEIPTS_MS, the fetch of Expo receipts.
 */
/**
 * An expiry job names the greetie's delivery it was scheduled for (`changes`: its recipient_changes
 * then; left out by jobs made before it was added: 0). A correction makes the jobs before it stale.
 */
export type NotificationJob = { kind: 'push'; notificationId: string } | { kind: 'expiry'; voucherId: string; days: number; changes?: number };

export interface NotificationQueue {
  enqueuePush(tx: Tx, notificationId: string): Promise<void>;
  enqueueExpiry(tx: Tx, voucherId: string, days: number, at: Date, changes: number): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

const SWEEP_MS = 15_000;
const RECEIPTS_MS = 5 * 60_000;

function adapter(db: Db | Tx) {
  return {
    async executeSql(text: string, values: unknown[] = []) {
      const result = await db.executeQuery(CompiledQuery.raw(text, values));
      return { rows: result.rows };
    },
  };
}

export function createNotificationQueue(opts: { db: Db; config: Config; services: Services; log: FastifyBaseLogger }): NotificationQueue {
  const { db, config, services, log } = opts;
  const boss = new PgBoss({
    db: adapter(db),
    schema: 'pgboss',
    migrate: false,
    schedule: false,
    // The delivery queue's instance runs pg-boss's maintenance for the whole schema.
    supervise: false,
    pollingIntervalSeconds: config.delivery.pollMs / 1000,
  });
  boss.on('error', (err: unknown) => log.warn({ err }, 'notification queue error'));
  const deps: PushDeps = { db, config, services, log };
  let started = false;
  // The sweep and the receipts' fetch, each on its own pace once the worker runs (server/periodic.ts).
  const jobs = [
    createPeriodic({ name: 'notification sweep', everyMs: SWEEP_MS, atStart: false, log, run: () => sweepPushes(deps) }),
    createPeriodic({ name: 'notification receipts', everyMs: RECEIPTS_MS, atStart: false, log, run: () => checkReceipts(deps) }),
  ];

  return {
    async enqueuePush(tx, notificationId) {
      const data: NotificationJob = { kind: 'push', notificationId };
      await boss.send(NOTIFICATION_QUEUE, data, { db: adapter(tx) } as PgBoss.SendOptions);
    },
    async enqueueExpiry(tx, voucherId, days, at, changes) {
      const data: NotificationJob = { kind: 'expiry', voucherId, days, changes };
      await boss.send(NOTIFICATION_QUEUE, data, { startAfter: at, db: adapter(tx) } as PgBoss.SendOptions);
    },
    async start() {
      if (started) return;
      await boss.start();
      await boss.work<NotificationJob>(NOTIFICATION_QUEUE, { batchSize: 10 }, async (jobs) => {
        // A job that throws is retried by pg-boss (twice); the claim makes a second push a no-op.
        await Promise.all(jobs.map((job) => (job.data.kind === 'push' ? pushOne(deps, job.data.notificationId) : remindExpiry(deps, job.data.voucherId, job.data.days, job.data.changes ?? 0))));
      });
      started = true;
      for (const job of jobs) job.start();
    },
    async stop() {
      if (!started) return;
      started = false;
      const ended = Promise.all(jobs.map((job) => job.stop()));
      await boss.stop({ graceful: true, timeout: 10_000, close: false });
      await ended;
    },
  };
}
