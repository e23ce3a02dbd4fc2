import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation, useNavigation, useSearchParams } from 'react-router-dom';
import { useSession } from '../components/session.ts';

export const LOGIN_PATH = '/auth/jwt/login';

/**
 * Only a path on this site is followed after sign-in: it must start with a single '/', and
 * resolve to this origin. '//evil.com', '/\evil.com', 'https://evil.com', 'javascript:…' and
 * anything with control characters are refused (null).
 */
export function safeReturnTo(value: string | null | undefined): string | null {
  if (!value || value.length > 2000) return null;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(value)) return null;
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  const base = 'https://greetie.invalid';
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    return null;
  }
  if (url.origin !== base) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

export function loginPathFor(returnTo: string): string {
  return `${LOGIN_PATH}?returnTo=${encodeURIComponent(returnTo)}`;
}

/**
 * Protected pages: a visitor is sent to the login page with the current path and query as
 * returnTo. While the session loads, nothing is decided (the root layout shows the loader).
 * Someone who signs out here goes to '/' (not to the login page).
 */
export function RequireAuth({ children }: { children?: ReactNode }) {
  const { status, signingOut } = useSession();
  const location = useLocation();
  const navigation = useNavigation();
  if (status === 'loading') return null;
  if (signingOut) return <Navigate to="/" replace />;
  if (status !== 'authenticated') {
    // Already on the way elsewhere (e.g. to '/' after signing out): let that navigation finish;
    // if it ends on a protected page, this guard runs there again.
    if (navigation.state !== 'idle') return null;
    return <Navigate to={loginPathFor(`${location.pathname}${location.search}`)} replace />;
  }
  return children ?? <Outlet />;
}

/** The auth pages: a signed-in person goes on to returnTo (when it is on this site) or '/'. */
export function RedirectIfAuthenticated() {
  const { status } = useSession();
  const [params] = useSearchParams();
  if (status === 'authenticated') return <Navigate to={safeReturnTo(params.get('returnTo')) ?? '/'} replace />;
  return <Outlet />;
}
