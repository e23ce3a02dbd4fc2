import { createElement, useCallback, useMemo, type ReactNode } from 'react';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { authMachine } from '../../machines/auth.ts';
import { useSystemActor } from './AppActors.tsx';
import { AuthActorContext, SessionContext, selectSigningOut, selectStatus, selectUser, type Session } from '../components/session.ts';

/**
 * Provides the session contract (src/components/session.ts) from the app's long-lived auth actor
 * (systemId 'auth'): pages and shared components read it there and never import the app.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const auth = useSystemActor<ActorRefFrom<typeof authMachine>>('auth');
  const status = useSelector(auth, selectStatus);
  const user = useSelector(auth, selectUser);
  const signingOut = useSelector(auth, selectSigningOut);
  const signOut = useCallback(() => auth.send({ type: 'user.signOut' }), [auth]);
  const value = useMemo<Session>(() => ({ status, user, signOut, signingOut }), [status, user, signOut, signingOut]);
  return createElement(AuthActorContext.Provider, { value: auth }, createElement(SessionContext.Provider, { value }, children));
}
