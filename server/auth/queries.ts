import { sql } from 'kysely';
import type { Db, Tx } from '../db/index.ts';
import { PREPARED, compiledOnce } from '../db/prepared.ts';
import type { Limit } from './rateLimit.ts';

/** SQL of sign-in. Everything that must happen once is a conditional UPDATE … RETURNING. */

export interface UserRow {
  id: string;
  mobile_number: string;
  name: string | null;
  allow_marketing: boolean;
  created_at: Date;
  /** The merchants the person works for (migration 022), by name. */
  merchants: { id: string; name: string; role: 'owner' | 'staff' }[];
}

/**
 * A person's merchants as json, for a statement on `mobile_user` (select or returning): one probe
 * of the partial index `merchant_staff_user`, which holds only the few people linked to a merchant.
 */
export const merchantsOfUser = sql<UserRow['merchants']>`coalesce((
  SELECT json_agg(json_build_object('id', m.id, 'name', m.name, 'role', s.role) ORDER BY m.name, m.id)
    FROM merchant_staff s JOIN merchant m ON m.id = s.merchant_id
   WHERE s.user_id = mobile_user.id), '[]'::json)`.as('merchants');

/** The columns of a UserRow. */
export const USER_COLUMNS = ['id', 'mobile_number', 'name', 'allow_marketing', 'created_at', merchantsOfUser] as const;

/**
 * The sign-in check's read of every protected request: a prepared statement (decision 127), built
 * and compiled once (decision 128).
 */
const userRead = compiledOnce((db, v: { id: string }) => db.selectFrom('mobile_user').modifyFront(PREPARED).select(USER_COLUMNS).where('id', '=', v.id).compile());

export async function findUser(db: Db | Tx, id: string): Promise<UserRow | undefined> {
  const rows = await userRead(db, { id });
  return rows[0];
}

/** The user with this number, created on first sign-in. */
export async function upsertUser(tx: Tx, mobileNumber: string): Promise<UserRow> {
  return tx
    .insertInto('mobile_user')
    .values({ mobile_number: mobileNumber })
    .onConflict((oc) => oc.column('mobile_number').doUpdateSet({ mobile_number: (eb) => eb.ref('excluded.mobile_number') }))
    .returning(USER_COLUMNS)
    .executeTakeFirstOrThrow();
}

/**
 * The code request's one statement under its two locks (server/auth/rules.ts `requestCode`,
 * decisions 020 and 023): the times of this IP's code requests and of this number's codes in their
 * windows (oldest first; codes whose sending failed do not count), and only when both are under
 * their limits: the IP's expired events forgotten, this request recorded against the IP, and the
 * (not yet usable) verification created. `id` is null when a limit was met and nothing was written.
 *
 * The number's codes are its verifications and, once an account is removed and its verifications
 * with it, the `code-number` events that stand for them (`keepLimitsOfNumber`), under the number's
 * keyed hash (decision 024). Nothing after `now` is left out: `now` is read after the locks, and a
 * later time can only be a request ahead of this one whose process's clock runs a little ahead.
 *
 * One statement instead of five (two reads, a delete and two inserts): it runs after the locks
 * were taken by a statement of their own, so its snapshot sees every request that held them
 * before (a statement that took the locks itself would read from before its wait).
 */
export async function createVerificationWithinLimits(
  tx: Tx,
  v: {
    /** rateKey of the IP address. */
    ipKey: string;
    perIp: Limit;
    mobileNumber: string;
    /** rateKey of the mobile number. */
    numberKey: string;
    perNumber: Limit;
    tokenHash: string;
    codeHash: string;
    now: Date;
    expiresAt: Date;
  },
): Promise<{ ipTimes: Date[]; numberTimes: Date[]; id: string | null }> {
  const ipSince = new Date(v.now.getTime() - v.perIp.windowMs);
  const numberSince = new Date(v.now.getTime() - v.perNumber.windowMs);
  const now = sql`${v.now}::timestamptz`;
  const { rows } = await sql<{ ip_times: Date[]; number_times: Date[]; id: string | null }>`
    WITH ip AS (
      SELECT coalesce(array_agg(at ORDER BY at), '{}') AS times FROM auth_rate_event
      WHERE kind = ${v.perIp.kind} AND key = ${v.ipKey} AND at > ${ipSince}::timestamptz
    ), num AS (
      SELECT coalesce(array_agg(at ORDER BY at), '{}') AS times FROM (
        SELECT created_at AS at FROM auth_verification
        WHERE mobile_number = ${v.mobileNumber} AND created_at > ${numberSince}::timestamptz AND send_failed_at IS NULL
        UNION ALL
        SELECT at FROM auth_rate_event
        WHERE kind = ${v.perNumber.kind} AND key = ${v.numberKey} AND at > ${numberSince}::timestamptz
      ) AS codes
    ), allowed AS (
      SELECT cardinality(ip.times) < ${v.perIp.max}::int AND cardinality(num.times) < ${v.perNumber.max}::int AS ok FROM ip, num
    ), forgotten AS (
      DELETE FROM auth_rate_event
      WHERE kind = ${v.perIp.kind} AND key = ${v.ipKey} AND at <= ${ipSince}::timestamptz AND (SELECT ok FROM allowed)
    ), recorded AS (
      INSERT INTO auth_rate_event (kind, key, at) SELECT ${v.perIp.kind}::text, ${v.ipKey}::text, ${now} FROM allowed WHERE ok
    ), created AS (
      INSERT INTO auth_verification (token_hash, mobile_number, code_hash, created_at, expires_at)
      SELECT ${v.tokenHash}::text, ${v.mobileNumber}::text, ${v.codeHash}::text, ${now}, ${v.expiresAt}::timestamptz FROM allowed WHERE ok
      RETURNING id
    )
    SELECT ip.times AS ip_times, num.times AS number_times, (SELECT id FROM created) AS id FROM ip, num`.execute(tx);
  const row = rows[0]!;
  return { ipTimes: row.ip_times, numberTimes: row.number_times, id: row.id };
}

