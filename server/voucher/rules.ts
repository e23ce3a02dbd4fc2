import type { MerchantSource } from '../../contract/merchant.ts';
import {
  REDEEM_LOCK_MINUTES,
  REDEEM_MAX_WRONG,
  REDEEM_MAX_WRONG_AT_MERCHANT,
  UNDO_MINUTES,
  type DonateBody,
  type RedeemBody,
  type RedemptionVia,
  type UndoBody,
  type Voucher,
  type VoucherKind,
} from '../../contract/voucher.ts';
import { transaction } from '../db/index.ts';
import { HttpError, badRequest, conflict, notFound } from '../errors.ts';
import type { Deps } from '../services.ts';
import { knownMerchantCodeHashes, normalizeMerchantCode, runningMerchantCodeCheck, verifyMerchantCodeRemembered } from '../merchant/code.ts';
import {
  activeProduct,
  donateVoucher,
  lockForRedeem,
  lockPersonAtMerchant,
  markUsedOnce,
  ownedVoucher,
  ownedVouchers,
  recentWrongCodes,
  recentWrongCodesAtMerchant,
  recordAttempt,
  redeemKnownCode,
  redeemTarget,
  redeemedVoucher,
  redemptionOf,
  undoOnce,
  type RedeemOutcome,
  type RedeemTarget,
  type VoucherRow,
} from './queries.ts';
import type { Tx } from '../db/index.ts';

/** The vouchers of greeties, for greetie's answers (the resource above). */
export { vouchersOfGreeties } from './queries.ts';

/**
 * Vouchers' rules (API.md "Voucher").
 * - A voucher is its greetie's recipient's: the user whose mobile number it was sent to, once it is
 *   delivered (never before). Anybody else's voucher is 404, like one that does not exist.
 * - Redeeming at a till (POST /voucher/redeem) happens once: one conditional UPDATE decides it.
 *   The voucher row is locked for the attempt so the wrong codes of one voucher are counted in
 *   turn: after REDEEM_MAX_WRONG wrong codes within REDEEM_LOCK_MINUTES every code is refused
 *   (429, the right one too, or the lock would still answer guesses) until the oldest of them
 *   leaves the window. The same holds for one person at one merchant over all its vouchers
 *   (REDEEM_MAX_WRONG_AT_MERCHANT, counted under an advisory lock on the pair; decision 023).
 *   Every attempt is recorded for the merchant.
 * - The order of the answers: not the caller's 404, already redeemed 409, expired 410, locked 429,
 *   then the code (wrong 400). A used or expired voucher costs no code check and counts no guess.
 * - A code this process already knows to be right takes a shorter way (decision 034): one
 *   conditional statement that also requires fewer than 5 recent wrong codes; anything it does
 *   not change goes the locked way above, which answers why.
 * - A Code or Charity voucher is marked used by its owner (POST /voucher/redeemed); an InStore one
 *   needs the merchant's code (409).
 * - Balances (decision 016): a redeem takes `amount` (a "value" voucher: 1 ≤ amount ≤ balance;
 *   absent: the whole balance; a "fixed" voucher only whole) from the balance, under the row's
 *   lock in the one conditional statement, and records one redemption. A wrong amount is answered
 *   after the lock check and before the code is checked, so it costs no guess.
 * - Undo (POST /voucher/{id}/redemptions/{redemptionId}/undo): within UNDO_MINUTES of the
 *   redemption, with the merchant's code under the same wrong-code limits, once: the redemption
 *   is marked undone and its amount goes back in one statement that requires it not undone yet.
 * - Donate (POST /voucher/{id}/donate): an unused, unexpired InStore voucher becomes a Charity
 *   voucher of the same amount in the same greetie, under the old voucher's lock; the old one is
 *   404 from then on (so of two at once, one donates and the other is 404).
 */

type VoucherDeps = Pick<Deps, 'db'> & { services: Pick<Deps['services'], 'now'> };

