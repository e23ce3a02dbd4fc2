import { api, type ApiClient } from './client.ts';
import type { Greetie, PublicGreetie } from '../../contract/greetie.ts';

/**
 * The calls that open a greetie (API.md "Greetie": byRef, read by id). HTTP only. A greetie's
 * vouchers are the voucher store's (src/api/voucher.ts), so a redeem shows on the greetie too.
 */

/** GET /greetie/byRef?refId=: the public view of a delivered greetie (marks it viewed unless the caller is its sender). */
export function getGreetieByRef(refId: string, signal?: AbortSignal, client: ApiClient = api): Promise<PublicGreetie> {
  return client.get<PublicGreetie>('/api/greetie/byRef', { query: { refId }, signal });
}

/** GET /greetie/{id} as its sender or recipient; the recipient's read marks it viewed unless `markAsViewed` is false. */
export function readGreetie(id: string, markAsViewed: boolean, signal?: AbortSignal, client: ApiClient = api): Promise<Greetie> {
  return client.get<Greetie>(`/api/greetie/${encodeURIComponent(id)}`, { query: { markAsViewed }, signal });
}
