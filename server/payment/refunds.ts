import { giveUpCodes } from '../voucher/codes.ts';
import type { FastifyBaseLogger } from 'fastify';
import { sub } from 'date-fns';
import type { Greetie } from '../../contract/greetie.ts';
import type { SandboxRefund } from '../../contract/payment.ts';
import { transaction, type Tx } from '../db/index.ts';
import { conflict, notFound } from '../errors.ts';
import { readGreetie } from '../greetie/rules.ts';
import { notifyRefunded } from '../notification/rules.ts';
import { INSTRUCTION_ID, PaymentError, newInstructionId, swishMessage, type RefundState } from '../providers/payment/index.ts';
import type { IsoDuration } from '../settings.ts';
import { crashPoint } from './crash.ts';
import {
  anyVoucherUsed,
  countRefundAttempt,
  insertRefund,
  lockGreetieForCancel,
  markCancelled,
  moveRefund,
  paidPayment,
  paymentById,
  refundByInstruction,
  refundsToReconcile,
  unclaimedGreeties,
  type RefundRow,
} from './queries.ts';
import { toRefund, type PaymentDeps } from './rules.ts';

/**
 * Cancelling a greetie and giving the money back (API.md "After delivery"; decision 085).
 *
 * - POST /greetie/{id}/cancel: under the greetie's lock, a scheduled or delivered greetie not yet
 *   viewed, with no voucher used, becomes cancelled (its pending delivery row `cancelled`, so no
 *   worker claims it; its link and vouchers answer 404), and when it was paid, its payment's ONE
 *   refund row is written (unique per payment) with a fresh instruction id — all in one
 *   transaction, BEFORE the provider is asked. A second cancel finds it cancelled and answers it
 *   as it is: nothing is refunded twice.
 * - Then the provider is asked to create the refund with that instruction id (`requestRefund`).
 *   Swish's PUT is idempotent on it: asking again (the reconciliation after a crash, two processes
 *   at once) is the same refund.
 * - The provider's answer about a refund (the callback, the reconciliation) is never read from a
 *   callback body: the status is asked of the provider and applied once (`applyRefundState`, a
 *   conditional UPDATE that never leaves `paid`).
 * - A refund the provider refused (or that ended ERROR) is `error`, shown on the Payment, and
 *   tried again by the reconciliation as the same refund (the same instruction id) after
 *   REFUND_RETRY_MS.
 * - UNCLAIMED_REFUND_AFTER (decision 086): the reconciliation also cancels, as /cancel does, a
 *   paid greetie delivered that long ago and still unopened with no voucher used, and tells the
 *   sender (notification `refunded`, once by its dedupe key). The greetie's lock and the status
 *   check make it once across any number of processes.
 */

/** A refund in error is tried again after this long. */
export const REFUND_RETRY_MS = 10 * 60_000;
/** The periodic pass leaves refunds younger than this alone (their create or callback is on its way). */
export const REFUND_MIN_AGE_MS = 5_000;

export function toSandboxRefund(row: RefundRow): SandboxRefund {
  const r = toRefund(row);
  return { id: r.id, paymentId: row.payment_id, greetieId: row.greetie_id, amount: r.amount, status: r.status, createdAt: r.createdAt };
}

/**
 * In the caller's transaction, with the greetie locked and checked: cancelled, and its paid
 * payment's refund row written. Answers the refund row when this call wrote it.
 */
async function cancelLocked(tx: Tx, deps: PaymentDeps, greetieId: string): Promise<RefundRow | undefined> {
  const now = deps.services.now();
  if (!(await markCancelled(tx, greetieId, now))) return undefined;
  // Its Code vouchers' codes are never shown again: back to the pool if nobody saw them, else void.
  await giveUpCodes(tx, greetieId, now);
  const payment = await paidPayment(tx, greetieId);
  if (!payment) return undefined;
  return insertRefund(tx, {
    paymentId: payment.id,
    greetieId,
    provider: payment.provider,
    amount: payment.amount,
    instructionId: newInstructionId(),
    now,
  });
}

