import type { MerchantPage } from '../../contract/merchant.ts';
import type { Db } from '../db/index.ts';
import type { CachedAnswer, CatalogueCache } from './cache.ts';
import { activeKeysetsQuery, listSearchRows, searchHitsQuery } from './queries.ts';
import { encodeCursor, merchantPage, type PageRequest } from './rules.ts';

/**
 * A search's pages cut from its hits held in memory (issue 28, decision 151).
 *
 * A next page used to be a query per cursor: each cursor is its own cache key, so a person paging
 * from anywhere (or 500 cursors in the bench) missed the cache every time and paid for a query
 * (planned every call, ~1 ms in PostgreSQL) and its rows (~2 ms in node), even though PostgreSQL
 * read only the 20 trigram hits. Now, in the catalogue cache and emptied with it:
 * - **the order**: every active merchant's keyset in page order, once per catalogue version; a
 *   cursor's place in the order is found by its id, and holds only if its name is the same;
 * - **a search's hits** (words, category, source): the ids of every hit as places in the order,
 *   sorted, when there are at most `HITS_HELD` (more: the search is common, its pages are found by
 *   the walk in page order after a few rows, and take the query path as before);
 * - **a page by its position** among the hits: every cursor that falls between the same two hits
 *   is the same page, one cache entry, one ETag.
 * A cursor the order does not know (a merchant taken out or renamed since the cursor was made, or a
 * cursor made by hand) takes the query path, which continues in (name, id) order from any keyset.
 */

/** At most this many hits of one search are held (4 KB of places and their ids, about 40 KB). */
export const HITS_HELD = 1000;

interface Order {
  /** id → place in (name, id) order, with the name at that place. */
  place: Map<string, { at: number; name: string }>;
}

interface Hits {
  /** Places in the order, ascending. */
  at: Int32Array;
  /** The hits' ids, in the same order. */
  ids: string[];
}

async function loadOrder(db: Db): Promise<Order> {
  const rows = await activeKeysetsQuery(db).execute();
  const place = new Map<string, { at: number; name: string }>();
  rows.forEach((r, at) => place.set(r.id, { at, name: r.name }));
  return { place };
}

/** The search's hits as places, or 'many' (more than HITS_HELD); null when the order misses one of them. */
async function loadHits(db: Db, order: Order, r: PageRequest): Promise<Hits | 'many' | null> {
  const { rows } = await searchHitsQuery(db, { words: r.words, category: r.category, source: r.source }, HITS_HELD).execute(db);
  if (rows.length > HITS_HELD) return 'many';
  const found: { at: number; id: string }[] = [];
  for (const { id } of rows) {
    const p = order.place.get(id);
    // A merchant saved between the two reads: not kept (the change's notification empties the cache).
    if (!p) return null;
    found.push({ at: p.at, id });
  }
  found.sort((a, b) => a.at - b.at);
  return { at: Int32Array.from(found, (h) => h.at), ids: found.map((h) => h.id) };
}

/** How many of the sorted places are at or before `at`. */
function countUpTo(places: Int32Array, at: number): number {
  let lo = 0;
  let hi = places.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (places[mid]! <= at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A page of GET /merchant/v2 by its query, cached under its request (the list without `q`, and a search's fallback). */
export function pageByQuery(db: Db, cache: CatalogueCache, r: PageRequest): Promise<CachedAnswer | null> {
  return cache.read(`v2:${JSON.stringify([r.words.join(' '), r.category ?? null, r.source ?? null, r.cursor ?? null, r.limit])}`, () => merchantPage(db, r));
}

/** GET /merchant/v2 with `q`: the page's answer, from held hits when it can, by a query otherwise. */
export async function searchPageAnswer(db: Db, cache: CatalogueCache, r: PageRequest): Promise<CachedAnswer> {
  const search = JSON.stringify([r.words.join(' '), r.category ?? null, r.source ?? null]);
  const byQuery = () => pageByQuery(db, cache, r);
  const order = await cache.memo('v2-order', () => loadOrder(db));
  const hits = order && (await cache.memo(`v2-hits:${search}`, () => loadHits(db, order, r)));
  if (!order || !hits || hits === 'many') return (await byQuery())!;
  let from = 0;
  if (r.after) {
    const p = order.place.get(r.after.id);
    if (!p || p.name !== r.after.name) return (await byQuery())!;
    from = countUpTo(hits.at, p.at);
  }
  const ids = hits.ids.slice(from, from + r.limit);
  const more = from + r.limit < hits.ids.length;
  const answer = await cache.read(`v2-at:${search}:${from}:${r.limit}`, async (): Promise<MerchantPage> => {
    const items = ids.length > 0 ? await listSearchRows(db, ids, r.words) : [];
    const last = items.at(-1);
    return { items, nextCursor: more && last ? encodeCursor({ name: last.name, id: last.id }) : null };
  });
  return answer!;
}
