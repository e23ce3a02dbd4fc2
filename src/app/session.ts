import { createElement, useCallback, useMemo, type ReactNode } from 'react';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { authMachine } from '../../machines/auth.ts';
import { useAppActor } from './AppActors.tsx';
import { AuthActorContext, SessionContext, selectSigningOut, selectStatus, selectUser, type Session } from '../components/session.ts';

type AuthActorRef = ActorRefFrom<typeof authMachine>;
type RootSnapshot = ReturnType<ReturnType<typeof useAppActor>['getSnapshot']>;

const selectAuth = (s: RootSnapshot) => s.children.auth as AuthActorRef | undefined;
const selectMaySignIn = (s: RootSnapshot) => s.context.maySignIn;
const noSignOut = () => {};

/**
 * Provides the session contract (src/components/session.ts) from the app's long-lived auth actor
 * (systemId 'auth'): pages and shared components read it there and never import the app.
 *
 * The auth actor's code loads after the first screen (machines/app.ts, decision 011). Until it is
 * there, and while it starts, a browser that keeps nothing to restore a session from (the root's
 * `maySignIn`) is a visitor: signed out at once, which is where the auth machine's start-up ends
 * for it too, without a call. Any other browser is 'loading' until the auth machine knows.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const root = useAppActor();
  const auth = useSelector(root, selectAuth);
  const maySignIn = useSelector(root, selectMaySignIn);
  const machineStatus = useSelector(auth, (s) => (s ? selectStatus(s) : 'loading'));
  const user = useSelector(auth, (s) => (s ? selectUser(s) : null));
  const signingOut = useSelector(auth, (s) => (s ? selectSigningOut(s) : false));
  const status = machineStatus === 'loading' && !maySignIn ? 'unauthenticated' : machineStatus;
  const signOut = useCallback(() => (auth ? auth.send({ type: 'user.signOut' }) : noSignOut()), [auth]);
  const value = useMemo<Session>(() => ({ status, user, signOut, signingOut }), [status, user, signOut, signingOut]);
  return createElement(AuthActorContext.Provider, { value: auth ?? null }, createElement(SessionContext.Provider, { value }, children));
}
