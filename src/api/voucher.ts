import { api, type ApiClient } from './client.ts';
import type { Voucher } from '../../contract/voucher.ts';

/**
 * The voucher calls (API.md "Voucher", and GET /greetie/{id}/vouchers), typed from the contract.
 * HTTP only. The merchant code goes in the body, never in the URL (URLs get logged).
 */

const path = (id: string, rest = '') => `/api/voucher/${encodeURIComponent(id)}${rest}`;

/** GET /voucher: the signed-in user's vouchers. */
export function listVouchers(signal?: AbortSignal, client: ApiClient = api): Promise<Voucher[]> {
  return client.get<Voucher[]>('/api/voucher', { signal });
}

/** GET /voucher/{id}: one of the user's own (anyone else's is 404). */
export function getVoucher(id: string, signal?: AbortSignal, client: ApiClient = api): Promise<Voucher> {
  return client.get<Voucher>(path(id), { signal });
}

/** GET /greetie/{id}/vouchers: a received (delivered) greetie's vouchers, or what a sender gave. */
export function getGreetieVouchers(greetieId: string, signal?: AbortSignal, client: ApiClient = api): Promise<Voucher[]> {
  return client.get<Voucher[]>(`/api/greetie/${encodeURIComponent(greetieId)}/vouchers`, { signal });
}

/**
 * POST /voucher/redeem: the till staff's merchant code → the redeemed voucher. 400 wrong code,
 * 409 already redeemed, 410 expired, 429 locked (ApiError.retryAfter says for how long).
 */
export function redeemVoucher(voucherId: string, merchantCode: string, signal?: AbortSignal, client: ApiClient = api): Promise<Voucher> {
  return client.post<Voucher>('/api/voucher/redeem', { voucherId, merchantCode }, { signal });
}

/** POST /voucher/redeemed?id=: a "Code" or "Charity" voucher marked used by its owner. */
export function markVoucherUsed(id: string, signal?: AbortSignal, client: ApiClient = api): Promise<Voucher> {
  return client.post<Voucher>('/api/voucher/redeemed', undefined, { query: { id }, signal });
}

/**
 * POST /voucher/{id}/donate: an unused InStore voucher given to a charity instead → the new
 * Charity voucher of the same amount (the old one answers 404 from then on).
 */
export function donateVoucher(id: string, productId: string, signal?: AbortSignal, client: ApiClient = api): Promise<Voucher> {
  return client.post<Voucher>(path(id, '/donate'), { productId }, { signal });
}
