import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { MobileUser, TokenPair } from '../../contract/auth.ts';
import { transaction, type Db, type Tx } from '../db/index.ts';
import { HttpError, badRequest, notFound, tooManyRequests, unauthorized } from '../errors.ts';
import type { Deps } from '../services.ts';
import { SmsError } from '../providers/sms/index.ts';
import { normaliseSwedishMobile } from './phone.ts';
import { LIMITS, checkEvents, lockKeys, rateKey, recordEvent, retryAfterSeconds } from './rateLimit.ts';
import * as q from './queries.ts';
import {
  CODE_TTL_MS,
  REFRESH_TOKEN_TTL_MS,
  codeHash,
  issueAccessToken,
  keysFor,
  newCode,
  randomToken,
  sha256,
  verifyAccessToken,
} from './tokens.ts';

/**
 * The rules of sign-in, independent of HTTP details: request a code, log in with it, refresh,
 * log out. Routes (server/auth/routes.ts) validate the shape and call these.
 */
export const MAX_CODE_ATTEMPTS = 5;

/** "Din Greetie-kod är 123456" and the origin-bound line that lets browsers fill it in (WebOTP). */
export function codeMessage(code: string, publicUrl: string): string {
  const host = new URL(publicUrl).hostname;
  return `Din Greetie-kod är ${code}\n\n@${host} #${code}`;
}

export async function requestCode(
  deps: Deps,
  input: { mobileNumber: string; ip: string },
  log: FastifyBaseLogger,
): Promise<{ token: string }> {
  const mobileNumber = normaliseSwedishMobile(input.mobileNumber);
  if (!mobileNumber) throw badRequest('INVALID_MOBILE_NUMBER');
  const keys = keysFor(deps.config);
  const token = randomToken();
  const tokenHash = sha256(token);
  const code = newCode();
  // The limits count under keyed hashes of the IP and the number, never the values (decision 024).
  const ipKey = rateKey(deps.config, input.ip);
  const numberKey = rateKey(deps.config, mobileNumber);

  // Check both limits and create the (not yet usable) verification in one transaction, under the
  // IP's and the number's locks (IP first, always): the locks, then the time (read after them, so
  // every request that held them before is in the past, decision 023), then one statement that
  // reads both windows and writes only when both have room (decision 093).
  const { created, now } = await transaction(deps.db, async (tx) => {
    await lockKeys(tx, [LIMITS.codesPerIp.kind, ipKey], [LIMITS.codesPerNumber.kind, numberKey]);
    const now = deps.services.now();
    const created = await q.createVerificationWithinLimits(tx, {
      ipKey,
      perIp: LIMITS.codesPerIp,
      mobileNumber,
      numberKey,
      perNumber: LIMITS.codesPerNumber,
      tokenHash,
      codeHash: codeHash(keys, tokenHash, code),
      now,
      expiresAt: new Date(now.getTime() + CODE_TTL_MS),
    });
    return { created, now };
  });
  // The IP's limit first: a request refused by either is not counted against the IP.
  const ipWait = retryAfterSeconds(created.ipTimes, LIMITS.codesPerIp, now);
  if (ipWait > 0) throw tooManyRequests(ipWait, 'CODE_RATE_LIMITED_IP');
  const numberWait = retryAfterSeconds(created.numberTimes, LIMITS.codesPerNumber, now);
  if (numberWait > 0) throw tooManyRequests(numberWait, 'CODE_RATE_LIMITED_NUMBER');
  // Cannot happen: the statement writes exactly when both lists are under their limits.
  if (created.id === null) throw new Error('the code request was neither limited nor created');
  const id = created.id;

  // The SMS goes out after the commit (no transaction held open across a network call). Until
  // sent_at is set the verification cannot be used; a failed send voids it and uncounts it.
  try {
    await deps.services.sms.send({ to: mobileNumber, body: codeMessage(code, deps.config.publicUrl) });
  } catch (err) {
    await q.markVerificationSendFailed(deps.db, id, deps.services.now());
    const kind = err instanceof SmsError ? err.kind : 'unavailable';
    log.error({ smsError: err instanceof Error ? err.message : 'unknown', verificationId: id }, 'verification SMS not sent');
    throw kind === 'rejected' ? new HttpError(502, 'SMS_REJECTED') : new HttpError(503, 'SMS_UNAVAILABLE');
  }
  await q.markVerificationSent(deps.db, id, deps.services.now());
  return { token };
}

