import { sql, type Kysely } from 'kysely';
import PgBoss from 'pg-boss';

/**
 * Delivery (decision 081): one `delivery` row per scheduled greetie, and the job queue
 * (pg-boss 10) that runs it.
 *
 * The row is what makes an SMS go out at most once: the worker switches it pending → sending in
 * a committed conditional UPDATE before the SMS provider is called, then sent (with the greetie
 * delivered) or back to pending for a retry; a row found in `sending` is reconciled, never sent
 * again blindly. `created_at` is when the greetie was scheduled: the sending limits count it.
 *
 * pg-boss's own schema (`pgboss`) is created here from its published construction SQL, so the
 * embedded database, DATABASE_URL and every test database copied from the migrated template have
 * it; the server starts pg-boss with `migrate: false`. A pg-boss upgrade that changes its schema
 * version needs a new migration of ours (PgBoss.getMigrationPlans).
 */
export const QUEUE = 'greetie-delivery';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE delivery (
      greetie_id uuid PRIMARY KEY REFERENCES greetie (id) ON DELETE CASCADE,
      -- Kept with the row (not read through the greetie) so the sending limits count by sender and
      -- number with one index each.
      sender_id uuid REFERENCES mobile_user (id) ON DELETE SET NULL,
      recipient_number text NOT NULL,
      state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sending', 'sent', 'failed')),
      -- When the SMS is due: deliverAt, or the moment it was scheduled.
      due_at timestamptz NOT NULL,
      attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
      -- Set by the switch to sending; the claim a worker finishes with.
      sending_since timestamptz,
      -- Why the last attempt failed (an SmsError kind, never the SMS text).
      last_error text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX delivery_sender_created ON delivery (sender_id, created_at)`.execute(db);
  await sql`CREATE INDEX delivery_sender_recipient_created ON delivery (sender_id, recipient_number, created_at)`.execute(db);
  // The reconciliation's two questions: rows left in sending, and pending rows overdue.
  await sql`CREATE INDEX delivery_sending ON delivery (sending_since) WHERE state = 'sending'`.execute(db);
  await sql`CREATE INDEX delivery_pending_due ON delivery (due_at) WHERE state = 'pending'`.execute(db);

  // pg-boss's construction SQL wraps itself in BEGIN … COMMIT; the migration already runs in a
  // transaction, so those two lines are left out (the advisory lock inside stays).
  const plan = PgBoss.getConstructionPlans('pgboss');
  const body = plan.replace(/^\s*BEGIN;/, '').replace(/COMMIT;\s*$/, '');
  if (body === plan || /\bBEGIN;|\bCOMMIT;/.test(body)) throw new Error('pg-boss construction SQL is not BEGIN … COMMIT: check the pg-boss version');
  await sql.raw(body).execute(db);
  // The queue, with no retries of pg-boss's own: a delivery's retries are ours (rules.ts), counted
  // on the row. A job active for longer than 2 minutes (a worker that died) is failed by
  // pg-boss's maintenance; the row's reconciliation takes it from there.
  const options = { policy: 'standard', retryLimit: 0, expireInSeconds: 120, retentionMinutes: 24 * 60 };
  await sql`SELECT pgboss.create_queue(${QUEUE}, ${JSON.stringify(options)}::json)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP SCHEMA pgboss CASCADE`.execute(db);
  await sql`DROP TABLE delivery`.execute(db);
}
