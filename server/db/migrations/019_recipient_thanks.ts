import { sql, type Kysely } from 'kysely';

/**
 * After delivery (API.md "After delivery", "The recipient answers"; decisions 088 and 089).
 *
 * - `greetie.recipient_changes`: how often the sender corrected the recipient (at most 3);
 *   `greetie.resent_at`: the last POST /resend (at most one a day).
 * - `recipient_change`: each correction, as a send to the new number for the sending limits (the
 *   delivery row stays the first send, to the first number). Kept a day (the limits' window); a
 *   removed account's number is blanked as on delivery rows.
 * - `greetie_reminder`: one row per reminder made for one delivery of a greetie (its
 *   `delivered_at`; a correction is a new delivery, so its clocks start again): the row is the
 *   claim, its primary key what makes a reminder happen once whatever the number of processes.
 * - `greetie_thanks`: the recipient's one thank-you (its primary key: once per greetie).
 * - `greetie_unopened`: the reminders' sweep reads delivered, unopened greeties by delivery time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE greetie
      ADD COLUMN recipient_changes integer NOT NULL DEFAULT 0 CHECK (recipient_changes BETWEEN 0 AND 100),
      ADD COLUMN resent_at timestamptz`.execute(db);
  await sql`
    CREATE TABLE recipient_change (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      greetie_id uuid NOT NULL REFERENCES greetie (id) ON DELETE CASCADE,
      sender_id uuid REFERENCES mobile_user (id) ON DELETE SET NULL,
      recipient_number text NOT NULL,
      created_at timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX recipient_change_sender_created ON recipient_change (sender_id, created_at)`.execute(db);
  await sql`CREATE INDEX recipient_change_created ON recipient_change (created_at)`.execute(db);
  await sql`
    CREATE TABLE greetie_reminder (
      greetie_id uuid NOT NULL REFERENCES greetie (id) ON DELETE CASCADE,
      delivered_at timestamptz NOT NULL,
      step text NOT NULL CHECK (char_length(step) BETWEEN 1 AND 80),
      created_at timestamptz NOT NULL,
      PRIMARY KEY (greetie_id, delivered_at, step)
    )`.execute(db);
  await sql`
    CREATE TABLE greetie_thanks (
      greetie_id uuid PRIMARY KEY REFERENCES greetie (id) ON DELETE CASCADE,
      message text NOT NULL CHECK (char_length(message) BETWEEN 1 AND 500),
      emoji text CHECK (emoji IS NULL OR char_length(emoji) BETWEEN 1 AND 32),
      created_at timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX greetie_unopened ON greetie (delivered_at) WHERE status = 'delivered' AND viewed_at IS NULL`.execute(db);
  // Two more notification types (the sender's `unopened` and `thanks`), written out: a migration
  // never changes with the code that comes after it.
  await sql`ALTER TABLE notification DROP CONSTRAINT notification_type_check`.execute(db);
  await sql`
    ALTER TABLE notification ADD CONSTRAINT notification_type_check CHECK (type IN (
      'greetieReceived', 'greetieDelivered', 'greetieViewed', 'paymentSucceeded', 'paymentFailed',
      'voucherRedeemed', 'voucherExpiring', 'refunded', 'unopened', 'thanks'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DELETE FROM notification WHERE type IN ('unopened', 'thanks')`.execute(db);
  await sql`ALTER TABLE notification DROP CONSTRAINT notification_type_check`.execute(db);
  await sql`
    ALTER TABLE notification ADD CONSTRAINT notification_type_check CHECK (type IN (
      'greetieReceived', 'greetieDelivered', 'greetieViewed', 'paymentSucceeded', 'paymentFailed',
      'voucherRedeemed', 'voucherExpiring', 'refunded'))`.execute(db);
  await sql`DROP INDEX greetie_unopened`.execute(db);
  await sql`DROP TABLE greetie_thanks`.execute(db);
  await sql`DROP TABLE greetie_reminder`.execute(db);
  await sql`DROP TABLE recipient_change`.execute(db);
  await sql`ALTER TABLE greetie DROP COLUMN recipient_changes, DROP COLUMN resent_at`.execute(db);
}
