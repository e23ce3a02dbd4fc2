import { keyframes, style, globalStyle } from '@vanilla-extract/css';
import { vars } from '../../../styles/theme.css.ts';
import { container } from '../../components/ui.css.ts';
import { accountMenuWidth, drawerWidth, media, transition } from '../../../styles/tokens.ts';
import { headerHeightRule, headerOffsetRule, pageEnterKeyframes, pageTransitionRule, toastViewportRule } from './motion.ts';

const pageEnter = keyframes(pageEnterKeyframes);

export const page = style({
  ...pageTransitionRule,
  animationName: pageEnter,
});

export const skipLink = style({
  position: 'absolute',
  left: vars.space.md,
  top: '-100px',
  zIndex: 100,
  padding: `${vars.space.sm} ${vars.space.md}`,
  background: vars.color.background,
  color: vars.color.primaryText,
  borderRadius: vars.radius.base,
  boxShadow: vars.shadow.menu,
  selectors: { '&:focus': { top: vars.space.sm } },
});

export const loading = style({
  minHeight: '60vh',
  display: 'flex',
  flexDirection: 'column',
  alignItems: 'center',
  justifyContent: 'center',
  gap: vars.space.md,
  color: vars.color.textMuted,
});

const spin = keyframes({ to: { transform: 'rotate(360deg)' } });

export const spinner = style({
  width: 40,
  height: 40,
  borderRadius: '50%',
  border: `4px solid ${vars.color.primarySoft}`,
  borderTopColor: vars.color.primary,
  animation: `${spin} 0.9s linear infinite`,
  '@media': { [media.reducedMotion]: { animation: 'none' } },
});

export const main = style({
  display: 'block',
  outline: 'none',
  minHeight: '60vh',
});

export const pageContent = style([container, { paddingTop: vars.space.lg, paddingBottom: vars.space.xxl }]);

/* Header */

export const header = style({
  ...headerHeightRule,
  position: 'sticky',
  top: 0,
  zIndex: 10,
  background: 'rgba(255, 255, 255, 0.94)',
  borderBottom: `1px solid ${vars.color.border}`,
  transition: `height ${transition.duration} ${transition.easing}`,
  selectors: { '&[data-offset="true"]': headerOffsetRule },
});

export const headerInner = style([
  container,
  { height: '100%', display: 'flex', alignItems: 'center', gap: vars.space.md },
]);

export const logo = style({
  display: 'inline-flex',
  alignItems: 'center',
  gap: vars.space.sm,
  fontWeight: 700,
  fontSize: '1.375rem',
  color: vars.color.primaryText,
  textDecoration: 'none',
  borderRadius: vars.radius.base,
});

export const logoMark = style({ width: 32, height: 32, flex: 'none' });

export const desktopNav = style({ display: 'flex', alignItems: 'center', gap: vars.space.xs, marginLeft: vars.space.lg });

export const navList = style({ listStyle: 'none', margin: 0, padding: 0, display: 'flex', gap: vars.space.xs });

export const navListVertical = style([navList, { flexDirection: 'column' }]);

export const navLink = style({
  display: 'inline-flex',
  alignItems: 'center',
  minHeight: 44,
  padding: `0 ${vars.space.md}`,
  borderRadius: vars.radius.base,
  color: vars.color.text,
  fontWeight: 600,
  textDecoration: 'none',
  selectors: {
    '&:hover': { background: vars.color.surface },
    '&[aria-current="page"]': { color: vars.color.primaryText, background: vars.color.primarySoft },
  },
});

export const headerActions = style({ marginLeft: 'auto', display: 'flex', alignItems: 'center', gap: vars.space.sm });

/**
 * The session's place on a wide screen: 'Logga in' for a visitor, the account menu for a signed-in
 * person, always as wide as 'Logga in' (a hidden copy of the button's label sizes it), so the
 * language switch beside it stays where the server's first screen drew it (server/spa/firstScreens.ts)
 * whoever turns out to be signed in. A signed-in person's name and avatar fill it (`account`):
 * no empty space before them, the name cut short when it is longer (decision 158).
 */
