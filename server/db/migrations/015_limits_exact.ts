import { sql, type Kysely } from 'kysely';
import { up as redeemKnownOf012 } from './012_redeem_known_code.ts';

/**
 * Exact limits under concurrency, and limits that outlive an account (decisions 023 and 024).
 * - `auth_rate_event.key` holds a keyed hash of the number or IP address from now on
 *   (server/auth/rateLimit.ts `rateKey`), never the value. The rows written before held the values
 *   in the clear, and SQL cannot hash them (the pepper is derived from TOKEN_SIGNING_KEY, which the
 *   database never sees): they are deleted. Upgrading therefore forgets the wrong-code counts of
 *   the last hour and the IP counts of the last minute, once.
 * - Ten wrong merchant codes per person per merchant within 15 minutes (API.md, Voucher): an index
 *   to count a person's wrong codes at a merchant, and `voucher_redeem_known` (migration 012)
 *   replaced by one that also refuses a known code while the person is at that limit.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`DELETE FROM auth_rate_event`.execute(db);
  await sql`CREATE INDEX redeem_attempt_person_wrong ON redeem_attempt (user_id, merchant_id, at) WHERE outcome = 'wrongCode'`.execute(db);
  await sql`DROP FUNCTION voucher_redeem_known(uuid, uuid, text[], timestamptz, timestamptz, integer)`.execute(db);
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

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP FUNCTION voucher_redeem_known(uuid, uuid, text[], timestamptz, timestamptz, integer, integer)`.execute(db);
  await sql`DROP INDEX redeem_attempt_person_wrong`.execute(db);
  // The function of migration 012 comes back with its down/up; the deleted events do not.
  await redeemKnownOf012(db);
}
