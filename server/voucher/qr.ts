import { createHmac, randomInt } from 'node:crypto';
import { TOKEN_LOCK_MINUTES, TOKEN_MAX_WRONG, type TillRedeemBody } from '../../contract/portal.ts';
import { QR_TOKEN_ALPHABET, QR_TOKEN_LENGTH, QR_TOKEN_SECONDS, UNDO_MINUTES, type Voucher, type VoucherQr } from '../../contract/voucher.ts';
import { checkEvents, lockKeys, rateKey, recordEvent, type Limit } from '../auth/rateLimit.ts';
import { transaction, type Tx } from '../db/index.ts';
import { HttpError, badRequest, conflict, notFound } from '../errors.ts';
import type { Deps } from '../services.ts';
import {
  endQrToken,
  lockForRedeem,
  lockQrToken,
  lockVoucher,
  merchantRedemption,
  qrToken,
  recordAttempt,
  redemptionOf,
  replaceQrToken,
  takeFromBalance,
  undoOnce,
  voucherById,
  type QrTokenTarget,
  type RedeemOutcome,
} from './queries.ts';
import { amountProblem, expired, redeemRefusal, toVoucher, type VoucherRefusal } from './rules.ts';

/**
 * The voucher's QR token and the till's calls by it (API.md GET /voucher/{id}/qr and the portal's
 * scan, redeem and undo; decision 106).
 * - A token is QR_TOKEN_LENGTH characters of A–Z and 2–9 from the CSPRNG (`randomInt`), valid
 *   QR_TOKEN_SECONDS. Only its keyed hash is stored (HMAC-SHA256 under a pepper derived from
 *   TOKEN_SIGNING_KEY), so a read of the database gives no live token, and every process finds a
 *   token by the same hash. A new token ends the voucher's live one in the same transaction, under
 *   the voucher's row lock, so the old one is refused at once everywhere.
 * - Only the owner's unexpired InStore voucher with a balance gets one (404, 409 VOUCHER_NOT_IN_STORE,
 *   409 VOUCHER_ALREADY_REDEEMED, 410 VOUCHER_EXPIRED: the order and the answers of the redeem).
 * - The till (the merchant's owner or staff, checked by the portal first) scans a token: a token
 *   no voucher of this merchant has (unknown, or another merchant's voucher's) is 404
 *   TOKEN_NOT_FOUND and counts as a wrong token for that person at that merchant; an ended or
 *   expired one is 410 TOKEN_EXPIRED. After TOKEN_MAX_WRONG wrong tokens within
 *   TOKEN_LOCK_MINUTES, every token there is 429 TOKEN_LOCKED with Retry-After (counted in
 *   PostgreSQL under the key's advisory lock, as the sign-in limits: exact across processes).
 * - The till's redeem is the voucher's redeem with the staff sign-in in place of the merchant code:
 *   the same refusals in the same order (redeemRefusal, amountProblem), the same conditional
 *   write, `via: "qr"`. The token and the voucher rows are locked together, so of several redeems
 *   of one token exactly one redeems and ends it; the others then read it ended (410). A refusal
 *   leaves the token live.
 * - The till's undo: a redemption at this merchant (any way it was made) within UNDO_MINUTES, once,
 *   under the voucher's row lock, with the voucher's undo statement.
 * - The token is never logged (it travels in bodies, and `*.token` is redacted) and never in an
 *   error body.
 */

type QrDeps = Pick<Deps, 'db' | 'config'> & { services: Pick<Deps['services'], 'now'> };

/** Wrong tokens per person at a merchant (auth_rate_event, keyed by an HMAC of the pair). */
export const WRONG_TOKENS: Limit = { kind: 'qr-wrong-token', max: TOKEN_MAX_WRONG, windowMs: TOKEN_LOCK_MINUTES * 60_000 };

const peppers = new WeakMap<object, Buffer>();

/** The stored form of a token: HMAC-SHA256 under a pepper derived from the signing key, base64url. */
export function qrTokenHash(config: { tokenSigningKey: string }, token: string): string {
  let pepper = peppers.get(config);
  if (!pepper) {
    pepper = createHmac('sha256', config.tokenSigningKey).update('greetie/voucher-qr-token/v1').digest();
    peppers.set(config, pepper);
  }
  return createHmac('sha256', pepper).update(token).digest('base64url');
}

export function newQrToken(): string {
  let token = '';
  for (let i = 0; i < QR_TOKEN_LENGTH; i += 1) token += QR_TOKEN_ALPHABET[randomInt(QR_TOKEN_ALPHABET.length)];
  return token;
}

