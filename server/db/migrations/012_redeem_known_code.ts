import { sql, type Kysely } from 'kysely';

/**
 * The redeem of a merchant code the server already knows to be right (decision 034):
 * `voucher_redeem_known(...)` does in one call what a redeem at the till needs when the code is
 * known — the caller owns the voucher (its greetie delivered to their number), the voucher is
 * neither redeemed nor expired, its merchant's stored code hash is one of those the typed code is
 * known to match, fewer than `max_wrong` wrong codes since `since` — then redeems it, records the
 * attempt and returns the answer's row. Nothing changed: no row.
 *
 * A PL/pgSQL function because PostgreSQL keeps the plans of its statements for the session:
 * measured under load, planning the same statement sent from the application took ~0.3 ms of
 * its ~0.85 ms, and the read that went before it ~0.25 ms of ~0.3 ms; the function plans once
 * per connection.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE FUNCTION voucher_redeem_known(
      p_id uuid, p_user uuid, p_hashes text[], p_now timestamptz, p_since timestamptz, p_max_wrong integer
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

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP FUNCTION voucher_redeem_known(uuid, uuid, text[], timestamptz, timestamptz, integer)`.execute(db);
}
