import type { FastifyBaseLogger } from 'fastify';
import { transaction, type Tx } from '../db/index.ts';
import { HttpError } from '../errors.ts';
import type { Deps } from '../services.ts';
import { SmsError } from '../providers/sms/index.ts';
import { deliverySms, waitText } from './messages.ts';
import { notifyDelivered } from '../notification/rules.ts';
import {
  awaitingPayment,
  claim,
  deliveryRow,
  greetieToSchedule,
  insertDelivery,
  lockForFinish,
  lockSender,
  markFailed,
  markGreetieDelivered,
  markRetry,
  markSent,
  overduePending,
  scheduledSince,
  staleSending,
  storeClaimedSms,
  type Claimed,
  type StaleSending,
} from './queries.ts';

/**
 * Delivering a scheduled greetie by SMS (decision 081).
 *
 * - Scheduling (`scheduleDelivery`) happens in the transaction that makes the greetie scheduled
 *   (paid in server/payment applyState, or POST /send): the delivery row and its job commit with
 *   it, or neither does. Due at once, or at deliverAt when that is later.
 * - The job queue (pg-boss, queue.ts) wakes a worker in some process at the due time; it may run
 *   a job twice (at-least-once). What makes the SMS go out at most once is our row: `claim`
 *   switches it pending → sending in a committed conditional UPDATE *before* the provider is
 *   called; only the claim's holder finishes it (sent, and the greetie delivered with its vouchers'
 *   expiry, in one transaction; or back to pending with backoff; or failed after the last attempt,
 *   the greetie deliveryFailed).
 * - The SMS (number and exact text) is fixed in the claim's transaction and stored on the row
 *   (migration 016); that stored text is what is sent.
 * - A row left in sending (the worker's process died between the claim and the finish) is
 *   reconciled once it has been in sending for DELIVERY_LEASE_MS: the provider is asked whether
 *   the stored message went out (the sandbox outbox and 46elks's history can say; a gateway that
 *   cannot is taken at its word that it was called: delivered, with a warning), never against a
 *   text built again and never sent again blindly. Pending rows overdue (a job lost) are delivered
 *   by the same sweep.
 */

export type DeliveryDeps = Pick<Deps, 'db' | 'config'> & {
  services: Pick<Deps['services'], 'now' | 'sms' | 'delivery' | 'notifications'>;
  log?: FastifyBaseLogger;
};

/** A pending row this long past its time has lost its job (a worker delivers within about a second). */
export const OVERDUE_MS = 10_000;
/** A job may run this early (the database's clock and ours differ a little). */
const EARLY_MS = 1_000;

/**
 * In the caller's transaction, with the greetie locked and just made scheduled: its delivery row
 * and the job that runs it at max(now, deliverAt). Once per greetie (a second call does nothing).
 */
export async function scheduleDelivery(tx: Tx, deps: { services: Pick<Deps['services'], 'now' | 'delivery'> }, greetieId: string): Promise<void> {
  const now = deps.services.now();
  const g = await greetieToSchedule(tx, greetieId);
  if (!g || g.status !== 'scheduled' || !g.recipient_number) return;
  const dueAt = g.deliver_at && g.deliver_at.getTime() > now.getTime() ? g.deliver_at : now;
  const added = await insertDelivery(tx, { greetieId, senderId: g.sender_id, recipientNumber: g.recipient_number, dueAt, now });
  if (added) await deps.services.delivery.enqueue(tx, greetieId, dueAt);
}

// ---- Sending limits (decision 081) ----

const DAY_MS = 24 * 60 * 60_000;
/** A payment in progress settles or expires within minutes: ask again after this long. */
const PENDING_PAYMENT_WAIT_S = 300;

/**
 * Seconds until one more fits under `limit`, when `times` (oldest first) leave a sliding day and
 * `waiting` more (payments in progress) do not leave by time; 0 when it fits now.
 */
export function limitWait(times: Date[], waiting: number, limit: number, now: Date): number {
  const count = times.length + waiting;
  if (count < limit) return 0;
  const mustLeave = count - limit + 1;
  const freeing = times[mustLeave - 1];
  const byTime = freeing ? Math.max(1, Math.ceil((freeing.getTime() + DAY_MS - now.getTime()) / 1000)) : Infinity;
  // A payment in progress that ends unpaid frees its place within minutes.
  return waiting > 0 ? Math.min(byTime, PENDING_PAYMENT_WAIT_S) : byTime;
}

/**
 * At POST /send and POST /startpayment, before anything is changed: at most `limitPerDay`
 * greeties scheduled (or delivered) by a sender in 24 hours, and `limitPerRecipient` of them to
 * one number. Greeties waiting for their payment count too (a payment cannot be refused once made).
 * Runs in the caller's transaction under an advisory lock per sender, so concurrent requests
 * cannot all slip under the limit; 429 with Retry-After beyond.
 */
