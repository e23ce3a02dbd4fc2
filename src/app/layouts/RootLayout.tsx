import { useEffect, useRef, type MouseEvent } from 'react';
import { Outlet } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../components/session.ts';
import { Analytics } from '../shell/Analytics.tsx';
import * as css from '../shell/shell.css.ts';
import { usePageKey } from './pageKey.ts';

/** Scrolls to the top whenever the page changes (not on query or hash changes, nor a wizard's step: pageKey.ts). */
function useScrollToTopOnPathChange(page: string) {
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [page]);
}

/**
 * After a route change (not the first page load, where the browser's own focus is right), moves
 * focus to the page's main heading, or the main region when the page has none, so screen reader
 * and keyboard users start on the new page.
 */
function useFocusOnPathChange(page: string) {
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const heading = document.querySelector<HTMLElement>('main h1');
    const target = heading ?? document.getElementById('main');
    if (!target) return;
    if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
    target.focus({ preventScroll: true });
  }, [page]);
}

/** The loading indicator: while the session loads, and while the first page's code loads. */
export function LoadingScreen() {
  const { t } = useTranslation();
  return (
    <div className={css.loading} role="status" aria-live="polite">
      <span className={css.spinner} aria-hidden="true" />
      <span>{t('loading')}</span>
    </div>
  );
}

/**
 * The root of every page: skip link, scroll-to-top and focus on route change, analytics consent,
 * and a loading indicator instead of the page while the session is still loading.
 */
export function RootLayout() {
  const { t } = useTranslation();
  const page = usePageKey();
  const { status } = useSession();
  useScrollToTopOnPathChange(page);
  useFocusOnPathChange(page);

  const skipToMain = (e: MouseEvent<HTMLAnchorElement>) => {
    const main = document.getElementById('main');
    if (!main) return;
    e.preventDefault();
    main.focus();
  };

  return (
    <>
      <a href="#main" className={css.skipLink} onClick={skipToMain}>
        {t('skipLink')}
      </a>
      {status === 'loading' ? <LoadingScreen /> : <Outlet />}
      <Analytics />
    </>
  );
}
