/** Plain values shared by styles and components (media queries, sizes in px). */
export const breakpoints = { sm: 600, md: 900, lg: 1200 } as const;
/** Below this width the navigation opens in a drawer. */
export const desktopBreakpoint = breakpoints.lg;

export const media = {
  desktop: `screen and (min-width: ${desktopBreakpoint}px)`,
  tablet: `screen and (min-width: ${breakpoints.md}px)`,
  reducedMotion: '(prefers-reduced-motion: reduce)',
} as const;

export const header = { mobileHeight: 56, desktopHeight: 80, desktopOffsetHeight: 64 } as const;
export const drawerWidth = 260;
export const accountMenuWidth = 200;

export const transition = { duration: '0.45s', easing: 'cubic-bezier(0.4, 0, 0.1, 1)' } as const;

export const toastPolicy = { maxVisible: 5, durationMs: 3000 } as const;
