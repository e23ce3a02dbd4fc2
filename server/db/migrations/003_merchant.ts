import { sql, type Kysely } from 'kysely';

/**
 * The merchant catalogue: merchants (merchant code stored hashed), their products, the indexes
 * behind every list query, and the catalogue version the read-through cache checks
 * (docs/decisions/031-catalogue-cache.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);

  // Swedish order (å before ä before ö) where the server has ICU; byte order where it has not.
  await sql`
    DO $$
    BEGIN
      CREATE COLLATION greetie_sv (provider = icu, locale = 'sv-SE');
    EXCEPTION WHEN OTHERS THEN
      CREATE COLLATION greetie_sv FROM "C";
    END
    $$`.execute(db);

  // unaccent() is only STABLE (its dictionary could change), so it cannot back a generated column
  // or an index. Naming the dictionary explicitly makes the result fixed, which is what IMMUTABLE
  // promises; search_path is pinned so the function means the same thing for every caller.
  await sql`
    CREATE FUNCTION greetie_fold(value text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
    SET search_path = public, pg_temp
    AS $$ SELECT lower(public.unaccent('public.unaccent'::regdictionary, value)) $$`.execute(db);

  await sql`
    CREATE TABLE merchant (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      name text COLLATE greetie_sv NOT NULL CHECK (length(btrim(name)) BETWEEN 1 AND 100),
      description text NOT NULL DEFAULT '' CHECK (length(description) <= 2000),
      logo_url text NOT NULL,
      category text NOT NULL,
      website text,
      sources text[] NOT NULL CHECK (
        cardinality(sources) BETWEEN 1 AND 3 AND sources <@ ARRAY['InStore', 'Charity', 'Code']::text[]
      ),
      active boolean NOT NULL DEFAULT true,
      code_hash text NOT NULL,
      search text GENERATED ALWAYS AS (greetie_fold((name COLLATE "default") || ' ' || description)) STORED,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);

  // Every list query reads active merchants in (name, id) order, the keyset the cursor carries.
  await sql`CREATE INDEX merchant_active_name ON merchant (name, id) WHERE active`.execute(db);
  await sql`CREATE INDEX merchant_active_category_name ON merchant (category, name, id) WHERE active`.execute(db);
  // The catalogue is read far more than written: GIN without a pending list (fastupdate off) keeps
  // every row in the index proper, so the planner can always cost and use it.
  await sql`CREATE INDEX merchant_active_sources ON merchant USING gin (sources) WITH (fastupdate = off) WHERE active`.execute(db);
  await sql`
    CREATE INDEX merchant_active_search ON merchant USING gin (search gin_trgm_ops) WITH (fastupdate = off) WHERE active`.execute(db);

  await sql`
    CREATE TABLE product (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      merchant_id uuid NOT NULL REFERENCES merchant (id),
      name text COLLATE greetie_sv NOT NULL CHECK (length(btrim(name)) BETWEEN 1 AND 100),
      description text NOT NULL DEFAULT '' CHECK (length(description) <= 2000),
      image_url text,
      source text NOT NULL CHECK (source IN ('InStore', 'Charity', 'Code')),
      price integer CHECK (price > 0),
      min_amount integer CHECK (min_amount > 0),
      max_amount integer,
      valid_days integer NOT NULL CHECK (valid_days BETWEEN 1 AND 3650),
      active boolean NOT NULL DEFAULT true,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT product_price_or_range CHECK (
        (price IS NOT NULL AND min_amount IS NULL AND max_amount IS NULL)
        OR (price IS NULL AND min_amount IS NOT NULL AND max_amount IS NOT NULL AND min_amount <= max_amount)
      )
    )`.execute(db);
  await sql`CREATE INDEX product_active_merchant ON product (merchant_id) WHERE active`.execute(db);

  // Any change to the catalogue, from any process (the API, the admin command, plain SQL), bumps
  // the version in the same transaction; every API process checks it before using its cache.
  await sql`INSERT INTO app_meta (key, value) VALUES ('catalogue_version', '0') ON CONFLICT (key) DO NOTHING`.execute(db);
  await sql`
    CREATE FUNCTION greetie_bump_catalogue_version() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
    BEGIN
      INSERT INTO app_meta (key, value, updated_at) VALUES ('catalogue_version', '1', now())
      ON CONFLICT (key) DO UPDATE
        SET value = (app_meta.value::bigint + 1)::text, updated_at = now();
      RETURN NULL;
    END
    $$`.execute(db);
  for (const table of ['merchant', 'product']) {
    await sql`
      CREATE TRIGGER ${sql.raw(`${table}_catalogue_version`)}
      AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${sql.table(table)}
      FOR EACH STATEMENT EXECUTE FUNCTION greetie_bump_catalogue_version()`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE product`.execute(db);
  await sql`DROP TABLE merchant`.execute(db);
  await sql`DROP FUNCTION greetie_bump_catalogue_version()`.execute(db);
  await sql`DROP FUNCTION greetie_fold(text)`.execute(db);
  await sql`DELETE FROM app_meta WHERE key = 'catalogue_version'`.execute(db);
  await sql`DROP COLLATION greetie_sv`.execute(db);
}
