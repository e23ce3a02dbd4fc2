import { Outlet } from 'react-router-dom';
import { MinimalNav } from '../shell/MinimalNav.tsx';
import { PageTransition } from './PageTransition.tsx';
import * as css from '../shell/shell.css.ts';

/** Layout 3: nothing but a navigation menu in the top-left corner; holds the greetie a recipient opens. */
export function MinimalLayout() {
  return (
    <>
      <MinimalNav />
      <main id="main" tabIndex={-1} className={css.main}>
        <PageTransition>
          <Outlet />
        </PageTransition>
      </main>
    </>
  );
}
