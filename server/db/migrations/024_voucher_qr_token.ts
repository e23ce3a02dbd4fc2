import { sql, type Kysely } from 'kysely';

/**
 * The voucher's QR token (API.md GET /voucher/{id}/qr, the portal's scan and redeem; decision 106).
 * - `voucher_qr_token`: one row per token handed out. Only a keyed hash of the token is kept
 *   (HMAC-SHA256 under a pepper derived from TOKEN_SIGNING_KEY, base64url), so a read of the
 *   database gives no live token; the hash is the key a scan looks the token up by.
 * - A token is live while `ended_at` is null and `expires_at` is later than now. A new token for a
 *   voucher ends the live one (`ended_at`) in the same transaction, under the voucher's row lock;
 *   the partial unique index keeps at most one live token per voucher whatever happens. A redeem
 *   ends its token (`ended_at`, `redemption_id`) in the transaction that redeems.
 * - An ended or expired token stays until the voucher's next token is made (which deletes its
 *   tokens older than a day), so a scan of it answers 410 rather than 404.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE voucher_qr_token (
      token_hash text PRIMARY KEY,
      voucher_id uuid NOT NULL REFERENCES voucher (id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      ended_at timestamptz,
      -- The redemption it made (no foreign key: a record, and migration 020's down must still drop that table).
      redemption_id uuid,
      CHECK (expires_at > created_at)
    )`.execute(db);
  await sql`CREATE UNIQUE INDEX voucher_qr_token_live ON voucher_qr_token (voucher_id) WHERE ended_at IS NULL`.execute(db);
  await sql`CREATE INDEX voucher_qr_token_voucher ON voucher_qr_token (voucher_id, created_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE voucher_qr_token`.execute(db);
}