export async function checkSendLimits(
  tx: Tx,
  deps: Pick<Deps, 'config'> & { services: Pick<Deps['services'], 'now'> },
  sender: { senderId: string; recipientNumber: string; greetieId: string },
): Promise<void> {
  const now = deps.services.now();
  const { limitPerDay, limitPerRecipient } = deps.config.delivery;
  await lockSender(tx, sender.senderId);
  const scheduled = await scheduledSince(tx, sender.senderId, new Date(now.getTime() - DAY_MS));
  const waiting = await awaitingPayment(tx, sender.senderId, sender.greetieId);
  const perDay = limitWait(
    scheduled.map((s) => s.created_at),
    waiting.length,
    limitPerDay,
    now,
  );
  if (perDay > 0) throw limitError('SEND_LIMIT_PER_DAY', limitPerDay, perDay);
  const toNumber = (r: { recipient_number: string | null }) => r.recipient_number === sender.recipientNumber;
  const perRecipient = limitWait(
    scheduled.filter(toNumber).map((s) => s.created_at),
    waiting.filter(toNumber).length,
    limitPerRecipient,
    now,
  );
  if (perRecipient > 0) throw limitError('SEND_LIMIT_PER_RECIPIENT', limitPerRecipient, perRecipient);
}

function limitError(code: 'SEND_LIMIT_PER_DAY' | 'SEND_LIMIT_PER_RECIPIENT', limit: number, seconds: number): HttpError {
  const wait = waitText(seconds);
  return new HttpError(429, code, { limit, retryAfter: seconds, waitSv: wait.sv, waitEn: wait.en }, undefined, { 'retry-after': String(seconds) });
}

// ---- The worker's side ----

type ClaimedWithSms = Claimed & { sms_to: string; sms_body: string };

/**
 * pending → sending (when due by `dueBy`), with the SMS it sends fixed and stored on the row, in
 * one committed transaction before the provider is called. Undefined when there is nothing to claim.
 */
async function claimDelivery(deps: DeliveryDeps, greetieId: string, now: Date, dueBy: Date): Promise<Claimed | ClaimedWithSms | undefined> {
  return transaction(deps.db, async (tx) => {
    // The greetie first, as every change to both takes them: a correction of its recipient
    // (server/greetie/after.ts) either commits before (and the claim reads the new number and
    // reference) or waits for this claim and takes its row away.
    await lockForFinish(tx, greetieId);
    const claimed = await claim(tx, greetieId, now, dueBy);
    if (!claimed || claimed.status !== 'scheduled') return claimed;
    const sms = {
      to: claimed.recipient_number,
      body: deliverySms({ senderName: claimed.sender_name, hasGift: claimed.has_gift, publicUrl: deps.config.publicUrl, refId: claimed.ref_id }),
    };
    await storeClaimedSms(tx, greetieId, claimed.sending_since, sms);
    return { ...claimed, sms_to: sms.to, sms_body: sms.body };
  });
}

/** The wait before attempt n+1: DELIVERY_RETRY_MS doubled for each attempt made after the first. */
export function backoffMs(retryMs: number, attemptsMade: number): number {
  return retryMs * 2 ** Math.min(Math.max(attemptsMade - 1, 0), 16);
}

export type DeliveryOutcome = 'delivered' | 'retry' | 'failed' | 'skipped';

/**
 * Runs one delivery attempt for a greetie, if its row is pending and due (by `dueBy`, now by
 * default). Anything else (sent already, being sent elsewhere, not due) is 'skipped'.
 */
export async function deliverOne(deps: DeliveryDeps, greetieId: string, opts: { dueBy?: Date } = {}): Promise<DeliveryOutcome> {
  const now = deps.services.now();
  const claimed = await claimDelivery(deps, greetieId, now, opts.dueBy ?? new Date(now.getTime() + EARLY_MS));
  if (!claimed) {
    // A job that ran before its time (the clocks differ): run it again at its time.
    const row = await deliveryRow(deps.db, greetieId);
    if (row?.state === 'pending' && row.due_at.getTime() > now.getTime() + EARLY_MS) {
      await transaction(deps.db, (tx) => deps.services.delivery.enqueue(tx, greetieId, row.due_at));
    }
    return 'skipped';
  }
  if (claimed.status !== 'scheduled' || claimed.sms_to === null || claimed.sms_body === null) {
    // Cannot happen through our rules (only a scheduled greetie gets a row); never send for it.
    await transaction(deps.db, (tx) => markFailed(tx, greetieId, claimed.sending_since, 'notScheduled', deps.services.now()));
    return 'failed';
  }

  try {
    await deps.services.sms.send({ to: claimed.sms_to, body: claimed.sms_body });
  } catch (err) {
    const reason = err instanceof SmsError ? err.kind : 'error';
    deps.log?.warn({ err: err instanceof SmsError ? { kind: err.kind, status: err.status } : err, greetieId, attempt: claimed.attempts }, 'delivery SMS failed');
    return failedAttempt(deps, claimed, reason);
  }
  // If this write fails (the database went away), the row stays in sending and the reconciliation
  // finds the SMS in the provider's record.
  const done = await transaction(deps.db, async (tx) => {
    await lockForFinish(tx, greetieId);
    const finished = deps.services.now();
    if (!(await markSent(tx, greetieId, claimed.sending_since, finished))) return false;
    await markGreetieDelivered(tx, greetieId, finished, finished);
    await notifyDelivered(tx, deps, greetieId);
    return true;
  });
  return done ? 'delivered' : 'skipped';
}