async function newRefreshToken(
  tx: Parameters<typeof q.insertRefreshToken>[0],
  t: { familyId: string; userId: string; deviceId: string; now: Date },
): Promise<string> {
  const refreshToken = randomToken();
  await q.insertRefreshToken(tx, { ...t, tokenHash: sha256(refreshToken), expiresAt: new Date(t.now.getTime() + REFRESH_TOKEN_TTL_MS) });
  return refreshToken;
}

/**
 * What a sign-in, a refresh or a restore hands out: the pair of API.md for the tab, and a second
 * refresh token of the same family for the browser's cookie (server/auth/cookie.ts). Two tokens,
 * not one shared: a tab rotating its own never spends the one another tab will restore from.
 */
export interface IssuedSession {
  pair: TokenPair;
  cookieToken: string;
}

export async function login(deps: Deps, input: { token: string; code: string; deviceId: string }): Promise<IssuedSession> {
  const keys = keysFor(deps.config);
  const tokenHash = sha256(input.token);
  const verification = await q.findVerificationByTokenHash(deps.db, tokenHash);
  if (!verification) throw badRequest('VERIFICATION_INVALID');
  const numberKey = rateKey(deps.config, verification.mobile_number);

  const hash = codeHash(keys, tokenHash, input.code);
  // The number's wrong codes are counted and checked under its lock, with the time read after the
  // lock: a wrong code is checked only when the ones ahead of it (any process) are counted, so at
  // most LIMITS.failedLoginsPerNumber.max are ever checked in a window (decision 023).
  const outcome = await transaction(deps.db, async (tx) => {
    await lockKeys(tx, [LIMITS.failedLoginsPerNumber.kind, numberKey]);
    const now = deps.services.now();
    const wait = await checkEvents(tx, LIMITS.failedLoginsPerNumber, numberKey, now);
    if (wait > 0) return { ok: false, code: 'LOGIN_RATE_LIMITED', wait } as const;
    const mobileNumber = await q.consumeVerification(tx, verification.id, hash, now);
    if (mobileNumber) {
      const user = await q.upsertUser(tx, mobileNumber);
      const family = { familyId: randomUUID(), userId: user.id, deviceId: input.deviceId, now };
      const refreshToken = await newRefreshToken(tx, family);
      const cookieToken = await newRefreshToken(tx, family);
      return { ok: true, userId: user.id, refreshToken, cookieToken, now } as const;
    }
    const attempts = await q.countWrongCode(tx, verification.id, hash, now, MAX_CODE_ATTEMPTS);
    if (attempts === undefined) return { ok: false, code: 'VERIFICATION_INVALID' } as const;
    await recordEvent(tx, LIMITS.failedLoginsPerNumber, numberKey, now);
    if (attempts >= MAX_CODE_ATTEMPTS) return { ok: false, code: 'CODE_VOIDED', triesLeft: 0 } as const;
    return { ok: false, code: 'WRONG_CODE', triesLeft: MAX_CODE_ATTEMPTS - attempts } as const;
  });
  if (!outcome.ok && outcome.code === 'LOGIN_RATE_LIMITED') throw tooManyRequests(outcome.wait, outcome.code);
  if (!outcome.ok) {
    if (outcome.code === 'VERIFICATION_INVALID') throw badRequest(outcome.code);
    throw badRequest(outcome.code, { triesLeft: outcome.triesLeft }, { triesLeft: outcome.triesLeft });
  }
  return {
    pair: { token: await issueAccessToken(keys, outcome.userId, outcome.now), refreshToken: outcome.refreshToken },
    cookieToken: outcome.cookieToken,
  };
}

/**
 * A new pair for a live refresh token. The access token may have expired (that is the point),
 * but it must be ours and name the refresh token's owner. A refresh token used a second time
 * means a copy exists somewhere: the whole family is revoked.
 */
export async function refresh(
  deps: Deps,
  input: { token: string; refreshToken: string },
  presentedCookie: string | null = null,
): Promise<IssuedSession> {
  const now = deps.services.now();
  const keys = keysFor(deps.config);
  const userId = verifyAccessToken(keys, input.token, now, REFRESH_TOKEN_TTL_MS / 1000);
  if (!userId) throw unauthorized('INVALID_TOKEN');
  const outcome = await rotate(deps, sha256(input.refreshToken), userId, presentedCookie, now);
  if (!outcome.ok) throw unauthorized(outcome.code);
  return { pair: { token: await issueAccessToken(keys, userId, now), refreshToken: outcome.refreshToken }, cookieToken: outcome.cookieToken };
}

