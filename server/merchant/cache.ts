import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/index.ts';
import type { Listener } from '../db/listener.ts';

/**
 * A read-through cache of catalogue answers, already serialized, with their ETag.
 *
 * Invalidation works across processes (docs/decisions/031-catalogue-cache.md, 064): a statement
 * trigger on merchant and product bumps `app_meta.catalogue_version` in the same transaction as
 * the change, whoever makes it (this server, the admin command, plain SQL), and sends the new
 * version with `pg_notify('greetie_catalogue', …)`, delivered when that transaction commits.
 *
 * Two modes:
 * - **Listening** (the normal one, with a `listener`): the process's one LISTEN connection
 *   (server/db/listener.ts) runs `LISTEN greetie_catalogue`; a notification empties the cache. A
 *   read asks the database nothing.
 * - **Checking** (no `listener`, before LISTEN is up, and whenever the listening connection is
 *   gone): each read first asks for the version — one primary-key lookup — and empties the cache
 *   when it moved. The version is read *before* the data, so an answer can only ever be stored
 *   under a version at most as new as the data it holds.
 * When the listening connection drops, reads check until it is back; once `LISTEN` runs again the
 * version is read once (a change between the drop and the `LISTEN` sent no notification we heard)
 * and only then does listening resume.
 * An answer being loaded when a notification arrives is given to its caller but not kept: the
 * notification empties the map it would have been kept in.
 */

export const CATALOGUE_CHANNEL = 'greetie_catalogue';

export interface CatalogueCacheOptions {
  maxEntries?: number;
  /** The process's LISTEN connection (server/db/listener.ts); without it every read checks. */
  listener?: Listener;
}

export interface CachedAnswer {
  /** The JSON text of the answer. */
  body: string;
  /** A strong validator: a hash of the body, the same in every process. */
  etag: string;
}

export interface CacheStats {
  hits: number;
  misses: number;
  size: number;
  version: string | null;
  /** 'listening' (a notification empties the cache) or 'checking' (each read asks the version). */
  mode: 'listening' | 'checking';
  /** Times the listening connection was (re)established. */
  listens: number;
}

const VERSION_SQL = `SELECT value FROM app_meta WHERE key = 'catalogue_version'`;

/** A held value: its load, and once that has settled, the value itself (what `peek` answers from). */
interface Entry {
  pending: Promise<unknown>;
  settled: boolean;
  value: unknown;
  /** Stored by `read`: a CachedAnswer once settled (never a `memo` value). */
  answer: boolean;
}

