import { sql, type Kysely } from 'kysely';

/**
 * The catalogue trigger also notifies (docs/decisions/064-catalogue-read-path.md): besides bumping
 * `app_meta.catalogue_version` it sends the new version on the channel `greetie_catalogue`.
 * PostgreSQL delivers it when the changing transaction commits (never for one rolled back), to
 * every process listening; their catalogue caches empty themselves without asking per read.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE OR REPLACE FUNCTION greetie_bump_catalogue_version() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
    DECLARE
      v text;
    BEGIN
      INSERT INTO app_meta (key, value, updated_at) VALUES ('catalogue_version', '1', now())
      ON CONFLICT (key) DO UPDATE
        SET value = (app_meta.value::bigint + 1)::text, updated_at = now()
      RETURNING value INTO v;
      PERFORM pg_notify('greetie_catalogue', v);
      RETURN NULL;
    END
    $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE OR REPLACE FUNCTION greetie_bump_catalogue_version() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
    BEGIN
      INSERT INTO app_meta (key, value, updated_at) VALUES ('catalogue_version', '1', now())
      ON CONFLICT (key) DO UPDATE
        SET value = (app_meta.value::bigint + 1)::text, updated_at = now();
      RETURN NULL;
    END
    $$`.execute(db);
}