/**
 * Before a removed account's verifications go (server/mobileuser `forgetNumber`): each that still
 * counts against the number's codes (created within `perNumber`'s window before `now`, not failed
 * to send) is kept as a `code-number` event under the number's keyed hash, at the time it was made,
 * so signing in again right after the removal meets the same limit (decision 024). The wrong-code
 * events are already kept under that hash and stay. Call it holding the number's code lock.
 */
export async function keepLimitsOfNumber(tx: Tx, v: { mobileNumber: string; numberKey: string; perNumber: Limit; now: Date }): Promise<void> {
  const since = new Date(v.now.getTime() - v.perNumber.windowMs);
  await sql`
    INSERT INTO auth_rate_event (kind, key, at)
    SELECT ${v.perNumber.kind}::text, ${v.numberKey}::text, created_at FROM auth_verification
    WHERE mobile_number = ${v.mobileNumber} AND created_at > ${since}::timestamptz AND send_failed_at IS NULL`.execute(tx);
}

export async function markVerificationSent(db: Db, id: string, now: Date): Promise<void> {
  await db.updateTable('auth_verification').set({ sent_at: now }).where('id', '=', id).execute();
}

/** A verification whose SMS never left is never usable and does not count against the number. */
export async function markVerificationSendFailed(db: Db, id: string, now: Date): Promise<void> {
  await db.updateTable('auth_verification').set({ send_failed_at: now, voided_at: now }).where('id', '=', id).execute();
}

export function findVerificationByTokenHash(db: Db, tokenHash: string) {
  return db.selectFrom('auth_verification').select(['id', 'mobile_number']).where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** Uses the verification if the code is right and it is still usable; at most one caller ever wins. */
export async function consumeVerification(tx: Tx, id: string, codeHash: string, now: Date): Promise<string | undefined> {
  const row = await tx
    .updateTable('auth_verification')
    .set({ consumed_at: now })
    .where('id', '=', id)
    .where('code_hash', '=', codeHash)
    .where('consumed_at', 'is', null)
    .where('voided_at', 'is', null)
    .where('sent_at', 'is not', null)
    .where('expires_at', '>', now)
    .returning('mobile_number')
    .executeTakeFirst();
  return row?.mobile_number;
}

/**
 * Counts a wrong code against a usable verification and voids it at `maxAttempts`. Returns the
 * attempts made so far, or undefined when the verification was not usable any more.
 */
export async function countWrongCode(tx: Tx, id: string, codeHash: string, now: Date, maxAttempts: number): Promise<number | undefined> {
  const row = await tx
    .updateTable('auth_verification')
    .set({
      failed_attempts: sql`failed_attempts + 1`,
      voided_at: sql`CASE WHEN failed_attempts + 1 >= ${maxAttempts} THEN ${now}::timestamptz ELSE NULL END`,
    })
    .where('id', '=', id)
    .where('code_hash', '<>', codeHash)
    .where('consumed_at', 'is', null)
    .where('voided_at', 'is', null)
    .where('sent_at', 'is not', null)
    .where('expires_at', '>', now)
    .returning('failed_attempts')
    .executeTakeFirst();
  return row?.failed_attempts;
}

export async function insertRefreshToken(
  tx: Tx,
  t: { tokenHash: string; familyId: string; userId: string; deviceId: string; now: Date; expiresAt: Date },
): Promise<void> {
  await tx
    .insertInto('auth_refresh_token')
    .values({
      token_hash: t.tokenHash,
      family_id: t.familyId,
      user_id: t.userId,
      device_id: t.deviceId,
      created_at: t.now,
      expires_at: t.expiresAt,
    })
    .execute();
}

/**
 * Marks a live refresh token used; only one caller gets the row back. `userId` null: whoever owns
 * it (the browser's cookie comes without an access token).
 */
export function useRefreshToken(tx: Tx, tokenHash: string, userId: string | null, now: Date) {
  let update = tx
    .updateTable('auth_refresh_token')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash);
  if (userId !== null) update = update.where('user_id', '=', userId);
  return update
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['family_id', 'device_id', 'user_id'])
    .executeTakeFirst();
}

export function findRefreshToken(db: Db | Tx, tokenHash: string) {
  return db
    .selectFrom('auth_refresh_token')
    .select(['family_id', 'user_id', 'used_at', 'revoked_at'])
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
}

export async function revokeFamily(db: Db | Tx, familyId: string, now: Date): Promise<void> {
  await db
    .updateTable('auth_refresh_token')
    .set({ revoked_at: now })
    .where('family_id', '=', familyId)
    .where('revoked_at', 'is', null)
    .execute();
}

/**
 * Retires a live token that a newer one replaces without it being used (the browser's cookie, when
 * a refresh sets a new one): presented later it is refused, but it is not a reuse, so the family
 * stays. Only a token of `familyId`: a cookie of another sign-in is left alone.
 */
export async function supersedeRefreshToken(tx: Tx, tokenHash: string, familyId: string, now: Date): Promise<void> {
  await tx
    .updateTable('auth_refresh_token')
    .set({ revoked_at: now })
    .where('token_hash', '=', tokenHash)
    .where('family_id', '=', familyId)
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .execute();
}
