import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Db, Tx } from '../db/index.ts';
import type { MerchantTable, ProductTable } from '../db/schema.ts';
import type { Merchant, MerchantCategory, MerchantSource, Product } from '../../contract/merchant.ts';

/**
 * The catalogue's SQL: the public reads, then the operator's writes (./admin.ts). Every list reads
 * active merchants in (name, id) order — the keyset of the cursor — so each list query is served
 * by one of the partial indexes of 003_merchant. Nothing here ever selects `code_hash` into a
 * public shape.
 */

type Executor = Db | Tx;

export interface Keyset {
  name: string;
  id: string;
}

export interface MerchantFilter {
  /** Words that must all occur in the name or description (case and accents ignored). */
  words?: string[];
  category?: MerchantCategory;
  source?: MerchantSource;
  after?: Keyset;
  limit: number;
}

type MerchantRow = Pick<
  Selectable<MerchantTable>,
  'id' | 'name' | 'description' | 'logo_url' | 'category' | 'website' | 'sources' | 'street' | 'postal_code' | 'city' | 'opening_hours'
> & { price_from: number | null; matched_product?: string | null };

/** A merchant row's fields as the contract names them (public answers and the admin command). */
export function merchantFields(row: Omit<MerchantRow, 'price_from' | 'matched_product'>): Omit<Merchant, 'priceFrom'> {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    logoUrl: row.logo_url,
    category: row.category as MerchantCategory,
    website: row.website,
    sources: row.sources as MerchantSource[],
    address: row.street !== null && row.postal_code !== null && row.city !== null ? { street: row.street, postalCode: row.postal_code, city: row.city } : null,
    openingHours: row.opening_hours,
  };
}

export function toMerchant(row: MerchantRow): Merchant {
  const merchant: Merchant = { ...merchantFields(row), priceFrom: row.price_from };
  if (row.matched_product) merchant.matchedProduct = row.matched_product;
  return merchant;
}

type ProductRow = Pick<
  Selectable<ProductTable>,
  'id' | 'merchant_id' | 'name' | 'description' | 'source' | 'price' | 'min_amount' | 'max_amount' | 'valid_days'
> & { image_url: string; available?: boolean };

export function toProduct(row: ProductRow): Product {
  const product: Product = {
    id: row.id,
    merchantId: row.merchant_id,
    name: row.name,
    description: row.description,
    imageUrl: row.image_url,
    source: row.source as MerchantSource,
    validDays: row.valid_days,
  };
  if (row.available !== undefined) product.available = row.available;
  if (row.price !== null) product.price = row.price;
  else {
    product.minAmount = row.min_amount ?? 0;
    product.maxAmount = row.max_amount ?? 0;
  }
  return product;
}

/** `%`, `_` and `\` typed by a person are literal characters, not LIKE wildcards. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function merchantColumns(db: Executor) {
  return db
    .selectFrom('merchant as m')
    .select(['m.id', 'm.name', 'm.description', 'm.logo_url', 'm.category', 'm.website', 'm.sources', 'm.street', 'm.postal_code', 'm.city', 'm.opening_hours'])
    .select((eb) =>
      eb
        .selectFrom('product as p')
        .whereRef('p.merchant_id', '=', 'm.id')
        .where('p.active', '=', true)
        .select(sql<number | null>`min(coalesce(p.price, p.min_amount))`.as('v'))
        .as('price_from'),
    );
}

/**
 * One page of active merchants, in (name, id) order, after the keyset when given. Every word must
 * occur in `search` (name, description, category words, city and active products' names:
 * 026_merchant_address), which the trigram index serves. For the page's rows only, a search also
 * names the product a word was found in when the merchant's own text does not hold every word.
 */
export function merchantPageQuery(db: Executor, f: MerchantFilter) {
  const words = (f.words ?? []).map(escapeLike);
  let query = merchantColumns(db).where('m.active', '=', true);
  if (words.length === 0) {
    if (f.category) query = query.where('m.category', '=', f.category);
    if (f.source) query = query.where(sql<boolean>`m.sources @> ARRAY[${f.source}]::text[]`);
    if (f.after) query = query.where(sql<boolean>`(m.name, m.id) > (${f.after.name}, ${f.after.id}::uuid)`);
    return query.orderBy('m.name').orderBy('m.id').limit(f.limit);
  }
  // A search picks the page's ids from `search` alone, then reads those rows (decision 141).
  return query
    .select(matchedProduct(words))
    .where(sql<boolean>`m.id IN (${searchIds(db, f, false, f.limit)} UNION ALL ${searchIds(db, f, true, f.limit)})`)
    .orderBy('m.name')
    .orderBy('m.id')
    .limit(f.limit);
}

/**
 * For the page's rows only: the product a word was found in, when the merchant's own text does not
 * hold every word (`words` already escaped for LIKE).
 */