/** A voucher row as API.md's Voucher; the code only with `withCode` (its owner) and only for source Code. */
export function toVoucher(r: VoucherRow, withCode: boolean): Voucher {
  return {
    id: r.id,
    greetieId: r.greetie_id,
    merchant: {
      id: r.merchant_id,
      name: r.merchant_name,
      logoUrl: r.merchant_logo_url,
      address: r.merchant_street && r.merchant_postal_code && r.merchant_city ? { street: r.merchant_street, postalCode: r.merchant_postal_code, city: r.merchant_city } : null,
      openingHours: r.merchant_opening_hours,
    },
    product: { id: r.product_id, name: r.product_name, description: r.product_description },
    senderName: r.sender_name,
    source: r.source as MerchantSource,
    amount: r.amount,
    kind: r.kind as VoucherKind,
    balance: r.balance,
    redemptions: (r.redemptions ?? []).map((x) => ({
      id: x.id,
      amount: x.amount,
      redeemedAt: new Date(x.redeemedAt).toISOString(),
      via: x.via as RedemptionVia,
      undone: x.undone,
    })),
    ...(withCode && r.source === 'Code' && r.code !== null ? { code: r.code } : {}),
    isRedeemed: r.is_redeemed,
    redeemedAt: r.redeemed_at?.toISOString() ?? null,
    expiresAt: r.expires_at?.toISOString() ?? null,
    createdAt: r.created_at.toISOString(),
  };
}

/** GET /voucher and /mobileuser/vouchers. */
export async function listOwn(deps: VoucherDeps, userId: string): Promise<Voucher[]> {
  return (await ownedVouchers(deps.db, userId, deps.services.now())).map((r) => toVoucher(r, true));
}

/** GET /voucher/{id}. */
export async function readOwn(deps: Pick<Deps, 'db'>, userId: string, id: string): Promise<Voucher> {
  const row = await ownedVoucher(deps.db, userId, id);
  if (!row) throw notFound('VOUCHER_NOT_FOUND');
  return toVoucher(row, true);
}

export const expired = (expiresAt: Date | null, now: Date) => expiresAt !== null && expiresAt.getTime() <= now.getTime();

function lockedFor(seconds: number): HttpError {
  const retryAfter = Math.max(1, Math.ceil(seconds));
  return new HttpError(429, 'VOUCHER_LOCKED', { retryAfter, minutes: Math.ceil(retryAfter / 60) }, undefined, { 'retry-after': String(retryAfter) });
}

type RedeemResult =
  | { outcome: 'redeemed'; voucher: Voucher }
  | { outcome: 'wrongCode'; attemptsLeft: number }
  | { outcome: 'balanceTooLow'; balance: number }
  | { outcome: 'locked'; seconds: number }
  | { outcome: 'alreadyRedeemed' | 'expired' | 'amountNotAllowed' };

/**
 * The wrong-code limits of a voucher and of its owner at its merchant, counted in turn (the
 * voucher's row is locked; the person at the merchant is locked here): seconds until the lock
 * opens (0: not locked), and how many wrong codes are left.
 */
async function wrongCodeLimits(tx: Tx, v: RedeemTarget, userId: string, windowStart: Date, now: Date): Promise<{ lockedFor: number; attemptsLeft: number }> {
  const wrong = await recentWrongCodes(tx, v.id, windowStart, REDEEM_MAX_WRONG);
  // The person's wrong codes at this merchant, over all its vouchers, counted under their lock
  // (API.md: 10 within 15 minutes; decision 023): holding N vouchers gives no more guesses.
  await lockPersonAtMerchant(tx, userId, v.merchant_id);
  const wrongAtMerchant = await recentWrongCodesAtMerchant(tx, userId, v.merchant_id, windowStart, REDEEM_MAX_WRONG_AT_MERCHANT);
  // Open again once the oldest wrong code that keeps a limit met leaves the window (the later of the two).
  const opensAt = Math.max(
    wrong.length >= REDEEM_MAX_WRONG ? wrong[REDEEM_MAX_WRONG - 1]!.getTime() : 0,
    wrongAtMerchant.length >= REDEEM_MAX_WRONG_AT_MERCHANT ? wrongAtMerchant[REDEEM_MAX_WRONG_AT_MERCHANT - 1]!.getTime() : 0,
  );
  return {
    lockedFor: opensAt > 0 ? (opensAt + REDEEM_LOCK_MINUTES * 60_000 - now.getTime()) / 1000 : 0,
    attemptsLeft: Math.min(REDEEM_MAX_WRONG - wrong.length, REDEEM_MAX_WRONG_AT_MERCHANT - wrongAtMerchant.length) - 1,
  };
}

