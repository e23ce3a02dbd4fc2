import { api, type ApiClient } from './client.ts';
import type { Greetie, Voucher } from '../../contract/greetie.ts';

/**
 * The calls that open a greetie (API.md "Greetie": byRef, read by id, its vouchers). HTTP only.
 *
 * `PublicGreetie` is what GET /greetie/byRef answers as this client reads it: the greetie without
 * phone numbers and without voucher codes. Every field the view needs beyond the id is optional
 * here, so a public view that leaves one out still shows what it has.
 */
export interface PublicGreetie {
  id: string;
  sender?: { name: string | null } | null;
  recipient?: { name: string | null } | null;
  message?: string;
  content?: Greetie['content'];
  media?: Greetie['media'];
  gifts?: Array<Pick<Greetie['gifts'][number], 'productName' | 'merchantName' | 'amount'>>;
  vouchers?: Array<Pick<Voucher, 'id' | 'amount' | 'isRedeemed' | 'redeemedAt'> & { merchant: { name: string }; product: { name: string } }>;
  deliveredAt?: string | null;
  viewedAt?: string | null;
}

/** GET /greetie/byRef?refId=: the public view of a delivered greetie (marks it viewed unless the caller is its sender). */
export function getGreetieByRef(refId: string, signal?: AbortSignal, client: ApiClient = api): Promise<PublicGreetie> {
  return client.get<PublicGreetie>('/api/greetie/byRef', { query: { refId }, signal });
}

/** GET /greetie/{id} as its sender or recipient; the recipient's read marks it viewed unless `markAsViewed` is false. */
export function readGreetie(id: string, markAsViewed: boolean, signal?: AbortSignal, client: ApiClient = api): Promise<Greetie> {
  return client.get<Greetie>(`/api/greetie/${encodeURIComponent(id)}`, { query: { markAsViewed }, signal });
}

/** GET /greetie/{id}/vouchers: the recipient's (once delivered), or what the sender gave (never a code). */
export function getGreetieVouchers(id: string, signal?: AbortSignal, client: ApiClient = api): Promise<Voucher[]> {
  return client.get<Voucher[]>(`/api/greetie/${encodeURIComponent(id)}/vouchers`, { signal });
}