function matchedProduct(words: string[]) {
  return sql<string | null>`CASE WHEN EXISTS (
          SELECT 1 FROM unnest(${words}::text[]) AS w (word)
           WHERE greetie_fold((m.name COLLATE "default") || ' ' || m.description || ' ' || greetie_category_words(m.category) || ' ' || coalesce(m.city, ''))
                 NOT LIKE '%' || greetie_fold(w.word) || '%')
        THEN (SELECT p.name FROM product p
               WHERE p.merchant_id = m.id AND p.active
                 AND EXISTS (SELECT 1 FROM unnest(${words}::text[]) AS w (word) WHERE greetie_fold(p.name COLLATE "default") LIKE '%' || greetie_fold(w.word) || '%')
               ORDER BY p.name, p.id LIMIT 1)
        END`.as('matched_product');
}

/**
 * The first `limit` ids of a search in page order, from one of the two halves of migration 029
 * (`long`: the rows whose `search` outgrows the covering index). PostgreSQL chooses between the
 * trigram index's hits, sorted (a rare word), and a walk in page order that stops once `limit` ids
 * are found (a common word, or two letters, which have no trigram); the walk is an index-only scan
 * of `merchant_active_name_search` (or `merchant_active_name_long_search` for the long rows).
 */
function searchIds(db: Executor, f: MerchantFilter, long: boolean, limit: number) {
  let q = db
    .selectFrom('merchant as s')
    .select('s.id')
    .where('s.active', '=', true)
    .where(long ? sql<boolean>`octet_length(s.search) > 2000` : sql<boolean>`octet_length(s.search) <= 2000`);
  if (f.category) q = q.where('s.category', '=', f.category);
  if (f.source) q = q.where(sql<boolean>`s.sources @> ARRAY[${f.source}]::text[]`);
  for (const word of (f.words ?? []).map(escapeLike)) q = q.where(sql<boolean>`s.search LIKE '%' || greetie_fold(${word}) || '%'`);
  if (f.after) q = q.where(sql<boolean>`(s.name, s.id) > (${f.after.name}, ${f.after.id}::uuid)`);
  return q.orderBy('s.name').orderBy('s.id').limit(limit);
}

/**
 * Every hit of a search (no cursor), at most `atMost + 1` from each half, in no particular order:
 * more than `atMost` in all means "too many to hold" (decision 151). The same two id queries as a
 * page's, with a larger limit.
 */
export function searchHitsQuery(db: Executor, f: Omit<MerchantFilter, 'after' | 'limit'>, atMost: number) {
  const all = { ...f, limit: atMost + 1 };
  return sql<{ id: string }>`SELECT hits.id FROM (${searchIds(db, all, false, atMost + 1)} UNION ALL ${searchIds(db, all, true, atMost + 1)}) AS hits`;
}

/** Every active merchant's keyset in page order: a merchant's place in (name, id) order is its index here. */
export function activeKeysetsQuery(db: Executor) {
  return db.selectFrom('merchant').select(['id', 'name']).where('active', '=', true).orderBy('name').orderBy('id');
}

/** The given active merchants as a search's page shows them, in page order. */
export function searchRowsQuery(db: Executor, ids: string[], words: string[]) {
  return merchantColumns(db)
    .select(matchedProduct(words.map(escapeLike)))
    .where('m.active', '=', true)
    .where(sql<boolean>`m.id = ANY(${ids}::uuid[])`)
    .orderBy('m.name')
    .orderBy('m.id');
}

export async function listSearchRows(db: Executor, ids: string[], words: string[]): Promise<Merchant[]> {
  const rows = await searchRowsQuery(db, ids, words).execute();
  return rows.map((r) => toMerchant(r as MerchantRow));
}

export async function listMerchantPage(db: Executor, f: MerchantFilter): Promise<Merchant[]> {
  const rows = await merchantPageQuery(db, f).execute();
  return rows.map((r) => toMerchant(r as MerchantRow));
}

/** Every active merchant (GET /api/merchant), in name order. */
export function allActiveMerchantsQuery(db: Executor) {
  return merchantColumns(db).where('m.active', '=', true).orderBy('m.name').orderBy('m.id');
}

export async function listActiveMerchants(db: Executor): Promise<Merchant[]> {
  const rows = await allActiveMerchantsQuery(db).execute();
  return rows.map((r) => toMerchant(r as MerchantRow));
}

export async function findActiveMerchant(db: Executor, id: string): Promise<Merchant | undefined> {
  const row = await merchantColumns(db).where('m.id', '=', id).where('m.active', '=', true).executeTakeFirst();
  return row ? toMerchant(row as MerchantRow) : undefined;
}

/** Active products of a merchant: cheapest first, then by name. */
export function activeProductsQuery(db: Executor, merchantId: string) {
  return db
    .selectFrom('product as p')
    .innerJoin('merchant as m', 'm.id', 'p.merchant_id')
    .select(['p.id', 'p.merchant_id', 'p.name', 'p.description', 'p.source', 'p.price', 'p.min_amount', 'p.max_amount', 'p.valid_days'])
    .select(sql<string>`coalesce(p.image_url, m.logo_url)`.as('image_url'))
    // A Code product is available while its pool has a free code (009_code_pool; decision 080).
    .select(sql<boolean>`p.source <> 'Code' OR coalesce((SELECT cp.free > 0 FROM code_pool cp WHERE cp.product_id = p.id), false)`.as('available'))
    .where('p.merchant_id', '=', merchantId)
    .where('p.active', '=', true)
    .orderBy(sql`coalesce(p.price, p.min_amount)`)
    .orderBy('p.name')
    .orderBy('p.id');
}