/** After a failed send: back to pending with backoff (and its job), or failed after the last attempt. */
async function failedAttempt(deps: DeliveryDeps, claimed: StaleSending, reason: string): Promise<DeliveryOutcome> {
  const now = deps.services.now();
  return transaction(deps.db, async (tx) => {
    await lockForFinish(tx, claimed.greetie_id);
    if (claimed.attempts >= deps.config.delivery.attempts) {
      return (await markFailed(tx, claimed.greetie_id, claimed.sending_since, reason, now)) ? 'failed' : 'skipped';
    }
    const dueAt = new Date(now.getTime() + backoffMs(deps.config.delivery.retryMs, claimed.attempts));
    if (!(await markRetry(tx, claimed.greetie_id, claimed.sending_since, dueAt, reason, now))) return 'skipped';
    await deps.services.delivery.enqueue(tx, claimed.greetie_id, dueAt);
    return 'retry';
  });
}

/**
 * A row left in sending: ask the provider whether the SMS stored at the claim went out. Sent →
 * delivered (at the time of the claim); not sent → a new attempt (or failed, when that was the
 * last); the provider cannot tell, or the row has no stored SMS (claimed before migration 016) →
 * delivered, with a warning: the provider was called or about to be, and sending twice is what the
 * row exists to prevent. The text is never built again: the sender's name, the account or
 * PUBLIC_URL may have changed since, and a rebuilt text would not be found.
 */
async function resolveSending(deps: DeliveryDeps, row: StaleSending): Promise<DeliveryOutcome> {
  let sent: boolean | undefined;
  const stored = row.sms_to !== null && row.sms_body !== null ? { to: row.sms_to, body: row.sms_body } : undefined;
  if (stored && deps.services.sms.confirmSent) {
    try {
      sent = await deps.services.sms.confirmSent(stored);
    } catch (err) {
      deps.log?.warn({ err, greetieId: row.greetie_id }, 'delivery: the SMS provider could not say whether it sent; asking again later');
      return 'skipped';
    }
  }
  if (sent === false) return failedAttempt(deps, row, 'interrupted');
  if (sent === undefined) {
    deps.log?.warn({ greetieId: row.greetie_id, storedSms: stored !== undefined }, 'delivery: SMS outcome unknown after an interrupted send; taken as delivered');
  }
  const now = deps.services.now();
  return transaction(deps.db, async (tx) => {
    await lockForFinish(tx, row.greetie_id);
    if (!(await markSent(tx, row.greetie_id, row.sending_since, now))) return 'skipped' as const;
    await markGreetieDelivered(tx, row.greetie_id, row.sending_since, now);
    await notifyDelivered(tx, deps, row.greetie_id);
    return 'delivered' as const;
  });
}

/**
 * The sweep (at start-up and every DELIVERY_RECONCILE_MS): rows in sending for longer than
 * DELIVERY_LEASE_MS, then pending rows whose job was lost. Safe in every process at once: each
 * change is conditional. A crashed worker's claim is thus resolved between one lease and one lease
 * plus one reconcile interval after it was made.
 */
export async function reconcile(deps: DeliveryDeps): Promise<{ resolved: number; delivered: number }> {
  const now = deps.services.now();
  let resolved = 0;
  for (const row of await staleSending(deps.db, new Date(now.getTime() - deps.config.delivery.leaseMs))) {
    if ((await resolveSending(deps, row)) !== 'skipped') resolved++;
  }
  let delivered = 0;
  for (const id of await overduePending(deps.db, new Date(now.getTime() - OVERDUE_MS))) {
    if ((await deliverOne(deps, id, { dueBy: now })) === 'delivered') delivered++;
  }
  return { resolved, delivered };
}
