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

/** `i18n`: made by main.tsx, which waits for its language's strings before the first render. */
export function App({ i18n: given }: { i18n?: I18n } = {}) {
  const [router] = useState(() => createBrowserRouter(routes));
  const [i18n] = useState(() => given ?? createI18n());
  return (
    <AppProviders i18n={i18n}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
