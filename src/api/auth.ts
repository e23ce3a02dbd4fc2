import type { MobileUser, TokenPair, VerificationCodeAnswer } from '../../contract/auth.ts';
import { api as defaultClient, type ApiClient } from './client.ts';

/** The auth calls of API.md, typed by the contract. */
export function authApi(client: ApiClient = defaultClient) {
  return {
    requestCode: (mobileNumber: string) => client.post<VerificationCodeAnswer>('/api/auth/verificationcode', { mobileNumber }),
    login: (body: { token: string; code: string; deviceId: string }) => client.post<TokenPair>('/api/auth/login', body),
    my: () => client.get<MobileUser>('/api/auth/my'),
    refresh: (token: string, refreshToken: string) => client.post<TokenPair>('/api/auth/refresh', undefined, { query: { token, refreshToken } }),
    logout: (refreshToken: string) => client.post<void>('/api/auth/logout', { refreshToken }),
  };
}
