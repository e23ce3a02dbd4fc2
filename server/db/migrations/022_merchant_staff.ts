import { sql, type Kysely } from 'kysely';

/**
 * The people who work for a merchant, and what the merchant portal reads (API.md "Merchant
 * portal"; decision 102).
 * - `merchant_staff`: one row per merchant and mobile number (E.164), role "owner" or "staff",
 *   linked by the operator. `user_id` is the person with that number once they have signed in: set
 *   when the row is added for a number that already has an account, and by a trigger on
 *   `mobile_user` when the number signs in for the first time (or again after removing its
 *   account, which sets it back to null).
 * - Indexes for the portal: a merchant's redemptions newest first (keyset on redeemed_at, id), the
 *   redeemed sums without a visit to the table (not undone, with the amount), a merchant's vouchers
 *   (issued, outstanding, expired: not donated, with what the sums need), and the few cancelled
 *   greeties, whose vouchers the summary leaves out.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE merchant_staff (
      merchant_id uuid NOT NULL REFERENCES merchant (id) ON DELETE CASCADE,
      mobile_number text NOT NULL CHECK (mobile_number ~ '^\\+[1-9][0-9]{6,14}$'),
      user_id uuid REFERENCES mobile_user (id) ON DELETE SET NULL,
      role text NOT NULL CHECK (role IN ('owner', 'staff')),
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (merchant_id, mobile_number)
    )`.execute(db);
  await sql`CREATE INDEX merchant_staff_user ON merchant_staff (user_id, merchant_id) WHERE user_id IS NOT NULL`.execute(db);
  await sql`CREATE INDEX merchant_staff_number ON merchant_staff (mobile_number)`.execute(db);

  await sql`
    CREATE FUNCTION merchant_staff_fill_user() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.user_id IS NULL THEN
        SELECT u.id INTO NEW.user_id FROM mobile_user u WHERE u.mobile_number = NEW.mobile_number;
      END IF;
      RETURN NEW;
    END $$`.execute(db);
  await sql`
    CREATE TRIGGER merchant_staff_fill_user BEFORE INSERT OR UPDATE OF mobile_number ON merchant_staff
      FOR EACH ROW EXECUTE FUNCTION merchant_staff_fill_user()`.execute(db);
  await sql`
    CREATE FUNCTION merchant_staff_link_user() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE merchant_staff SET user_id = NEW.id WHERE mobile_number = NEW.mobile_number AND user_id IS DISTINCT FROM NEW.id;
      RETURN NULL;
    END $$`.execute(db);
  await sql`
    CREATE TRIGGER merchant_staff_link_user AFTER INSERT OR UPDATE OF mobile_number ON mobile_user
      FOR EACH ROW EXECUTE FUNCTION merchant_staff_link_user()`.execute(db);

  await sql`CREATE INDEX voucher_redemption_merchant_page ON voucher_redemption (merchant_id, redeemed_at DESC, id DESC)`.execute(db);
  await sql`
    CREATE INDEX voucher_redemption_merchant_live ON voucher_redemption (merchant_id, redeemed_at) INCLUDE (amount)
     WHERE undone_at IS NULL`.execute(db);
  await sql`
    CREATE INDEX voucher_merchant ON voucher (merchant_id, created_at) INCLUDE (amount, balance, expires_at, greetie_id)
     WHERE donated_at IS NULL`.execute(db);
  await sql`CREATE INDEX greetie_cancelled ON greetie (id) WHERE status = 'cancelled'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX greetie_cancelled`.execute(db);
  await sql`DROP INDEX voucher_merchant`.execute(db);
  await sql`DROP INDEX voucher_redemption_merchant_live`.execute(db);
  await sql`DROP INDEX voucher_redemption_merchant_page`.execute(db);
  await sql`DROP TRIGGER merchant_staff_link_user ON mobile_user`.execute(db);
  await sql`DROP FUNCTION merchant_staff_link_user()`.execute(db);
  await sql`DROP TABLE merchant_staff`.execute(db);
  await sql`DROP FUNCTION merchant_staff_fill_user()`.execute(db);
}
