import { sql, type Kysely } from 'kysely';

/**
 * The portal's fold waits for work (decision 147): a statement that appends rows to
 * `portal_open_delta` (migration 027's triggers on voucher and greetie) also sends a notification
 * on `greetie_portal_fold`, delivered when its transaction commits. PostgreSQL sends one per
 * transaction (the same channel and payload twice is one notification), and none when the
 * statement appended nothing (a voucher update that changes no counted column).
 * The fold (server/portal/fold.ts) listens on the process's one LISTEN connection and folds a
 * moment after a notification; a slow sweep catches what a lost connection missed.
 */
export const PORTAL_FOLD_CHANNEL = 'greetie_portal_fold';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE FUNCTION portal_open_delta_notify() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF EXISTS (SELECT 1 FROM new_rows) THEN
        PERFORM pg_notify('greetie_portal_fold', '');
      END IF;
      RETURN NULL;
    END $$`.execute(db);
  await sql`
    CREATE TRIGGER portal_open_delta_notify AFTER INSERT ON portal_open_delta REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION portal_open_delta_notify()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TRIGGER portal_open_delta_notify ON portal_open_delta`.execute(db);
  await sql`DROP FUNCTION portal_open_delta_notify()`.execute(db);
}