/**
 * A session from the browser's cookie alone (a new tab: no access token, nothing in
 * sessionStorage). The cookie's token is used like any refresh token: once, and a second use
 * revokes its family.
 */
export async function restore(deps: Deps, cookieToken: string): Promise<IssuedSession> {
  const now = deps.services.now();
  const outcome = await rotate(deps, sha256(cookieToken), null, null, now);
  if (!outcome.ok) throw unauthorized(outcome.code);
  return {
    pair: { token: await issueAccessToken(keysFor(deps.config), outcome.userId, now), refreshToken: outcome.refreshToken },
    cookieToken: outcome.cookieToken,
  };
}

/**
 * Uses the presented token once and issues its family's next two: the tab's and the cookie's.
 * The cookie that came along (when the tab's own token was presented) is retired, so a browser
 * holds one live cookie token per sign-in. `userId` null: the cookie form (whoever owns it).
 */
async function rotate(deps: Deps, tokenHash: string, userId: string | null, presentedCookie: string | null, now: Date) {
  return transaction(deps.db, async (tx) => {
    const used = await q.useRefreshToken(tx, tokenHash, userId, now);
    if (used) {
      const family = { familyId: used.family_id, userId: used.user_id, deviceId: used.device_id, now };
      if (presentedCookie !== null) await q.supersedeRefreshToken(tx, sha256(presentedCookie), used.family_id, now);
      const refreshToken = await newRefreshToken(tx, family);
      const cookieToken = await newRefreshToken(tx, family);
      return { ok: true, userId: used.user_id, refreshToken, cookieToken } as const;
    }
    const known = await q.findRefreshToken(tx, tokenHash);
    if (known && (userId === null || known.user_id === userId) && known.used_at !== null) {
      await q.revokeFamily(tx, known.family_id, now);
      return { ok: false, code: 'REFRESH_TOKEN_REUSED' } as const;
    }
    return { ok: false, code: 'REFRESH_TOKEN_INVALID' } as const;
  });
}

/**
 * Ends the sessions the given refresh tokens belong to (each one's whole family): the tab's, from
 * the body, and the browser's cookie. Unknown tokens: nothing to do.
 */
export async function logout(deps: Pick<Deps, 'db' | 'services'>, tokens: (string | null | undefined)[]): Promise<void> {
  const now = deps.services.now();
  for (const token of tokens) {
    if (!token) continue;
    const known = await q.findRefreshToken(deps.db, sha256(token));
    if (known) await q.revokeFamily(deps.db, known.family_id, now);
  }
}

/**
 * An account's removal (server/mobileuser `removeAccount`), before its number's verifications are
 * deleted: what the number's limits need for their windows is kept under the number's keyed hash,
 * so signing in again right after the removal faces the same limits (decision 024). Under the
 * number's code lock, with the time read after it, as a code request counts (decision 023).
 */
export async function keepNumberLimits(tx: Tx, deps: Pick<Deps, 'config'> & { services: Pick<Deps['services'], 'now'> }, mobileNumber: string): Promise<void> {
  const numberKey = rateKey(deps.config, mobileNumber);
  await lockKeys(tx, [LIMITS.codesPerNumber.kind, numberKey]);
  await q.keepLimitsOfNumber(tx, { mobileNumber, numberKey, perNumber: LIMITS.codesPerNumber, now: deps.services.now() });
}

/** The columns of a person's row (with their merchants), for the mobileuser resource's statements on it. */
export { USER_COLUMNS } from './queries.ts';

/** A person as every answer shows them (MobileUser): GET /auth/my and the mobileuser calls. */
export function toMobileUser(user: q.UserRow): MobileUser {
  return {
    id: user.id,
    mobileNumber: user.mobile_number,
    name: user.name,
    allowMarketing: user.allow_marketing,
    merchants: user.merchants,
    createdAt: user.created_at.toISOString(),
  };
}

/** The signed-in person (GET /auth/my). */
export async function signedInUser(db: Db, userId: string): Promise<MobileUser> {
  const user = await q.findUser(db, userId);
  if (!user) throw notFound();
  return toMobileUser(user);
}
