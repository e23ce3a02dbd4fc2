import { header, media, transition } from '../../../styles/tokens.ts';

/**
 * The style rules behind the shell's motion and header sizes, as plain data so tests can read
 * them (vanilla-extract turns them into CSS at build time in shell.css.ts).
 */

/** Page transitions: 0.45 s, cubic-bezier(0.4, 0, 0.1, 1); none when the user asks for less motion. */
export const pageTransitionRule = {
  animationName: 'pageEnter',
  animationDuration: transition.duration,
  animationTimingFunction: transition.easing,
  animationFillMode: 'both',
  '@media': {
    [media.reducedMotion]: { animationName: 'none', animationDuration: '0s' },
  },
} as const;

export const pageEnterKeyframes = {
  from: { opacity: 0, transform: 'translateY(8px)' },
  to: { opacity: 1, transform: 'none' },
} as const;

/** Header: 56 px on mobile, 80 px on desktop, 64 px on desktop once the page is scrolled (offset). */
export const headerHeightRule = {
  height: `${header.mobileHeight}px`,
  '@media': { [media.desktop]: { height: `${header.desktopHeight}px` } },
} as const;

export const headerOffsetRule = {
  '@media': { [media.desktop]: { height: `${header.desktopOffsetHeight}px` } },
} as const;

/** Toasts sit in the top-right corner. */
export const toastViewportRule = { position: 'fixed', top: 0, right: 0 } as const;