/** POST /greetie/{id}/cancel. */
export async function cancelGreetie(deps: PaymentDeps, userId: string, greetieId: string, log?: FastifyBaseLogger): Promise<Greetie> {
  const refund = await transaction(deps.db, async (tx) => {
    const g = await lockGreetieForCancel(tx, greetieId);
    if (!g || g.sender_id !== userId) throw notFound('GREETIE_NOT_FOUND');
    // Cancelling twice answers the same greetie, and refunds nothing more.
    if (g.status === 'cancelled') return undefined;
    if (g.status !== 'scheduled' && g.status !== 'delivered') throw conflict('GREETIE_NOT_CANCELLABLE');
    if (g.viewed_at !== null || (await anyVoucherUsed(tx, greetieId))) throw conflict('GREETIE_ALREADY_OPENED');
    return cancelLocked(tx, deps, greetieId);
  });
  if (refund) await requestRefund(deps, refund, log);
  return readGreetie(deps, userId, greetieId, false);
}

/**
 * Asks the provider to create the refund of a `created` or `error` row, with its own instruction
 * id (the same refund however often it is asked). The original payment's reference at the
 * provider is asked for once and kept. A provider that cannot be reached leaves the row as it is
 * (the reconciliation asks again); a refusal makes it `error` with the provider's code.
 */
export async function requestRefund(deps: PaymentDeps, refund: RefundRow, log?: FastifyBaseLogger): Promise<RefundRow | undefined> {
  const payments = deps.services.payments;
  let reference = refund.original_payment_reference;
  try {
    if (!reference) {
      const payment = await paymentById(deps.db, refund.payment_id);
      if (!payment) return undefined;
      reference = (await payments.status(payment.instruction_id)).paymentReference;
      if (!reference) {
        log?.error({ refundId: refund.id }, 'refund: the provider gives no payment reference for the paid payment; asking again later');
        return undefined;
      }
    }
    await countRefundAttempt(deps.db, refund.id, refund.original_payment_reference ? null : reference, deps.services.now());
    await payments.createRefund({
      instructionId: refund.instruction_id,
      originalPaymentReference: reference,
      amount: refund.amount,
      reference: refund.id.replaceAll('-', ''),
      message: swishMessage('Återbetalning från Greetie'),
    });
  } catch (err) {
    if (!(err instanceof PaymentError)) throw err;
    if (err.kind === 'unavailable') {
      log?.warn({ err, refundId: refund.id }, 'refund not created: the provider did not answer; asking again later');
      return undefined;
    }
    log?.error({ err, refundId: refund.id, codes: err.codes }, 'refund refused by the provider');
    return moveRefund(deps.db, refund.id, ['created', 'error'], 'error', err.codes[0] ?? err.kind, deps.services.now());
  }
  // Tests only (GREETIE_TEST_CRASH_AT): die as if killed between the provider's answer and our write.
  crashPoint('refund.created');
  return moveRefund(deps.db, refund.id, ['created', 'error'], 'pending', null, deps.services.now());
}

/**
 * The one code path for what the provider says of a refund (callback, reconciliation). Never
 * leaves `paid`; applies an answer about another refund or another amount never. True when applied.
 */
export async function applyRefundState(deps: PaymentDeps, refund: RefundRow, state: RefundState, log?: FastifyBaseLogger): Promise<boolean> {
  if (state.instructionId !== refund.instruction_id) return false;
  if (state.amount !== null && state.amount !== refund.amount) {
    log?.error({ refundId: refund.id }, 'the provider reports another amount refunded than ours: nothing applied');
    return false;
  }
  const now = deps.services.now();
  if (state.status === 'paid') return (await moveRefund(deps.db, refund.id, ['created', 'pending', 'error'], 'paid', null, now)) !== undefined;
  if (state.status === 'error') return (await moveRefund(deps.db, refund.id, ['created', 'pending'], 'error', state.errorCode, now)) !== undefined;
  return (await moveRefund(deps.db, refund.id, ['created'], 'pending', null, now)) !== undefined;
}

