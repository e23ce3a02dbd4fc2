import { useLocation, useMatches } from 'react-router-dom';

/** What a route may say about itself to the layouts (its `handle`). */
export interface PageHandle {
  /**
   * The route is one page across its addresses: a wizard whose steps each have an address
   * (/greetie/new/{step}) stays mounted, keeps its focus and its actor, and does not replay the
   * page transition from step to step.
   */
  onePage?: boolean;
}

/** Which page is shown: its path, or its route for a route that is one page across its addresses. */
export function usePageKey(): string {
  const { pathname } = useLocation();
  const leaf = useMatches().at(-1);
  return (leaf?.handle as PageHandle | undefined)?.onePage ? `route:${leaf!.id}` : pathname;
}
