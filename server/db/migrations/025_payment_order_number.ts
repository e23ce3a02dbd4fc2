import { sql, type Kysely } from 'kysely';

/**
 * The payment's order number, and its status changes told to every process (issue 27; decisions
 * 116, 117).
 * - `payment.order_number`: "G-" and a number from the sequence `payment_order_number_seq`
 *   (starting at 100001), unique, for people: on the receipt and in the Swish message, never the
 *   greetie's refId. Payments made before this migration get theirs in the order they were made.
 * - A row trigger sends the payment's greetie id on the channel `greetie_payment` when a payment is
 *   made or its status changes; PostgreSQL delivers it when the transaction commits (never for
 *   one rolled back), to every process listening. The payment events stream
 *   (GET /greetie/{id}/payment/events) reads the payment again on it: nothing else is in the
 *   notification.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE SEQUENCE payment_order_number_seq START WITH 100001`.execute(db);
  await sql`ALTER TABLE payment ADD COLUMN order_number text`.execute(db);
  await sql`
    UPDATE payment p SET order_number = 'G-' || n.num
      FROM (SELECT id, nextval('payment_order_number_seq') AS num
              FROM (SELECT id FROM payment ORDER BY created_at, id) ordered) n
     WHERE p.id = n.id`.execute(db);
  await sql`
    ALTER TABLE payment
      ALTER COLUMN order_number SET DEFAULT ('G-' || nextval('payment_order_number_seq')),
      ALTER COLUMN order_number SET NOT NULL,
      ADD CONSTRAINT payment_order_number_unique UNIQUE (order_number),
      ADD CONSTRAINT payment_order_number_shape CHECK (order_number ~ '^G-[0-9]{6,12}$')`.execute(db);
  await sql`ALTER SEQUENCE payment_order_number_seq OWNED BY payment.order_number`.execute(db);
  await sql`
    CREATE FUNCTION greetie_notify_payment() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
    BEGIN
      PERFORM pg_notify('greetie_payment', NEW.greetie_id::text);
      RETURN NULL;
    END
    $$`.execute(db);
  await sql`
    CREATE TRIGGER payment_notify_insert AFTER INSERT ON payment
      FOR EACH ROW EXECUTE FUNCTION greetie_notify_payment()`.execute(db);
  await sql`
    CREATE TRIGGER payment_notify_status AFTER UPDATE ON payment
      FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION greetie_notify_payment()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TRIGGER payment_notify_status ON payment`.execute(db);
  await sql`DROP TRIGGER payment_notify_insert ON payment`.execute(db);
  await sql`DROP FUNCTION greetie_notify_payment()`.execute(db);
  await sql`ALTER TABLE payment DROP COLUMN order_number`.execute(db);
}