/** Asks the provider about a refund and applies the answer; a provider that cannot answer changes nothing. */
export async function refreshRefund(deps: PaymentDeps, refund: RefundRow, log?: FastifyBaseLogger): Promise<boolean> {
  try {
    return await applyRefundState(deps, refund, await deps.services.payments.refundStatus(refund.instruction_id), log);
  } catch (err) {
    if (!(err instanceof PaymentError)) throw err;
    log?.warn({ err, refundId: refund.id }, 'refund status not confirmed');
    return false;
  }
}

/** POST /greetie/refundCallBack: only the provider's own answer is acted on; an unknown id changes nothing. */
export async function refundCallback(deps: PaymentDeps, instructionId: string, log?: FastifyBaseLogger): Promise<void> {
  if (!INSTRUCTION_ID.test(instructionId)) return;
  const refund = await refundByInstruction(deps.db, instructionId);
  if (!refund) {
    log?.warn({ instructionId }, 'refund callback for an unknown refund');
    return;
  }
  await refreshRefund(deps, refund, log);
}

/** The moment before which a greetie delivered is unclaimed, or null when the setting is off. */
export function unclaimedBefore(after: IsoDuration | null, now: Date): Date | null {
  if (after === null) return null;
  return sub(now, after.parts);
}

/**
 * UNCLAIMED_REFUND_AFTER: each paid greetie delivered before then, still unopened with no voucher
 * used, cancelled and refunded as by /cancel, its sender told. Answers how many this call cancelled.
 */
export async function cancelUnclaimed(deps: PaymentDeps, log?: FastifyBaseLogger): Promise<number> {
  const before = unclaimedBefore(deps.config.unclaimedRefundAfter, deps.services.now());
  if (!before) return 0;
  let cancelled = 0;
  for (const greetieId of await unclaimedGreeties(deps.db, before)) {
    try {
      const refund = await transaction(deps.db, async (tx) => {
        const g = await lockGreetieForCancel(tx, greetieId);
        // Checked again under the lock: opened, used, cancelled by another process meanwhile.
        if (!g || g.status !== 'delivered' || g.viewed_at !== null || !g.delivered_at || g.delivered_at.getTime() > before.getTime()) return undefined;
        if (await anyVoucherUsed(tx, greetieId)) return undefined;
        const written = await cancelLocked(tx, deps, greetieId);
        if (written) await notifyRefunded(tx, deps, { greetieId, amount: written.amount });
        return written;
      });
      if (!refund) continue;
      cancelled += 1;
      log?.info({ greetieId, refundId: refund.id }, 'unclaimed greetie cancelled and refunded');
      await requestRefund(deps, refund, log);
    } catch (err) {
      log?.error({ err, greetieId }, 'unclaimed greetie not cancelled');
    }
  }
  return cancelled;
}

export interface RefundReconcileResult {
  checked: number;
  applied: number;
  unclaimed: number;
}

/**
 * The refunds' reconciliation (with the payments', ./reconcile.ts): refunds created but not yet
 * accepted (a crash or no answer) are created again with their own instruction id; pending ones
 * are asked about (a lost callback); ones in error are tried again as the same refund after
 * REFUND_RETRY_MS. Then the unclaimed greeties. Safe in every process at once.
 */
export async function reconcileRefunds(deps: PaymentDeps, opts: { minAgeMs: number; retryAfterMs?: number }, log?: FastifyBaseLogger): Promise<RefundReconcileResult> {
  const now = deps.services.now().getTime();
  const rows = await refundsToReconcile(deps.db, new Date(now - opts.minAgeMs), new Date(now - (opts.retryAfterMs ?? REFUND_RETRY_MS)));
  const result: RefundReconcileResult = { checked: rows.length, applied: 0, unclaimed: 0 };
  for (const refund of rows) {
    try {
      if (refund.status === 'pending') {
        if (await refreshRefund(deps, refund, log)) result.applied += 1;
      } else if (await requestRefund(deps, refund, log)) {
        result.applied += 1;
      }
    } catch (err) {
      log?.error({ err, refundId: refund.id }, 'refund not reconciled');
    }
  }
  result.unclaimed = await cancelUnclaimed(deps, log);
  return result;
}
