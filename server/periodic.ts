import type { FastifyInstance } from 'fastify';

/**
 * The server's periodic jobs (the portal's fold, the rate-limit clean-up, the delivery and
 * notification sweeps, the payment reconciliation): one helper, so each gets the same rules.
 * - Runs at start (unless `atStart: false`), then `everyMs` after the previous run *ended*: a run
 *   never overlaps the one before it, however long it takes.
 * - `wake(withinMs)`: a run sooner (a notification said there is work); several wakes before it
 *   runs are one run, and a wake while a run is going makes one more run after it.
 * - A run that throws is logged (the job's name, the error's message and code: never the error
 *   object, whose `detail` can carry a row's values) and the job keeps its pace.
 * - `stop()`: no more runs, and waits for the one in flight. Timers never hold the process open.
 * `periodic(app, …)` ties a job to the app: started once the app is ready, stopped on close.
 */
export interface PeriodicJob<T = unknown> {
  /** One run now, or the one running already; its answer (undefined when it failed or the job is stopped). */
  run(): Promise<T | undefined>;
  /** A run within `withinMs` (default at once), coalesced with one already due sooner; after the one running. */
  wake(withinMs?: number): void;
  /** Starts the pace (idempotent); with `atStart`, runs once now. */
  start(): void;
  /** No more runs; resolves once the run in flight (if any) has ended. */
  stop(): Promise<void>;
}

export interface PeriodicOptions<T> {
  /** In the failure's log line: `<name> failed`. */
  name: string;
  /** The pause after a run ends before the next; a function when the pace changes (read after each run). */
  everyMs: number | (() => number);
  run: () => Promise<T>;
  log: { warn(obj: object, msg: string): void };
  /** Run once at start (default true). */
  atStart?: boolean;
}

/** What a failure's log line says of the error: its message and code, nothing else. */
function describeError(err: unknown): { message: string; code?: string } {
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    return typeof code === 'string' ? { message: err.message, code } : { message: err.message };
  }
  return { message: String(err) };
}

/** A job, not started: `start()` begins its pace. */
export function createPeriodic<T>(opts: PeriodicOptions<T>): PeriodicJob<T> {
  const pause = typeof opts.everyMs === 'function' ? opts.everyMs : () => opts.everyMs as number;
  let started = false;
  let stopped = false;
  let running: Promise<T | undefined> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let dueAt = Infinity;
  /** A wake that came while a run was going: run again within this many ms after it. */
  let again: number | undefined;

  const schedule = (ms: number) => {
    if (!started || stopped) return;
    const at = Date.now() + ms;
    if (timer && dueAt <= at) return;
    clearTimeout(timer);
    dueAt = at;
    timer = setTimeout(() => {
      timer = undefined;
      dueAt = Infinity;
      void run();
    }, ms);
    timer.unref();
  };

  const run = (): Promise<T | undefined> => {
    if (running) return running;
    if (stopped) return Promise.resolve(undefined);
    clearTimeout(timer);
    timer = undefined;
    dueAt = Infinity;
    running = (async () => {
      try {
        return await opts.run();
      } catch (err) {
        opts.log.warn({ job: opts.name, err: describeError(err) }, `${opts.name} failed`);
        return undefined;
      }
    })().finally(() => {
      running = undefined;
      const soon = again;
      again = undefined;
      schedule(pause());
      if (soon !== undefined) schedule(soon);
    });
    return running;
  };

  return {
    run,
    wake(withinMs = 0) {
      if (stopped) return;
      if (running) again = Math.min(again ?? Infinity, withinMs);
      else schedule(withinMs);
    },
    start() {
      if (started || stopped) return;
      started = true;
      if (opts.atStart ?? true) void run();
      else schedule(pause());
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      timer = undefined;
      await running;
    },
  };
}

/** A job tied to the app: started in onReady, stopped (waiting for its run in flight) in onClose. */
export function periodic<T>(app: FastifyInstance, opts: Omit<PeriodicOptions<T>, 'log'> & { log?: PeriodicOptions<T>['log'] }): PeriodicJob<T> {
  const job = createPeriodic({ ...opts, log: opts.log ?? app.log });
  app.addHook('onReady', async () => job.start());
  app.addHook('onClose', async () => job.stop());
  return job;
}
