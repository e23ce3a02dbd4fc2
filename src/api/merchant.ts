import { api, ApiError } from './client.ts';
import { currentLanguage } from '../format/language.ts';
import type { Merchant, MerchantCategory, MerchantPage, MerchantSource, Product, SandboxMerchant } from '../../contract/merchant.ts';

/** The merchant catalogue's calls (API.md, "Merchant (public)") and the sandbox's demo codes. */

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
    throw new ApiError({ url: path, status: 404, statusText: 'Not Found', body: undefined, language: currentLanguage() });
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

export function getSandboxMerchants(signal?: AbortSignal): Promise<SandboxMerchant[]> {
  return api.get<SandboxMerchant[]>('/api/sandbox/merchants', { signal });
}

// ---- What the merchant pages' loaders do (given to loaderMachine as its `load` actor). ----

export interface MerchantListParams {
  q: string;
  category: MerchantCategory | '';
  source: MerchantSource | '';
  /** For "show more": the cursor of the next page and the merchants already shown. */
  cursor?: string;
  previous?: Merchant[];
}

export interface MerchantListData {
  items: Merchant[];
  nextCursor: string | null;
}

export const MERCHANT_PAGE_SIZE = 24;

/** One page of merchants, appended to those already shown when it continues a list. */
export async function loadMerchantList(params: MerchantListParams, signal?: AbortSignal): Promise<MerchantListData> {
  const page = await listMerchants(
    {
      q: params.q,
      category: params.category || undefined,
      source: params.source || undefined,
      cursor: params.cursor,
      limit: MERCHANT_PAGE_SIZE,
    },
    signal,
  );
  return { items: [...(params.cursor ? (params.previous ?? []) : []), ...page.items], nextCursor: page.nextCursor };
}

export interface MerchantDetailsData {
  merchant: Merchant;
  products: Product[];
}

export async function loadMerchantDetails(params: { id: string }, signal?: AbortSignal): Promise<MerchantDetailsData> {
  const [merchant, products] = await Promise.all([getMerchant(params.id, signal), getMerchantProducts(params.id, signal)]);
  return { merchant, products };
}
