import { sql, type Selectable } from 'kysely';
import type { Db, Tx } from '../db/index.ts';
import type { PaymentTable, RefundTable } from '../db/schema.ts';

/** Payments' and vouchers' SQL (migrations 005 and 007). */

type Executor = Db | Tx;
export type PaymentRow = Selectable<PaymentTable>;
export type PaymentStatus = PaymentRow['status'];
const OPEN: PaymentStatus[] = ['created', 'pending'];

export function paymentById(db: Executor, id: string): Promise<PaymentRow | undefined> {
  return db.selectFrom('payment').selectAll().where('id', '=', id).executeTakeFirst();
}

export function paymentByInstruction(db: Executor, instructionId: string): Promise<PaymentRow | undefined> {
  return db.selectFrom('payment').selectAll().where('instruction_id', '=', instructionId).executeTakeFirst();
}

/** The latest payment of a greetie (payment_greetie_created). */
export function latestPayment(db: Executor, greetieId: string): Promise<PaymentRow | undefined> {
  return db
    .selectFrom('payment')
    .selectAll()
    .where('greetie_id', '=', greetieId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** The greetie's open (created or pending) payment: at most one (payment_one_open). */
export function openPayment(db: Executor, greetieId: string): Promise<PaymentRow | undefined> {
  return db.selectFrom('payment').selectAll().where('greetie_id', '=', greetieId).where('status', 'in', OPEN).executeTakeFirst();
}

export async function insertPayment(
  tx: Tx,
  p: {
    greetieId: string;
    provider: 'sandbox' | 'swish';
    amount: number;
    instructionId: string;
    payerAlias: string | null;
    /** The withdrawal consent: when given and to which terms (migration 021), written with the row. */
    consent: { at: Date; termsVersion: string };
    now: Date;
  },
): Promise<PaymentRow> {
  return tx
    .insertInto('payment')
    .values({
      greetie_id: p.greetieId,
      provider: p.provider,
      amount: p.amount,
      instruction_id: p.instructionId,
      payer_alias: p.payerAlias,
      error_code: null,
      swish_token: null,
      swish_location: null,
      consented_at: p.consent.at,
      terms_version: p.consent.termsVersion,
      created_at: p.now,
      updated_at: p.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The provider has the request: created → pending, with its token and location. */
export function markPending(db: Executor, id: string, token: string | null, location: string | null, now: Date): Promise<PaymentRow | undefined> {
  return db
    .updateTable('payment')
    .set({ status: 'pending', swish_token: token, swish_location: location, updated_at: now })
    .where('id', '=', id)
    .where('status', 'in', OPEN)
    .returningAll()
    .executeTakeFirst();
}

/**
 * An open payment moves to `status`, once: the conditional UPDATE lets exactly one of any number
 * of concurrent callers through (the others get undefined).
 */
export function settleOpen(tx: Tx, id: string, status: PaymentStatus, errorCode: string | null, now: Date): Promise<PaymentRow | undefined> {
  return tx
    .updateTable('payment')
    .set({ status, error_code: errorCode, updated_at: now })
    .where('id', '=', id)
    .where('status', 'in', OPEN)
    .returningAll()
    .executeTakeFirst();
}

/** Locks the greetie row (the same order as every greetie change: greetie first, then payment). */
export function lockGreetie(tx: Tx, id: string) {
  return tx.selectFrom('greetie').select(['id', 'status']).where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function setGreetieStatus(tx: Tx, id: string, from: string, to: 'draft' | 'awaitingPayment' | 'scheduled', now: Date): Promise<void> {
  await tx
    .updateTable('greetie')
    .set({ status: to, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', from as 'draft')
    .execute();
}

export async function setGreetieTotal(tx: Tx, id: string, total: number, now: Date): Promise<void> {
  await tx.updateTable('greetie').set({ total, updated_at: now }).where('id', '=', id).execute();
}

/** One voucher per gift of the greetie; a gift that already has one is left as it is. */
export async function issueVouchers(tx: Tx, greetieId: string, now: Date): Promise<number> {
  const result = await sql`
    INSERT INTO voucher (greetie_id, gift_id, merchant_id, product_id, source, amount, created_at)
    SELECT gg.greetie_id, gg.id, p.merchant_id, p.id, p.source, gg.amount, ${now}
      FROM greetie_gift gg JOIN product p ON p.id = gg.product_id
     WHERE gg.greetie_id = ${greetieId}
     ORDER BY gg.position
    ON CONFLICT (gift_id) DO NOTHING`.execute(tx);
  return Number(result.numAffectedRows ?? 0);
}

/** GET /sandbox/payments: the sandbox's pending payments, newest first. */
export function pendingSandboxPayments(db: Executor, limit = 100): Promise<PaymentRow[]> {
  return db
    .selectFrom('payment')
    .selectAll()
    .where('provider', '=', 'sandbox')
    .where('status', '=', 'pending')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

// ---- Refunds (migration 018, server/payment/refunds.ts) ----

export type RefundRow = Selectable<RefundTable>;

export function refundById(db: Executor, id: string): Promise<RefundRow | undefined> {
  return db.selectFrom('refund').selectAll().where('id', '=', id).executeTakeFirst();
}

export function refundByInstruction(db: Executor, instructionId: string): Promise<RefundRow | undefined> {
  return db.selectFrom('refund').selectAll().where('instruction_id', '=', instructionId).executeTakeFirst();
}

export function refundOfPayment(db: Executor, paymentId: string): Promise<RefundRow | undefined> {
  return db.selectFrom('refund').selectAll().where('payment_id', '=', paymentId).executeTakeFirst();
}

/** The greetie to cancel, locked (greetie first: the order every greetie change takes). */
export function lockGreetieForCancel(tx: Tx, id: string) {
  return tx
    .selectFrom('greetie')
    .select(['id', 'status', 'sender_id', 'viewed_at', 'delivered_at'])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

/**
 * Whether any voucher of the greetie has been used: any part of its balance taken (an undone
 * redemption gives it back) or given to a charity. The rows are locked (FOR UPDATE reads the latest
 * committed balance), so a redeem waiting on a voucher's lock runs after the cancel and finds the
 * greetie cancelled.
 */
export async function anyVoucherUsed(db: Executor, greetieId: string): Promise<boolean> {
  const rows = await db
    .selectFrom('voucher')
    .select(['id', 'balance', 'amount', 'donated_at'])
    .where('greetie_id', '=', greetieId)
    .orderBy('id')
    .forUpdate()
    .execute();
  return rows.some((r) => r.balance < r.amount || r.donated_at !== null);
}

/** scheduled or delivered → cancelled, once; its delivery, if not yet claimed, will never be. */
export async function markCancelled(tx: Tx, greetieId: string, now: Date): Promise<boolean> {
  const result = await tx
    .updateTable('greetie')
    .set({ status: 'cancelled', cancelled_at: now, updated_at: now })
    .where('id', '=', greetieId)
    .where('status', 'in', ['scheduled', 'delivered'])
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return false;
  await tx
    .updateTable('delivery')
    .set({ state: 'cancelled', updated_at: now, sms_to: null, sms_body: null })
    .where('greetie_id', '=', greetieId)
    .where('state', '=', 'pending')
    .execute();
  return true;
}

/** The greetie's paid payment (at most one: a paid payment ends the greetie's payments). */
export function paidPayment(db: Executor, greetieId: string): Promise<PaymentRow | undefined> {
  return db.selectFrom('payment').selectAll().where('greetie_id', '=', greetieId).where('status', '=', 'paid').orderBy('created_at', 'desc').limit(1).executeTakeFirst();
}

/** The payment's one refund, written before the provider is asked; undefined when it has one already. */
export function insertRefund(
  tx: Tx,
  r: { paymentId: string; greetieId: string; provider: 'sandbox' | 'swish'; amount: number; instructionId: string; now: Date },
): Promise<RefundRow | undefined> {
  return tx
    .insertInto('refund')
    .values({
      payment_id: r.paymentId,
      greetie_id: r.greetieId,
      provider: r.provider,
      amount: r.amount,
      instruction_id: r.instructionId,
      created_at: r.now,
      updated_at: r.now,
    })
    .onConflict((oc) => oc.column('payment_id').doNothing())
    .returningAll()
    .executeTakeFirst();
}

/** One more provider call for it, counted before the call. */
export async function countRefundAttempt(db: Executor, id: string, reference: string | null, now: Date): Promise<void> {
  await db
    .updateTable('refund')
    .set((eb) => ({ attempts: eb('attempts', '+', 1), ...(reference ? { original_payment_reference: reference } : {}), updated_at: now }))
    .where('id', '=', id)
    .execute();
}

/**
 * The refund moves to `to`, once: only from the statuses a provider's answer may move it from
 * (never from paid). Undefined when another caller moved it first.
 */
export function moveRefund(db: Executor, id: string, from: RefundRow['status'][], to: RefundRow['status'], errorCode: string | null, now: Date): Promise<RefundRow | undefined> {
  return db
    .updateTable('refund')
    .set({ status: to, error_code: errorCode, updated_at: now })
    .where('id', '=', id)
    .where('status', 'in', from)
    .returningAll()
    .executeTakeFirst();
}

/** Refunds the reconciliation looks at: created or pending since `before`, error since `errorBefore`. */
export function refundsToReconcile(db: Executor, before: Date, errorBefore: Date, limit = 200): Promise<RefundRow[]> {
  return db
    .selectFrom('refund')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb.and([eb('status', 'in', ['created', 'pending']), eb('updated_at', '<=', before)]),
        eb.and([eb('status', '=', 'error'), eb('updated_at', '<=', errorBefore)]),
      ]),
    )
    .orderBy('updated_at')
    .limit(limit)
    .execute();
}

/** GET /sandbox/refunds: the sandbox's refunds not yet settled, newest first. */
export function pendingSandboxRefunds(db: Executor, limit = 100): Promise<RefundRow[]> {
  return db
    .selectFrom('refund')
    .selectAll()
    .where('provider', '=', 'sandbox')
    .where('status', 'in', ['created', 'pending'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/**
 * Paid greeties delivered before `deliveredBefore`, still unopened, none of their vouchers used:
 * the unclaimed-refund sweep's candidates (each checked again under its lock).
 */
export async function unclaimedGreeties(db: Executor, deliveredBefore: Date, limit = 100): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`
    SELECT g.id FROM greetie g
     WHERE g.status = 'delivered' AND g.viewed_at IS NULL AND g.delivered_at <= ${deliveredBefore}
       AND EXISTS (SELECT 1 FROM payment p WHERE p.greetie_id = g.id AND p.status = 'paid')
       AND NOT EXISTS (SELECT 1 FROM voucher v WHERE v.greetie_id = g.id AND (v.balance < v.amount OR v.donated_at IS NOT NULL))
     ORDER BY g.delivered_at
     LIMIT ${limit}`.execute(db);
  return rows.map((r) => r.id);
}
