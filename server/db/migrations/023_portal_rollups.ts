import { sql, type Kysely } from 'kysely';

/**
 * The merchant portal's summary without reading every redemption (issue 26 "Speed"; decision 112).
 * - `portal_day`: per merchant and Europe/Stockholm day, what was issued (vouchers not donated away
 *   whose greetie is not cancelled, by the day they were created) and what was redeemed
 *   (redemptions not undone, by the day they were redeemed): counts and öre. The summary's period
 *   is whole Stockholm days, so a period's figures are the sum of at most one row per day.
 * - Triggers keep it equal to those definitions in the same transaction as every write, whatever
 *   code path writes: vouchers inserted (issue at payment, donate) or deleted (a greetie removed),
 *   a voucher's merchant, amount, creation time or donation changed, a redemption inserted, undone
 *   or deleted, a greetie cancelled (or no longer cancelled), a cancelled greetie deleted.
 *   Multi-row inserts and deletes are summed per (merchant, day) by statement triggers and written
 *   in (merchant, day) order, so two transactions lock the rows they share in the same order.
 * - `voucher_merchant_open`: the vouchers with a balance left, by merchant and expiry, for
 *   outstanding and expired (those depend on the clock, so they are read, not maintained).
 * - The rollup is filled from the data as it is (the backfill).
 * - Migration 022's `voucher_redemption_merchant_live` and `voucher_merchant` served the sums this
 *   replaces and nothing else: dropped, so a redeem writes two index entries fewer.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE portal_day (
      merchant_id uuid NOT NULL REFERENCES merchant (id) ON DELETE CASCADE,
      day date NOT NULL,
      issued_count integer NOT NULL DEFAULT 0,
      issued_amount bigint NOT NULL DEFAULT 0,
      redeemed_count integer NOT NULL DEFAULT 0,
      redeemed_amount bigint NOT NULL DEFAULT 0,
      PRIMARY KEY (merchant_id, day)
    )`.execute(db);

  // The Stockholm day of a moment.
  await sql`
    CREATE FUNCTION portal_day_of(t timestamptz) RETURNS date LANGUAGE sql IMMUTABLE PARALLEL SAFE
      RETURN (t AT TIME ZONE 'Europe/Stockholm')::date`.execute(db);

  // Vouchers: a voucher counts as issued when it is not donated away and its greetie is not
  // cancelled (a greetie that is gone is not cancelled: see portal_greetie_delete).
  await sql`
    CREATE FUNCTION portal_voucher_insert() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO portal_day AS d (merchant_id, day, issued_count, issued_amount)
      SELECT n.merchant_id, portal_day_of(n.created_at), count(*), sum(n.amount)
        FROM new_rows n
       WHERE n.donated_at IS NULL
         AND NOT EXISTS (SELECT 1 FROM greetie g WHERE g.id = n.greetie_id AND g.status = 'cancelled')
       GROUP BY 1, 2 ORDER BY 1, 2
      ON CONFLICT (merchant_id, day) DO UPDATE
        SET issued_count = d.issued_count + EXCLUDED.issued_count, issued_amount = d.issued_amount + EXCLUDED.issued_amount;
      RETURN NULL;
    END $$`.execute(db);
  await sql`
    CREATE FUNCTION portal_voucher_delete() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO portal_day AS d (merchant_id, day, issued_count, issued_amount)
      SELECT o.merchant_id, portal_day_of(o.created_at), -count(*), -sum(o.amount)
        FROM old_rows o
       WHERE o.donated_at IS NULL
         AND NOT EXISTS (SELECT 1 FROM greetie g WHERE g.id = o.greetie_id AND g.status = 'cancelled')
       GROUP BY 1, 2 ORDER BY 1, 2
      ON CONFLICT (merchant_id, day) DO UPDATE
        SET issued_count = d.issued_count + EXCLUDED.issued_count, issued_amount = d.issued_amount + EXCLUDED.issued_amount;
      RETURN NULL;
    END $$`.execute(db);
  await sql`
    CREATE FUNCTION portal_voucher_update() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      cancelled boolean;
      was_cancelled boolean;
    BEGIN
      -- Balance and expiry change on every redeem and do not touch the rollup. (A test here, not a
      -- WHEN on the trigger: a WHEN would make the columns it names undroppable by migration
      -- 020's down.)
      IF NOT (OLD.merchant_id IS DISTINCT FROM NEW.merchant_id OR OLD.created_at IS DISTINCT FROM NEW.created_at
              OR OLD.amount IS DISTINCT FROM NEW.amount OR (OLD.donated_at IS NULL) <> (NEW.donated_at IS NULL)
              OR OLD.greetie_id IS DISTINCT FROM NEW.greetie_id) THEN
        RETURN NULL;
      END IF;
      cancelled := EXISTS (SELECT 1 FROM greetie g WHERE g.id = NEW.greetie_id AND g.status = 'cancelled');
      was_cancelled := EXISTS (SELECT 1 FROM greetie g WHERE g.id = OLD.greetie_id AND g.status = 'cancelled');
      INSERT INTO portal_day AS d (merchant_id, day, issued_count, issued_amount)
      SELECT x.merchant_id, x.day, sum(x.n), sum(x.amount)
        FROM (SELECT OLD.merchant_id, portal_day_of(OLD.created_at), -1, -OLD.amount::bigint WHERE OLD.donated_at IS NULL AND NOT was_cancelled
              UNION ALL
              SELECT NEW.merchant_id, portal_day_of(NEW.created_at), 1, NEW.amount::bigint WHERE NEW.donated_at IS NULL AND NOT cancelled
             ) AS x (merchant_id, day, n, amount)
       GROUP BY 1, 2 ORDER BY 1, 2
      ON CONFLICT (merchant_id, day) DO UPDATE
        SET issued_count = d.issued_count + EXCLUDED.issued_count, issued_amount = d.issued_amount + EXCLUDED.issued_amount;
      RETURN NULL;
    END $$`.execute(db);
  await sql`
    CREATE TRIGGER portal_voucher_insert AFTER INSERT ON voucher REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION portal_voucher_insert()`.execute(db);
  await sql`
    CREATE TRIGGER portal_voucher_delete AFTER DELETE ON voucher REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION portal_voucher_delete()`.execute(db);
  await sql`CREATE TRIGGER portal_voucher_update AFTER UPDATE ON voucher FOR EACH ROW EXECUTE FUNCTION portal_voucher_update()`.execute(db);

  // Redemptions: one counts while it is not undone.
  await sql`
    CREATE FUNCTION portal_redemption_insert() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO portal_day AS d (merchant_id, day, redeemed_count, redeemed_amount)
      SELECT n.merchant_id, portal_day_of(n.redeemed_at), count(*), sum(n.amount)
        FROM new_rows n WHERE n.undone_at IS NULL
       GROUP BY 1, 2 ORDER BY 1, 2
      ON CONFLICT (merchant_id, day) DO UPDATE
        SET redeemed_count = d.redeemed_count + EXCLUDED.redeemed_count, redeemed_amount = d.redeemed_amount + EXCLUDED.redeemed_amount;
      RETURN NULL;
    END $$`.execute(db);
  await sql`
    CREATE FUNCTION portal_redemption_delete() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO portal_day AS d (merchant_id, day, redeemed_count, redeemed_amount)
      SELECT o.merchant_id, portal_day_of(o.redeemed_at), -count(*), -sum(o.amount)
        FROM old_rows o WHERE o.undone_at IS NULL
       GROUP BY 1, 2 ORDER BY 1, 2
      ON CONFLICT (merchant_id, day) DO UPDATE
        SET redeemed_count = d.redeemed_count + EXCLUDED.redeemed_count, redeemed_amount = d.redeemed_amount + EXCLUDED.redeemed_amount;
      RETURN NULL;
    END $$`.execute(db);
  await sql`
    CREATE FUNCTION portal_redemption_update() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO portal_day AS d (merchant_id, day, redeemed_count, redeemed_amount)
      SELECT x.merchant_id, x.day, sum(x.n), sum(x.amount)
        FROM (SELECT OLD.merchant_id, portal_day_of(OLD.redeemed_at), -1, -OLD.amount::bigint WHERE OLD.undone_at IS NULL
              UNION ALL
              SELECT NEW.merchant_id, portal_day_of(NEW.redeemed_at), 1, NEW.amount::bigint WHERE NEW.undone_at IS NULL
             ) AS x (merchant_id, day, n, amount)
       GROUP BY 1, 2 ORDER BY 1, 2
      ON CONFLICT (merchant_id, day) DO UPDATE
        SET redeemed_count = d.redeemed_count + EXCLUDED.redeemed_count, redeemed_amount = d.redeemed_amount + EXCLUDED.redeemed_amount;
      RETURN NULL;
    END $$`.execute(db);
  await sql`
    CREATE TRIGGER portal_redemption_insert AFTER INSERT ON voucher_redemption REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION portal_redemption_insert()`.execute(db);
  await sql`
    CREATE TRIGGER portal_redemption_delete AFTER DELETE ON voucher_redemption REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION portal_redemption_delete()`.execute(db);
  await sql`
    CREATE TRIGGER portal_redemption_update AFTER UPDATE ON voucher_redemption FOR EACH ROW
      WHEN (OLD.merchant_id IS DISTINCT FROM NEW.merchant_id OR OLD.redeemed_at IS DISTINCT FROM NEW.redeemed_at
            OR OLD.amount IS DISTINCT FROM NEW.amount OR (OLD.undone_at IS NULL) <> (NEW.undone_at IS NULL))
      EXECUTE FUNCTION portal_redemption_update()`.execute(db);

  // Greeties: cancelling one takes its vouchers out of issued (and undoing that puts them back).
  // Deleting a cancelled greetie first puts its vouchers back, as the cascade that deletes them
  // no longer sees the greetie and takes them out again.
  await sql`
    CREATE FUNCTION portal_greetie_cancel() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      k integer := CASE WHEN TG_OP = 'DELETE' OR OLD.status = 'cancelled' THEN 1 ELSE -1 END;
    BEGIN
      INSERT INTO portal_day AS d (merchant_id, day, issued_count, issued_amount)
      SELECT v.merchant_id, portal_day_of(v.created_at), k * count(*), k * sum(v.amount)
        FROM voucher v WHERE v.greetie_id = OLD.id AND v.donated_at IS NULL
       GROUP BY 1, 2 ORDER BY 1, 2
      ON CONFLICT (merchant_id, day) DO UPDATE
        SET issued_count = d.issued_count + EXCLUDED.issued_count, issued_amount = d.issued_amount + EXCLUDED.issued_amount;
      RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NULL END;
    END $$`.execute(db);
  await sql`
    CREATE TRIGGER portal_greetie_cancel AFTER UPDATE OF status ON greetie FOR EACH ROW
      WHEN ((OLD.status = 'cancelled') <> (NEW.status = 'cancelled'))
      EXECUTE FUNCTION portal_greetie_cancel()`.execute(db);
  await sql`
    CREATE TRIGGER portal_greetie_delete BEFORE DELETE ON greetie FOR EACH ROW
      WHEN (OLD.status = 'cancelled')
      EXECUTE FUNCTION portal_greetie_cancel()`.execute(db);

  // The backfill: the figures of the data as it is, by today's definitions.
  await sql`
    INSERT INTO portal_day (merchant_id, day, issued_count, issued_amount, redeemed_count, redeemed_amount)
    SELECT merchant_id, day, sum(ic), sum(ia), sum(rc), sum(ra)
      FROM (SELECT v.merchant_id, portal_day_of(v.created_at) AS day, 1 AS ic, v.amount::bigint AS ia, 0 AS rc, 0::bigint AS ra
              FROM voucher v
             WHERE v.donated_at IS NULL
               AND NOT EXISTS (SELECT 1 FROM greetie g WHERE g.id = v.greetie_id AND g.status = 'cancelled')
            UNION ALL
            SELECT r.merchant_id, portal_day_of(r.redeemed_at), 0, 0, 1, r.amount
              FROM voucher_redemption r WHERE r.undone_at IS NULL) x
     GROUP BY merchant_id, day`.execute(db);

  await sql`
    CREATE INDEX voucher_merchant_open ON voucher (merchant_id, expires_at) INCLUDE (balance, greetie_id)
     WHERE donated_at IS NULL AND balance > 0`.execute(db);
  await sql`DROP INDEX voucher_merchant`.execute(db);
  await sql`DROP INDEX voucher_redemption_merchant_live`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE INDEX voucher_redemption_merchant_live ON voucher_redemption (merchant_id, redeemed_at) INCLUDE (amount)
     WHERE undone_at IS NULL`.execute(db);
  await sql`
    CREATE INDEX voucher_merchant ON voucher (merchant_id, created_at) INCLUDE (amount, balance, expires_at, greetie_id)
     WHERE donated_at IS NULL`.execute(db);
  await sql`DROP INDEX voucher_merchant_open`.execute(db);
  await sql`DROP TRIGGER portal_greetie_delete ON greetie`.execute(db);
  await sql`DROP TRIGGER portal_greetie_cancel ON greetie`.execute(db);
  await sql`DROP FUNCTION portal_greetie_cancel()`.execute(db);
  await sql`DROP TRIGGER portal_redemption_update ON voucher_redemption`.execute(db);
  await sql`DROP TRIGGER portal_redemption_delete ON voucher_redemption`.execute(db);
  await sql`DROP TRIGGER portal_redemption_insert ON voucher_redemption`.execute(db);
  await sql`DROP FUNCTION portal_redemption_update()`.execute(db);
  await sql`DROP FUNCTION portal_redemption_delete()`.execute(db);
  await sql`DROP FUNCTION portal_redemption_insert()`.execute(db);
  await sql`DROP TRIGGER portal_voucher_update ON voucher`.execute(db);
  await sql`DROP TRIGGER portal_voucher_delete ON voucher`.execute(db);
  await sql`DROP TRIGGER portal_voucher_insert ON voucher`.execute(db);
  await sql`DROP FUNCTION portal_voucher_update()`.execute(db);
  await sql`DROP FUNCTION portal_voucher_delete()`.execute(db);
  await sql`DROP FUNCTION portal_voucher_insert()`.execute(db);
  await sql`DROP FUNCTION portal_day_of(timestamptz)`.execute(db);
  await sql`DROP TABLE portal_day`.execute(db);
}
