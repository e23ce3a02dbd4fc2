import pg from 'pg';

/**
 * The one LISTEN connection of a process (issue 26's notes): the catalogue cache
 * (server/merchant/cache.ts, decision 064) and the payment events (server/payment/events.ts,
 * decision 116) each subscribe to their channel here, so a process holds its pool + 1 database
 * connections, not pool + 2.
 *
 * PostgreSQL delivers a notification when the sending transaction commits, to every connection
 * that ran `LISTEN` on its channel. When the connection is lost every subscriber hears `lost`
 * (and falls back to reading for itself); the connection is made again (after `reconnectMs`,
 * doubling up to 30 s), `LISTEN` runs for every channel, and only then each subscriber's `ready`
 * runs with the connection: what changed while nobody listened notified no one here, so a
 * subscriber reads what it must once there, before it trusts notifications again.
 */

export interface Subscriber {
  /** A notification on the channel (payload null when there was none). */
  notify(payload: string | null): void;
  /** LISTEN runs on a live connection (first time and after every reconnect); may read with `client`. */
  ready(client: Pick<pg.Client, 'query'>): Promise<void> | void;
  /** The connection is gone (or the listener closed): notifications stop until the next `ready`. */
  lost(): void;
}

export interface ListenerOptions {
  /** The connection string; without it nothing listens and every subscriber stays "lost". */
  url?: string;
  reconnectMs?: number;
  log?: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}

/** Its connection's `application_name` (pg_stat_activity shows it; tests find the connection by it). */
export const LISTENER_NAME = 'greetie listener';

const CHANNEL = /^[a-z_][a-z0-9_]*$/;

export class Listener {
  private readonly subscribers = new Map<string, Set<Subscriber>>();
  private client: pg.Client | undefined;
  private live = false;
  private retry: NodeJS.Timeout | undefined;
  private delay: number;
  private closed = false;
  private connects = 0;

  constructor(private readonly opts: ListenerOptions = {}) {
    this.delay = opts.reconnectMs ?? 500;
  }

  /** True while LISTEN runs on a live connection. */
  get listening(): boolean {
    return this.live;
  }

  /** Times the connection was (re)established with every LISTEN in place. */
  get listens(): number {
    return this.connects;
  }

  /**
   * Adds a subscriber to `channel` (a plain lower-case identifier). When the connection is live
   * already, LISTEN runs for a new channel and then `ready`. Returns how to stop (the connection
   * stays for the others; `UNLISTEN` when the channel has nobody left).
   */
  async subscribe(channel: string, sub: Subscriber): Promise<() => void> {
    if (!CHANNEL.test(channel)) throw new Error(`not a channel name: ${channel}`);
    let set = this.subscribers.get(channel);
    const fresh = !set;
    if (!set) this.subscribers.set(channel, (set = new Set()));
    set.add(sub);
    const client = this.client;
    if (this.live && client) {
      try {
        if (fresh) await client.query(`LISTEN ${channel}`);
        if (this.client === client && this.live) await sub.ready(client);
      } catch (err) {
        void this.lose(client, err as Error);
      }
    }
    return () => {
      if (!set.delete(sub) || set.size > 0 || this.subscribers.get(channel) !== set) return;
      this.subscribers.delete(channel);
      if (this.live && this.client) this.client.query(`UNLISTEN ${channel}`).catch(() => {});
    };
  }

  /** Opens the connection (when a `url` was given). Never throws: a failure is retried later. */
  async start(): Promise<void> {
    if (!this.opts.url || this.closed || this.client) return;
    const client = new pg.Client({ connectionString: this.opts.url, keepAlive: true, application_name: LISTENER_NAME });
    this.client = client;
    client.on('error', (err) => void this.lose(client, err));
    client.on('end', () => void this.lose(client));
    client.on('notification', (msg) => {
      for (const sub of this.subscribers.get(msg.channel) ?? []) sub.notify(msg.payload ?? null);
    });
    try {
      await client.connect();
      for (const channel of this.subscribers.keys()) await client.query(`LISTEN ${channel}`);
      if (this.client !== client) return; // lost meanwhile
      this.live = true;
      this.connects += 1;
      this.delay = this.opts.reconnectMs ?? 500;
      if (this.connects > 1) this.opts.log?.info({}, 'listener: listening again');
      for (const set of [...this.subscribers.values()]) for (const sub of [...set]) await sub.ready(client);
    } catch (err) {
      void this.lose(client, err as Error);
    }
  }

  /** Ends the connection; subscribers hear `lost`, and nothing is made again. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    if (client) await this.lose(client);
  }

  /** Drops `client` (when it is still the one); the promise of its end, which only `close` waits for. */
  private lose(client: pg.Client, err?: Error): Promise<void> {
    if (this.client !== client) return Promise.resolve();
    this.client = undefined;
    const was = this.live;
    this.live = false;
    client.removeAllListeners('notification');
    const ended = client.end().catch(() => {});
    for (const set of [...this.subscribers.values()]) for (const sub of [...set]) sub.lost();
    if (this.closed) return ended;
    if (was) this.opts.log?.warn({ err: err?.message }, 'listener: connection lost; subscribers read for themselves until it is back');
    this.retry = setTimeout(() => {
      this.retry = undefined;
      void this.start();
    }, this.delay);
    this.retry.unref();
    this.delay = Math.min(this.delay * 2, 30_000);
    return ended;
  }
}
