import { sql, type Kysely } from 'kysely';

/**
 * Redeeming vouchers.
 * - `redeem_attempt`: every merchant code typed for a voucher its owner holds, with its outcome,
 *   kept for the merchant (who tried, at which voucher, when, whether it was right). The wrong ones
 *   of the last 15 minutes lock the voucher after 5 (the partial index counts them).
 * - The owner's list reads vouchers through their greeties: `voucher_greetie` (007) serves it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE redeem_attempt (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      voucher_id uuid NOT NULL REFERENCES voucher (id) ON DELETE CASCADE,
      merchant_id uuid NOT NULL REFERENCES merchant (id),
      user_id uuid REFERENCES mobile_user (id) ON DELETE SET NULL,
      ok boolean NOT NULL,
      outcome text NOT NULL CHECK (outcome IN ('redeemed', 'wrongCode', 'alreadyRedeemed', 'expired', 'locked')),
      at timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX redeem_attempt_wrong ON redeem_attempt (voucher_id, at) WHERE outcome = 'wrongCode'`.execute(db);
  await sql`CREATE INDEX redeem_attempt_merchant ON redeem_attempt (merchant_id, at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE redeem_attempt`.execute(db);
}
