import { StrictMode } from 'react';
import { act, render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router-dom';
import { vi } from 'vitest';
import { createActor, fromPromise, type AnyStateMachine } from 'xstate';
import { appMachine, type VoucherStoreLogic } from '../../../machines/app.ts';
import { authMachine, type SessionData } from '../../../machines/auth.ts';
import { toastsMachine } from '../../../machines/toasts.ts';
import { AppProviders } from '../../../src/app/App.tsx';
import type { AppActor } from '../../../src/app/AppActors.tsx';
import { routes as appRoutes } from '../../../src/app/routes.tsx';
import type { SessionUser } from '../../../src/components/session.ts';
import { createI18n, type Language } from '../../../src/i18n.ts';
import { media } from '../../../styles/tokens.ts';

/**
 * Renders the real route table in a memory router inside the app's providers. The session comes
 * from the real auth machine (machines/auth.ts) in the app's actor system; only its server calls
 * are fakes, answering as the test says: a visitor, a signed-in user, or a start-up that has not
 * answered yet. Shared by the shell tests; others may use it for their pages too.
 */

/** What the fake server answers about the session at start-up. */
export type FakeSession =
  | { kind: 'visitor' }
  /** Start-up has not answered yet: `changeSession` answers it. */
  | { kind: 'loading' }
  /** `signOut` is called when the session is revoked on the server (the person signs out). */
  | { kind: 'signedIn'; user: SessionUser; signOut: () => void };

export const visitor: FakeSession = { kind: 'visitor' };
export const loadingSession: FakeSession = { kind: 'loading' };

export function signedIn(user: Partial<SessionUser> = {}, signOut: () => void = vi.fn()): FakeSession {
  return { kind: 'signedIn', user: { id: 'u1', mobileNumber: '+46701234567', name: 'Anna Andersson', ...user }, signOut };
}

const sessionData = (user: SessionUser): SessionData => ({
  user,
  accessToken: 'access-token',
  refreshToken: 'refresh-token',
  expiresAt: Date.now() + 15 * 60_000,
});

/**
 * The app's root actor with the real auth machine, whose server calls are fakes: start-up answers
 * with `session`, sign-out calls its `signOut`. `answer` settles a start-up that was left loading.
 */
export function fakeSessionActor(
  session: FakeSession,
  /** Another voucher store (e.g. the model tests' machine with fake actors). */
  stores: { vouchers?: AnyStateMachine } = {},
): { actor: AppActor; answer: (s: FakeSession) => void } {
  let answer: (s: FakeSession) => void = () => {
    throw new Error('changeSession answers a session that is still loading (render with loadingSession)');
  };
  const restored = (s: FakeSession) => (s.kind === 'signedIn' ? sessionData(s.user) : null);
  const auth = authMachine.provide({
    actors: {
      restoreSession: fromPromise<SessionData | null>(() =>
        session.kind === 'loading'
          ? new Promise((resolve) => {
              answer = (s) => resolve(restored(s));
            })
          : Promise.resolve(restored(session)),
      ),
      revokeSession: fromPromise<void, { refreshToken: string | null }>(async () => {
        if (session.kind === 'signedIn') session.signOut();
      }),
      // Never due in a test (the access token lasts 15 minutes); settled only if one waits that long.
      refreshSession: fromPromise<SessionData, { accessToken: string; refreshToken: string | null }>(() => new Promise(() => {})),
    },
  });
  const actor = createActor(appMachine.provide({ actors: { toasts: toastsMachine } })) as AppActor;
  // The session's code is there from the start (the app hands it over once it has loaded).
  actor.start().send({ type: 'app.sessionLoaded', auth });
  // The voucher store is the app's own, over whatever fetch the test stubs, started as the app
  // starts it: when a page that shows gifts loads (src/app/routes.tsx). Another one starts here.
  if (stores.vouchers) actor.start().send({ type: 'app.voucherStoreLoaded', store: stores.vouchers as VoucherStoreLogic });
  return { actor, answer: (s) => answer(s) };
}

/** jsdom lacks these; Radix and the shell need them. Call in beforeEach. */
export function installDomStubs({ viewport = 'desktop', reducedMotion = false }: { viewport?: 'desktop' | 'mobile'; reducedMotion?: boolean } = {}) {
  const scrollTo = vi.fn();
  Object.defineProperty(window, 'scrollTo', { value: scrollTo, configurable: true, writable: true });
  Object.defineProperty(window, 'matchMedia', {
    configurable: true,
    writable: true,
    value: (query: string) => ({
      matches: (query === media.desktop && viewport === 'desktop') || (query === media.reducedMotion && reducedMotion),
      media: query,
      onchange: null,
      addEventListener: () => {},
      removeEventListener: () => {},
      addListener: () => {},
      removeListener: () => {},
      dispatchEvent: () => false,
    }),
  });
  if (!('ResizeObserver' in window)) {
    class ResizeObserverStub {
      observe() {}
      unobserve() {}
      disconnect() {}
    }
    Object.defineProperty(window, 'ResizeObserver', { value: ResizeObserverStub, configurable: true, writable: true });
    Object.defineProperty(globalThis, 'ResizeObserver', { value: ResizeObserverStub, configurable: true, writable: true });
  }
  if (!Element.prototype.scrollIntoView) Element.prototype.scrollIntoView = () => {};
  return { scrollTo };
}

export interface RenderRouteOptions {
  /** The session the fake server gives the real auth machine (default: a visitor). */
  session?: FakeSession;
  language?: Language;
  routes?: RouteObject[];
  actor?: AppActor;
  /** Inside <StrictMode>, as src/main.tsx renders the app: React mounts, unmounts and remounts every effect once. */
  strict?: boolean;
}

export function renderRoute(path: string, options: RenderRouteOptions = {}) {
  const i18n = createI18n(options.language ?? 'sv');
  const router = createMemoryRouter(options.routes ?? appRoutes, { initialEntries: [path] });
  if (options.actor && options.session) throw new Error('renderRoute: give a session or an actor (whose auth has its own), not both');
  const fake = options.actor ? undefined : fakeSessionActor(options.session ?? visitor);
  const actor = options.actor ?? fake!.actor;
  const tree = (
    <AppProviders i18n={i18n} actor={actor}>
      <RouterProvider router={router} />
    </AppProviders>
  );
  const utils = render(options.strict ? <StrictMode>{tree}</StrictMode> : tree);
  return {
    ...utils,
    router,
    i18n,
    actor,
    user: userEvent.setup(),
    /** The server answers a start-up left loading (loadingSession): the auth machine takes it from there. */
    changeSession: (s: FakeSession) => {
      if (!fake) throw new Error('changeSession needs the fake session server (render without an actor)');
      act(() => fake.answer(s));
    },
    navigate: (to: string, opts?: { replace?: boolean }) => act(() => router.navigate(to, opts)),
  };
}
