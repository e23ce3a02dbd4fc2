import { sql, type Kysely } from 'kysely';

/**
 * The redeem's answer is the same Voucher as GET /voucher/{id}, built by one query
 * (server/voucher/queries.ts `voucherSelect`): `voucher_redeem_known` (migration 020) now does the
 * redeem only and answers the voucher's id when it redeemed (no row when nothing changed); the
 * caller reads the answer with the one builder, in the same transaction when there is one. Its
 * conditions, locks and writes are migration 020's, unchanged.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`DROP FUNCTION voucher_redeem_known(uuid, uuid, text[], timestamptz, timestamptz, integer, integer, integer)`.execute(db);
  await sql`
    CREATE FUNCTION voucher_redeem_known(
      p_id uuid, p_user uuid, p_hashes text[], p_now timestamptz, p_since timestamptz, p_max_wrong integer,
      p_max_wrong_at_merchant integer, p_amount integer
    ) RETURNS TABLE (id uuid) LANGUAGE plpgsql AS $$
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
      RETURN QUERY SELECT p_id;
    END $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP FUNCTION voucher_redeem_known(uuid, uuid, text[], timestamptz, timestamptz, integer, integer, integer)`.execute(db);
  // Migration 020's function, answering the voucher's row as it was.
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
