import { sql, type Kysely } from 'kysely';

/**
 * Pushes in the language of the device that asked for them (decision 092, "Pushes in the device's
 * language"). A device's Expo token and a browser's push subscription keep the language the app was
 * set to when it registered (the request's Accept-Language, which the client sets to its chosen
 * language); the app registers again when its language changes. Rows from before this migration are
 * Swedish, which is what they were pushed in until now.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['expo_push_token', 'webpush_subscription']) {
    await sql`ALTER TABLE ${sql.table(table)} ADD COLUMN language text NOT NULL DEFAULT 'sv' CHECK (language IN ('sv', 'en'))`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['expo_push_token', 'webpush_subscription']) {
    await sql`ALTER TABLE ${sql.table(table)} DROP COLUMN language`.execute(db);
  }
}
