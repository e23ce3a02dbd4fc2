import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/index.ts';

/**
 * A read-through cache of catalogue answers, already serialized, with their ETag.
 *
 * Invalidation works across processes (docs/decisions/031-catalogue-cache.md): a statement
 * trigger on merchant and product bumps `app_meta.catalogue_version` in the same transaction as
 * the change, whoever makes it (this server, the admin command, plain SQL). Each read first asks
 * for the version — one primary-key lookup — and empties the cache when it moved. The version is
 * read *before* the data, so an answer can only ever be stored under a version at most as new as
 * the data it holds; a change committed meanwhile moves the version and the next read reloads.
 */

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
}

export class CatalogueCache {
  private version: string | null = null;
  private readonly entries = new Map<string, Promise<CachedAnswer | null>>();
  private hits = 0;
  private misses = 0;

  constructor(
    private readonly db: Db,
    private readonly maxEntries = 300,
  ) {}

  async currentVersion(): Promise<string> {
    const { rows } = await sql<{ value: string }>`SELECT value FROM app_meta WHERE key = 'catalogue_version'`.execute(this.db);
    return rows[0]?.value ?? '0';
  }

  /**
   * The answer for `key`: from the cache when the catalogue has not changed since it was stored,
   * otherwise from `load` (null means "not found", which is not kept). Concurrent misses for one
   * key share one load.
   */
  async read(key: string, load: () => Promise<unknown>): Promise<CachedAnswer | null> {
    const version = await this.currentVersion();
    if (version !== this.version) {
      this.entries.clear();
      this.version = version;
    }
    const cached = this.entries.get(key);
    if (cached) {
      this.hits += 1;
      // Least recently used goes first when the cache is full.
      this.entries.delete(key);
      this.entries.set(key, cached);
      return cached;
    }
    this.misses += 1;
    const pending = load().then((value) => (value == null ? null : serialize(value)));
    this.entries.set(key, pending);
    try {
      const answer = await pending;
      if (answer === null && this.entries.get(key) === pending) this.entries.delete(key);
      return answer;
    } catch (err) {
      if (this.entries.get(key) === pending) this.entries.delete(key);
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
    return { hits: this.hits, misses: this.misses, size: this.entries.size, version: this.version };
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