export const sessionSlot = style({
  display: 'inline-grid',
  alignItems: 'center',
  justifyItems: 'end',
  selectors: {
    '&::before': {
      content: 'attr(data-size-as)',
      gridArea: '1 / 1',
      visibility: 'hidden',
      padding: `0 ${vars.space.lg}`,
      fontWeight: 700,
      whiteSpace: 'nowrap',
    },
  },
});
globalStyle(`${sessionSlot} > *`, { gridArea: '1 / 1' });
/** The signed-in person's name and avatar, side by side at the end of the header's row. */
export const account = style({ display: 'flex', alignItems: 'center', justifyContent: 'flex-end', gap: vars.space.sm, minWidth: 0 });
// In the wide place: as wide as the place, never wider (a width of 0 adds nothing to its size),
// from its start, where 'Logga in' starts: a short name leaves the space after the avatar, at the
// header's edge, not between the language select and the name.
globalStyle(`${sessionSlot} > ${account}`, { justifySelf: 'stretch', width: 0, minWidth: '100%', justifyContent: 'flex-start' });
/** The same place on a narrow screen: no box of its own, the account menu sits in the header's row. */
export const sessionSlotNarrow = style({ display: 'contents' });

export const iconButton = style({
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  width: 44,
  height: 44,
  border: 'none',
  borderRadius: vars.radius.base,
  background: 'transparent',
  color: vars.color.text,
  cursor: 'pointer',
  selectors: { '&:hover': { background: vars.color.surface } },
});

export const avatar = style({
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  width: 40,
  height: 40,
  border: 'none',
  borderRadius: '50%',
  background: vars.color.primarySoft,
  color: vars.color.primaryText,
  fontWeight: 700,
  fontSize: '1.125rem',
  cursor: 'pointer',
  position: 'relative',
});

/** Holds the avatar button and, over its corner, the unread badge. */
export const avatarWrap = style({
  position: 'relative',
  display: 'inline-flex',
});
// A person with no name yet: in the wide place the avatar button itself is as wide as the place.
globalStyle(`${sessionSlot} > ${account} > ${avatarWrap}:only-child`, { flex: '1 1 auto' });
globalStyle(`${sessionSlot} > ${account} > ${avatarWrap}:only-child > ${avatar}`, { width: '100%', borderRadius: 999 });

/** The unread notifications on the avatar's corner; clicks go through to the avatar. */
export const unreadBadge = style({
  pointerEvents: 'none',
  position: 'absolute',
  top: -4,
  right: -6,
  minWidth: 20,
  height: 20,
  padding: '0 5px',
  borderRadius: 999,
  background: vars.color.primaryText,
  color: vars.color.onPrimary,
  fontSize: '0.75rem',
  fontWeight: 700,
  lineHeight: '20px',
  textAlign: 'center',
  boxShadow: `0 0 0 2px ${vars.color.background}`,
});

/** The signed-in user's name beside the avatar: one line, cut short on a phone. */
export const accountName = style({
  maxWidth: '7.5rem',
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  whiteSpace: 'nowrap',
  fontWeight: 700,
  color: vars.color.text,
  '@media': { [media.tablet]: { maxWidth: '14rem' } },
});

export const languageSwitch = style({ display: 'inline-flex', alignItems: 'center', gap: vars.space.xs, fontSize: '0.875rem' });

export const languageSelect = style({
  minHeight: 40,
  padding: `0 ${vars.space.sm}`,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.base,
  background: vars.color.background,
  color: vars.color.text,
});

/* Drawer (Radix dialog) */

export const overlay = style({ position: 'fixed', inset: 0, background: vars.color.overlay, zIndex: 40 });

const slideIn = keyframes({ from: { transform: 'translateX(-100%)' }, to: { transform: 'none' } });

export const drawer = style({
  position: 'fixed',
  top: 0,
  bottom: 0,
  left: 0,
  width: drawerWidth,
  maxWidth: '85vw',
  zIndex: 50,
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space.md,
  padding: vars.space.md,
  background: vars.color.background,
  boxShadow: vars.shadow.menu,
  overflowY: 'auto',
  animation: `${slideIn} ${transition.duration} ${transition.easing}`,
  '@media': { [media.reducedMotion]: { animation: 'none' } },
});

