import { sql, type Kysely } from 'kysely';

/**
 * Where and when a gift is used, and a search that finds what merchants sell (API.md, Merchant
 * `address`, `openingHours`; `GET /merchant/v2`'s `q`; decision 114).
 * - `street`, `postal_code`, `city`: the address where an InStore voucher is used, all three or
 *   none (charities and code-only merchants have none). `opening_hours`: free text, as the
 *   merchant writes it.
 * - `product_names`: the names of the merchant's active products, kept by statement triggers on
 *   `product` (one update per merchant touched, however many rows a statement changes).
 * - `search` is rebuilt to cover the name, the description, the category's Swedish words, the city
 *   and `product_names`, so one trigram GIN index (`merchant_active_search`) still serves every
 *   `q`, and cursor paging in (name, id) order stays as it was.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE merchant
      ADD COLUMN street text CHECK (length(btrim(street)) BETWEEN 1 AND 200),
      ADD COLUMN postal_code text CHECK (postal_code ~ '^[0-9]{3} [0-9]{2}$'),
      ADD COLUMN city text CHECK (length(btrim(city)) BETWEEN 1 AND 100),
      ADD COLUMN opening_hours text CHECK (length(btrim(opening_hours)) BETWEEN 1 AND 500),
      ADD COLUMN product_names text NOT NULL DEFAULT '',
      ADD CONSTRAINT merchant_address_whole CHECK (
        (street IS NULL AND postal_code IS NULL AND city IS NULL)
        OR (street IS NOT NULL AND postal_code IS NOT NULL AND city IS NOT NULL)
      )`.execute(db);

  // The words a person may type for a category (the client's Swedish labels and a few more).
  await sql`
    CREATE FUNCTION greetie_category_words(category text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
    AS $$ SELECT CASE category
      WHEN 'cafe' THEN 'café kafé'
      WHEN 'restaurant' THEN 'restaurang'
      WHEN 'books' THEN 'böcker bokhandel'
      WHEN 'flowers' THEN 'blommor'
      WHEN 'cinema' THEN 'bio'
      WHEN 'spa' THEN 'spa'
      WHEN 'sport' THEN 'sport'
      WHEN 'experience' THEN 'upplevelser'
      WHEN 'shopping' THEN 'shopping'
      WHEN 'charity' THEN 'välgörenhet'
      ELSE category END $$`.execute(db);

  // Rebuilds `product_names` of the given merchants in one join (a whole catalogue's worth at once).
  await sql`
    CREATE FUNCTION greetie_refresh_product_names(ids uuid[]) RETURNS void LANGUAGE sql AS $$
      UPDATE merchant m SET product_names = a.names
        FROM (SELECT t.id, coalesce(string_agg(p.name COLLATE "default", ' ' ORDER BY p.name COLLATE "default"), '') AS names
                FROM unnest(ids) AS t (id) LEFT JOIN product p ON p.merchant_id = t.id AND p.active
               GROUP BY t.id) a
       WHERE m.id = a.id AND m.product_names IS DISTINCT FROM a.names
    $$`.execute(db);
  await sql`SELECT greetie_refresh_product_names(array_agg(id)) FROM merchant`.execute(db);

  await sql`DROP INDEX merchant_active_search`.execute(db);
  await sql`ALTER TABLE merchant DROP COLUMN search`.execute(db);
  await sql`
    ALTER TABLE merchant ADD COLUMN search text GENERATED ALWAYS AS (greetie_fold(
      (name COLLATE "default") || ' ' || description || ' ' || greetie_category_words(category)
      || ' ' || coalesce(city, '') || ' ' || product_names
    )) STORED`.execute(db);
  await sql`
    CREATE INDEX merchant_active_search ON merchant USING gin (search gin_trgm_ops) WITH (fastupdate = off) WHERE active`.execute(db);

  // Statement triggers with transition tables: each merchant a statement touched is rebuilt once.
  await sql`
    CREATE FUNCTION greetie_merchant_product_names() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        PERFORM greetie_refresh_product_names(ARRAY(SELECT DISTINCT merchant_id FROM new_rows));
      ELSIF TG_OP = 'UPDATE' THEN
        PERFORM greetie_refresh_product_names(ARRAY(
          SELECT n.merchant_id FROM new_rows n JOIN old_rows o ON o.id = n.id
           WHERE n.name IS DISTINCT FROM o.name OR n.active IS DISTINCT FROM o.active OR n.merchant_id IS DISTINCT FROM o.merchant_id
          UNION
          SELECT o.merchant_id FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE n.merchant_id IS DISTINCT FROM o.merchant_id));
      ELSE
        PERFORM greetie_refresh_product_names(ARRAY(SELECT DISTINCT merchant_id FROM old_rows));
      END IF;
      RETURN NULL;
    END $$`.execute(db);
  await sql`
    CREATE TRIGGER product_names_insert AFTER INSERT ON product REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION greetie_merchant_product_names()`.execute(db);
  await sql`
    CREATE TRIGGER product_names_update AFTER UPDATE ON product REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION greetie_merchant_product_names()`.execute(db);
  await sql`
    CREATE TRIGGER product_names_delete AFTER DELETE ON product REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION greetie_merchant_product_names()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TRIGGER product_names_delete ON product`.execute(db);
  await sql`DROP TRIGGER product_names_update ON product`.execute(db);
  await sql`DROP TRIGGER product_names_insert ON product`.execute(db);
  await sql`DROP FUNCTION greetie_merchant_product_names()`.execute(db);
  await sql`DROP FUNCTION greetie_refresh_product_names(uuid[])`.execute(db);
  await sql`DROP INDEX merchant_active_search`.execute(db);
  await sql`ALTER TABLE merchant DROP COLUMN search`.execute(db);
  await sql`
    ALTER TABLE merchant ADD COLUMN search text GENERATED ALWAYS AS (greetie_fold((name COLLATE "default") || ' ' || description)) STORED`.execute(db);
  await sql`
    CREATE INDEX merchant_active_search ON merchant USING gin (search gin_trgm_ops) WITH (fastupdate = off) WHERE active`.execute(db);
  await sql`DROP FUNCTION greetie_category_words(text)`.execute(db);
  await sql`
    ALTER TABLE merchant
      DROP CONSTRAINT merchant_address_whole,
      DROP COLUMN product_names,
      DROP COLUMN opening_hours,
      DROP COLUMN city,
      DROP COLUMN postal_code,
      DROP COLUMN street`.execute(db);
}
