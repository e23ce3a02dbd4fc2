import { Outlet } from 'react-router-dom';
import { Footer } from '../shell/Footer.tsx';
import { Header } from '../shell/Header.tsx';
import { PageTransition } from './PageTransition.tsx';
import * as css from '../shell/shell.css.ts';

/** Layout 2: public pages (landing, start, merchants, 404, sandbox), with the full header. */
export function PublicLayout() {
  return (
    <>
      <Header variant="public" />
      <main id="main" tabIndex={-1} className={css.main}>
        <PageTransition>
          <Outlet />
        </PageTransition>
      </main>
      <Footer />
    </>
  );
}
