import { createHmac } from 'node:crypto';
import { sql } from 'kysely';
import type { Db, Tx } from '../db/index.ts';

/**
 * Sliding-window rate limits kept in PostgreSQL, so every API process behind a load balancer
 * counts the same events (docs/decisions/020-rate-limits-in-postgresql.md). A check and the event
 * it records happen in one transaction under an advisory lock on the (kind, key) pair, and the
 * time is read after the lock is held, so concurrent requests in any number of processes are
 * counted one after another and exactly `max` get through (decision 023).
 *
 * Keys are never stored in the clear: a number or an IP address becomes `rateKey(config, value)`,
 * an HMAC under a pepper derived from the signing key, so the events hold no personal data and
 * may outlive an account's removal (decision 024).
 */
export interface Limit {
  kind: string;
  max: number;
  windowMs: number;
}

export const LIMITS = {
  /** SMS codes per number: 3 per 15 minutes (counted from the verifications themselves). */
  codesPerNumber: { kind: 'code-number', max: 3, windowMs: 15 * 60_000 },
  /** Code requests per IP: 20 per minute. Short window: a busy carrier NAT waits seconds, not hours. */
  codesPerIp: { kind: 'code-ip', max: 20, windowMs: 60_000 },
  /** Wrong codes per number: 10 per hour (two voided verifications). */
  failedLoginsPerNumber: { kind: 'login-failed', max: 10, windowMs: 60 * 60_000 },
} as const satisfies Record<string, Limit>;

const peppers = new WeakMap<object, Buffer>();

/**
 * The key a limit counts `value` (a mobile number, an IP address) under: HMAC-SHA256 with a pepper
 * derived from TOKEN_SIGNING_KEY (as the code pepper in ./tokens.ts), base64url. The same on every
 * process that shares the signing key; without the key a copy of the database cannot tell whose
 * number an event was (a Swedish mobile number has too few values for a plain hash).
 */
export function rateKey(config: { tokenSigningKey: string }, value: string): string {
  let pepper = peppers.get(config);
  if (!pepper) {
    pepper = createHmac('sha256', config.tokenSigningKey).update('greetie/rate-limit-key/v1').digest();
    peppers.set(config, pepper);
  }
  return createHmac('sha256', pepper).update(value).digest('base64url');
}

/**
 * Serialises checks on each (kind, key) for the rest of the transaction, in the order given (one
 * statement: the locks are taken left to right, as PostgreSQL evaluates a select list). Keep one
 * order everywhere (IP before number), so two requests never wait on each other in a cycle.
 */
export async function lockKeys(tx: Tx, ...keys: [kind: string, key: string][]): Promise<void> {
  const locks = keys.map(([kind, key]) => sql`pg_advisory_xact_lock(hashtext(${kind}), hashtext(${key}))`);
  await sql`SELECT ${sql.join(locks)}`.execute(tx);
}

/**
 * Seconds until one more event fits, given the times of the events inside the window (oldest
 * first); 0 when it fits now.
 */
export function retryAfterSeconds(times: Date[], limit: Limit, now: Date): number {
  if (times.length < limit.max) return 0;
  const freeing = times[times.length - limit.max]!;
  return Math.max(1, Math.ceil((freeing.getTime() + limit.windowMs - now.getTime()) / 1000));
}

/**
 * Seconds to wait (0: allowed) for the events recorded in auth_rate_event. Call it under the key's
 * lock with `now` read after the lock was taken. Events later than `now` count too: a request
 * ahead of this one (another process, its clock a little ahead) is in the window, not after it.
 */
export async function checkEvents(db: Db | Tx, limit: Limit, key: string, now: Date): Promise<number> {
  const since = new Date(now.getTime() - limit.windowMs);
  const rows = await db
    .selectFrom('auth_rate_event')
    .select('at')
    .where('kind', '=', limit.kind)
    .where('key', '=', key)
    .where('at', '>', since)
    .orderBy('at', 'asc')
    .execute();
  return retryAfterSeconds(
    rows.map((r) => r.at),
    limit,
    now,
  );
}

/** Records one event and forgets this key's events that have left the window. */
export async function recordEvent(tx: Db | Tx, limit: Limit, key: string, now: Date): Promise<void> {
  await tx
    .deleteFrom('auth_rate_event')
    .where('kind', '=', limit.kind)
    .where('key', '=', key)
    .where('at', '<=', new Date(now.getTime() - limit.windowMs))
    .execute();
  await tx.insertInto('auth_rate_event').values({ kind: limit.kind, key, at: now }).execute();
}
