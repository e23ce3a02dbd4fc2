import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest, onSendHookHandler, preHandlerHookHandler } from 'fastify';
import type { Db } from '../db/index.ts';
import { HttpError } from '../errors.ts';

/**
 * `Idempotency-Key` (API.md: POST /greetie, /greetie/createv2, /voucher/redeem; decision 084).
 *
 * A route that takes the header adds `idempotency(...)`'s two hooks after its authentication:
 * - preHandler: the key is claimed for the caller by inserting its row (user id + key, the
 *   request's hash), committed at once. Of any number of requests with one key, in any number of
 *   processes, exactly one inserts it, and only that one runs the handler. The others find the
 *   row: another request's hash → 422 IDEMPOTENCY_KEY_REUSED; answered → that answer again
 *   (status and body, `Idempotent-Replayed: true`); still running → they wait for its answer
 *   (polling, holding no connection), 409 IDEMPOTENCY_KEY_IN_PROGRESS after WAIT_MS.
 * - onSend: the answer the handler produced (the serialized body, an error's too) is written to
 *   the row. A 429 (the caller is to come back later) and a 5xx (nothing was done, or we cannot
 *   say) are not kept: the row is deleted so a retry with the key runs again.
 *
 * A key is the caller's for 24 hours; an older row is a new first use (and the hourly clean-up
 * deletes it). The hash covers the method, the route and the body (keys sorted), so the same key
 * on another route is a different request too.
 *
 * What this cannot cover: a process that dies after the handler's effect committed and before the
 * answer is written leaves the row without an answer. A repeat then gets 409 rather than a second
 * effect (never twice); the client can look (GET) and use a new key.
 */

/** How long a key holds: 24 hours (API.md). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60_000;
/** How long a repeat waits for the first request's answer before 409 IDEMPOTENCY_KEY_IN_PROGRESS. */
export const WAIT_MS = 10_000;
const POLL_MS = 50;

export const IDEMPOTENCY_HEADER = 'idempotency-key';

interface Claim {
  userId: string;
  key: string;
}

const claims = new WeakMap<FastifyRequest, Claim>();

/** JSON with every object's keys sorted: one text for one body, whatever order its keys came in. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function requestHash(method: string, route: string, body: unknown): string {
  return createHash('sha256').update(`${method} ${route}\n${canonical(body ?? null)}`).digest('base64url');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Deletes keys older than 24 hours (the hourly clean-up, server/auth/retention.ts); answers how many went. */
export async function purgeExpiredIdempotencyKeys(db: Db, now: Date): Promise<number> {
  const result = await db
    .deleteFrom('idempotency_key')
    .where('created_at', '<', new Date(now.getTime() - IDEMPOTENCY_TTL_MS))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * The hooks of a route that takes `Idempotency-Key`. The route's preHandler is
 * `[app.authenticate, idem.preHandler]` (the key is the signed-in caller's) and its onSend
 * `idem.onSend`; its schema declares `headers: IdempotencyHeaders` (contract/common.ts), which
 * refuses an empty key or one over 100 characters with 400 before anything here runs.
 */
export function idempotency(deps: { db: Db; now: () => Date }): { preHandler: preHandlerHookHandler; onSend: onSendHookHandler } {
  const { db, now } = deps;

  async function preHandler(req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
    const key = req.headers[IDEMPOTENCY_HEADER];
    if (typeof key !== 'string') return undefined;
    const userId = req.userId;
    const hash = requestHash(req.method, req.routeOptions.url ?? req.url, req.body);
    const giveUpAt = Date.now() + WAIT_MS;
    for (;;) {
      const at = now();
      const inserted = await db
        .insertInto('idempotency_key')
        .values({ user_id: userId, key, request_hash: hash, created_at: at })
        .onConflict((oc) => oc.columns(['user_id', 'key']).doNothing())
        .returning('key')
        .executeTakeFirst();
      if (inserted) {
        claims.set(req, { userId, key });
        return undefined;
      }
      const row = await db
        .selectFrom('idempotency_key')
        .select(['request_hash', 'status_code', 'response', 'created_at'])
        .where('user_id', '=', userId)
        .where('key', '=', key)
        .executeTakeFirst();
      if (!row) continue; // released (a 429 or 5xx) or expired meanwhile: claim it again
      if (row.created_at.getTime() <= at.getTime() - IDEMPOTENCY_TTL_MS) {
        // Over 24 hours old: the key is free again. Only this row goes (not a newer claim).
        await db.deleteFrom('idempotency_key').where('user_id', '=', userId).where('key', '=', key).where('created_at', '=', row.created_at).execute();
        continue;
      }
      if (row.request_hash !== hash) throw new HttpError(422, 'IDEMPOTENCY_KEY_REUSED');
      if (row.status_code !== null && row.response !== null) {
        // Sent from the hook: the handler does not run (Fastify: an async hook that sends returns the reply).
        return reply.code(row.status_code).header('idempotent-replayed', 'true').type('application/json; charset=utf-8').send(row.response);
      }
      if (Date.now() >= giveUpAt) throw new HttpError(409, 'IDEMPOTENCY_KEY_IN_PROGRESS', {}, undefined, { 'retry-after': '1' });
      await sleep(POLL_MS);
    }
  }

  async function onSend(req: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
    const claim = claims.get(req);
    if (!claim) return payload;
    claims.delete(req);
    const status = reply.statusCode;
    try {
      if (status === 429 || status >= 500 || typeof payload !== 'string') {
        await db.deleteFrom('idempotency_key').where('user_id', '=', claim.userId).where('key', '=', claim.key).where('status_code', 'is', null).execute();
      } else {
        await db
          .updateTable('idempotency_key')
          .set({ status_code: status, response: payload })
          .where('user_id', '=', claim.userId)
          .where('key', '=', claim.key)
          .where('status_code', 'is', null)
          .execute();
      }
    } catch (err) {
      // The answer still goes out; a repeat finds the key without an answer (409, never twice).
      req.log.warn({ err }, 'idempotency key: the answer could not be kept');
    }
    return payload;
  }

  return { preHandler: preHandler as preHandlerHookHandler, onSend: onSend as onSendHookHandler };
}
