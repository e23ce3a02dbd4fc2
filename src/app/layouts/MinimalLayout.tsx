import { lazy, Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { PageTransition } from './PageTransition.tsx';
import * as css from '../shell/shell.css.ts';

// The menu (Radix dropdown) loads with this layout's page, not with the app.
const MinimalNav = lazy(() => import('../shell/MinimalNav.tsx').then((m) => ({ default: m.MinimalNav })));

/** Layout 3: nothing but a navigation menu in the top-left corner; holds the greetie a recipient opens. */
export function MinimalLayout() {
  return (
    <>
      <Suspense fallback={null}>
        <MinimalNav />
      </Suspense>
      <main id="main" tabIndex={-1} className={css.main}>
        <PageTransition>
          <Outlet />
        </PageTransition>
      </main>
    </>
  );
}
