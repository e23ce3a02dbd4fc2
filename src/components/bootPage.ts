import { useEffect, useRef } from 'react';

/**
 * index.html's #boot-page: the first screen of '/', '/merchant' or '/auth/jwt/login' that the server
 * puts into the page so it is painted before any script runs (server/spa/firstScreens.ts, decision
 * 094). It lies over the app's loading screens, laid out like the page's own first screen; the page
 * takes it away once its own render is painted and its entrance transition is over, so nothing
 * under it moves or fades when it goes.
 *
 * The page marks its first element with `data-boot-page` (a page of another route, without the
 * mark, hides the layer at once by CSS) and calls `useBootPageHandOver` with a ref to it.
 */
export function useBootPageHandOver<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  useEffect(() => {
    const boot = typeof document === 'undefined' ? null : document.getElementById('boot-page');
    const el = ref.current;
    if (!boot || !el) return;
    let live = true;
    afterEntrance(el, [], () => live && boot.remove());
    return () => {
      // Leaving the page before the hand-over: the layer must not stay over the next one.
      live = false;
      boot.remove();
    };
  }, []);
  return ref;
}

/**
 * Runs `fn` in the frame after `el`'s page has entered: its page transition's animations have
 * ended and `also` (say, an image's decode) has settled, so the page's own render has been painted
 * under whatever lies over it (the server's first screen here, the view's first frame).
 */
export function afterEntrance(el: HTMLElement, also: Promise<unknown>[], fn: () => void): void {
  const page = el.closest<HTMLElement>('[data-page-transition]');
  const entering = typeof page?.getAnimations === 'function' ? page.getAnimations().map((a) => a.finished.catch(() => undefined)) : [];
  const nextFrame = (f: () => void) => (typeof requestAnimationFrame === 'function' ? requestAnimationFrame(f) : setTimeout(f, 16));
  void Promise.all([...also, ...entering]).then(() => nextFrame(fn));
}
