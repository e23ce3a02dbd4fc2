import type { MerchantCodeAnswer, PortalMerchant, PortalRedemption, PortalSummary } from '../../contract/portal.ts';
import { api, createApiClient, type ApiClient } from './client.ts';
import { nextCursorOf } from './greetie.ts';

/**
 * The merchant portal's calls (API.md "Merchant portal"), typed from the contract. HTTP only.
 * The new till code of POST …/code is handed to the caller and to nothing else: never logged,
 * never stored.
 */

const path = (merchantId: string, rest = '') => `/api/portal/merchants/${encodeURIComponent(merchantId)}${rest}`;

/** A period of Europe/Stockholm days: [from, to), each optional (`2026-11-26`). */
export interface PortalPeriod {
  from?: string | undefined;
  to?: string | undefined;
}

export interface PortalRedemptionPage {
  items: PortalRedemption[];
  /** The cursor of the next page (from `Link: <…>; rel="next"`), null at the end. */
  nextCursor: string | null;
}

/** GET /portal/merchants: the merchants the caller works for, with the caller's role at each. */
export function listPortalMerchants(signal?: AbortSignal, client: ApiClient = api): Promise<PortalMerchant[]> {
  return client.get<PortalMerchant[]>('/api/portal/merchants', { signal });
}

/** GET /portal/merchants/{id}/summary?from=&to=: issued, redeemed, outstanding and expired, in öre. */
export function getPortalSummary(merchantId: string, period: PortalPeriod, signal?: AbortSignal, client: ApiClient = api): Promise<PortalSummary> {
  return client.get<PortalSummary>(path(merchantId, '/summary'), { query: { from: period.from, to: period.to }, signal });
}

/** GET /portal/merchants/{id}/redemptions: newest first, a page at a time (the Link header's cursor). */
export async function listPortalRedemptions(
  merchantId: string,
  query: PortalPeriod & { cursor?: string | null; limit?: number },
  signal?: AbortSignal,
  client: ApiClient = api,
): Promise<PortalRedemptionPage> {
  let link: string | null = null;
  // The app's client answers bodies only; this one also keeps the page's Link header.
  const reader = createApiClient({
    baseUrl: client.baseUrl,
    token: client.getToken(),
    fetch: async (input, init) => {
      const res = await globalThis.fetch(input, init);
      link = res.headers.get('link');
      return res;
    },
  });
  const items = await reader.get<PortalRedemption[]>(path(merchantId, '/redemptions'), {
    query: { from: query.from, to: query.to, cursor: query.cursor ?? undefined, limit: query.limit },
    signal,
  });
  return { items, nextCursor: nextCursorOf(link) };
}

/**
 * GET /portal/merchants/{id}/redemptions.csv (the owner): the settlement file as a Blob. It is
 * fetched with the sign-in's bearer token (a plain link could not send it), so a refusal is an
 * ApiError like any other call's.
 */
export async function downloadSettlementCsv(merchantId: string, period: PortalPeriod, signal?: AbortSignal, client: ApiClient = api): Promise<Blob> {
  let blob: Blob | null = null;
  const reader = createApiClient({
    baseUrl: client.baseUrl,
    token: client.getToken(),
    fetch: async (input, init) => {
      const res = await globalThis.fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), Accept: 'text/csv' } });
      // The bytes as they came (the BOM too), before the client reads the body as text.
      if (res.ok) blob = await res.clone().blob();
      return res;
    },
  });
  await reader.get<unknown>(path(merchantId, '/redemptions.csv'), { query: { from: period.from, to: period.to }, signal });
  return blob ?? new Blob([], { type: 'text/csv' });
}

/** POST /portal/merchants/{id}/code (the owner): a new till code, shown this once; the old one stops working at once. */
export function rotateMerchantCode(merchantId: string, signal?: AbortSignal, client: ApiClient = api): Promise<MerchantCodeAnswer> {
  return client.post<MerchantCodeAnswer>(path(merchantId, '/code'), undefined, { signal });
}
