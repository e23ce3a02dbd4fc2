import { useCallback, useSyncExternalStore } from 'react';
import { media } from '../../../styles/tokens.ts';

/** Whether a CSS media query matches now (false where matchMedia does not exist). */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (typeof window === 'undefined' || !window.matchMedia) return () => {};
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    [query],
  );
  const get = () => (typeof window !== 'undefined' && window.matchMedia ? window.matchMedia(query).matches : false);
  return useSyncExternalStore(subscribe, get, () => false);
}

/** At or above the desktop breakpoint the navigation sits in the header; below it, in a drawer. */
export function useIsDesktop(): boolean {
  return useMediaQuery(media.desktop);
}