const TOKEN_SHAPE = new RegExp(`^[${QR_TOKEN_ALPHABET}]{${QR_TOKEN_LENGTH}}$`);

/** A token as typed or scanned: case, spaces and dashes do not matter; anything else is 400. */
export function normalizeQrToken(typed: string): string {
  const token = typed.replace(/[\s-]/g, '').toUpperCase();
  if (!TOKEN_SHAPE.test(token)) throw badRequest('VALIDATION_FAILED', {}, [{ field: 'body.token', problem: 'format' }]);
  return token;
}

/** GET /voucher/{id}/qr (the voucher's owner). */
export async function issueQrToken(deps: QrDeps, userId: string, voucherId: string): Promise<VoucherQr> {
  const token = newQrToken();
  const hash = qrTokenHash(deps.config, token);
  const expiresAt = await transaction(deps.db, async (tx) => {
    const v = await lockForRedeem(tx, userId, voucherId);
    if (!v) throw notFound('VOUCHER_NOT_FOUND');
    const now = deps.services.now();
    if (v.source !== 'InStore') throw conflict('VOUCHER_NOT_IN_STORE');
    if (v.balance === 0) throw conflict('VOUCHER_ALREADY_REDEEMED');
    if (expired(v.expires_at, now)) throw new HttpError(410, 'VOUCHER_EXPIRED');
    const ends = new Date(now.getTime() + QR_TOKEN_SECONDS * 1000);
    await replaceQrToken(tx, v.id, hash, now, ends);
    return ends;
  });
  return { token, expiresAt: expiresAt.toISOString() };
}

function tokenLocked(seconds: number): HttpError {
  const retryAfter = Math.max(1, Math.ceil(seconds));
  return new HttpError(429, 'TOKEN_LOCKED', { retryAfter, minutes: Math.ceil(retryAfter / 60) }, undefined, { 'retry-after': String(retryAfter) });
}

type TokenLookup = { outcome: 'found'; target: QrTokenTarget; now: Date } | { outcome: 'locked'; seconds: number } | { outcome: 'notFound' | 'tokenExpired' };

/**
 * Finds a live token of this merchant's voucher for `userId` at `merchantId`, under the wrong-token
 * limit's lock (taken first; the time is read after it). A wrong token is recorded in this
 * transaction, so the caller commits before it answers.
 */
async function findToken(tx: Tx, deps: QrDeps, userId: string, merchantId: string, hash: string, lock: boolean): Promise<TokenLookup> {
  const key = rateKey(deps.config, `${userId}/${merchantId}`);
  await lockKeys(tx, [WRONG_TOKENS.kind, key]);
  const now = deps.services.now();
  const wait = await checkEvents(tx, WRONG_TOKENS, key, now);
  if (wait > 0) return { outcome: 'locked', seconds: wait };
  const target = lock ? await lockQrToken(tx, hash) : await qrToken(tx, hash);
  if (!target || target.merchant_id !== merchantId) {
    await recordEvent(tx, WRONG_TOKENS, key, now);
    return { outcome: 'notFound' };
  }
  if (target.token_ended_at !== null || target.token_expires_at.getTime() <= now.getTime() || target.donated_at !== null) return { outcome: 'tokenExpired' };
  return { outcome: 'found', target, now };
}

function lookupFailure(r: Exclude<TokenLookup, { outcome: 'found' }>): HttpError {
  switch (r.outcome) {
    case 'locked':
      return tokenLocked(r.seconds);
    case 'notFound':
      return notFound('TOKEN_NOT_FOUND');
    case 'tokenExpired':
      return new HttpError(410, 'TOKEN_EXPIRED');
  }
}

async function tillVoucher(deps: Pick<QrDeps, 'db'>, voucherId: string): Promise<Voucher> {
  const row = await voucherById(deps.db, voucherId);
  if (!row) throw new HttpError(410, 'TOKEN_EXPIRED');
  return toVoucher(row, false);
}

/** POST /portal/merchants/{id}/scan: the voucher behind a live token of this merchant's; redeems nothing. The caller has checked the role. */
export async function scanQrToken(deps: QrDeps, userId: string, merchantId: string, typed: string): Promise<Voucher> {
  const hash = qrTokenHash(deps.config, normalizeQrToken(typed));
  const found = await transaction(deps.db, (tx) => findToken(tx, deps, userId, merchantId, hash, false));
  if (found.outcome !== 'found') throw lookupFailure(found);
  return tillVoucher(deps, found.target.voucher_id);
}

