import { randomBytes } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { SandboxPaymentRequestTable, SandboxRefundTable } from '../../db/schema.ts';
import {
  INSTRUCTION_ID,
  PaymentError,
  kronorString,
  swishMessage,
  swishPayerAlias,
  type CreatePaymentRequest,
  type CreateRefundRequest,
  type CreatedPaymentRequest,
  type PaymentProvider,
  type PaymentState,
  type RefundState,
} from './provider.ts';
import { refundStateFromSwish, stateFromSwish, type SwishPaymentRequest, type SwishRefund } from './swish.ts';

/**
 * The sandbox payment provider: Swish's protocol played in-process. A create keeps a payment
 * request in PostgreSQL (sandbox_payment_request) with Swish's status CREATED, a token for the
 * m-commerce flow, and Swish's refusals (FF08, RP02, BE18, RP06 when the payer already has a
 * pending request, RP09 for an instruction id used for another request). Nothing settles it by
 * itself: a person does, on /sandbox (POST /api/sandbox/payments/{paymentId}), through `settle`,
 * which changes what `status` reports and returns the callback body Swish would send.
 */
export type SandboxOutcome = 'paid' | 'declined' | 'error' | 'cancelled' | 'timeout';

export interface SandboxPaymentProvider extends PaymentProvider {
  readonly name: 'sandbox';
  /**
   * Settles a pending request as the payer would in Swish, once: the answer is the callback body
   * Swish would send to the request's callbackUrl. Null when the request is no longer pending
   * (settled, cancelled); PaymentError notFound when there is no such request.
   */
  settle(instructionId: string, outcome: SandboxOutcome): Promise<SwishPaymentRequest | null>;
  /** The requests still pending, newest first (GET /sandbox/payments). */
  pending(limit?: number): Promise<SwishPaymentRequest[]>;
  /**
   * Settles a pending refund as Swish would, once: the answer is the callback body Swish would
   * send. Null when it is no longer pending; PaymentError notFound when there is no such refund.
   */
  settleRefund(instructionId: string, outcome: SandboxRefundOutcome): Promise<SwishRefund | null>;
}

export type SandboxRefundOutcome = 'paid' | 'error';

/** What each outcome leaves, in Swish's terms (mapped to ours by mapSwishStatus). */
const SETTLED: Record<SandboxOutcome, { status: 'PAID' | 'DECLINED' | 'ERROR'; errorCode: string | null; errorMessage: string | null }> = {
  paid: { status: 'PAID', errorCode: null, errorMessage: null },
  declined: { status: 'DECLINED', errorCode: 'RF07', errorMessage: 'Transaction declined' },
  // The payer stopped in the app: Swish reports the BankID signing cancelled.
  cancelled: { status: 'ERROR', errorCode: 'BANKIDCL', errorMessage: 'Payer cancelled BankId signing' },
  error: { status: 'ERROR', errorCode: 'BANKIDUNKN', errorMessage: 'BankID are not able to authorize the payment' },
  timeout: { status: 'ERROR', errorCode: 'TM01', errorMessage: 'Swish timed out before the payment was started' },
};

type Row = Selectable<SandboxPaymentRequestTable>;

/** The row as Swish's JSON: amount a number of kronor, times ISO-8601 UTC. */
function toSwish(row: Row): SwishPaymentRequest {
  return {
    id: row.instruction_id,
    payeePaymentReference: row.payee_payment_reference,
    paymentReference: row.payment_reference,
    callbackUrl: row.callback_url,
    payerAlias: row.payer_alias,
    payeeAlias: row.payee_alias,
    amount: row.amount / 100,
    currency: 'SEK',
    message: row.message,
    status: row.status,
    dateCreated: row.date_created.toISOString(),
    datePaid: row.date_paid ? row.date_paid.toISOString() : null,
    errorCode: row.error_code,
    errorMessage: row.error_message,
  };
}

type RefundRow = Selectable<SandboxRefundTable>;

function refundToSwish(row: RefundRow): SwishRefund {
  return {
    id: row.instruction_id,
    originalPaymentReference: row.original_payment_reference,
    paymentReference: row.payment_reference,
    callbackUrl: row.callback_url,
    payerAlias: row.payer_alias,
    amount: row.amount / 100,
    currency: 'SEK',
    message: row.message,
    status: row.status,
    dateCreated: row.date_created.toISOString(),
    datePaid: row.date_paid ? row.date_paid.toISOString() : null,
    errorCode: row.error_code,
    errorMessage: row.error_message,
  };
}

/**
 * Refunds in the sandbox (Swish's protocol): a create checks the original payment is PAID at the
 * sandbox (RF02), that refunds never exceed it (RF08) and that an instruction id names one refund
 * (RP09). One difference from Swish, so a tester can walk the retry: a create again with the id of
 * a refund that ended ERROR opens it again (CREATED), as the same refund.
 */
