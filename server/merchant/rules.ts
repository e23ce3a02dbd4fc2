import {
  MERCHANT_PAGE_DEFAULT,
  type Merchant,
  type MerchantCategory,
  type MerchantListQuery,
  type MerchantPage,
  type MerchantSource,
  type Product,
} from '../../contract/merchant.ts';
import { decodeCursor as decodeKeysetCursor, encodeCursor as encodeKeysetCursor } from '../cursor.ts';
import type { Db } from '../db/index.ts';
import { badRequest } from '../errors.ts';
import { findActiveMerchant, listActiveMerchants, listActiveProducts, listMerchantPage, type Keyset } from './queries.ts';

/**
 * The public catalogue's rules (API.md, "Merchant (public)"): what a search means, how a page is
 * cut and how the next one is addressed. The routes add HTTP caching; the operator's changes are
 * in ./admin.ts.
 */

const MAX_WORDS = 8;

/** The cursor is opaque to clients: base64url of `[name, id]`, the last row's keyset. */
export function encodeCursor(k: Keyset): string {
  return encodeKeysetCursor(k.name, k.id);
}

export function decodeCursor(cursor: string): Keyset {
  const keyset = decodeKeysetCursor(cursor, (name) => name.length <= 200 && !name.includes('\u0000'));
  if (!keyset) throw badRequest('INVALID_CURSOR');
  return { name: keyset.key, id: keyset.id };
}

/** The words of a search: at most 8, each at most 100 characters, without NUL. */
export function searchWords(q: string | undefined): string[] {
  if (!q) return [];
  return q
    .replaceAll('\u0000', ' ')
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, MAX_WORDS);
}

/** One search of GET /merchant/v2, read from its query (a bad cursor is a 400 INVALID_CURSOR). */
export interface PageRequest {
  words: string[];
  category?: MerchantCategory;
  source?: MerchantSource;
  cursor?: string;
  after?: Keyset;
  limit: number;
}

export function pageRequest(query: MerchantListQuery): PageRequest {
  return {
    words: searchWords(query.q),
    category: query.category,
    source: query.source,
    cursor: query.cursor,
    after: query.cursor ? decodeCursor(query.cursor) : undefined,
    limit: query.limit ?? MERCHANT_PAGE_DEFAULT,
  };
}

/** One page in name order; `nextCursor` only when another row follows. */
export async function merchantPage(db: Db, r: PageRequest): Promise<MerchantPage> {
  const rows = await listMerchantPage(db, { words: r.words, category: r.category, source: r.source, after: r.after, limit: r.limit + 1 });
  const items = rows.slice(0, r.limit);
  const last = items.at(-1);
  return { items, nextCursor: rows.length > r.limit && last ? encodeCursor({ name: last.name, id: last.id }) : null };
}

export function allMerchants(db: Db): Promise<Merchant[]> {
  return listActiveMerchants(db);
}

/** An active merchant, or undefined (the route answers 404). */
export function activeMerchant(db: Db, id: string): Promise<Merchant | undefined> {
  return findActiveMerchant(db, id);
}

/** An active merchant's products, or undefined when the merchant is not active (404). */
export async function merchantProducts(db: Db, id: string): Promise<Product[] | undefined> {
  const merchant = await findActiveMerchant(db, id);
  return merchant ? listActiveProducts(db, merchant.id) : undefined;
}