/** Why an amount does not fit a voucher with a balance, or null when it does (the code way and the QR way, server/voucher/qr.ts). */
export function amountProblem(v: Pick<RedeemTarget, 'kind' | 'amount' | 'balance'>, amount: number | undefined): 'amountNotAllowed' | 'balanceTooLow' | null {
  if (amount === undefined) return null;
  if (v.kind !== 'value' && amount !== v.amount) return 'amountNotAllowed';
  if (amount > v.balance) return 'balanceTooLow';
  return null;
}

/** POST /voucher/redeem. */
export async function redeem(deps: VoucherDeps, userId: string, body: RedeemBody): Promise<Voucher> {
  const code = normalizeMerchantCode(body.merchantCode);
  if (code === '') throw badRequest('MERCHANT_CODE_REQUIRED', {}, [{ field: 'body.merchantCode', problem: 'required' }]);
  const now = deps.services.now();
  const windowStart = new Date(now.getTime() - REDEEM_LOCK_MINUTES * 60_000);
  const amount = body.amount ?? null;

  // The common case first: a code this process has already found right is tried at once, by one
  // call that also checks the owner, the amount against the balance and that the voucher's
  // merchant's current hash is one the code matched — nothing read before it, no transaction, no
  // scrypt (decision 034).
  const knownHashes = knownMerchantCodeHashes(code);
  const known = { id: body.voucherId, userId, now, since: windowStart, maxWrong: REDEEM_MAX_WRONG, maxWrongAtMerchant: REDEEM_MAX_WRONG_AT_MERCHANT, amount };
  if (knownHashes.length > 0) {
    const id = await redeemKnownCode(deps.db, { ...known, codeHashes: knownHashes });
    if (id) return toVoucher(await redeemedVoucher(deps.db, id), true);
  }

  const target = await redeemTarget(deps.db, userId, body.voucherId);
  if (!target) throw notFound('VOUCHER_NOT_FOUND');
  // A burst at a merchant this process has not checked yet: the first redeem checks the code
  // (scrypt) holding its voucher's lock; the others wait for that check here, holding nothing,
  // and then take the short way.
  const running = runningMerchantCodeCheck(code, target.code_hash);
  if (running && (await running.catch(() => false)) && !target.is_redeemed) {
    const id = await redeemKnownCode(deps.db, { ...known, codeHashes: [target.code_hash] });
    if (id) return toVoucher(await redeemedVoucher(deps.db, id), true);
  }
  // Nothing changed (not the caller's, redeemed, expired, locked, a wrong amount, a new code, not
  // known yet, a wrong code): the locked path says why.

  const result = await transaction(deps.db, async (tx): Promise<RedeemResult> => {
    const v = await lockForRedeem(tx, userId, body.voucherId);
    if (!v) throw notFound('VOUCHER_NOT_FOUND');
    const attempt = (outcome: RedeemOutcome) => recordAttempt(tx, { voucherId: v.id, merchantId: v.merchant_id, userId, outcome, at: now });
    if (v.balance === 0) {
      await attempt('alreadyRedeemed');
      return { outcome: 'alreadyRedeemed' };
    }
    if (expired(v.expires_at, now)) {
      await attempt('expired');
      return { outcome: 'expired' };
    }
    const limits = await wrongCodeLimits(tx, v, userId, windowStart, now);
    if (limits.lockedFor > 0) {
      await attempt('locked');
      return { outcome: 'locked', seconds: limits.lockedFor };
    }
    // A wrong amount is refused before the code is checked: it costs the staff no guess.
    const problem = amountProblem(v, body.amount);
    if (problem) {
      await attempt(problem);
      return problem === 'balanceTooLow' ? { outcome: problem, balance: v.balance } : { outcome: problem };
    }
    if (!(await verifyMerchantCodeRemembered(code, v.code_hash))) {
      await attempt('wrongCode');
      return { outcome: 'wrongCode', attemptsLeft: limits.attemptsLeft };
    }
    // The row is locked and the code is right, so this succeeds; its conditions are what
    // guarantee never more than the balance regardless. It records the redemption and the attempt
    // and reads the answer in the same call.
    const redeemed = await redeemKnownCode(tx, { ...known, codeHashes: [v.code_hash] });
    if (!redeemed) {
      await attempt('alreadyRedeemed');
      return { outcome: 'alreadyRedeemed' };
    }
    return { outcome: 'redeemed', voucher: toVoucher(await redeemedVoucher(tx, redeemed), true) };
  });

  switch (result.outcome) {
    case 'redeemed':
      return result.voucher;
    case 'locked':
      throw lockedFor(result.seconds);
    case 'wrongCode':
      throw badRequest('MERCHANT_CODE_WRONG', {}, { attemptsLeft: result.attemptsLeft });
    default:
      throw redeemRefusal(result);
  }
}

