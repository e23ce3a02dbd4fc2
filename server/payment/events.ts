import type { Listener } from '../db/listener.ts';

/**
 * Who is waiting to hear of a greetie's payment, in this process (decision 116).
 *
 * Migration 023's trigger sends the greetie's id on `greetie_payment` when one of its payments is
 * made or changes status, delivered by PostgreSQL when that transaction commits, to every process
 * listening: the callback may land on another process than the one holding the page's stream.
 * The process's one LISTEN connection (server/db/listener.ts, shared with the catalogue cache)
 * listens; a notification wakes the streams of that greetie, which read the payment again themselves (the
 * notification carries nothing else).
 *
 * Without a `listener` (tests' apps without a database URL), before LISTEN is up and while the connection is
 * lost, `listening` is false: streams then read the payment every few seconds on their own. After
 * a reconnect every stream is woken once (a change while nobody listened notified no one here).
 *
 * It also counts open streams per user, so one user cannot hold more than `maxPerUser`.
 */

export const PAYMENT_CHANNEL = 'greetie_payment';

export interface StreamTimes {
  /** A comment this often (proxies close a silent connection). */
  heartbeatMs: number;
  /** While not listening (no LISTEN connection), the payment is read this often. */
  checkMs: number;
  /** A stream ends after this long; the page opens another. */
  maxAgeMs: number;
}

export const STREAM_TIMES: StreamTimes = { heartbeatMs: 15_000, checkMs: 2_000, maxAgeMs: 5 * 60_000 };

export interface PaymentEventsOptions {
  /** The process's LISTEN connection; without it streams read the payment on their own. */
  listener?: Listener;
  /** Open streams one user may hold at once (the next is 429 PAYMENT_STREAMS_LIMIT). */
  maxPerUser?: number;
}

export class PaymentEvents {
  private readonly waiting = new Map<string, Set<() => void>>();
  private readonly perUser = new Map<string, number>();
  private readonly enders = new Set<() => void>();
  private unsubscribe: (() => void) | undefined;
  /** True while LISTEN runs on a live connection. */
  listening = false;
  readonly maxPerUser: number;
  /** The streams' times; tests shorten them. */
  times: StreamTimes = { ...STREAM_TIMES };

  constructor(private readonly opts: PaymentEventsOptions = {}) {
    this.maxPerUser = opts.maxPerUser ?? 4;
  }

  /** Subscribes to `greetie_payment` on the listener; never throws (streams check until it is live). */
  async start(): Promise<void> {
    if (!this.opts.listener || this.unsubscribe) return;
    this.unsubscribe = await this.opts.listener.subscribe(PAYMENT_CHANNEL, {
      notify: (payload) => {
        if (payload) this.wake(payload);
      },
      ready: () => {
        this.listening = true;
        // Whatever changed while nobody listened: every stream reads its payment once.
        for (const greetieId of [...this.waiting.keys()]) this.wake(greetieId);
      },
      lost: () => {
        this.listening = false;
      },
    });
  }

  /** `end` runs when the app closes (an open stream would otherwise hold the server up). */
  onClose(end: () => void): () => void {
    this.enders.add(end);
    return () => this.enders.delete(end);
  }

  /** Ends every open stream (preClose: before the server waits for its connections). */
  endStreams(): void {
    for (const end of [...this.enders]) end();
  }

  async close(): Promise<void> {
    this.endStreams();
    this.unsubscribe?.();
    this.listening = false;
  }

  /** Calls `wake` whenever the greetie's payment may have changed; returns how to stop. */
  subscribe(greetieId: string, wake: () => void): () => void {
    let set = this.waiting.get(greetieId);
    if (!set) this.waiting.set(greetieId, (set = new Set()));
    set.add(wake);
    return () => {
      set.delete(wake);
      if (set.size === 0 && this.waiting.get(greetieId) === set) this.waiting.delete(greetieId);
    };
  }

  /** Takes one of the user's stream places; false when they hold `maxPerUser` already. */
  take(userId: string): boolean {
    const n = this.perUser.get(userId) ?? 0;
    if (n >= this.maxPerUser) return false;
    this.perUser.set(userId, n + 1);
    return true;
  }

  give(userId: string): void {
    const n = (this.perUser.get(userId) ?? 1) - 1;
    if (n <= 0) this.perUser.delete(userId);
    else this.perUser.set(userId, n);
  }

  /** Open streams, for tests and the health of it. */
  stats(): { streams: number; greeties: number; listening: boolean } {
    let streams = 0;
    for (const n of this.perUser.values()) streams += n;
    return { streams, greeties: this.waiting.size, listening: this.listening };
  }

  private wake(greetieId: string): void {
    for (const fn of this.waiting.get(greetieId) ?? []) fn();
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Who waits for a greetie's payment (server/payment/events.ts), made by the lifecycle plugin. */
    paymentEvents: PaymentEvents;
  }
}
