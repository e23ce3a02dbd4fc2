import { act, render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState, type Dispatch, type SetStateAction } from 'react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router-dom';
import { vi } from 'vitest';
import { AppProviders } from '../../../src/app/App.tsx';
import { createAppActor, type AppActor } from '../../../src/app/AppActors.tsx';
import { routes as appRoutes } from '../../../src/app/routes.tsx';
import { SessionContext, type Session, type SessionUser } from '../../../src/app/session.ts';
import { createI18n, type Language } from '../../../src/i18n.ts';
import { media } from '../../../styles/tokens.ts';

/**
 * Renders the real route table in a memory router inside the app's providers, with a session the
 * test controls. Shared by the shell tests; others may use it for their pages too.
 */

export const visitor: Session = { status: 'unauthenticated', user: null, signOut: () => {} };
export const loadingSession: Session = { status: 'loading', user: null, signOut: () => {} };

export function signedIn(user: Partial<SessionUser> = {}, signOut: () => void = vi.fn()): Session {
  return {
    status: 'authenticated',
    user: { id: 'u1', mobileNumber: '+46701234567', name: 'Anna Andersson', ...user },
    signOut,
  };
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
  session?: Session;
  language?: Language;
  routes?: RouteObject[];
  actor?: AppActor;
}

export function renderRoute(path: string, options: RenderRouteOptions = {}) {
  const i18n = createI18n(options.language ?? 'sv');
  const router = createMemoryRouter(options.routes ?? appRoutes, { initialEntries: [path] });
  const actor = options.actor ?? createAppActor();
  let setSession: Dispatch<SetStateAction<Session>> = () => {};
  function SessionHarness() {
    const [session, set] = useState<Session>(options.session ?? visitor);
    setSession = set;
    return (
      <SessionContext.Provider value={session}>
        <RouterProvider router={router} />
      </SessionContext.Provider>
    );
  }
  const utils = render(
    <AppProviders i18n={i18n} actor={actor}>
      <SessionHarness />
    </AppProviders>,
  );
  return {
    ...utils,
    router,
    i18n,
    actor,
    user: userEvent.setup(),
    /** Changes the session as the auth actor would. */
    changeSession: (s: Session) => act(() => setSession(s)),
    navigate: (to: string, opts?: { replace?: boolean }) => act(() => router.navigate(to, opts)),
  };
}
