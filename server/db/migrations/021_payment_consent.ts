import { sql, type Kysely } from 'kysely';

/**
 * The withdrawal consent recorded with the payment (issue 25; decision 097).
 * - `payment.consented_at`: when the buyer confirmed, at review, that delivery starts at once and
 *   that the right of withdrawal ends when the recipient opens the greetie or uses a gift. Written
 *   with the payment row itself, in the same INSERT. Null only on payments made before this
 *   migration (none of them recorded it).
 * - `payment.terms_version`: the version (date) of /villkor the buyer agreed to.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE payment
      ADD COLUMN consented_at timestamptz,
      ADD COLUMN terms_version text CHECK (length(terms_version) <= 40),
      ADD CONSTRAINT payment_consent_terms CHECK ((consented_at IS NULL) = (terms_version IS NULL))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE payment DROP CONSTRAINT payment_consent_terms, DROP COLUMN terms_version, DROP COLUMN consented_at`.execute(db);
}
