import { useState, type ReactNode } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { I18nextProvider } from 'react-i18next';
import type { i18n as I18n } from 'i18next';
import { routes } from './routes.tsx';
import { createI18n } from '../i18n.ts';
import { AppActorsProvider, type AppActor } from './AppActors.tsx';
import { Toaster } from './shell/Toaster.tsx';
import { SessionProvider } from './session.ts';

/**
 * Everything around the router: i18n, the app's actor system and the toasts. Tests render routes
 * inside the same providers (tests/client/shell/render.tsx).
 *
 * The session: <SessionProvider> provides SessionContext from the 'auth' actor (src/app/session.ts).
 */
export function AppProviders({ i18n, actor, children }: { i18n: I18n; actor?: AppActor; children: ReactNode }) {
  return (
    <I18nextProvider i18n={i18n}>
      <AppActorsProvider actor={actor}>
        <SessionProvider>
          {children}
          <Toaster />
        </SessionProvider>
      </AppActorsProvider>
    </I18nextProvider>
  );
}

export type AppRouter = ReturnType<typeof createBrowserRouter>;

/**
 * `i18n`, `actor`, `router`: made by main.tsx, once per page, outside React. A render React discards
 * (one that suspends before it commits) runs useState's initialiser again, so anything started in one
 * would start twice: two root actors, two auth actors restoring the session from the refresh cookie at
 * the same time, two routers running the first route's loader (the greetie view's read, which marks
 * it viewed). The fallbacks here are for tests.
 */
export function App({ i18n: given, actor, router: givenRouter }: { i18n?: I18n; actor?: AppActor; router?: AppRouter } = {}) {
  const [router] = useState(() => givenRouter ?? createBrowserRouter(routes));
  const [i18n] = useState(() => given ?? createI18n());
  return (
    <AppProviders i18n={i18n} actor={actor}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