export const drawerHead = style({ display: 'flex', alignItems: 'center', justifyContent: 'space-between' });

export const drawerTitle = style({ margin: 0, fontSize: '1.125rem' });

/* Dropdown menus (account menu, minimal navigation) */

export const menu = style({
  minWidth: accountMenuWidth,
  width: accountMenuWidth,
  padding: vars.space.xs,
  zIndex: 60,
  background: vars.color.background,
  borderRadius: vars.radius.base,
  boxShadow: vars.shadow.menu,
  border: `1px solid ${vars.color.border}`,
});

export const menuLabel = style({
  padding: `${vars.space.sm} ${vars.space.sm}`,
  fontWeight: 700,
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  whiteSpace: 'nowrap',
});

export const menuItem = style({
  display: 'flex',
  alignItems: 'center',
  minHeight: 40,
  padding: `0 ${vars.space.sm}`,
  borderRadius: vars.radius.base,
  color: vars.color.text,
  textDecoration: 'none',
  cursor: 'pointer',
  outline: 'none',
  selectors: { '&[data-highlighted]': { background: vars.color.primarySoft, color: vars.color.primaryText } },
});

/** The unread count at the end of the menu's 'Notiser'. */
export const menuCount = style({
  marginLeft: 'auto',
  minWidth: 20,
  height: 20,
  padding: '0 6px',
  borderRadius: 999,
  background: vars.color.primaryText,
  color: vars.color.onPrimary,
  fontSize: '0.75rem',
  fontWeight: 700,
  lineHeight: '20px',
  textAlign: 'center',
});

export const menuSeparator = style({ height: 1, margin: `${vars.space.xs} 0`, background: vars.color.border });

/* Minimal layout */

export const minimalBar = style({
  position: 'fixed',
  top: vars.space.sm,
  left: vars.space.sm,
  zIndex: 10,
});

export const minimalTrigger = style([
  iconButton,
  { background: 'rgba(255, 255, 255, 0.92)', boxShadow: vars.shadow.card },
]);

/* Toasts (Radix), top right */

export const toastViewport = style({
  ...toastViewportRule,
  zIndex: 100,
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space.sm,
  width: 360,
  maxWidth: '100vw',
  margin: 0,
  padding: vars.space.md,
  listStyle: 'none',
  outline: 'none',
});

const toastIn = keyframes({ from: { opacity: 0, transform: 'translateX(16px)' }, to: { opacity: 1, transform: 'none' } });

export const toast = style({
  display: 'flex',
  alignItems: 'flex-start',
  gap: vars.space.sm,
  padding: vars.space.md,
  borderRadius: vars.radius.base,
  background: vars.color.background,
  boxShadow: vars.shadow.menu,
  borderLeft: `4px solid ${vars.color.primary}`,
  animation: `${toastIn} 0.2s ${transition.easing}`,
  selectors: {
    '&[data-variant="success"]': { borderLeftColor: vars.color.success },
    '&[data-variant="error"]': { borderLeftColor: vars.color.danger, background: vars.color.dangerSoft },
  },
  '@media': { [media.reducedMotion]: { animation: 'none' } },
});

export const toastText = style({ flex: 1, margin: 0 });

/* Consent banner */

export const consent = style({
  position: 'fixed',
  left: vars.space.md,
  right: vars.space.md,
  bottom: vars.space.md,
  zIndex: 30,
  maxWidth: 560,
  marginLeft: 'auto',
  padding: vars.space.md,
  background: vars.color.background,
  borderRadius: vars.radius.base,
  boxShadow: vars.shadow.menu,
});

export const consentTitle = style({ margin: 0, fontSize: '1rem' });

export const consentText = style({ margin: `${vars.space.sm} 0 0` });

export const consentActions = style({ display: 'flex', gap: vars.space.sm, flexWrap: 'wrap', marginTop: vars.space.sm });

globalStyle(`${main}:focus`, { outline: 'none' });

export { button, buttonSecondary, container, visuallyHidden } from '../../components/ui.css.ts';
