import { sql, type Selectable } from 'kysely';
import type { Db, Tx } from '../db/index.ts';
import type { PaymentTable } from '../db/schema.ts';

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
  p: { greetieId: string; provider: 'sandbox' | 'swish'; amount: number; instructionId: string; payerAlias: string | null; now: Date },
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