export class CatalogueCache {
  private version: string | null = null;
  private readonly entries = new Map<string, Entry>();
  private hits = 0;
  private misses = 0;
  private readonly maxEntries: number;
  private listening = false;
  private listens = 0;
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly db: Db,
    private readonly opts: CatalogueCacheOptions = {},
  ) {
    this.maxEntries = opts.maxEntries ?? 300;
  }

  async currentVersion(): Promise<string> {
    const { rows } = await sql<{ value: string }>`${sql.raw(VERSION_SQL)}`.execute(this.db);
    return rows[0]?.value ?? '0';
  }

  /**
   * Subscribes to `greetie_catalogue` on the process's listener (when one was given). Never
   * throws: until the listener is live, reads check the version themselves.
   */
  async start(): Promise<void> {
    if (!this.opts.listener || this.unsubscribe) return;
    this.unsubscribe = await this.opts.listener.subscribe(CATALOGUE_CHANNEL, {
      notify: (payload) => this.moveTo(payload),
      ready: async (client) => {
        // A change committed before LISTEN took effect notified no one here: read the version once.
        const { rows } = await client.query<{ value: string }>(VERSION_SQL);
        this.moveTo(rows[0]?.value ?? '0');
        this.listening = true;
        this.listens += 1;
      },
      lost: () => {
        this.listening = false; // reads check the version from now on
      },
    });
  }

  /** Stops listening; reads check the version from then on. */
  async close(): Promise<void> {
    this.unsubscribe?.();
    this.listening = false;
  }

  /** A version seen (notified or read): empties the cache when it differs from the one held. */
  private moveTo(version: string | null): void {
    // A notification without a payload still means "changed".
    if (version === null || version !== this.version) {
      this.entries.clear();
      this.version = version;
    }
  }

  /**
   * The answer for `key`: from the cache when the catalogue has not changed since it was stored,
   * otherwise from `load` (null means "not found", which is not kept). Concurrent misses for one
   * key share one load.
   */
  read(key: string, load: () => Promise<unknown>): Promise<CachedAnswer | null> {
    return this.hold(key, () => load().then((value) => (value == null ? null : serialize(value))), true);
  }

  /**
   * The answer `read` holds for `key`, without waiting and without asking the database: only when
   * the cache is listening (a change empties it through a notification), and the answer is loaded
   * and not null. Anything else is undefined, and the caller takes `read`'s path. Counts as a hit
   * and keeps the answer recently used, as `read` does. For the catalogue's fast path
   * (server/merchant/fast-read.ts, decision 157).
   */
  peek(key: string): CachedAnswer | undefined {
    if (!this.listening) return undefined;
    const entry = this.entries.get(key);
    if (!entry || !entry.settled || !entry.answer || entry.value == null) return undefined;
    this.hits += 1;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value as CachedAnswer;
  }

  /**
   * A value derived from the catalogue, kept like an answer (same version, same bound, least
   * recently used first out) but not serialized: what a search's pages are cut from (decision 151).
   * Keys must not collide with the answers' keys.
   */
  memo<T>(key: string, load: () => Promise<T | null>): Promise<T | null> {
    return this.hold(key, load, false);
  }

  private async hold<T>(key: string, load: () => Promise<T | null>, answer: boolean): Promise<T | null> {
    if (!this.listening) {
      const version = await this.currentVersion();
      // The connection may have come back while we asked; its own read of the version decides.
      if (!this.listening && version !== this.version) {
        this.entries.clear();
        this.version = version;
      }
    }
    const cached = this.entries.get(key);
    if (cached) {
      this.hits += 1;
      // Least recently used goes first when the cache is full.
      this.entries.delete(key);
      this.entries.set(key, cached);
      return cached.pending as Promise<T | null>;
    }
    this.misses += 1;
    const entry: Entry = { pending: load(), settled: false, value: undefined, answer };
    this.entries.set(key, entry);
    try {
      const value = (await entry.pending) as T | null;
      entry.value = value;
      entry.settled = true;
      if (value === null && this.entries.get(key) === entry) this.entries.delete(key);
      return value;
    } catch (err) {
      if (this.entries.get(key) === entry) this.entries.delete(key);
      throw err;
    } finally {
      while (this.entries.size > this.maxEntries) {
        const oldest = this.entries.keys().next().value;
        if (oldest === undefined) break;
        this.entries.delete(oldest);
      }
    }
  }

  stats(): CacheStats {
    return { hits: this.hits, misses: this.misses, size: this.entries.size, version: this.version, mode: this.listening ? 'listening' : 'checking', listens: this.listens };
  }
}

export function serialize(value: unknown): CachedAnswer {
  const body = JSON.stringify(value);
  return { body, etag: etagOf(body) };
}

export function etagOf(body: string): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}

/**
 * RFC 9110 If-None-Match: `*`, or a list of entity tags compared weakly (a `W/` prefix on
 * either side does not matter for GET).
 */
export function matchesIfNoneMatch(header: string | string[] | undefined, etag: string): boolean {
  if (!header) return false;
  const value = Array.isArray(header) ? header.join(',') : header;
  if (value.trim() === '*') return true;
  const opaque = etag.replace(/^W\//, '');
  return value.split(',').some((tag) => tag.trim().replace(/^W\//, '') === opaque);
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The catalogue's answers (server/merchant/cache.ts), made by buildApp, read by the routes. */
    catalogueCache: CatalogueCache;
  }
}
