import type { MobileUser } from '../../contract/auth.ts';
import type { ProfileBody } from '../../contract/mobileuser.ts';
import type { Greetie } from '../../contract/greetie.ts';
import type { Voucher } from '../../contract/voucher.ts';
import { api as defaultClient, type ApiClient } from './client.ts';

/** One's own profile (API.md, "Mobile user"), typed by the contract. */
export function mobileUserApi(client: ApiClient = defaultClient) {
  return {
    get: (id: string, signal?: AbortSignal) => client.get<MobileUser>(`/api/mobileuser/${encodeURIComponent(id)}`, { signal }),
    update: (id: string, body: ProfileBody, signal?: AbortSignal) =>
      client.post<MobileUser>(`/api/mobileuser/${encodeURIComponent(id)}`, body, { signal }),
    complete: (body: ProfileBody, signal?: AbortSignal) => client.post<MobileUser>('/api/mobileuser', body, { signal }),
    setMarketing: (isAllowed: boolean, signal?: AbortSignal) =>
      client.post<MobileUser>('/api/mobileuser/allowmarketing', undefined, { query: { isAllowed }, signal }),
    /** The caller's greeties they sent (drafts included), the first page (newest first). */
    sentGreeties: (signal?: AbortSignal) => client.get<Greetie[]>('/api/mobileuser/sentgreeties', { query: { limit: 100 }, signal }),
    vouchers: (signal?: AbortSignal) => client.get<Voucher[]>('/api/mobileuser/vouchers', { signal }),
    /** Everything held about the caller (GET /mobileuser/export), as the JSON text to save. */
    exportData: async (signal?: AbortSignal) => JSON.stringify(await client.get<unknown>('/api/mobileuser/export', { signal }), null, 2),
    /** Deletes the account (DELETE /mobileuser/remove). */
    remove: (signal?: AbortSignal) => client.delete<void>('/api/mobileuser/remove', { signal }),
  };
}
