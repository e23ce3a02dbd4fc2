import { api, ApiError } from './client.ts';
import { defaultErrorMessage } from './errors.ts';
import { currentLanguage } from '../format/language.ts';
import type { Merchant, MerchantCategory, MerchantPage, MerchantSource, Product } from '../../contract/merchant.ts';

/** The merchant catalogue's calls (API.md, "Merchant (public)"). */

export interface MerchantQuery {
  q?: string;
  category?: MerchantCategory;
  source?: MerchantSource;
  cursor?: string;
  limit?: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * An id that is not a UUID names no merchant: answer as the server would for an unknown one,
 * without asking it.
 */
function assertMerchantId(id: string, path: string): void {
  if (!UUID.test(id)) {
    const language = currentLanguage();
    const body = { code: 'MERCHANT_NOT_FOUND', message: defaultErrorMessage(404, 'Not Found', undefined, language) };
    throw new ApiError({ url: path, status: 404, statusText: 'Not Found', body, language });
  }
}

export function listMerchants(query: MerchantQuery = {}, signal?: AbortSignal): Promise<MerchantPage> {
  const q = query.q?.trim();
  return api.get<MerchantPage>('/api/merchant/v2', {
    query: { q: q || undefined, category: query.category, source: query.source, cursor: query.cursor, limit: query.limit },
    signal,
  });
}

export function getMerchant(id: string, signal?: AbortSignal): Promise<Merchant> {
  const path = `/api/merchant/${encodeURIComponent(id)}`;
  assertMerchantId(id, path);
  return api.get<Merchant>(path, { signal });
}

export function getMerchantProducts(id: string, signal?: AbortSignal): Promise<Product[]> {
  const path = `/api/merchant/${encodeURIComponent(id)}/products`;
  assertMerchantId(id, path);
  return api.get<Product[]>(path, { signal });
}

// ---- What the merchant pages load (the `search` and `load` actors their machines are given). ----

/** The list page's search: the filters as the page holds them ('' = any), and where to continue. */
export interface MerchantSearchParams {
  q: string;
  category: MerchantCategory | '';
  source: MerchantSource | '';
  /** The next page after this cursor; null for the first page. */
  cursor: string | null;
}

export const MERCHANT_PAGE_SIZE = 24;

/** One page of the list page's search. */
export function searchMerchants(params: MerchantSearchParams, signal?: AbortSignal): Promise<MerchantPage> {
  return listMerchants(
    {
      q: params.q,
      category: params.category || undefined,
      source: params.source || undefined,
      cursor: params.cursor ?? undefined,
      limit: MERCHANT_PAGE_SIZE,
    },
    signal,
  );
}

export interface MerchantDetailsData {
  merchant: Merchant;
  products: Product[];
}

export async function loadMerchantDetails(params: { id: string }, signal?: AbortSignal): Promise<MerchantDetailsData> {
  const [merchant, products] = await Promise.all([getMerchant(params.id, signal), getMerchantProducts(params.id, signal)]);
  return { merchant, products };
}