/** The voucher's own refusals of a redeem, the same by code and by QR (server/voucher/qr.ts). */
export type VoucherRefusal = { outcome: 'balanceTooLow'; balance: number } | { outcome: 'alreadyRedeemed' | 'expired' | 'amountNotAllowed' };

export function redeemRefusal(r: VoucherRefusal): HttpError {
  switch (r.outcome) {
    case 'alreadyRedeemed':
      return conflict('VOUCHER_ALREADY_REDEEMED');
    case 'expired':
      return new HttpError(410, 'VOUCHER_EXPIRED');
    case 'amountNotAllowed':
      return badRequest('AMOUNT_NOT_ALLOWED', {}, [{ field: 'body.amount', problem: 'fixed' }]);
    case 'balanceTooLow':
      return new HttpError(409, 'VOUCHER_BALANCE_TOO_LOW', {}, { balance: r.balance });
  }
}

type UndoResult =
  | { outcome: 'undone' }
  | { outcome: 'wrongCode'; attemptsLeft: number }
  | { outcome: 'locked'; seconds: number }
  | { outcome: 'notFound' | 'alreadyUndone' | 'undoTooLate' };

/**
 * POST /voucher/{id}/redemptions/{redemptionId}/undo. In the order: not the caller's voucher 404,
 * not its redemption 404, undone already 409, too late 409, locked 429, the code (wrong 400). The
 * voucher's row lock makes undos of one voucher take turns; the conditional UPDATE makes it once.
 */
