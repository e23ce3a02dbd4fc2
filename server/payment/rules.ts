import type { FastifyBaseLogger } from 'fastify';
import type { Payment, Refund, StartPayment } from '../../contract/payment.ts';
import { TERMS_VERSION } from '../../contract/terms.ts';
import { transaction } from '../db/index.ts';
import { HttpError, badRequest, conflict, notFound } from '../errors.ts';
import type { Deps } from '../services.ts';
import { normaliseSwedishMobile } from '../auth/phone.ts';
import { findGreetie, giftsOf, lockOwnGreetie, priceGifts, requireSenderName, type GreetiePayments } from '../greetie/rules.ts';
import { INSTRUCTION_ID, PaymentError, newInstructionId, paymentErrorMessageCode, swishMessage, type PaymentState } from '../providers/payment/index.ts';
import { swishAppUrl, swishQrSvg } from '../providers/payment/qr.ts';
import { checkSendLimits, scheduleDelivery } from '../delivery/rules.ts';
import { codesNeeded, releaseCodes, reserveCodes, takeCodes } from '../voucher/codes.ts';
import { crashPoint } from './crash.ts';
import { notifyPayment } from '../notification/rules.ts';
import {
  insertPayment,
  issueVouchers,
  latestPayment,
  lockGreetie,
  markPending,
  openPayment,
  paymentById,
  paymentByInstruction,
  setGreetieStatus,
  setGreetieTotal,
  refundOfPayment,
  settleOpen,
  type PaymentRow,
  type RefundRow,
} from './queries.ts';

/**
 * Paying for a greetie (API.md "Greetie" payment calls; decision 080).
 * - startpayment writes the payment row (status created, a fresh instruction id) and moves the
 *   greetie to awaitingPayment in one transaction, before the provider is asked; the instruction id
 *   is the provider's idempotency key, so a create that timed out is retried with the same id by
 *   the next startpayment.
 * - Nothing the callback body says is believed: the payment is found by its instruction id and its
 *   status asked of the provider. `applyState` is the one place a provider's answer changes our
 *   rows (the callback, GET /payment's status check, a cancel), once: a conditional UPDATE of an
 *   open payment, with the greetie locked first (the order every greetie change takes).
 * - paid: vouchers (one per gift, unique by gift; a Code gift's voucher takes the code its
 *   payment reserved at startpayment, ./codes.ts) and the greetie scheduled, in the same
 *   transaction; declined, error, cancelled, expired: the greetie back to draft and the reserved
 *   codes back to their pools.
 * - Open payments are also reconciled without anybody asking (./reconcile.ts): at start-up and
 *   periodically, through the same `applyState`.
 */

export type PaymentDeps = Pick<Deps, 'db' | 'config'> & { services: Pick<Deps['services'], 'now' | 'payments' | 'delivery' | 'notifications'> };

/** GET /payment asks the provider about an open payment once it is this old. */
export const STATUS_CHECK_AFTER_MS = 3_000;

