import { sql, type Kysely } from 'kysely';

/**
 * The portal summary's outstanding and expired without reading every open voucher (issue 26
 * "Speed"; decision 124). Until now they were read from `voucher_merchant_open` on every summary:
 * every open voucher of the merchant, 10 000 rows at the bench's merchant, most of the summary's
 * PostgreSQL time.
 * - What counts: a voucher not donated away, with a balance left, whose greetie is not cancelled
 *   (the contract's definitions). It is outstanding while it has not expired and expired after.
 * - `portal_open`: per merchant and UTC day of expiry (`infinity`: never expires), how many such
 *   vouchers and their balances. Expired or not is then a matter of the day alone, except for the
 *   day `now` falls in, which the summary reads exactly from `voucher_merchant_open` (its vouchers
 *   only).
 * - Writers never update `portal_open`: triggers append their changes to `portal_open_delta` (an
 *   INSERT, no row another transaction waits for). A redeem already locks its merchant's
 *   `portal_day` row; an upserted row per expiry day as well would be a second lock taken in an
 *   order that differs between a redeem (voucher, then redemption) and an undo (redemption, then
 *   voucher), and could deadlock. The summary adds the deltas to the folded rows; a background
 *   fold (server/portal/fold.ts, one process at a time) moves them into `portal_open` in one
 *   transaction, so every snapshot sees each change exactly once.
 * - Triggers: vouchers inserted, deleted or updated (statement triggers with transition tables:
 *   every change of balance, expiry, donation, merchant or greetie, grouped per merchant and day),
 *   a greetie cancelled or no longer (its vouchers out or back), a cancelled greetie deleted (its
 *   vouchers back first, as the cascade that deletes them no longer sees it: as migration 023).
 * - The backfill fills `portal_open` from the data as it is.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE portal_open (
      merchant_id uuid NOT NULL REFERENCES merchant (id) ON DELETE CASCADE,
      expires_day date NOT NULL,
      open_count integer NOT NULL,
      open_amount bigint NOT NULL,
      PRIMARY KEY (merchant_id, expires_day)
    )`.execute(db);
  await sql`
    CREATE TABLE portal_open_delta (
      merchant_id uuid NOT NULL REFERENCES merchant (id) ON DELETE CASCADE,
      expires_day date NOT NULL,
      open_count integer NOT NULL,
      open_amount bigint NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX portal_open_delta_merchant ON portal_open_delta (merchant_id) INCLUDE (expires_day, open_count, open_amount)`.execute(db);

  // The UTC day a voucher expires ('infinity' when it never does).
  await sql`
    CREATE FUNCTION portal_expiry_day(t timestamptz) RETURNS date LANGUAGE sql IMMUTABLE PARALLEL SAFE
      RETURN coalesce((t AT TIME ZONE 'UTC')::date, 'infinity'::date)`.execute(db);

  // One function for the three voucher events: what the statement took out (old rows that
  // counted) and put in (new rows that count), per merchant and day, the rows that net to nothing
  // left out.
  await sql`
    CREATE FUNCTION portal_open_voucher() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        INSERT INTO portal_open_delta (merchant_id, expires_day, open_count, open_amount)
        SELECT n.merchant_id, portal_expiry_day(n.expires_at), count(*), sum(n.balance)
          FROM new_rows n
         WHERE n.donated_at IS NULL AND n.balance > 0
           AND NOT EXISTS (SELECT 1 FROM greetie g WHERE g.id = n.greetie_id AND g.status = 'cancelled')
         GROUP BY 1, 2;
      ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO portal_open_delta (merchant_id, expires_day, open_count, open_amount)
        SELECT o.merchant_id, portal_expiry_day(o.expires_at), -count(*), -sum(o.balance)
          FROM old_rows o
         WHERE o.donated_at IS NULL AND o.balance > 0
           AND NOT EXISTS (SELECT 1 FROM greetie g WHERE g.id = o.greetie_id AND g.status = 'cancelled')
         GROUP BY 1, 2;
      ELSE
        INSERT INTO portal_open_delta (merchant_id, expires_day, open_count, open_amount)
        SELECT x.merchant_id, x.day, sum(x.n), sum(x.amount)
          FROM (SELECT o.merchant_id, portal_expiry_day(o.expires_at), -1, -o.balance::bigint
                  FROM old_rows o
                 WHERE o.donated_at IS NULL AND o.balance > 0
                   AND NOT EXISTS (SELECT 1 FROM greetie g WHERE g.id = o.greetie_id AND g.status = 'cancelled')
                UNION ALL
                SELECT n.merchant_id, portal_expiry_day(n.expires_at), 1, n.balance::bigint
                  FROM new_rows n
                 WHERE n.donated_at IS NULL AND n.balance > 0
                   AND NOT EXISTS (SELECT 1 FROM greetie g WHERE g.id = n.greetie_id AND g.status = 'cancelled')
               ) AS x (merchant_id, day, n, amount)
         GROUP BY 1, 2
        HAVING sum(x.n) <> 0 OR sum(x.amount) <> 0;
      END IF;
      RETURN NULL;
    END $$`.execute(db);
  await sql`
    CREATE TRIGGER portal_open_voucher_insert AFTER INSERT ON voucher REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION portal_open_voucher()`.execute(db);
  await sql`
    CREATE TRIGGER portal_open_voucher_delete AFTER DELETE ON voucher REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION portal_open_voucher()`.execute(db);
  await sql`
    CREATE TRIGGER portal_open_voucher_update AFTER UPDATE ON voucher REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION portal_open_voucher()`.execute(db);

  // A greetie cancelled takes its open vouchers out; no longer cancelled, or a cancelled one
  // deleted (before the cascade, which then takes them out again), puts them back.
  await sql`
    CREATE FUNCTION portal_open_greetie() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      k integer := CASE WHEN TG_OP = 'DELETE' OR OLD.status = 'cancelled' THEN 1 ELSE -1 END;
    BEGIN
      INSERT INTO portal_open_delta (merchant_id, expires_day, open_count, open_amount)
      SELECT v.merchant_id, portal_expiry_day(v.expires_at), k * count(*), k * sum(v.balance)
        FROM voucher v WHERE v.greetie_id = OLD.id AND v.donated_at IS NULL AND v.balance > 0
       GROUP BY 1, 2;
      RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NULL END;
    END $$`.execute(db);
  await sql`
    CREATE TRIGGER portal_open_greetie_cancel AFTER UPDATE OF status ON greetie FOR EACH ROW
      WHEN ((OLD.status = 'cancelled') <> (NEW.status = 'cancelled'))
      EXECUTE FUNCTION portal_open_greetie()`.execute(db);
  await sql`
    CREATE TRIGGER portal_open_greetie_delete BEFORE DELETE ON greetie FOR EACH ROW
      WHEN (OLD.status = 'cancelled')
      EXECUTE FUNCTION portal_open_greetie()`.execute(db);

  // The backfill: the open vouchers as they are.
  await sql`
    INSERT INTO portal_open (merchant_id, expires_day, open_count, open_amount)
    SELECT v.merchant_id, portal_expiry_day(v.expires_at), count(*), sum(v.balance)
      FROM voucher v
     WHERE v.donated_at IS NULL AND v.balance > 0
       AND NOT EXISTS (SELECT 1 FROM greetie g WHERE g.id = v.greetie_id AND g.status = 'cancelled')
     GROUP BY 1, 2`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TRIGGER portal_open_greetie_delete ON greetie`.execute(db);
  await sql`DROP TRIGGER portal_open_greetie_cancel ON greetie`.execute(db);
  await sql`DROP FUNCTION portal_open_greetie()`.execute(db);
  await sql`DROP TRIGGER portal_open_voucher_update ON voucher`.execute(db);
  await sql`DROP TRIGGER portal_open_voucher_delete ON voucher`.execute(db);
  await sql`DROP TRIGGER portal_open_voucher_insert ON voucher`.execute(db);
  await sql`DROP FUNCTION portal_open_voucher()`.execute(db);
  await sql`DROP FUNCTION portal_expiry_day(timestamptz)`.execute(db);
  await sql`DROP TABLE portal_open_delta`.execute(db);
  await sql`DROP TABLE portal_open`.execute(db);
}
