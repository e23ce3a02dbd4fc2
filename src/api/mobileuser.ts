import type { MobileUser } from '../../contract/auth.ts';
import type { ProfileBody } from '../../contract/mobileuser.ts';
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
  };
}