export function createSandboxPayments(
  db: Db,
  opts: { now: () => Date; callbackUrl: string; payeeAlias: string; refundCallbackUrl?: string },
): SandboxPaymentProvider {
  const location = (id: string) => `sandbox:/api/v1/paymentrequests/${id}`;

  async function find(instructionId: string): Promise<Row | undefined> {
    return db.selectFrom('sandbox_payment_request').selectAll().where('instruction_id', '=', instructionId).executeTakeFirst();
  }

  function checkId(instructionId: string): void {
    if (!INSTRUCTION_ID.test(instructionId)) throw new PaymentError('invalid', 'the instruction id must be 32 upper-case hex digits', ['RP04']);
  }

  return {
    name: 'sandbox',

    async create(input: CreatePaymentRequest): Promise<CreatedPaymentRequest> {
      checkId(input.instructionId);
      if (!/^[A-Za-z0-9-]{1,35}$/.test(input.reference)) throw new PaymentError('invalid', 'payeePaymentReference must be 1–35 of A–Z, a–z, 0–9 and "-"', ['FF08']);
      if (input.message.length > 50 || swishMessage(input.message) !== input.message.trim()) {
        throw new PaymentError('invalid', 'the message must be at most 50 of the characters Swish allows', ['RP02']);
      }
      kronorString(input.amount);
      const payerAlias = input.payerAlias === undefined ? null : swishPayerAlias(input.payerAlias);
      const now = opts.now();
      const inserted = await db
        .insertInto('sandbox_payment_request')
        .values({
          instruction_id: input.instructionId,
          payee_alias: opts.payeeAlias,
          payer_alias: payerAlias,
          amount: input.amount,
          payee_payment_reference: input.reference,
          message: input.message,
          callback_url: opts.callbackUrl,
          token: payerAlias === null ? randomBytes(16).toString('hex') : null,
          date_created: now,
          updated_at: now,
        })
        // Either unique index: the same instruction id (a repeated PUT), or a payer who already
        // has a pending request (Swish's RP06).
        .onConflict((oc) => oc.doNothing())
        .returning(['instruction_id', 'token'])
        .executeTakeFirst();
      if (inserted) return { instructionId: inserted.instruction_id, location: location(inserted.instruction_id), token: inserted.token };

      const existing = await find(input.instructionId);
      if (existing) {
        // The same instruction id is the same request: answer as the first time, unless it was
        // used for a different one.
        if (existing.amount === input.amount && existing.payer_alias === payerAlias && existing.payee_payment_reference === input.reference) {
          return { instructionId: existing.instruction_id, location: location(existing.instruction_id), token: existing.token };
        }
        throw new PaymentError('invalid', 'the instruction id is already used for another payment request', ['RP09'], 422);
      }
      throw new PaymentError('invalid', 'the payer already has a pending payment request', ['RP06'], 422);
    },

    async status(instructionId: string): Promise<PaymentState> {
      checkId(instructionId);
      const row = await find(instructionId);
      if (!row) throw new PaymentError('notFound', 'the sandbox has no such payment request', [], 404);
      return stateFromSwish(toSwish(row));
    },

    async cancel(instructionId: string): Promise<PaymentState> {
      checkId(instructionId);
      const cancelled = await db
        .updateTable('sandbox_payment_request')
        .set({ status: 'CANCELLED', updated_at: opts.now() })
        .where('instruction_id', '=', instructionId)
        .where('status', '=', 'CREATED')
        .returningAll()
        .executeTakeFirst();
      const row = cancelled ?? (await find(instructionId));
      if (!row) throw new PaymentError('notFound', 'the sandbox has no such payment request', [], 404);
      return stateFromSwish(toSwish(row));
    },

    async settle(instructionId: string, outcome: SandboxOutcome): Promise<SwishPaymentRequest | null> {
      checkId(instructionId);
      const settled = SETTLED[outcome];
      if (!settled) throw new PaymentError('invalid', `unknown sandbox outcome "${String(outcome)}"`);
      const now = opts.now();
      // Once: only a pending request settles, whatever arrives twice or at the same time.
      const row = await db
        .updateTable('sandbox_payment_request')
        .set({
          status: settled.status,
          error_code: settled.errorCode,
          error_message: settled.errorMessage,
          payment_reference: outcome === 'paid' ? randomBytes(16).toString('hex').toUpperCase() : null,
          date_paid: outcome === 'paid' ? now : null,
          updated_at: now,
        })
        .where('instruction_id', '=', instructionId)
        .where('status', '=', 'CREATED')
        .returningAll()
        .executeTakeFirst();
      if (row) return toSwish(row);
      if (!(await find(instructionId))) throw new PaymentError('notFound', 'the sandbox has no such payment request', [], 404);
      return null;
    },

    async createRefund(input: CreateRefundRequest) {
      checkId(input.instructionId);
      if (!/^[A-Za-z0-9-]{1,35}$/.test(input.reference)) throw new PaymentError('invalid', 'payerPaymentReference must be 1–35 of A–Z, a–z, 0–9 and "-"', ['FF08']);
      if (input.message.length > 50 || swishMessage(input.message) !== input.message.trim()) {
        throw new PaymentError('invalid', 'the message must be at most 50 of the characters Swish allows', ['RP02']);
      }
      kronorString(input.amount);
      const location = `sandbox:/api/v1/refunds/${input.instructionId}`;
      const now = opts.now();
      const existing = await db.selectFrom('sandbox_refund').selectAll().where('instruction_id', '=', input.instructionId).executeTakeFirst();
      if (existing) {
        if (existing.amount !== input.amount || existing.original_payment_reference !== input.originalPaymentReference) {
          throw new PaymentError('invalid', 'the instruction id is already used for another refund', ['RP09'], 422);
        }
        // The sandbox's retry of a failed refund: the same refund, open again.
        await db
          .updateTable('sandbox_refund')
          .set({ status: 'CREATED', error_code: null, error_message: null, updated_at: now })
          .where('instruction_id', '=', input.instructionId)
          .where('status', '=', 'ERROR')
          .execute();
        return { instructionId: input.instructionId, location };
      }
      const original = await db
        .selectFrom('sandbox_payment_request')
        .select(['amount', 'status', 'payee_alias'])
        .where('payment_reference', '=', input.originalPaymentReference)
        .executeTakeFirst();
      if (!original || original.status !== 'PAID') throw new PaymentError('invalid', 'the original payment is not found or not paid', ['RF02'], 422);
      const refunded = await db
        .selectFrom('sandbox_refund')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), eb.lit(0)).as('total'))
        .where('original_payment_reference', '=', input.originalPaymentReference)
        .where('status', '<>', 'ERROR')
        .executeTakeFirstOrThrow();
      if (Number(refunded.total) + input.amount > original.amount) throw new PaymentError('invalid', 'the refunds would exceed the payment', ['RF08'], 422);
      await db
        .insertInto('sandbox_refund')
        .values({
          instruction_id: input.instructionId,
          original_payment_reference: input.originalPaymentReference,
          payer_alias: original.payee_alias,
          amount: input.amount,
          message: input.message,
          callback_url: opts.refundCallbackUrl ?? opts.callbackUrl,
          date_created: now,
          updated_at: now,
        })
        .onConflict((oc) => oc.doNothing())
        .execute();
      return { instructionId: input.instructionId, location };
    },

    async refundStatus(instructionId: string): Promise<RefundState> {
      checkId(instructionId);
      const row = await db.selectFrom('sandbox_refund').selectAll().where('instruction_id', '=', instructionId).executeTakeFirst();
      if (!row) throw new PaymentError('notFound', 'the sandbox has no such refund', [], 404);
      return refundStateFromSwish(refundToSwish(row));
    },

    async settleRefund(instructionId: string, outcome: SandboxRefundOutcome): Promise<SwishRefund | null> {
      checkId(instructionId);
      if (outcome !== 'paid' && outcome !== 'error') throw new PaymentError('invalid', `unknown sandbox outcome "${String(outcome)}"`);
      const now = opts.now();
      const row = await db
        .updateTable('sandbox_refund')
        .set({
          status: outcome === 'paid' ? 'PAID' : 'ERROR',
          error_code: outcome === 'paid' ? null : 'AM04',
          error_message: outcome === 'paid' ? null : 'Insufficient funds in account',
          payment_reference: outcome === 'paid' ? randomBytes(16).toString('hex').toUpperCase() : null,
          date_paid: outcome === 'paid' ? now : null,
          updated_at: now,
        })
        .where('instruction_id', '=', instructionId)
        .where('status', '=', 'CREATED')
        .returningAll()
        .executeTakeFirst();
      if (row) return refundToSwish(row);
      const found = await db.selectFrom('sandbox_refund').select('instruction_id').where('instruction_id', '=', instructionId).executeTakeFirst();
      if (!found) throw new PaymentError('notFound', 'the sandbox has no such refund', [], 404);
      return null;
    },

    async pending(limit = 100): Promise<SwishPaymentRequest[]> {
      const rows = await db
        .selectFrom('sandbox_payment_request')
        .selectAll()
        .where('status', '=', 'CREATED')
        .orderBy('date_created', 'desc')
        .orderBy('instruction_id', 'desc')
        .limit(limit)
        .execute();
      return rows.map(toSwish);
    },
  };
}
