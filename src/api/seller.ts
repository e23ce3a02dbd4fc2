import type { Seller } from '../../contract/seller.ts';
import { api } from './client.ts';

/** The company that sells the vouchers (GET /api/seller): name, organisation number, contact e-mail. */
export function getSeller(signal?: AbortSignal): Promise<Seller> {
  return api.get<Seller>('/api/seller', { signal });
}
