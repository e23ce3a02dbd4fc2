import { useSyncExternalStore } from 'react';
import { media } from '../../../../styles/tokens.ts';

/** Where a mouse or trackpad is the input (a phone or tablet answers no): keyboard help belongs there. */
export const FINE_POINTER = '(hover: hover) and (pointer: fine)';

function matches(query: string): boolean {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia(query).matches;
}

function subscribeTo(query: string) {
  return (onChange: () => void): (() => void) => {
    if (typeof window === 'undefined' || typeof window.matchMedia !== 'function') return () => {};
    const list = window.matchMedia(query);
    list.addEventListener?.('change', onChange);
    return () => list.removeEventListener?.('change', onChange);
  };
}

const subscribeReduced = subscribeTo(media.reducedMotion);
const subscribeFine = subscribeTo(FINE_POINTER);

/** Whether the person asked for less motion (animations then show one still frame). */
export function prefersReducedMotion(): boolean {
  return matches(media.reducedMotion);
}

export function useReducedMotion(): boolean {
  return useSyncExternalStore(subscribeReduced, prefersReducedMotion, () => false);
}

/** Whether the device has a fine pointer that hovers (a mouse, a trackpad), as it changes. */
export function useFinePointer(): boolean {
  return useSyncExternalStore(subscribeFine, () => matches(FINE_POINTER), () => false);
}