export async function undoRedemption(deps: VoucherDeps, userId: string, voucherId: string, redemptionId: string, body: UndoBody): Promise<Voucher> {
  const code = normalizeMerchantCode(body.merchantCode);
  if (code === '') throw badRequest('MERCHANT_CODE_REQUIRED', {}, [{ field: 'body.merchantCode', problem: 'required' }]);
  const now = deps.services.now();
  const windowStart = new Date(now.getTime() - REDEEM_LOCK_MINUTES * 60_000);
  const result = await transaction(deps.db, async (tx): Promise<UndoResult> => {
    const v = await lockForRedeem(tx, userId, voucherId);
    if (!v) throw notFound('VOUCHER_NOT_FOUND');
    const attempt = (outcome: RedeemOutcome) => recordAttempt(tx, { voucherId: v.id, merchantId: v.merchant_id, userId, outcome, at: now });
    const r = await redemptionOf(tx, v.id, redemptionId);
    if (!r) return { outcome: 'notFound' };
    if (r.undone_at !== null) {
      await attempt('alreadyUndone');
      return { outcome: 'alreadyUndone' };
    }
    if (now.getTime() - r.redeemed_at.getTime() > UNDO_MINUTES * 60_000) {
      await attempt('undoTooLate');
      return { outcome: 'undoTooLate' };
    }
    const limits = await wrongCodeLimits(tx, v, userId, windowStart, now);
    if (limits.lockedFor > 0) {
      await attempt('locked');
      return { outcome: 'locked', seconds: limits.lockedFor };
    }
    if (!(await verifyMerchantCodeRemembered(code, v.code_hash))) {
      await attempt('wrongCode');
      return { outcome: 'wrongCode', attemptsLeft: limits.attemptsLeft };
    }
    if (!(await undoOnce(tx, v.id, r.id, now))) {
      await attempt('alreadyUndone');
      return { outcome: 'alreadyUndone' };
    }
    await attempt('undone');
    return { outcome: 'undone' };
  });
  switch (result.outcome) {
    case 'undone':
      return readOwn(deps, userId, voucherId);
    case 'notFound':
      throw notFound('REDEMPTION_NOT_FOUND');
    case 'alreadyUndone':
      throw conflict('ALREADY_UNDONE');
    case 'undoTooLate':
      throw conflict('UNDO_TOO_LATE');
    case 'locked':
      throw lockedFor(result.seconds);
    case 'wrongCode':
      throw badRequest('MERCHANT_CODE_WRONG', {}, { attemptsLeft: result.attemptsLeft });
  }
}

/**
 * POST /voucher/{id}/donate. In the order: not the caller's (or donated already) 404, not InStore
 * 409, used 409, expired 409, the product: missing or inactive 404, not a charity 400, cannot take
 * the amount 400. All under the old voucher's lock, so a redeem or a second donate waits and then
 * finds it donated (404).
 */
export async function donate(deps: VoucherDeps, userId: string, voucherId: string, body: DonateBody): Promise<Voucher> {
  const now = deps.services.now();
  const newId = await transaction(deps.db, async (tx) => {
    const v = await lockForRedeem(tx, userId, voucherId);
    if (!v) throw notFound('VOUCHER_NOT_FOUND');
    if (v.source !== 'InStore') throw conflict('DONATION_NOT_IN_STORE');
    if (v.balance !== v.amount) throw conflict('DONATION_VOUCHER_USED');
    if (expired(v.expires_at, now)) throw conflict('DONATION_VOUCHER_EXPIRED');
    const product = await activeProduct(tx, body.productId);
    if (!product) throw notFound('PRODUCT_NOT_FOUND');
    if (product.source !== 'Charity') throw badRequest('DONATION_PRODUCT_NOT_CHARITY', {}, [{ field: 'body.productId', problem: 'notCharity' }]);
    const takes =
      product.price !== null ? product.price === v.amount : product.min_amount !== null && product.max_amount !== null && product.min_amount <= v.amount && v.amount <= product.max_amount;
    if (!takes) throw badRequest('DONATION_AMOUNT_NOT_ACCEPTED', {}, [{ field: 'body.productId', problem: 'amount' }]);
    return donateVoucher(tx, v, product, now);
  });
  return readOwn(deps, userId, newId);
}

/** POST /voucher/redeemed?id=: the owner marks a Code or Charity voucher used. */
export async function markUsed(deps: VoucherDeps, userId: string, id: string): Promise<Voucher> {
  const now = deps.services.now();
  if (await markUsedOnce(deps.db, userId, id, now)) return readOwn(deps, userId, id);
  // Nothing changed: say why (a read after the write, which has already decided).
  const row = await ownedVoucher(deps.db, userId, id);
  if (!row) throw notFound('VOUCHER_NOT_FOUND');
  if (row.source === 'InStore') throw conflict('VOUCHER_NEEDS_MERCHANT_CODE');
  if (row.is_redeemed) throw conflict('VOUCHER_ALREADY_REDEEMED');
  throw new HttpError(410, 'VOUCHER_EXPIRED');
}
