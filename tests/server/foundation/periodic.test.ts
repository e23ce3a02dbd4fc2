import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { createPeriodic, periodic } from '../../../server/periodic.ts';

/**
 * The one helper every periodic job runs through (server/periodic.ts): started after ready, never
 * two runs at once, a failure logged (without the error object) and the pace kept, and a close
 * that waits for the run in flight.
 */

const tick = (ms = 5) => new Promise((r) => setTimeout(r, ms));

/** A gate a run waits at until the test opens it. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { open, opened };
}

/** A log that keeps its warnings. */
function memoryLog() {
  const lines: { obj: Record<string, unknown>; msg: string }[] = [];
  return { lines, warn: (obj: object, msg: string) => void lines.push({ obj: obj as Record<string, unknown>, msg }) };
}

describe('periodic jobs', () => {
  it('starts once the app is ready, not before', async () => {
    const app = Fastify();
    let runs = 0;
    periodic(app, {
      name: 'counting',
      everyMs: 60_000,
      run: async () => {
        runs += 1;
      },
    });
    await tick(20);
    expect(runs).toBe(0);
    await app.ready();
    await expect.poll(() => runs).toBe(1);
    await app.close();
  });

  it('a run that throws is logged by name, message and code only, and the job keeps running', async () => {
    const log = memoryLog();
    let runs = 0;
    const job = createPeriodic({
      name: 'flaky job',
      everyMs: 1,
      log,
      run: async () => {
        runs += 1;
        if (runs <= 2) throw Object.assign(new Error('connection refused'), { code: 'ECONNREFUSED', detail: 'Key (phone)=(+46701234567)' });
        return runs;
      },
    });
    job.start();
    try {
      await expect.poll(() => runs).toBeGreaterThanOrEqual(4);
    } finally {
      await job.stop();
    }
    expect(log.lines.slice(0, 2)).toEqual([
      { obj: { job: 'flaky job', err: { message: 'connection refused', code: 'ECONNREFUSED' } }, msg: 'flaky job failed' },
      { obj: { job: 'flaky job', err: { message: 'connection refused', code: 'ECONNREFUSED' } }, msg: 'flaky job failed' },
    ]);
    expect(JSON.stringify(log.lines)).not.toContain('+46701234567');
    // A failed run answers undefined; the next ones answer as the job does.
    expect(log.lines).toHaveLength(2);
  });

  it('never runs twice at once: not on its pace, not when woken, not when asked to run', async () => {
    let active = 0;
    let most = 0;
    let runs = 0;
    const job = createPeriodic({
      name: 'slow job',
      everyMs: 0,
      log: memoryLog(),
      run: async () => {
        active += 1;
        most = Math.max(most, active);
        await tick(10);
        active -= 1;
        return (runs += 1);
      },
    });
    job.start();
    try {
      for (let i = 0; i < 20; i++) {
        job.wake();
        void job.run();
        await tick(2);
      }
      await expect.poll(() => runs).toBeGreaterThanOrEqual(5);
    } finally {
      await job.stop();
    }
    expect(most).toBe(1);
    // run() while a run is going answers that run.
    const same = createPeriodic({ name: 'once', everyMs: 60_000, log: memoryLog(), run: async () => (await tick(10), Math.random()) });
    const [a, b] = await Promise.all([same.run(), same.run()]);
    expect(a).toBe(b);
  });

  it('close waits for the run in flight, and nothing runs after', async () => {
    const app = Fastify();
    const g = gate();
    const events: string[] = [];
    const job = periodic(app, {
      name: 'long job',
      everyMs: 1,
      run: async () => {
        events.push('run started');
        await g.opened;
        events.push('run ended');
      },
    });
    await app.ready();
    await expect.poll(() => events).toEqual(['run started']);
    let closed = false;
    const closing = app.close().then(() => (closed = true));
    await tick(30);
    expect(closed).toBe(false);
    g.open();
    await closing;
    events.push('closed');
    expect(events).toEqual(['run started', 'run ended', 'closed']);
    job.wake();
    expect(await job.run()).toBeUndefined();
    await tick(20);
    expect(events).toEqual(['run started', 'run ended', 'closed']);
  });

  it('waits for work: a wake runs it soon, several wakes are one run, and a wake during a run is one more after it', async () => {
    let runs = 0;
    let hold: ReturnType<typeof gate> | undefined;
    const job = createPeriodic({
      name: 'woken job',
      everyMs: 60 * 60_000,
      atStart: false,
      log: memoryLog(),
      run: async () => {
        runs += 1;
        await hold?.opened;
      },
    });
    job.start();
    try {
      await tick(20);
      expect(runs).toBe(0); // nothing until woken (its pace is an hour)
      job.wake(20);
      job.wake(20);
      job.wake(5);
      await expect.poll(() => runs).toBe(1);
      await tick(40);
      expect(runs).toBe(1);

      hold = gate();
      job.wake();
      await expect.poll(() => runs).toBe(2);
      job.wake(); // during the run: one more after it
      job.wake();
      await tick(20);
      expect(runs).toBe(2);
      hold.open();
      hold = undefined;
      await expect.poll(() => runs).toBe(3);
      await tick(40);
      expect(runs).toBe(3);
    } finally {
      await job.stop();
    }
  });
});
