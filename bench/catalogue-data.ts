import { sql } from 'kysely';
import type { Db } from '../server/db/index.ts';

/**
 * A catalogue at the size it is meant to reach (decision 114): `merchants` merchants (10 000) with
 * ten products each (100 000, and ten more for each demo merchant; the tenth taken out of the catalogue), one merchant in 500 selling a
 * "Fika för två" (numbers 237, 737, 1237, …), names in a fixed order ("Handlare 00001 …").
 * The sellers sit off the rows ANALYZE samples: below 30 000 rows it reads every row and takes its
 * histogram at every 100th value in order, and sellers at every 500th number (as this file had
 * them until decision 141) were 20 of its 101 values, so PostgreSQL believed a fifth of the
 * catalogue sells a fika and walked the name index past 9 800 rows instead of reading 20 from the
 * trigram index. Real catalogues have no such stride; a generator should not invent one. Loaded as an operator would bulk-load
 * one: the trigram index is dropped and built again from its own definition afterwards (building it
 * is far cheaper than row-by-row updates), then vacuumed and analysed. Used by the search EXPLAIN tests
 * (tests/server/merchant/search-indexes.test.ts) and the search bench (bench/search.ts), so both
 * look at the same data.
 */
export async function fillLargeCatalogue(db: Db, merchants = 10_000): Promise<void> {
  const { rows: def } = await sql<{ indexdef: string }>`SELECT indexdef FROM pg_indexes WHERE indexname = 'merchant_active_search'`.execute(db);
  await sql`DROP INDEX merchant_active_search`.execute(db);
  await sql`
    INSERT INTO merchant (name, description, logo_url, category, sources, active, code_hash, street, postal_code, city)
    SELECT 'Handlare ' || lpad(g::text, 5, '0') || ' ' || md5(g::text),
           'Beskrivning ' || md5((g * 7)::text),
           '/merchants/x.svg', 'shopping', '{InStore}', g % 50 <> 7, 'x',
           'Gatan ' || g, '111 22', 'Ort' || (g % 300)
    FROM generate_series(1, ${merchants}::int) AS g`.execute(db);
  await sql`
    INSERT INTO product (merchant_id, name, source, price, valid_days, active)
    SELECT m.id,
           CASE WHEN k = 1 AND m.name ~ '^Handlare [0-9]{2}[27]37 ' THEN 'Fika för två'
                ELSE (ARRAY['Presentkort', 'Lunch', 'Middag', 'Biobiljett', 'Massage', 'Bukett', 'Pocketbok', 'Entré', 'Kurs'])[1 + k % 9] || ' ' || (m.name COLLATE "default" ~ '[02468] ')::text || k END,
           'InStore', 10000 + k * 100, 365, k <> 10
    FROM merchant m CROSS JOIN generate_series(1, 10) AS k`.execute(db);
  await sql.raw(def[0]!.indexdef).execute(db);
  // VACUUM as well: the product triggers rewrote every merchant row, and until the visibility map
  // is set an index-only walk (migration 029) is costed as a table read, as autovacuum would set it.
  await sql`VACUUM ANALYZE merchant`.execute(db);
  await sql`VACUUM ANALYZE product`.execute(db);
}
