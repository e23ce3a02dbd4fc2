import { CompiledQuery } from 'kysely';
import PgBoss from 'pg-boss';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Db, Tx } from '../db/index.ts';
import type { Services } from '../services.ts';
import { QUEUE } from '../db/migrations/008_delivery.ts';
import { deliverOne, reconcile, type DeliveryDeps } from './rules.ts';
import { remindUnopened } from './reminders.ts';
import { createPeriodic } from '../periodic.ts';

/**
 * The delivery job queue: pg-boss 10 on our own connection pool (decision 081). Its schema and
 * queue are made by migration 008; here it only adds jobs (in the caller's transaction) and, when
 * this process runs the worker, fetches due jobs (`FOR UPDATE SKIP LOCKED`, so several processes
 * share them) and runs the sweep.
 */
export interface DeliveryQueue {
  /** The job that delivers `greetieId` at `at`, added in the caller's transaction. */
  enqueue(tx: Tx, greetieId: string, at: Date): Promise<void>;
  /** Starts the worker and the sweep (at once, then every DELIVERY_RECONCILE_MS; it also makes the unopened greeties' reminders). */
  start(): Promise<void>;
  /** Stops fetching, lets deliveries in flight finish (up to 10 s), stops the sweep. */
  stop(): Promise<void>;
  /** One sweep now (start-up does one; tests call it). */
  reconcile(): Promise<{ resolved: number; delivered: number }>;
}

/** Deliveries a worker takes at a time (sent in parallel). */
const BATCH = 10;

/** pg-boss's database adapter over a Kysely connection (the pool, or a transaction). */
function adapter(db: Db | Tx) {
  return {
    async executeSql(text: string, values: unknown[] = []) {
      const result = await db.executeQuery(CompiledQuery.raw(text, values));
      return { rows: result.rows };
    },
  };
}

export function createDeliveryQueue(opts: { db: Db; config: Config; services: Services; log: FastifyBaseLogger }): DeliveryQueue {
  const { db, config, services, log } = opts;
  const boss = new PgBoss({
    db: adapter(db),
    schema: 'pgboss',
    migrate: false, // migration 008 made the schema; start() checks its version
    schedule: false, // no cron jobs
    supervise: true, // fails jobs active past expireInSeconds, archives and deletes old ones
    maintenanceIntervalSeconds: 60,
    pollingIntervalSeconds: config.delivery.pollMs / 1000,
  });
  boss.on('error', (err: unknown) => log.warn({ err }, 'delivery queue error'));

  const deps: DeliveryDeps = { db, config, services, log };
  let started = false;

  // The sweep: at start, then DELIVERY_RECONCILE_MS after each one ends (server/periodic.ts).
  const sweep = createPeriodic({
    name: 'delivery sweep',
    everyMs: config.delivery.reconcileMs,
    log,
    run: async () => {
      const r = await reconcile(deps);
      if (r.resolved || r.delivered) log.info(r, 'delivery sweep');
      // The reminders of unopened greeties ride on the same sweep (server/delivery/reminders.ts).
      const reminded = await remindUnopened(deps).catch((err: unknown) => {
        log.warn({ err }, 'unopened reminders failed');
        return { sms: 0, notices: 0 };
      });
      if (reminded.sms || reminded.notices) log.info(reminded, 'unopened reminders');
      return r;
    },
  });

  return {
    async enqueue(tx, greetieId, at) {
      const id = await boss.send(QUEUE, { greetieId }, { startAfter: at, db: adapter(tx) } as PgBoss.SendOptions);
      if (!id) throw new Error(`delivery job not added (is the ${QUEUE} queue missing?)`);
    },
    async start() {
      if (started) return;
      await boss.start();
      const workerId: string = await boss.work<{ greetieId: string }>(QUEUE, { batchSize: BATCH, pollingIntervalSeconds: config.delivery.pollMs / 1000 }, async (jobs) => {
        // A full batch means more may be waiting: fetch again at once instead of after the poll
        // interval, so a backlog (many greeties due at 08:00) drains at the SMS provider's pace.
        if (jobs.length === BATCH && workerId) boss.notifyWorker(workerId);
        await Promise.all(
          jobs.map((job) =>
            deliverOne(deps, job.data.greetieId).catch((err: unknown) => {
              // Before the claim: the row is still pending and the sweep takes it. After: it is in
              // sending, and the sweep resolves it. Either way nothing is lost.
              log.error({ err, greetieId: job.data.greetieId }, 'delivery failed unexpectedly');
            }),
          ),
        );
      });
      started = true;
      sweep.start();
    },
    async stop() {
      if (!started) return;
      started = false;
      const swept = sweep.stop(); // no more sweeps; the one in flight ends beside the deliveries
      await boss.stop({ graceful: true, timeout: 10_000, close: false });
      await swept;
    },
    reconcile: async () => (await sweep.run()) ?? { resolved: 0, delivered: 0 },
  };
}
