import type { MobileUser, TokenPair, VerificationCodeAnswer } from '../../contract/auth.ts';
import { api as defaultClient, type ApiClient } from './client.ts';

/**
 * The auth calls of API.md, typed by the contract. Login, refresh and logout send and take the
 * browser's refresh cookie (HttpOnly, Path=/api/auth; decision 022): `credentials: 'same-origin'`.
 */
const withCookie = { credentials: 'same-origin' } as const;

export function authApi(client: ApiClient = defaultClient) {
  return {
    requestCode: (mobileNumber: string) => client.post<VerificationCodeAnswer>('/api/auth/verificationcode', { mobileNumber }),
    login: (body: { token: string; code: string; deviceId: string }) => client.post<TokenPair>('/api/auth/login', body, withCookie),
    my: () => client.get<MobileUser>('/api/auth/my'),
    refresh: (token: string, refreshToken: string) =>
      client.post<TokenPair>('/api/auth/refresh', undefined, { query: { token, refreshToken }, ...withCookie }),
    /** A new tab's session from the refresh cookie alone (no query, no body). */
    restore: () => client.post<TokenPair>('/api/auth/refresh', undefined, withCookie),
    /** Ends the tab's sign-in (when it has a token) and the cookie's; the server clears the cookie. */
    logout: (refreshToken: string | null) => client.post<void>('/api/auth/logout', refreshToken ? { refreshToken } : undefined, withCookie),
  };
}
