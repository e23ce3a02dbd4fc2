import { sql, type Kysely } from 'kysely';

/**
 * The Web Push VAPID key pair, one for every process on this database (decision 095). A pair per
 * process (once kept in DATA_DIR/vapid.json) would let a browser subscribed through one process get
 * pushes signed by another's key, which push services refuse. When
 * VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY are not set, the first process to start writes a pair here
 * (INSERT … ON CONFLICT DO NOTHING) and every process reads back the one row that won. The single
 * row is enforced by a boolean primary key that can only be true.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE webpush_vapid (
      id boolean PRIMARY KEY DEFAULT true CHECK (id),
      public_key text NOT NULL,
      private_key text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE webpush_vapid`.execute(db);
}
