import type { FastifyBaseLogger } from 'fastify';

/** A job that runs at start and then every so often (server/auth/retention.ts, server/portal/fold.ts). */
export interface PeriodicJob {
  /** One run now, or the one running already (start runs one; tests call it). */
  run(): Promise<number>;
  /** No more runs; waits for the one in flight. */
  stop(): Promise<void>;
}

/**
 * Runs `job` once now and then every `intervalMs` (the timer does not hold the process open), never
 * two at once; a failure is logged as `failure` and tried again at the next turn (the run answers 0).
 */
export function startPeriodic(job: () => Promise<number>, opts: { intervalMs: number; log: FastifyBaseLogger; failure: string }): PeriodicJob {
  let running: Promise<number> | undefined;
  const run = (): Promise<number> => {
    if (running) return running;
    running = job()
      .catch((err: unknown) => {
        opts.log.warn({ err }, opts.failure);
        return 0;
      })
      .finally(() => (running = undefined));
    return running;
  };
  void run();
  const timer = setInterval(() => void run(), opts.intervalMs);
  timer.unref();
  return {
    run,
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
