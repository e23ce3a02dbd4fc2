import pg from 'pg';

/**
 * Who is waiting to hear of a greetie's payment, in this process (decision 116).
 *
 * Migration 023's trigger sends the greetie's id on `greetie_payment` when one of its payments is
 * made or changes status, delivered by PostgreSQL when that transaction commits, to every process
 * listening: the callback may land on another process than the one holding the page's stream.
 * One dedicated `pg.Client` per process listens (as the catalogue cache's does, decision 064);
 * a notification wakes the streams of that greetie, which read the payment again themselves (the
 * notification carries nothing else).
 *
 * Without a `listenUrl` (tests' apps without one), before LISTEN is up and while the connection is
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
  listenUrl?: string;
  /** Open streams one user may hold at once (the next is 429 PAYMENT_STREAMS_LIMIT). */
  maxPerUser?: number;
  reconnectMs?: number;
  log?: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}

export class PaymentEvents {
  private readonly waiting = new Map<string, Set<() => void>>();
  private readonly perUser = new Map<string, number>();
  private readonly enders = new Set<() => void>();
  private client: pg.Client | undefined;
  private retry: NodeJS.Timeout | undefined;
  private delay: number;
  private closed = false;
  private listens = 0;
  /** True while LISTEN runs on a live connection. */
  listening = false;
  readonly maxPerUser: number;
  /** The streams' times; tests shorten them. */
  times: StreamTimes = { ...STREAM_TIMES };

  constructor(private readonly opts: PaymentEventsOptions = {}) {
    this.maxPerUser = opts.maxPerUser ?? 4;
    this.delay = opts.reconnectMs ?? 500;
  }

  /** Opens the listening connection; never throws (a failure is retried, streams check meanwhile). */
  async start(): Promise<void> {
    if (!this.opts.listenUrl || this.closed || this.client) return;
    const client = new pg.Client({ connectionString: this.opts.listenUrl, keepAlive: true, application_name: 'greetie payment listener' });
    this.client = client;
    const lost = (err?: Error) => {
      if (this.client !== client) return;
      this.client = undefined;
      const was = this.listening;
      this.listening = false;
      client.removeAllListeners('notification');
      client.end().catch(() => {});
      if (this.closed) return;
      if (was) this.opts.log?.warn({ err: err?.message }, 'payment events: listening connection lost; streams check the payment until it is back');
      this.retry = setTimeout(() => {
        this.retry = undefined;
        void this.start();
      }, this.delay);
      this.retry.unref();
      this.delay = Math.min(this.delay * 2, 30_000);
    };
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', (msg) => {
      if (msg.channel === PAYMENT_CHANNEL && msg.payload) this.wake(msg.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${PAYMENT_CHANNEL}`);
      if (this.client !== client) return;
      this.listening = true;
      this.listens += 1;
      this.delay = this.opts.reconnectMs ?? 500;
      if (this.listens > 1) this.opts.log?.info({}, 'payment events: listening again');
      // Whatever changed while nobody listened: every stream reads its payment once.
      for (const greetieId of [...this.waiting.keys()]) this.wake(greetieId);
    } catch (err) {
      lost(err as Error);
    }
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
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    this.listening = false;
    if (client) await client.end().catch(() => {});
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
