import { api, type ApiClient } from './client.ts';
import type { Voucher, VoucherQr } from '../../contract/voucher.ts';

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
 * POST /voucher/redeem: the till staff's merchant code (and, for a "value" voucher, the öre to
 * use; none takes the whole balance) → the voucher after the redeem. 400 wrong code, 409 already
 * redeemed or more than the balance, 410 expired, 429 locked (ApiError.retryAfter says for how
 * long). The Idempotency-Key makes a repeat of the same attempt answer what the first did, never
 * take twice.
 */
export function redeemVoucher(
  req: { voucherId: string; merchantCode: string; amount?: number | null; idempotencyKey?: string },
  signal?: AbortSignal,
  client: ApiClient = api,
): Promise<Voucher> {
  const body = { voucherId: req.voucherId, merchantCode: req.merchantCode, ...(req.amount == null ? {} : { amount: req.amount }) };
  return client.post<Voucher>('/api/voucher/redeem', body, { signal, ...(req.idempotencyKey ? { headers: { 'Idempotency-Key': req.idempotencyKey } } : {}) });
}

/**
 * POST /voucher/{id}/redemptions/{redemptionId}/undo: the merchant code again, within 10 minutes
 * → the voucher with the amount back. 409 UNDO_TOO_LATE, 409 ALREADY_UNDONE, 400 wrong code, 429 locked.
 */
export function undoRedemption(voucherId: string, redemptionId: string, merchantCode: string, signal?: AbortSignal, client: ApiClient = api): Promise<Voucher> {
  return client.post<Voucher>(path(voucherId, `/redemptions/${encodeURIComponent(redemptionId)}/undo`), { merchantCode }, { signal });
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

/** GET /voucher/{id}/qr: a new one-time token for the till (120 s); the voucher's previous one stops working. */
export function getVoucherQr(id: string, signal?: AbortSignal, client: ApiClient = api): Promise<VoucherQr> {
  return client.get<VoucherQr>(path(id, '/qr'), { signal });
}
