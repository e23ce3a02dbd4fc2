import { sql, type Kysely } from 'kysely';

/**
 * A redemption keeps the name its product had when it was redeemed, and the portal's page of
 * redemptions reads one index alone (issue 26 "Speed"; decision 150).
 * - `voucher_redemption.product_name`: the product's name at the moment of the redemption, filled
 *   by a BEFORE INSERT trigger from the voucher's product (every writer: the till's redeem, the QR
 *   redeem, "mark as used" and the `redeem_voucher` function), so no writer can leave it out or
 *   write another; never changed afterwards. A later rename of the product leaves the redemptions
 *   made before it as they were: the portal's list and the settlement file are a record of what
 *   was redeemed, and the same period's file reads the same tomorrow.
 * - Backfill: the names products have now (what the portal showed until this migration).
 * - `voucher_redemption_merchant_page` (migration 022) again, now covering the answer's columns
 *   (voucher, product name, amount, via, undone), so the page is an index-only scan of 51 entries
 *   with no join to `voucher` and `product`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE voucher_redemption ADD COLUMN product_name text`.execute(db);
  await sql`
    UPDATE voucher_redemption r SET product_name = p.name
      FROM voucher v JOIN product p ON p.id = v.product_id
     WHERE v.id = r.voucher_id`.execute(db);
  await sql`ALTER TABLE voucher_redemption ALTER COLUMN product_name SET NOT NULL`.execute(db);
  await sql`
    CREATE FUNCTION voucher_redemption_product_name() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      SELECT p.name INTO NEW.product_name FROM voucher v JOIN product p ON p.id = v.product_id WHERE v.id = NEW.voucher_id;
      RETURN NEW;
    END $$`.execute(db);
  await sql`
    CREATE TRIGGER voucher_redemption_product_name BEFORE INSERT ON voucher_redemption
       FOR EACH ROW EXECUTE FUNCTION voucher_redemption_product_name()`.execute(db);
  await sql`DROP INDEX voucher_redemption_merchant_page`.execute(db);
  await sql`
    CREATE INDEX voucher_redemption_merchant_page ON voucher_redemption (merchant_id, redeemed_at DESC, id DESC)
      INCLUDE (voucher_id, product_name, amount, via, undone_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX voucher_redemption_merchant_page`.execute(db);
  await sql`CREATE INDEX voucher_redemption_merchant_page ON voucher_redemption (merchant_id, redeemed_at DESC, id DESC)`.execute(db);
  await sql`DROP TRIGGER voucher_redemption_product_name ON voucher_redemption`.execute(db);
  await sql`DROP FUNCTION voucher_redemption_product_name()`.execute(db);
  await sql`ALTER TABLE voucher_redemption DROP COLUMN product_name`.execute(db);
}
