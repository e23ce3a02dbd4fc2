import { sql } from 'kysely';
import type { Db } from '../server/db/index.ts';

/**
 * A catalogue at the size it is meant to reach (decision 114): `merchants` merchants (10 000) with
 * ten products each (100 000, and ten more for each demo merchant; the tenth taken out of the catalogue), one merchant in 500 selling a
 * "Fika för två", names in a fixed order ("Handlare 00001 …"). Loaded as an operator would bulk-load
 * one: the trigram index is dropped and built again from its own definition afterwards (building it
 * is far cheaper than row-by-row updates), then analysed. Used by the search EXPLAIN tests
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
           CASE WHEN k = 1 AND m.name LIKE 'Handlare __000 %' OR m.name LIKE 'Handlare __500 %' AND k = 1 THEN 'Fika för två'
                ELSE (ARRAY['Presentkort', 'Lunch', 'Middag', 'Biobiljett', 'Massage', 'Bukett', 'Pocketbok', 'Entré', 'Kurs'])[1 + k % 9] || ' ' || (m.name COLLATE "default" ~ '[02468] ')::text || k END,
           'InStore', 10000 + k * 100, 365, k <> 10
    FROM merchant m CROSS JOIN generate_series(1, 10) AS k`.execute(db);
  await sql.raw(def[0]!.indexdef).execute(db);
  await sql`ANALYZE merchant`.execute(db);
  await sql`ANALYZE product`.execute(db);
}