export async function listActiveProducts(db: Executor, merchantId: string): Promise<Product[]> {
  const rows = await activeProductsQuery(db, merchantId).execute();
  return rows.map(toProduct);
}

/** The stored code hash, for the redeem feature's verification (never for an answer). */
export async function findMerchantCodeHash(db: Executor, merchantId: string): Promise<string | undefined> {
  const row = await db.selectFrom('merchant').select('code_hash').where('id', '=', merchantId).executeTakeFirst();
  return row?.code_hash;
}

/** Stored code hashes of the given merchants (the sandbox's demo list checks them). */
export function merchantCodeHashes(db: Executor, ids: string[]): Promise<{ id: string; name: string; code_hash: string }[]> {
  return db.selectFrom('merchant').select(['id', 'name', 'code_hash']).where('id', 'in', ids).orderBy('name').execute();
}

// ---- The operator's writes (./admin.ts); each multi-row change runs in the caller's transaction. ----

const MERCHANT_COLUMNS = [
  'id',
  'name',
  'description',
  'logo_url',
  'category',
  'website',
  'sources',
  'street',
  'postal_code',
  'city',
  'opening_hours',
  'active',
] as const;
const PRODUCT_COLUMNS = [
  'id',
  'merchant_id',
  'name',
  'description',
  'image_url',
  'source',
  'price',
  'min_amount',
  'max_amount',
  'valid_days',
  'active',
] as const;

export type MerchantRecord = Pick<Selectable<MerchantTable>, (typeof MERCHANT_COLUMNS)[number]>;
export type ProductRecord = Pick<Selectable<ProductTable>, (typeof PRODUCT_COLUMNS)[number]>;

/** Every merchant, active or not, in name order (`npm run admin -- merchant list`). */
export function listAllMerchants(db: Executor): Promise<Pick<MerchantRecord, 'id' | 'name' | 'category' | 'active'>[]> {
  return db.selectFrom('merchant').select(['id', 'name', 'category', 'active']).orderBy('name').execute();
}

/** The merchant's row, locked for the rest of the transaction; undefined when there is none. */
export function lockMerchant(tx: Tx, id: string): Promise<MerchantRecord | undefined> {
  return tx.selectFrom('merchant').select(MERCHANT_COLUMNS).where('id', '=', id).forUpdate().executeTakeFirst();
}

export function insertMerchant(db: Executor, values: Insertable<MerchantTable>): Promise<MerchantRecord> {
  return db.insertInto('merchant').values(values).returning(MERCHANT_COLUMNS).executeTakeFirstOrThrow();
}

/** Changes the given columns and `updated_at`; undefined when there is no such merchant. */
export function updateMerchantRow(db: Executor, id: string, set: Updateable<MerchantTable>): Promise<MerchantRecord | undefined> {
  return db
    .updateTable('merchant')
    .set({ ...set, updated_at: sql`now()` })
    .where('id', '=', id)
    .returning(MERCHANT_COLUMNS)
    .executeTakeFirst();
}

/** A source of one of the merchant's active products that is not among `sources`, if any. */
export async function activeProductSourceOutside(db: Executor, merchantId: string, sources: string[]): Promise<string | undefined> {
  const row = await db
    .selectFrom('product')
    .select('source')
    .where('merchant_id', '=', merchantId)
    .where('active', '=', true)
    .where('source', 'not in', sources)
    .executeTakeFirst();
  return row?.source;
}

/** Replaces the stored code hash; false when there is no such merchant. */
export async function setMerchantCodeHash(db: Executor, id: string, codeHash: string): Promise<boolean> {
  const res = await db.updateTable('merchant').set({ code_hash: codeHash, updated_at: sql`now()` }).where('id', '=', id).executeTakeFirst();
  return res.numUpdatedRows > 0n;
}

/** The product's row, locked for the rest of the transaction; undefined when there is none. */
export function lockProduct(tx: Tx, id: string): Promise<ProductRecord | undefined> {
  return tx.selectFrom('product').select(PRODUCT_COLUMNS).where('id', '=', id).forUpdate().executeTakeFirst();
}

export function insertProduct(db: Executor, values: Insertable<ProductTable>): Promise<ProductRecord> {
  return db.insertInto('product').values(values).returning(PRODUCT_COLUMNS).executeTakeFirstOrThrow();
}

/** Changes the given columns and `updated_at`; undefined when there is no such product. */
export function updateProductRow(db: Executor, id: string, set: Updateable<ProductTable>): Promise<ProductRecord | undefined> {
  return db
    .updateTable('product')
    .set({ ...set, updated_at: sql`now()` })
    .where('id', '=', id)
    .returning(PRODUCT_COLUMNS)
    .executeTakeFirst();
}
