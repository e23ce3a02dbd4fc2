import type { ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import * as css from '../shell/shell.css.ts';

/**
 * Each new path enters with the page transition (0.45 s, cubic-bezier(0.4, 0, 0.1, 1); none under
 * prefers-reduced-motion — see shell/motion.ts). Keyed by path so the animation runs per page.
 */
export function PageTransition({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  return (
    <div key={pathname} className={css.page} data-page-transition="">
      {children}
    </div>
  );
}
