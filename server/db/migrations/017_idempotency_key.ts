import { sql, type Kysely } from 'kysely';

/**
 * Idempotency keys (decision 084): `POST /greetie`, `/greetie/createv2` and
 * `/voucher/redeem` take an `Idempotency-Key` header. One row per person and key: the request's
 * hash (method, route and body) and, once answered, the answer's status and body. A row without a
 * status is a request still running (or interrupted). Rows older than 24 hours are deleted by the
 * hourly clean-up (server/auth/retention.ts); a removed account's go with it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE idempotency_key (
      user_id uuid NOT NULL REFERENCES mobile_user (id) ON DELETE CASCADE,
      key text NOT NULL CHECK (char_length(key) BETWEEN 1 AND 100),
      request_hash text NOT NULL,
      -- The first answer, once there is one: what every repeat within 24 hours gets.
      status_code integer CHECK (status_code BETWEEN 200 AND 499),
      response text,
      created_at timestamptz NOT NULL,
      PRIMARY KEY (user_id, key),
      CHECK ((status_code IS NULL) = (response IS NULL))
    )`.execute(db);
  await sql`CREATE INDEX idempotency_key_created ON idempotency_key (created_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE idempotency_key`.execute(db);
}
