import { sql, type Kysely } from 'kysely';

/**
 * Vouchers: one per gift of a paid greetie, issued in the same transaction that marks
 * its payment paid. The id is a random UUID (unguessable: it names the voucher in the owner's
 * calls); `gift_id` is unique, so a gift's voucher exists once however many callbacks arrive.
 * `code` stays null until a "Code" product's pool exists; `expires_at` is set at delivery (the
 * product's validDays counted from then).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE voucher (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      greetie_id uuid NOT NULL REFERENCES greetie (id) ON DELETE CASCADE,
      gift_id uuid NOT NULL REFERENCES greetie_gift (id) ON DELETE CASCADE,
      merchant_id uuid NOT NULL REFERENCES merchant (id),
      product_id uuid NOT NULL REFERENCES product (id),
      source text NOT NULL CHECK (source IN ('InStore', 'Charity', 'Code')),
      amount integer NOT NULL CHECK (amount > 0),
      code text,
      is_redeemed boolean NOT NULL DEFAULT false,
      redeemed_at timestamptz,
      expires_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE UNIQUE INDEX voucher_gift ON voucher (gift_id)`.execute(db);
  await sql`CREATE INDEX voucher_greetie ON voucher (greetie_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE voucher`.execute(db);
}
