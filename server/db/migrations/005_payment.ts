import { sql, type Kysely } from 'kysely';

/**
 * Payments (decision 080).
 *
 * `payment`: our record of one attempt to pay for a greetie (API.md's Payment). The row is written
 * with status `created` and its instruction id before the provider is asked, so a crash between
 * the two leaves a row that names the request (the instruction id is the provider's idempotency
 * key: asking again with it is the same request). At most one payment per greetie is open
 * (created or pending) at a time.
 *
 * `sandbox_payment_request`: the sandbox provider's side, kept like Swish keeps its payment
 * requests (Swish's statuses and error codes), so the sandbox answers as Swish would and every
 * API process sees the same requests.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE payment (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      greetie_id uuid NOT NULL REFERENCES greetie (id) ON DELETE CASCADE,
      provider text NOT NULL CHECK (provider IN ('sandbox', 'swish')),
      status text NOT NULL DEFAULT 'created'
        CHECK (status IN ('created', 'pending', 'paid', 'declined', 'error', 'cancelled', 'expired')),
      -- öre, fixed when the payment starts (the greetie's total, recomputed).
      amount integer NOT NULL CHECK (amount > 0),
      -- Swish's instructionUUID: 32 upper-case hex digits, chosen by us.
      instruction_id text NOT NULL CHECK (instruction_id ~ '^[0-9A-F]{32}$'),
      -- E.164, for the e-commerce flow; NULL for m-commerce (token and QR code).
      payer_alias text CHECK (payer_alias ~ '^\\+[1-9][0-9]{6,14}$'),
      -- The provider's error code (RF07, BANKIDCL, TM01, RP06, …).
      error_code text CHECK (length(error_code) <= 20),
      -- The m-commerce PaymentRequestToken and the request's Location at the provider.
      swish_token text CHECK (length(swish_token) <= 200),
      swish_location text CHECK (length(swish_location) <= 500),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  // The callback finds its payment by the instruction id.
  await sql`CREATE UNIQUE INDEX payment_instruction ON payment (instruction_id)`.execute(db);
  // GET /greetie/{id}/payment: the latest payment of a greetie.
  await sql`CREATE INDEX payment_greetie_created ON payment (greetie_id, created_at DESC, id DESC)`.execute(db);
  // startpayment again while one is open returns it; two concurrent starts cannot both open one.
  await sql`CREATE UNIQUE INDEX payment_one_open ON payment (greetie_id) WHERE status IN ('created', 'pending')`.execute(db);
  // Start-up and the status check reconcile open payments, oldest first.
  await sql`CREATE INDEX payment_open_created ON payment (created_at) WHERE status IN ('created', 'pending')`.execute(db);

  await sql`
    CREATE TABLE sandbox_payment_request (
      instruction_id text PRIMARY KEY CHECK (instruction_id ~ '^[0-9A-F]{32}$'),
      payee_alias text NOT NULL,
      -- Swish's alias form: 46… without "+"; NULL for m-commerce.
      payer_alias text CHECK (payer_alias ~ '^[1-9][0-9]{6,14}$'),
      amount integer NOT NULL CHECK (amount > 0),
      payee_payment_reference text NOT NULL CHECK (length(payee_payment_reference) <= 35),
      message text NOT NULL CHECK (length(message) <= 50),
      callback_url text NOT NULL,
      token text UNIQUE,
      status text NOT NULL DEFAULT 'CREATED' CHECK (status IN ('CREATED', 'PAID', 'DECLINED', 'ERROR', 'CANCELLED')),
      error_code text,
      error_message text,
      payment_reference text,
      date_created timestamptz NOT NULL,
      date_paid timestamptz,
      updated_at timestamptz NOT NULL
    )`.execute(db);
  // GET /sandbox/payments: the pending ones, newest first; and RP06 (one pending request per payer).
  await sql`CREATE INDEX sandbox_payment_request_pending ON sandbox_payment_request (date_created DESC) WHERE status = 'CREATED'`.execute(db);
  await sql`CREATE UNIQUE INDEX sandbox_payment_request_payer ON sandbox_payment_request (payer_alias) WHERE status = 'CREATED'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE sandbox_payment_request`.execute(db);
  await sql`DROP TABLE payment`.execute(db);
}
