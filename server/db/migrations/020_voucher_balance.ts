import { sql, type Kysely } from 'kysely';

/**
 * A value voucher used in parts, undo, donate (API.md "Voucher"; decision 016).
 * - `voucher.kind`: "value" when its product is a min/max product, else "fixed"; fixed at issue.
 * - `voucher.balance`: öre still to use, `0 ≤ balance ≤ amount`; `is_redeemed` becomes a column
 *   generated from it (`balance = 0`), so the two can never disagree. `redeemed_at` is when the
 *   balance reached 0 (null again after an undo).
 * - `voucher_redemption`: each use of a voucher (amount, when, via "code" | "qr", by whom),
 *   `undone_at` once undone. Existing vouchers migrate: a redeemed one has one redemption of its
 *   amount.
 * - Donations: `donated_at` and `donated_to` on the voucher given away; it gives its `gift_id` to
 *   the new Charity voucher (so `gift_id` may be null from now on, on a donated voucher only).
 * - A trigger fills `kind` and `balance` on insert, so the code that issues vouchers
 *   (server/payment) need not know of them.
 * - `redeem_attempt.outcome` takes the outcomes of amounts and undos too.
 * - `voucher_redeem_known` (migrations 012, 015) is replaced by one taking the amount: it takes
 *   `coalesce(p_amount, balance)` from the balance under the row's lock when that fits, records the
 *   redemption and the attempt, and returns the answer's row with its redemptions (json).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE voucher
      ADD COLUMN kind text,
      ADD COLUMN balance integer,
      ADD COLUMN donated_at timestamptz,
      ADD COLUMN donated_to uuid REFERENCES voucher (id) ON DELETE SET NULL`.execute(db);
  await sql`
    UPDATE voucher v
       SET kind = CASE WHEN p.price IS NULL THEN 'value' ELSE 'fixed' END,
           balance = CASE WHEN v.is_redeemed THEN 0 ELSE v.amount END
      FROM product p WHERE p.id = v.product_id`.execute(db);
  await sql`
    CREATE TABLE voucher_redemption (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      -- The order of a voucher's redemptions (several may share one instant).
      seq bigint GENERATED ALWAYS AS IDENTITY,
      voucher_id uuid NOT NULL REFERENCES voucher (id) ON DELETE CASCADE,
      merchant_id uuid NOT NULL REFERENCES merchant (id),
      user_id uuid REFERENCES mobile_user (id) ON DELETE SET NULL,
      amount integer NOT NULL CHECK (amount > 0),
      via text NOT NULL CHECK (via IN ('code', 'qr')),
      redeemed_at timestamptz NOT NULL,
      undone_at timestamptz
    )`.execute(db);
  await sql`CREATE INDEX voucher_redemption_voucher ON voucher_redemption (voucher_id, seq)`.execute(db);
  await sql`CREATE INDEX voucher_redemption_merchant ON voucher_redemption (merchant_id, redeemed_at)`.execute(db);
  await sql`
    INSERT INTO voucher_redemption (voucher_id, merchant_id, user_id, amount, via, redeemed_at)
    SELECT v.id, v.merchant_id,
           (SELECT a.user_id FROM redeem_attempt a WHERE a.voucher_id = v.id AND a.outcome = 'redeemed' ORDER BY a.id LIMIT 1),
           v.amount, 'code', coalesce(v.redeemed_at, v.created_at)
      FROM voucher v WHERE v.is_redeemed
     ORDER BY coalesce(v.redeemed_at, v.created_at), v.id`.execute(db);
  await sql`
    ALTER TABLE voucher
      ALTER COLUMN kind SET NOT NULL,
      ALTER COLUMN balance SET NOT NULL,
      ALTER COLUMN gift_id DROP NOT NULL,
      DROP COLUMN is_redeemed,
      ADD CONSTRAINT voucher_kind CHECK (kind IN ('fixed', 'value')),
      ADD CONSTRAINT voucher_balance CHECK (balance BETWEEN 0 AND amount),
      ADD CONSTRAINT voucher_donated CHECK ((donated_at IS NULL) = (gift_id IS NOT NULL))`.execute(db);
  await sql`ALTER TABLE voucher ADD COLUMN is_redeemed boolean GENERATED ALWAYS AS (balance = 0) STORED`.execute(db);
  await sql`
    CREATE FUNCTION voucher_fill_balance() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      NEW.balance := coalesce(NEW.balance, NEW.amount);
      IF NEW.kind IS NULL THEN
        SELECT CASE WHEN p.price IS NULL THEN 'value' ELSE 'fixed' END INTO NEW.kind FROM product p WHERE p.id = NEW.product_id;
      END IF;
      RETURN NEW;
    END $$`.execute(db);
  await sql`CREATE TRIGGER voucher_fill_balance BEFORE INSERT ON voucher FOR EACH ROW EXECUTE FUNCTION voucher_fill_balance()`.execute(db);

  await sql`ALTER TABLE redeem_attempt DROP CONSTRAINT redeem_attempt_outcome_check`.execute(db);
  await sql`
    ALTER TABLE redeem_attempt ADD CONSTRAINT redeem_attempt_outcome_check CHECK (outcome IN (
      'redeemed', 'wrongCode', 'alreadyRedeemed', 'expired', 'locked',
      'amountNotAllowed', 'balanceTooLow', 'undone', 'undoTooLate', 'alreadyUndone'))`.execute(db);

  await sql`DROP FUNCTION voucher_redeem_known(uuid, uuid, text[], timestamptz, timestamptz, integer, integer)`.execute(db);
  await sql`
    CREATE FUNCTION voucher_redeem_known(
      p_id uuid, p_user uuid, p_hashes text[], p_now timestamptz, p_since timestamptz, p_max_wrong integer,
      p_max_wrong_at_merchant integer, p_amount integer
    ) RETURNS TABLE (
      id uuid, greetie_id uuid, merchant_id uuid, merchant_name text, merchant_logo_url text,
      product_id uuid, product_name text, source text, kind text, amount integer, balance integer, code text,
      is_redeemed boolean, redeemed_at timestamptz, expires_at timestamptz, created_at timestamptz, redemptions json
    ) LANGUAGE plpgsql AS $$
    #variable_conflict use_column
    DECLARE
      v_balance integer;
      v_take integer;
      v_merchant uuid;
    BEGIN
      -- The row's lock first: concurrent redeems of one voucher take turns, each reading the
      -- balance the one before left.
      SELECT v.balance INTO v_balance FROM voucher v WHERE v.id = p_id FOR UPDATE;
      IF NOT FOUND THEN RETURN; END IF;
      v_take := coalesce(p_amount, v_balance);
      UPDATE voucher v SET balance = v.balance - v_take,
                           redeemed_at = CASE WHEN v.balance = v_take THEN p_now END
       WHERE v.id = p_id AND v.donated_at IS NULL AND v_take >= 1 AND v.balance >= v_take
         AND (v.kind = 'value' OR v_take = v.amount)
         AND (v.expires_at IS NULL OR v.expires_at > p_now)
         AND EXISTS (
           SELECT 1 FROM greetie g
            WHERE g.id = v.greetie_id AND g.status = 'delivered'
              AND g.recipient_number = (SELECT u.mobile_number FROM mobile_user u WHERE u.id = p_user))
         AND EXISTS (SELECT 1 FROM merchant m WHERE m.id = v.merchant_id AND m.code_hash = ANY (p_hashes))
         AND (SELECT count(*) FROM redeem_attempt w
               WHERE w.voucher_id = v.id AND w.outcome = 'wrongCode' AND w.at > p_since) < p_max_wrong
         AND (SELECT count(*) FROM redeem_attempt w
               WHERE w.user_id = p_user AND w.merchant_id = v.merchant_id AND w.outcome = 'wrongCode' AND w.at > p_since)
             < p_max_wrong_at_merchant
      RETURNING v.merchant_id INTO v_merchant;
      IF NOT FOUND THEN RETURN; END IF;
      INSERT INTO voucher_redemption (voucher_id, merchant_id, user_id, amount, via, redeemed_at)
      VALUES (p_id, v_merchant, p_user, v_take, 'code', p_now);
      INSERT INTO redeem_attempt (voucher_id, merchant_id, user_id, ok, outcome, at)
      VALUES (p_id, v_merchant, p_user, true, 'redeemed', p_now);
      RETURN QUERY
      SELECT v.id, v.greetie_id, v.merchant_id, m.name::text, m.logo_url, v.product_id, p.name::text,
             v.source, v.kind, v.amount, v.balance, v.code, v.is_redeemed, v.redeemed_at, v.expires_at, v.created_at,
             (SELECT json_agg(json_build_object('id', r.id, 'amount', r.amount, 'redeemedAt', r.redeemed_at,
                                                'via', r.via, 'undone', r.undone_at IS NOT NULL) ORDER BY r.seq)
                FROM voucher_redemption r WHERE r.voucher_id = v.id)
        FROM voucher v JOIN merchant m ON m.id = v.merchant_id JOIN product p ON p.id = v.product_id
       WHERE v.id = p_id;
    END $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP FUNCTION voucher_redeem_known(uuid, uuid, text[], timestamptz, timestamptz, integer, integer, integer)`.execute(db);
  await sql`DROP TRIGGER voucher_fill_balance ON voucher`.execute(db);
  await sql`DROP FUNCTION voucher_fill_balance()`.execute(db);
  // Donated vouchers go (their Charity voucher holds the gift now); partly used ones count as unused.
  await sql`DELETE FROM voucher WHERE donated_at IS NOT NULL`.execute(db);
  await sql`DELETE FROM redeem_attempt WHERE outcome IN ('amountNotAllowed', 'balanceTooLow', 'undone', 'undoTooLate', 'alreadyUndone')`.execute(db);
  await sql`ALTER TABLE redeem_attempt DROP CONSTRAINT redeem_attempt_outcome_check`.execute(db);
  await sql`
    ALTER TABLE redeem_attempt ADD CONSTRAINT redeem_attempt_outcome_check
      CHECK (outcome IN ('redeemed', 'wrongCode', 'alreadyRedeemed', 'expired', 'locked'))`.execute(db);
  await sql`ALTER TABLE voucher RENAME COLUMN is_redeemed TO was_redeemed`.execute(db);
  await sql`ALTER TABLE voucher ADD COLUMN is_redeemed boolean NOT NULL DEFAULT false`.execute(db);
  await sql`UPDATE voucher SET is_redeemed = was_redeemed`.execute(db);
  await sql`
    ALTER TABLE voucher
      DROP COLUMN was_redeemed,
      DROP CONSTRAINT voucher_donated,
      DROP COLUMN donated_to,
      DROP COLUMN donated_at,
      DROP COLUMN balance,
      DROP COLUMN kind,
      ALTER COLUMN gift_id SET NOT NULL`.execute(db);
  await sql`DROP TABLE voucher_redemption`.execute(db);
  // The function of migration 015, as it was.
  await sql`
    CREATE FUNCTION voucher_redeem_known(
      p_id uuid, p_user uuid, p_hashes text[], p_now timestamptz, p_since timestamptz, p_max_wrong integer,
      p_max_wrong_at_merchant integer
    ) RETURNS TABLE (
      id uuid, greetie_id uuid, merchant_id uuid, merchant_name text, merchant_logo_url text,
      product_id uuid, product_name text, source text, amount integer, code text,
      is_redeemed boolean, redeemed_at timestamptz, expires_at timestamptz, created_at timestamptz
    ) LANGUAGE plpgsql AS $$
    #variable_conflict use_column
    BEGIN
      RETURN QUERY
      WITH r AS (
        UPDATE voucher v SET is_redeemed = true, redeemed_at = p_now
         WHERE v.id = p_id AND v.is_redeemed = false AND (v.expires_at IS NULL OR v.expires_at > p_now)
           AND EXISTS (
             SELECT 1 FROM greetie g
              WHERE g.id = v.greetie_id AND g.status = 'delivered'
                AND g.recipient_number = (SELECT u.mobile_number FROM mobile_user u WHERE u.id = p_user))
           AND EXISTS (SELECT 1 FROM merchant m WHERE m.id = v.merchant_id AND m.code_hash = ANY (p_hashes))
           AND (SELECT count(*) FROM redeem_attempt w
                 WHERE w.voucher_id = v.id AND w.outcome = 'wrongCode' AND w.at > p_since) < p_max_wrong
           AND (SELECT count(*) FROM redeem_attempt w
                 WHERE w.user_id = p_user AND w.merchant_id = v.merchant_id AND w.outcome = 'wrongCode' AND w.at > p_since)
               < p_max_wrong_at_merchant
        RETURNING v.*
      ), attempt AS (
        INSERT INTO redeem_attempt (voucher_id, merchant_id, user_id, ok, outcome, at)
        SELECT r.id, r.merchant_id, p_user, true, 'redeemed', p_now FROM r
      )
      SELECT r.id, r.greetie_id, r.merchant_id, m.name::text, m.logo_url, r.product_id, p.name::text,
             r.source, r.amount, r.code, r.is_redeemed, r.redeemed_at, r.expires_at, r.created_at
        FROM r JOIN merchant m ON m.id = r.merchant_id JOIN product p ON p.id = r.product_id;
    END $$`.execute(db);
}
