import { sql, type Kysely } from 'kysely';

/**
 * Sign-in: people, verification codes, refresh tokens, rate-limit events, and the sandbox SMS
 * outbox. Secrets (codes, verification tokens, refresh tokens) are stored only as hashes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE mobile_user (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      mobile_number text NOT NULL UNIQUE CHECK (mobile_number ~ '^\\+[1-9][0-9]{6,14}$'),
      name text,
      allow_marketing boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);

  // One row per code sent. Usable only when sent, unexpired, unconsumed and not voided.
  await sql`
    CREATE TABLE auth_verification (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      token_hash text NOT NULL UNIQUE,
      mobile_number text NOT NULL,
      code_hash text NOT NULL,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      sent_at timestamptz,
      send_failed_at timestamptz,
      failed_attempts integer NOT NULL DEFAULT 0 CHECK (failed_attempts >= 0),
      consumed_at timestamptz,
      voided_at timestamptz
    )`.execute(db);
  await sql`CREATE INDEX auth_verification_number_created ON auth_verification (mobile_number, created_at)`.execute(db);

  await sql`
    CREATE TABLE auth_refresh_token (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      token_hash text NOT NULL UNIQUE,
      family_id uuid NOT NULL,
      user_id uuid NOT NULL REFERENCES mobile_user (id) ON DELETE CASCADE,
      device_id uuid NOT NULL,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      used_at timestamptz,
      revoked_at timestamptz
    )`.execute(db);
  await sql`CREATE INDEX auth_refresh_token_family ON auth_refresh_token (family_id)`.execute(db);
  await sql`CREATE INDEX auth_refresh_token_user ON auth_refresh_token (user_id)`.execute(db);

  // Sliding-window rate limits shared by every API process (docs/decisions/020).
  await sql`
    CREATE TABLE auth_rate_event (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      kind text NOT NULL,
      key text NOT NULL,
      at timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX auth_rate_event_lookup ON auth_rate_event (kind, key, at)`.execute(db);

  await sql`
    CREATE TABLE sandbox_sms (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      to_number text NOT NULL,
      body text NOT NULL,
      sent_at timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX sandbox_sms_sent ON sandbox_sms (sent_at DESC, id DESC)`.execute(db);
  await sql`CREATE INDEX sandbox_sms_to ON sandbox_sms (to_number, sent_at DESC)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE sandbox_sms`.execute(db);
  await sql`DROP TABLE auth_rate_event`.execute(db);
  await sql`DROP TABLE auth_refresh_token`.execute(db);
  await sql`DROP TABLE auth_verification`.execute(db);
  await sql`DROP TABLE mobile_user`.execute(db);
}
