import { createContext, useContext, useMemo } from 'react';
import { shallowEqual, useSelector } from '@xstate/react';
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { AuthError, SIGN_IN_BUSY, SIGN_IN_STEPS, authMachine } from '../../machines/auth.ts';

/**
 * The session as pages and shared components see it: a contract in shared code, provided by the
 * app. The auth machine (machines/auth.ts) is the source; <SessionProvider> (src/app/session.ts,
 * inside <AppActorsProvider>) provides the auth actor and its state through these contexts, and
 * components read them with these hooks, never the machine's context shape. Tests get their
 * session the same way: from the real auth machine with fake server calls
 * (tests/client/shell/render.tsx).
 */
export type SessionStatus = 'loading' | 'authenticated' | 'unauthenticated';

export interface SessionUser {
  id: string;
  mobileNumber: string;
  name: string | null;
  /** The merchants this person works for (MobileUser.merchants); absent or empty for most. */
  merchants?: readonly { id: string; name: string; role: 'owner' | 'staff' }[];
}

export interface Session {
  status: SessionStatus;
  user: SessionUser | null;
  /** Revokes the session on the server, forgets the token, and goes to '/'. */
  signOut: () => void;
  /** True while a sign-out is being revoked on the server (status is already 'unauthenticated'). */
  signingOut?: boolean;
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

type AuthActorRef = ActorRefFrom<typeof authMachine>;
type AuthSnapshot = SnapshotFrom<typeof authMachine>;

/** The long-lived auth actor (systemId 'auth'), provided by the app. */
export const AuthActorContext = createContext<AuthActorRef | null>(null);

export function useAuthActor(): AuthActorRef {
  const auth = useContext(AuthActorContext);
  if (!auth) throw new Error('useAuthActor needs <SessionProvider> (src/app/session.ts) above it');
  return auth;
}

/** From the machine's tags. Signing out counts as signed out at once (the header switches while the server revokes). */
export function statusOf(snapshot: AuthSnapshot): SessionStatus {
  if (snapshot.hasTag('session:loading')) return 'loading';
  if (snapshot.hasTag('session:authenticated')) return 'authenticated';
  return 'unauthenticated';
}

export const selectStatus = (s: AuthSnapshot) => statusOf(s);
export const selectSigningOut = (s: AuthSnapshot) => s.hasTag('signingOut');
export const selectUser = (s: AuthSnapshot): SessionUser | null => (s.hasTag('session:authenticated') ? s.context.user : null);

/** What the login page shows of the sign-in in progress. */
export interface SignInView {
  /** 'number' while the number is typed or sent; 'code' while the code is typed or checked. */
  step: 'number' | 'code' | 'none';
  busy: 'requestingCode' | 'resendingCode' | 'loggingIn' | null;
  mobileNumber: string;
  error: AuthError | null;
  resendIn: number;
  canResend: boolean;
}

const STEP_OF = { 'step:number': 'number', 'step:code': 'code' } as const satisfies Record<(typeof SIGN_IN_STEPS)[number], SignInView['step']>;
const BUSY_OF = {
  'busy:requestingCode': 'requestingCode',
  'busy:resendingCode': 'resendingCode',
  'busy:loggingIn': 'loggingIn',
} as const satisfies Record<(typeof SIGN_IN_BUSY)[number], SignInView['busy']>;

// The tags as keys of the maps above: this module is in the first load, the machine is not (a
// value imported from machines/auth.ts would bring it in: decision 011).
const STEPS = Object.keys(STEP_OF) as (keyof typeof STEP_OF)[];
const BUSY = Object.keys(BUSY_OF) as (keyof typeof BUSY_OF)[];

/** From the machine's tags (`step:*`, `busy:*`, `canResend`): no state names here. */
function selectSignIn(s: AuthSnapshot): SignInView {
  const step = STEPS.find((tag) => s.hasTag(tag));
  const busy = BUSY.find((tag) => s.hasTag(tag));
  return {
    step: step ? STEP_OF[step] : 'none',
    busy: busy ? BUSY_OF[busy] : null,
    mobileNumber: s.context.mobileNumber,
    error: s.context.error,
    resendIn: s.context.resendIn,
    canResend: s.hasTag('canResend'),
  };
}

/** The sign-in flow for the login page: what to show, and the events a person can send. */
export function useSignIn() {
  const auth = useAuthActor();
  const view = useSelector(auth, selectSignIn, shallowEqual);
  const actions = useMemo(
    () => ({
      submitNumber: (mobileNumber: string) => auth.send({ type: 'user.submitNumber', mobileNumber }),
      submitCode: (code: string) => auth.send({ type: 'user.submitCode', code }),
      resendCode: () => auth.send({ type: 'user.resendCode' }),
      changeNumber: () => auth.send({ type: 'user.changeNumber' }),
    }),
    [auth],
  );
  return { ...view, ...actions };
}
