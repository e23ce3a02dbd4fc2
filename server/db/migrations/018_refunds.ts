import { sql, type Kysely } from 'kysely';
import { NOTIFICATION_TYPES as TYPES_011 } from './011_notification.ts';

/**
 * Cancelling a greetie and the money back (decision 085).
 *
 * - `greetie.status` may be `cancelled`, with `cancelled_at`: its link answers 404, its vouchers
 *   are void, its delivery row (if still pending) is `cancelled` so no worker claims it.
 * - `refund`: our record of giving a payment's money back. At most one per payment (unique
 *   payment_id), written with its instruction id (Swish's instructionUUID, our idempotency key)
 *   BEFORE the provider is asked: a crash between the provider's answer and our write leaves a row
 *   that names the request, and the reconciliation asks again with the same id. `created`: not yet
 *   accepted by the provider; `pending`: the provider has it; `paid`; `error` (retried as the same
 *   refund by the reconciliation).
 * - `sandbox_refund`: the sandbox provider's side, kept in Swish's terms (CREATED, PAID, ERROR).
 * - `notification.type` may also be `refunded` (the sender told of an unclaimed greetie's refund).
 */
export const NOTIFICATION_TYPES = [...TYPES_011, 'refunded'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE greetie DROP CONSTRAINT IF EXISTS greetie_status_check`.execute(db);
  await sql`
    ALTER TABLE greetie ADD CONSTRAINT greetie_status_check
      CHECK (status IN ('draft', 'awaitingPayment', 'scheduled', 'delivered', 'deliveryFailed', 'cancelled'))`.execute(db);
  await sql`ALTER TABLE greetie ADD COLUMN cancelled_at timestamptz`.execute(db);
  await sql`ALTER TABLE greetie ADD CONSTRAINT greetie_cancelled_at CHECK ((status = 'cancelled') = (cancelled_at IS NOT NULL))`.execute(db);
  // The unclaimed-refund sweep: delivered, not viewed, oldest delivery first.
  await sql`CREATE INDEX greetie_unopened_delivered ON greetie (delivered_at) WHERE status = 'delivered' AND viewed_at IS NULL`.execute(db);

  await sql`ALTER TABLE delivery DROP CONSTRAINT IF EXISTS delivery_state_check`.execute(db);
  await sql`ALTER TABLE delivery ADD CONSTRAINT delivery_state_check CHECK (state IN ('pending', 'sending', 'sent', 'failed', 'cancelled'))`.execute(db);

  await sql`ALTER TABLE notification DROP CONSTRAINT IF EXISTS notification_type_check`.execute(db);
  await sql`ALTER TABLE notification ADD CONSTRAINT notification_type_check CHECK (type IN (${sql.join(NOTIFICATION_TYPES.map((t) => sql.lit(t)))}))`.execute(db);

  await sql`
    CREATE TABLE refund (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      payment_id uuid NOT NULL REFERENCES payment (id) ON DELETE CASCADE,
      greetie_id uuid NOT NULL REFERENCES greetie (id) ON DELETE CASCADE,
      provider text NOT NULL CHECK (provider IN ('sandbox', 'swish')),
      status text NOT NULL DEFAULT 'created' CHECK (status IN ('created', 'pending', 'paid', 'error')),
      -- öre: the payment's whole amount.
      amount integer NOT NULL CHECK (amount > 0),
      instruction_id text NOT NULL CHECK (instruction_id ~ '^[0-9A-F]{32}$'),
      -- Swish's paymentReference of the payment refunded (asked of the provider before the create).
      original_payment_reference text CHECK (length(original_payment_reference) <= 64),
      error_code text CHECK (length(error_code) <= 20),
      -- Provider calls made for it (the first create and each retry).
      attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`.execute(db);
  // One refund per payment, whatever arrives twice.
  await sql`CREATE UNIQUE INDEX refund_one_per_payment ON refund (payment_id)`.execute(db);
  await sql`CREATE UNIQUE INDEX refund_instruction ON refund (instruction_id)`.execute(db);
  // The reconciliation: refunds not yet paid, oldest change first.
  await sql`CREATE INDEX refund_open ON refund (updated_at) WHERE status IN ('created', 'pending', 'error')`.execute(db);

  await sql`
    CREATE TABLE sandbox_refund (
      instruction_id text PRIMARY KEY CHECK (instruction_id ~ '^[0-9A-F]{32}$'),
      original_payment_reference text NOT NULL,
      payer_alias text NOT NULL,
      amount integer NOT NULL CHECK (amount > 0),
      message text NOT NULL CHECK (length(message) <= 50),
      callback_url text NOT NULL,
      status text NOT NULL DEFAULT 'CREATED' CHECK (status IN ('CREATED', 'PAID', 'ERROR')),
      error_code text,
      error_message text,
      payment_reference text,
      date_created timestamptz NOT NULL,
      date_paid timestamptz,
      updated_at timestamptz NOT NULL
    )`.execute(db);
  // Swish's RF08 check: refunds of one payment never exceed it.
  await sql`CREATE INDEX sandbox_refund_original ON sandbox_refund (original_payment_reference)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE sandbox_refund`.execute(db);
  await sql`DROP TABLE refund`.execute(db);
  await sql`DELETE FROM notification WHERE type = 'refunded'`.execute(db);
  await sql`ALTER TABLE notification DROP CONSTRAINT notification_type_check`.execute(db);
  await sql`ALTER TABLE notification ADD CONSTRAINT notification_type_check CHECK (type IN (${sql.join(TYPES_011.map((t) => sql.lit(t)))}))`.execute(db);
  await sql`DELETE FROM delivery WHERE state = 'cancelled'`.execute(db);
  await sql`ALTER TABLE delivery DROP CONSTRAINT delivery_state_check`.execute(db);
  await sql`ALTER TABLE delivery ADD CONSTRAINT delivery_state_check CHECK (state IN ('pending', 'sending', 'sent', 'failed'))`.execute(db);
  await sql`DROP INDEX greetie_unopened_delivered`.execute(db);
  await sql`ALTER TABLE greetie DROP CONSTRAINT greetie_cancelled_at`.execute(db);
  await sql`ALTER TABLE greetie DROP COLUMN cancelled_at`.execute(db);
  await sql`DELETE FROM greetie WHERE status = 'cancelled'`.execute(db);
  await sql`ALTER TABLE greetie DROP CONSTRAINT greetie_status_check`.execute(db);
  await sql`
    ALTER TABLE greetie ADD CONSTRAINT greetie_status_check
      CHECK (status IN ('draft', 'awaitingPayment', 'scheduled', 'delivered', 'deliveryFailed'))`.execute(db);
}