type TillRedeemResult = { outcome: 'redeemed'; voucherId: string } | Exclude<TokenLookup, { outcome: 'found' }> | VoucherRefusal;

/** POST /portal/merchants/{id}/redeem: the voucher's redeem by a live token, `via: "qr"`, by the staff member. The caller has checked the role. */
export async function redeemByQrToken(deps: QrDeps, userId: string, merchantId: string, body: TillRedeemBody): Promise<Voucher> {
  const hash = qrTokenHash(deps.config, normalizeQrToken(body.token));
  const result = await transaction(deps.db, async (tx): Promise<TillRedeemResult> => {
    const found = await findToken(tx, deps, userId, merchantId, hash, true);
    if (found.outcome !== 'found') return found;
    const { target: v, now } = found;
    const attempt = (outcome: RedeemOutcome) => recordAttempt(tx, { voucherId: v.voucher_id, merchantId, userId, outcome, at: now });
    // The voucher's own refusals, in the code way's order; none of them ends the token.
    if (v.balance === 0) {
      await attempt('alreadyRedeemed');
      return { outcome: 'alreadyRedeemed' };
    }
    if (expired(v.expires_at, now)) {
      await attempt('expired');
      return { outcome: 'expired' };
    }
    const problem = amountProblem(v, body.amount);
    if (problem) {
      await attempt(problem);
      return problem === 'balanceTooLow' ? { outcome: problem, balance: v.balance } : { outcome: problem };
    }
    const redemptionId = await takeFromBalance(tx, { voucherId: v.voucher_id, userId, take: body.amount ?? v.balance, via: 'qr', now });
    if (!redemptionId) {
      await attempt('alreadyRedeemed');
      return { outcome: 'alreadyRedeemed' };
    }
    await endQrToken(tx, hash, now, redemptionId);
    return { outcome: 'redeemed', voucherId: v.voucher_id };
  });
  switch (result.outcome) {
    case 'redeemed':
      return tillVoucher(deps, result.voucherId);
    case 'locked':
    case 'notFound':
    case 'tokenExpired':
      throw lookupFailure(result);
    default:
      throw redeemRefusal(result);
  }
}

type TillUndoResult = { outcome: 'undone'; voucherId: string } | { outcome: 'notFound' | 'alreadyUndone' | 'undoTooLate' };

/**
 * POST /portal/merchants/{id}/redemptions/{redemptionId}/undo: a redemption at this merchant
 * (404 REDEMPTION_NOT_FOUND otherwise), within UNDO_MINUTES (409 UNDO_TOO_LATE), once (409
 * ALREADY_UNDONE), under its voucher's row lock. The caller has checked the role.
 */
export async function undoAtMerchant(deps: QrDeps, userId: string, merchantId: string, redemptionId: string): Promise<Voucher> {
  const result = await transaction(deps.db, async (tx): Promise<TillUndoResult> => {
    const found = await merchantRedemption(tx, merchantId, redemptionId);
    if (!found) return { outcome: 'notFound' };
    const v = await lockVoucher(tx, found.voucher_id);
    const r = v ? await redemptionOf(tx, v.id, redemptionId) : undefined;
    if (!v || !r) return { outcome: 'notFound' };
    const now = deps.services.now();
    const attempt = (outcome: RedeemOutcome) => recordAttempt(tx, { voucherId: v.id, merchantId, userId, outcome, at: now });
    if (r.undone_at !== null) {
      await attempt('alreadyUndone');
      return { outcome: 'alreadyUndone' };
    }
    if (now.getTime() - r.redeemed_at.getTime() > UNDO_MINUTES * 60_000) {
      await attempt('undoTooLate');
      return { outcome: 'undoTooLate' };
    }
    if (!(await undoOnce(tx, v.id, r.id, now))) {
      await attempt('alreadyUndone');
      return { outcome: 'alreadyUndone' };
    }
    await attempt('undone');
    return { outcome: 'undone', voucherId: v.id };
  });
  switch (result.outcome) {
    case 'undone': {
      const row = await voucherById(deps.db, result.voucherId);
      if (!row) throw notFound('REDEMPTION_NOT_FOUND');
      return toVoucher(row, false);
    }
    case 'notFound':
      throw notFound('REDEMPTION_NOT_FOUND');
    case 'alreadyUndone':
      throw conflict('ALREADY_UNDONE');
    case 'undoTooLate':
      throw conflict('UNDO_TOO_LATE');
  }
}
