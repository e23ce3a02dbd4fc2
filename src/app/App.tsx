import { useMemo } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { I18nextProvider } from 'react-i18next';
import { routes } from './routes.tsx';
import { createI18n } from '../i18n.ts';

export function App() {
  const router = useMemo(() => createBrowserRouter(routes), []);
  const i18n = useMemo(() => createI18n(), []);
  return (
    <I18nextProvider i18n={i18n}>
      <RouterProvider router={router} />
    </I18nextProvider>
  );
}
