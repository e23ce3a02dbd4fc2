import { sql, type Kysely } from 'kysely';

/**
 * The delivery SMS is fixed when the delivery is claimed (decision 081, "The SMS fixed at the
 * claim").
 *
 * `sms_to` and `sms_body` are written in the transaction that switches a row pending → sending,
 * before the SMS provider is called, and are what is sent. A row found in `sending` after a crash
 * is confirmed with the provider against exactly these, never against a text built again (the
 * sender may have renamed themselves or removed their account, another process may have another
 * PUBLIC_URL: a rebuilt text would not be found and the SMS would go out twice). Both are cleared
 * when the row leaves `sending` (sent, failed, or back to pending for a retry): the number and the
 * sender's name are kept only while the outcome is unknown.
 *
 * A row left in `sending` by a version before this migration has neither; the sweep takes its
 * outcome as unknown (delivered, with a warning), as for a provider that cannot be asked.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE delivery ADD COLUMN sms_to text, ADD COLUMN sms_body text`.execute(db);
  await sql`ALTER TABLE delivery ADD CONSTRAINT delivery_sms_together CHECK ((sms_to IS NULL) = (sms_body IS NULL))`.execute(db);
  await sql`ALTER TABLE delivery ADD CONSTRAINT delivery_sms_only_sending CHECK (sms_body IS NULL OR state = 'sending')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE delivery DROP COLUMN sms_to, DROP COLUMN sms_body`.execute(db);
}
