import { createContext, useContext } from 'react';

/**
 * The session as the rest of the app sees it. The auth machine (machines/auth.ts) is the source;
 * the app root provides its state through SessionContext, and components read it with these
 * hooks, never the machine's context shape. Tests wrap components in their own provider.
 */
export type SessionStatus = 'loading' | 'authenticated' | 'unauthenticated';

export interface SessionUser {
  id: string;
  mobileNumber: string;
  name: string | null;
}

export interface Session {
  status: SessionStatus;
  user: SessionUser | null;
  /** Revokes the session on the server, forgets the token, and goes to '/'. */
  signOut: () => void;
}

export const SessionContext = createContext<Session>({
  status: 'unauthenticated',
  user: null,
  signOut: () => {},
});

export function useSession(): Session {
  return useContext(SessionContext);
}

export function useSessionUser(): SessionUser | null {
  return useContext(SessionContext).user;
}
