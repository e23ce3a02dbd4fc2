import { Outlet } from 'react-router-dom';
import { Footer } from '../shell/Footer.tsx';
import { Header } from '../shell/Header.tsx';
import { PageTransition } from './PageTransition.tsx';
import * as css from '../shell/shell.css.ts';

/** Layout 1: the user's areas (greetie, voucher, redeem, my). Its header shows a visitor only the user entries. */
export function MainLayout() {
  return (
    <>
      <Header variant="user" />
      <main id="main" tabIndex={-1} className={css.main}>
        <PageTransition>
          <div className={css.pageContent}>
            <Outlet />
          </div>
        </PageTransition>
      </main>
      <Footer />
    </>
  );
}