/** Where the Swish app returns the payer to: the greetie's details page. */
export function returnUrl(publicUrl: string, greetieId: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/greetie/details/${greetieId}`;
}

/** A refund row as API.md's Payment.refund. */
export function toRefund(row: RefundRow): Refund {
  return {
    id: row.id,
    // `created` is ours alone (written before the provider is asked): the client sees it pending.
    status: row.status === 'created' ? 'pending' : row.status,
    amount: row.amount,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/**
 * A payment row as API.md's Payment; an open m-commerce one carries its app link and QR code, a
 * refunded one its refund.
 */
export async function toPayment(config: Deps['config'], row: PaymentRow, refund?: RefundRow | null): Promise<Payment> {
  const open = row.status === 'created' || row.status === 'pending';
  const token = open ? row.swish_token : null;
  return {
    id: row.id,
    greetieId: row.greetie_id,
    provider: row.provider,
    status: row.status,
    amount: row.amount,
    redirectUrl: null,
    appUrl: token ? swishAppUrl(token, returnUrl(config.publicUrl, row.greetie_id)) : null,
    qrCode: token ? await swishQrSvg(token) : null,
    token,
    payerAlias: row.payer_alias,
    errorCode: row.error_code,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    refund: refund ? toRefund(refund) : null,
    orderNumber: row.order_number,
    consentedAt: row.consented_at ? row.consented_at.toISOString() : null,
  };
}

/** A provider's refusal as an answer: its Swish code's message (sv/en). */
function httpErrorOf(err: PaymentError): HttpError {
  if (err.kind === 'unavailable') return new HttpError(503, 'PAYMENT_UNAVAILABLE');
  if (err.kind === 'rejected' || err.kind === 'notFound') return new HttpError(502, 'PAYMENT_REJECTED');
  const code = err.codes[0];
  // RP06: the payer already has a request open in Swish (another shop's, or ours).
  if (code === 'RP06') return conflict('PAYMENT_RP06');
  return badRequest(paymentErrorMessageCode(code), {}, code === 'BE18' ? [{ field: 'body.payerAlias', problem: 'mobileNumber' }] : undefined);
}

/**
 * The one code path for what the provider says of a payment (callback, status check, cancel).
 * Changes our rows only when the payment is still open and the provider's status is final (or
 * created → pending); a second, late or concurrent answer finds it settled and changes nothing.
 * Returns true when this call applied it.
 */
export async function applyState(deps: PaymentDeps, payment: PaymentRow, state: PaymentState, log?: FastifyBaseLogger): Promise<boolean> {
  const now = deps.services.now();
  if (state.instructionId !== payment.instruction_id) return false;
  if (state.status === 'pending') {
    if (payment.status !== 'created') return false;
    await markPending(deps.db, payment.id, payment.swish_token, payment.swish_location, now);
    return true;
  }
  // Paid for another amount than ours is not our payment: never issue vouchers for it.
  if (state.status === 'paid' && state.amount !== null && state.amount !== payment.amount) {
    log?.error({ paymentId: payment.id }, 'the provider reports another amount paid than ours: nothing applied');
    return false;
  }
  // Tests only (GREETIE_TEST_CRASH_AT): die as if killed between the provider's PAID and our write.
  if (state.status === 'paid') crashPoint('payment.paid');
  let missingCodes = 0;
  const applied = await transaction(deps.db, async (tx) => {
    const greetie = await lockGreetie(tx, payment.greetie_id);
    if (!greetie) return false;
    const settled = await settleOpen(tx, payment.id, state.status, state.status === 'paid' ? null : state.errorCode, now);
    if (!settled) return false;
    if (state.status === 'paid') {
      await issueVouchers(tx, payment.greetie_id, now);
      missingCodes = await takeCodes(tx, payment.id, payment.greetie_id, now);
      await setGreetieStatus(tx, payment.greetie_id, 'awaitingPayment', 'scheduled', now);
      // Its delivery (row and job) commits with it: paid is never left undelivered (server/delivery).
      await scheduleDelivery(tx, deps, payment.greetie_id);
    } else {
      await releaseCodes(tx, payment.id, now);
      await setGreetieStatus(tx, payment.greetie_id, 'awaitingPayment', 'draft', now);
    }
    // The sender hears how it went, in the same transaction (server/notification); a request
    // cancelled (a new payer, the greetie deleted) was the sender's own doing: no notification.
    if (state.status !== 'cancelled') await notifyPayment(tx, deps, { greetieId: payment.greetie_id, paymentId: payment.id, paid: state.status === 'paid' });
    return true;
  });
  if (missingCodes > 0) log?.error({ paymentId: payment.id, missingCodes }, 'paid Code vouchers without a code: load codes for their products');
  if (!applied && state.status === 'paid') {
    const current = await paymentById(deps.db, payment.id);
    // Paid at the provider after we ended it (expired, cancelled): money taken for nothing issued.
    if (current && current.status !== 'paid') {
      log?.error({ paymentId: payment.id, status: current.status }, 'the provider reports PAID for a payment that had ended: refund it');
    }
  }
  return applied;
}

/** Asks the provider and applies its answer; a provider that cannot answer leaves everything as it is. */
export async function refresh(deps: PaymentDeps, payment: PaymentRow, log?: FastifyBaseLogger): Promise<boolean> {
  try {
    return await applyState(deps, payment, await deps.services.payments.status(payment.instruction_id), log);
  } catch (err) {
    if (!(err instanceof PaymentError)) throw err;
    log?.warn({ err, paymentId: payment.id }, 'payment status not confirmed');
    return false;
  }
}

/**
 * Cancels the greetie's open payment with the provider and applies the answer (a payment paid
 * meanwhile is applied as paid). A request the provider never got (notFound) is cancelled here.
 */
export async function cancelOpenPayment(deps: PaymentDeps, greetieId: string): Promise<PaymentRow | undefined> {
  const open = await openPayment(deps.db, greetieId);
  if (!open) return undefined;
  let state: PaymentState;
  try {
    state = await deps.services.payments.cancel(open.instruction_id);
  } catch (err) {
    if (!(err instanceof PaymentError)) throw err;
    if (err.kind !== 'notFound') throw httpErrorOf(err);
    state = { instructionId: open.instruction_id, status: 'cancelled', providerStatus: 'CANCELLED', errorCode: null, paymentReference: null, amount: null, datePaid: null };
  }
  await applyState(deps, open, state);
  return paymentById(deps.db, open.id);
}

/**
 * An open payment older than the provider's expiry (./reconcile.ts): cancelled with the provider
 * and ended as `expired` (TM01, as Swish says of a request nobody answered). Through the same
 * `applyState`: a request paid meanwhile is applied as paid, one the payer ended as the provider
 * says; a provider that cannot answer leaves it open, to be tried again. Returns true when applied.
 */
export async function expirePayment(deps: PaymentDeps, payment: PaymentRow, log?: FastifyBaseLogger): Promise<boolean> {
  let state: PaymentState;
  try {
    state = await deps.services.payments.cancel(payment.instruction_id);
  } catch (err) {
    if (!(err instanceof PaymentError)) throw err;
    if (err.kind !== 'notFound') {
      log?.warn({ err, paymentId: payment.id }, 'payment not expired: the provider did not answer');
      return false;
    }
    // The provider never got it (a create that never arrived): nothing to cancel there.
    state = { instructionId: payment.instruction_id, status: 'cancelled', providerStatus: 'CANCELLED', errorCode: null, paymentReference: null, amount: null, datePaid: null };
  }
  if (state.status === 'cancelled' && state.providerStatus === 'CANCELLED') state = { ...state, status: 'expired', errorCode: 'TM01' };
  return applyState(deps, payment, state, log);
}

/**
 * The withdrawal consent (decision 097): a greetie with gifts is paid for only once the buyer has
 * confirmed, at review, that delivery starts at once and that the right of withdrawal ends when
 * the recipient opens it or uses a gift. 400 CONSENT_REQUIRED otherwise, before anything is written.
 */
function requireConsent(body: StartPayment): void {
  if (body.withdrawalConsent !== true) {
    throw badRequest('CONSENT_REQUIRED', {}, [{ field: 'body.withdrawalConsent', problem: 'required' }]);
  }
}

/** POST /greetie/{id}/startpayment. */
export async function startPayment(deps: PaymentDeps, userId: string, greetieId: string, body: StartPayment): Promise<Payment> {
  let payerAlias: string | null = null;
  if (body.payerAlias !== undefined) {
    payerAlias = normaliseSwedishMobile(body.payerAlias);
    if (!payerAlias || !/^\+467\d{8}$/.test(payerAlias)) {
      throw badRequest('INVALID_MOBILE_NUMBER', {}, [{ field: 'body.payerAlias', problem: 'mobileNumber' }]);
    }
  }

  // An open payment for another payer is cancelled first (at most twice round: a concurrent
  // start may have opened another one meanwhile).
  for (let attempt = 0; attempt < 3; attempt++) {
    const step = await transaction(deps.db, async (tx) => {
      const g = await lockOwnGreetie(tx, greetieId, userId);
      if (!g) throw notFound('GREETIE_NOT_FOUND');
      const now = deps.services.now();
      if (g.status === 'awaitingPayment') {
        // Awaiting payment, it has gifts: each request asks for the consent, the same payment's too.
        requireConsent(body);
        const open = await openPayment(tx, greetieId);
        // The same payer: the same payment; except an m-commerce one the provider gave no token
        // (a retried create found it made already), which the payer could not open: a new one.
        const usable = open && open.payer_alias === payerAlias && (payerAlias !== null || open.swish_token !== null || open.status === 'created');
        if (open && usable) return { kind: 'existing' as const, payment: open, recipientName: g.recipient_name };
        if (open) return { kind: 'cancel' as const };
        // Awaiting payment without an open one: nothing to wait for (cannot happen through the
        // rules here, but a draft again is the safe reading).
        await setGreetieStatus(tx, greetieId, 'awaitingPayment', 'draft', now);
      } else if (g.status !== 'draft') {
        throw conflict('GREETIE_NOT_PAYABLE');
      }
      const gifts = await giftsOf(tx, [greetieId]);
      if (gifts.length === 0) throw conflict('GREETIE_NO_GIFTS');
      requireConsent(body);
      if (!g.recipient_number) throw badRequest('GREETIE_NO_RECIPIENT', {}, [{ field: 'recipient', problem: 'required' }]);
      await requireSenderName(tx, userId);
      // The sending limits, before money moves: 429 and nothing written (server/delivery).
      await checkSendLimits(tx, deps, { senderId: userId, recipientNumber: g.recipient_number, greetieId });
      const priced = await priceGifts(tx, gifts.map((gift) => ({ productId: gift.product_id, amount: gift.amount })));
      if (priced.total !== g.total) await setGreetieTotal(tx, greetieId, priced.total, now);
      await setGreetieStatus(tx, greetieId, 'draft', 'awaitingPayment', now);
      const payment = await insertPayment(tx, {
        greetieId,
        provider: deps.services.payments.name,
        amount: priced.total,
        instructionId: newInstructionId(),
        payerAlias,
        consent: { at: now, termsVersion: TERMS_VERSION },
        now,
      });
      // One code per Code gift set aside for this payment, or 409 and nothing written. Last before
      // the commit: the pool's counter row stays locked from here until then.
      const needs = codesNeeded(gifts);
      if (needs.size > 0) await reserveCodes(tx, payment.id, needs, now);
      return { kind: 'new' as const, payment, recipientName: g.recipient_name };
    });

    if (step.kind === 'cancel') {
      const cancelled = await cancelOpenPayment(deps, greetieId);
      if (cancelled?.status === 'paid') throw conflict('GREETIE_NOT_PAYABLE');
      continue;
    }
    const payment = step.payment;
    if (payment.status === 'pending') return toPayment(deps.config, payment);
    return toPayment(deps.config, await createAtProvider(deps, payment, step.recipientName));
  }
  throw conflict('PAYMENT_BUSY');
}

/**
 * The Swish message (payee message) the payer sees in the app: the order number first, so it is
 * never cut, then who it is for (Swish's characters, at most 50).
 */
export function paymentMessage(orderNumber: string, recipientName: string | null): string {
  return swishMessage(`Greetie ${orderNumber} till ${recipientName ?? 'en vän'}`) || `Greetie ${orderNumber}`;
}

/**
 * Asks the provider to create the request of a `created` payment (again, after a timeout: the same
 * instruction id is the same request). A refusal ends the payment (error, the greetie a draft
 * again); no answer leaves it created, to be retried by the next startpayment.
 */
async function createAtProvider(deps: PaymentDeps, payment: PaymentRow, recipientName: string | null): Promise<PaymentRow> {
  const message = paymentMessage(payment.order_number, recipientName);
  let pending: PaymentRow | undefined;
  try {
    const created = await deps.services.payments.create({
      instructionId: payment.instruction_id,
      amount: payment.amount,
      reference: payment.greetie_id.replaceAll('-', ''),
      message,
      ...(payment.payer_alias ? { payerAlias: payment.payer_alias } : {}),
    });
    pending = await markPending(deps.db, payment.id, created.token, created.location, deps.services.now());
  } catch (err) {
    if (!(err instanceof PaymentError)) throw err;
    if (err.kind !== 'unavailable') {
      const now = deps.services.now();
      await transaction(deps.db, async (tx) => {
        await lockGreetie(tx, payment.greetie_id);
        if (await settleOpen(tx, payment.id, 'error', err.codes[0] ?? null, now)) {
          await releaseCodes(tx, payment.id, now);
          await setGreetieStatus(tx, payment.greetie_id, 'awaitingPayment', 'draft', now);
        }
      });
    }
    throw httpErrorOf(err);
  }
  // Settled meanwhile (a callback, a cancel): read it as it is now.
  return pending ?? (await paymentById(deps.db, payment.id))!;
}

/** GET /greetie/{id}/payment: the latest payment; an open one older than a moment is checked with the provider. */
export async function paymentOf(deps: PaymentDeps, userId: string, greetieId: string, log?: FastifyBaseLogger): Promise<Payment> {
  const greetie = await findGreetie(deps.db, greetieId);
  if (!greetie || greetie.sender_id !== userId) throw notFound('GREETIE_NOT_FOUND');
  let payment = await latestPayment(deps.db, greetieId);
  if (!payment) throw notFound('PAYMENT_NOT_FOUND');
  const age = deps.services.now().getTime() - payment.updated_at.getTime();
  if ((payment.status === 'pending' || payment.status === 'created') && age >= STATUS_CHECK_AFTER_MS) {
    await refresh(deps, payment, log);
    payment = (await paymentById(deps.db, payment.id)) ?? payment;
  }
  return toPayment(deps.config, payment, payment.status === 'paid' ? await refundOfPayment(deps.db, payment.id) : null);
}

/**
 * POST /greetie/paymentCallBack: the body names a payment request; only the provider's own answer
 * to `status` is acted on. An unknown id, or a provider that cannot be asked, changes nothing.
 */
export async function paymentCallback(deps: PaymentDeps, instructionId: string, log?: FastifyBaseLogger): Promise<void> {
  if (!INSTRUCTION_ID.test(instructionId)) return;
  const payment = await paymentByInstruction(deps.db, instructionId);
  if (!payment) {
    log?.warn({ instructionId }, 'payment callback for an unknown payment');
    return;
  }
  await refresh(deps, payment, log);
}

/** The payment a sandbox route names, or 404. */
export async function paymentForSandbox(deps: Pick<Deps, 'db'>, paymentId: string): Promise<PaymentRow> {
  const payment = await paymentById(deps.db, paymentId);
  if (!payment) throw notFound('PAYMENT_NOT_FOUND');
  return payment;
}

/**
 * DELETE /greetie/{id} of a greetie awaiting payment: its open payment is cancelled with the
 * provider first (a payment paid meanwhile is applied as paid, so the delete then answers 409).
 * Anybody else's greetie is left alone (the delete answers 404).
 */
export async function cancelBeforeDelete(deps: PaymentDeps, userId: string, greetieId: string): Promise<void> {
  const greetie = await findGreetie(deps.db, greetieId);
  if (!greetie || greetie.sender_id !== userId || greetie.status !== 'awaitingPayment') return;
  await cancelOpenPayment(deps, greetieId);
}

/** What greetie's delete needs from payment, handed to greetieRoutes from above (server/routes.ts). */
export const greetiePayments: GreetiePayments = {
  cancelBeforeDelete,
  isOpen: async (tx, greetieId) => (await openPayment(tx, greetieId)) !== undefined,
};
