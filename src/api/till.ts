import { api, type ApiClient } from './client.ts';
import type { Voucher } from '../../contract/voucher.ts';

/**
 * Till mode's calls in the merchant portal (API.md "Merchant portal": scan, redeem, undo), typed
 * from the contract. HTTP only. The QR token goes in the body, never in the URL (URLs get logged).
 */

const path = (merchantId: string, rest: string) => `/api/portal/merchants/${encodeURIComponent(merchantId)}${rest}`;

/** POST /portal/merchants/{id}/scan `{ token }` → the voucher as the till needs it; redeems nothing, the token stays usable. */
export function scanToken(merchantId: string, token: string, signal?: AbortSignal, client: ApiClient = api): Promise<Voucher> {
  return client.post<Voucher>(path(merchantId, '/scan'), { token }, { signal });
}

/**
 * POST /portal/merchants/{id}/redeem `{ token, amount? }` → the voucher after the redeem (`via:
 * "qr"`). 404 for another merchant's voucher, 410 TOKEN_EXPIRED for a used or expired token, 409
 * over the balance (the token stays usable). The Idempotency-Key makes a repeat of the same
 * attempt answer what the first did.
 */
export function redeemToken(
  req: { merchantId: string; token: string; amount?: number | null; idempotencyKey?: string },
  signal?: AbortSignal,
  client: ApiClient = api,
): Promise<Voucher> {
  const body = { token: req.token, ...(req.amount == null ? {} : { amount: req.amount }) };
  return client.post<Voucher>(path(req.merchantId, '/redeem'), body, { signal, ...(req.idempotencyKey ? { headers: { 'Idempotency-Key': req.idempotencyKey } } : {}) });
}

/** POST /portal/merchants/{id}/redemptions/{redemptionId}/undo → the voucher with the amount back; 409 UNDO_TOO_LATE, 409 ALREADY_UNDONE. */
export function undoTillRedemption(merchantId: string, redemptionId: string, signal?: AbortSignal, client: ApiClient = api): Promise<Voucher> {
  return client.post<Voucher>(path(merchantId, `/redemptions/${encodeURIComponent(redemptionId)}/undo`), undefined, { signal });
}
