import type { ReactNode } from 'react';
import * as css from '../shell/shell.css.ts';
import { usePageKey } from './pageKey.ts';

/**
 * Each new path enters with the page transition (0.45 s, cubic-bezier(0.4, 0, 0.1, 1); none under
 * prefers-reduced-motion — see shell/motion.ts). Keyed by page (its path, or its route for a wizard whose steps have addresses: pageKey.ts) so
 * the animation runs per page.
 */
export function PageTransition({ children }: { children: ReactNode }) {
  const page = usePageKey();
  return (
    <div key={page} className={css.page} data-page-transition="">
      {children}
    </div>
  );
}
