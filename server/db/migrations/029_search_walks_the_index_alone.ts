import { sql, type Kysely } from 'kysely';

/**
 * A search's walk in page order reads `search` from the index, not the table (issue 28, decision
 * 141). A search the trigram index cannot serve well (two letters have no trigram; a common word
 * is cheaper found in page order) walks the merchants in (name, id) order until the page is full.
 * Through `merchant_active_name` every row walked past was read from the table (~9 800 rows for a
 * rare two-letter search at 10 000 merchants). Now:
 * - `merchant_active_name_search`: (name, id) with `search` included, for every active merchant
 *   whose `search` fits a B-tree entry (at most 2 000 bytes: with the name and the id well under
 *   PostgreSQL's 2 704-byte limit even uncompressed), so the walk is an index-only scan;
 * - `merchant_active_name_long_search`: (name, id) of the others (a long description and many
 *   products), walked the old way. Without the split, a merchant whose text outgrew an index entry
 *   could not be saved ("index row size exceeds btree version 4 maximum"; a 2 000-character
 *   description and 60 products do it).
 * The page query (server/merchant/queries.ts `merchantPageQuery`) asks both, each in page order,
 * and PostgreSQL merges them. The list without a search still walks `merchant_active_name`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE INDEX merchant_active_name_search ON merchant (name, id) INCLUDE (search)
     WHERE active AND octet_length(search) <= 2000`.execute(db);
  await sql`
    CREATE INDEX merchant_active_name_long_search ON merchant (name, id)
     WHERE active AND octet_length(search) > 2000`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX merchant_active_name_long_search`.execute(db);
  await sql`DROP INDEX merchant_active_name_search`.execute(db);
}
