import { style } from '@vanilla-extract/css';
import { vars } from '../../../styles/theme.css.ts';
import { media } from '../../../styles/tokens.ts';
import { dialogBox, dialogOverlay, errorText, formField } from '../../components/ui.css.ts';

/** My pages: a narrow column of cards (the layout gives the container and its padding). */

export const page = style({ maxWidth: 640, margin: `${vars.space.md} auto 0`, display: 'grid', gap: vars.space.lg });

export const heading = style({ display: 'grid', gap: vars.space.sm });

export const eyebrow = style({ margin: 0, color: vars.color.textMuted, fontWeight: 700, fontSize: '0.875rem', textTransform: 'uppercase', letterSpacing: '0.06em' });

export const title = style({ margin: 0, fontSize: 'clamp(1.75rem, 5vw, 2.25rem)', outline: 'none' });

export const tabs = style({ display: 'flex', gap: vars.space.sm, flexWrap: 'wrap', margin: 0, padding: 0, listStyle: 'none' });

export const tab = style({
  display: 'inline-flex',
  alignItems: 'center',
  minHeight: 40,
  padding: `0 ${vars.space.md}`,
  borderRadius: vars.radius.pill,
  color: vars.color.text,
  textDecoration: 'none',
  fontWeight: 600,
  boxShadow: `inset 0 0 0 1px ${vars.color.border}`,
  selectors: {
    '&[aria-current="page"]': { background: vars.color.primarySoft, color: vars.color.primaryText, boxShadow: `inset 0 0 0 2px ${vars.color.primary}` },
    '&:hover': { background: vars.color.surface },
  },
});

export const card = style({
  display: 'grid',
  gap: vars.space.md,
  padding: vars.space.lg,
  borderRadius: vars.radius.large,
  background: vars.color.background,
  boxShadow: vars.shadow.card,
});

export const cardTitle = style({ margin: 0, fontSize: '1.125rem' });

export const field = formField;

export const label = style({ fontWeight: 700 });

export const hint = style({ margin: 0, color: vars.color.textMuted, fontSize: '0.9375rem' });

export const input = style({
  minHeight: 44,
  padding: `0 ${vars.space.md}`,
  border: `1px solid ${vars.color.textMuted}`,
  borderRadius: vars.radius.base,
  background: vars.color.background,
  color: vars.color.text,
  font: 'inherit',
  width: '100%',
  selectors: { '&[aria-invalid="true"]': { borderColor: vars.color.danger, boxShadow: `inset 0 0 0 1px ${vars.color.danger}` } },
});

export const error = errorText;

export const formRow = style({
  display: 'grid',
  gap: vars.space.sm,
  '@media': { [media.tablet]: { gridTemplateColumns: '1fr auto', alignItems: 'end' } },
});

export const text = style({ margin: 0 });

export const number = style({ fontWeight: 700, whiteSpace: 'nowrap' });

export const shortcuts = style({
  listStyle: 'none',
  margin: 0,
  padding: 0,
  display: 'grid',
  gap: vars.space.sm,
  '@media': { [media.tablet]: { gridTemplateColumns: '1fr 1fr' } },
});

export const shortcut = style({
  display: 'grid',
  gap: vars.space.xs,
  padding: vars.space.md,
  borderRadius: vars.radius.base,
  background: vars.color.surface,
  color: vars.color.text,
  textDecoration: 'none',
  boxShadow: `inset 0 0 0 1px ${vars.color.border}`,
  selectors: { '&:hover': { boxShadow: `inset 0 0 0 2px ${vars.color.primary}` } },
});

export const shortcutTitle = style({ fontWeight: 700, color: vars.color.primaryText });

export const switchRow = style({ display: 'flex', alignItems: 'flex-start', justifyContent: 'space-between', gap: vars.space.md });

export const switchButton = style({
  position: 'relative',
  flex: 'none',
  width: 56,
  height: 32,
  marginTop: 2,
  padding: 0,
  border: 'none',
  borderRadius: vars.radius.pill,
  background: vars.color.textMuted,
  cursor: 'pointer',
  transition: 'background 0.2s',
  selectors: {
    '&[aria-checked="true"]': { background: vars.color.primaryDark },
    '&[aria-busy="true"]': { cursor: 'progress', opacity: 0.8 },
    '&::after': {
      content: '""',
      position: 'absolute',
      top: 4,
      left: 4,
      width: 24,
      height: 24,
      borderRadius: '50%',
      background: vars.color.background,
      transition: 'transform 0.2s',
    },
    '&[aria-checked="true"]::after': { transform: 'translateX(24px)' },
  },
  '@media': { [media.reducedMotion]: { transition: 'none', selectors: { '&::after': { transition: 'none' } } } },
});

export const switchState = style({ margin: 0, color: vars.color.textMuted, fontSize: '0.9375rem' });

export const skeleton = style({ height: 160, borderRadius: vars.radius.large, background: vars.color.surface });

export const alert = style({
  display: 'grid',
  gap: vars.space.sm,
  justifyItems: 'start',
  padding: vars.space.lg,
  borderRadius: vars.radius.large,
  background: vars.color.dangerSoft,
  color: vars.color.text,
});

export const alertTitle = style({ margin: 0, fontSize: '1.25rem', outline: 'none' });

/* The name prompt after the first sign-in (below the header, in the page's flow: it covers nothing). */

export const prompt = style({
  margin: `${vars.space.md} auto 0`,
  width: 'calc(100% - 2 * 16px)',
  maxWidth: 640,
  display: 'grid',
  gap: vars.space.sm,
  padding: vars.space.md,
  borderRadius: vars.radius.large,
  background: vars.color.primarySoft,
});

export const promptTitle = style({ margin: 0, fontSize: '1.125rem' });

export const promptActions = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.sm });

/** /my/account: the delete button and its confirmation dialog. */
export const dangerButton = style({
  minHeight: 44,
  padding: `0 ${vars.space.lg}`,
  border: 'none',
  borderRadius: vars.radius.pill,
  background: vars.color.danger,
  color: vars.color.background,
  font: 'inherit',
  fontWeight: 700,
  cursor: 'pointer',
  selectors: { '&:disabled': { opacity: 0.5, cursor: 'not-allowed' }, '&:focus-visible': { outline: `3px solid ${vars.color.primary}`, outlineOffset: 2 } },
});

export { dialogOverlay };

export const dialog = style([dialogBox, { width: 'min(92vw, 480px)', maxHeight: '90vh', overflowY: 'auto', display: 'grid', gap: vars.space.md }]);

export const losses = style({ display: 'grid', gap: vars.space.sm });

export const lossList = style({ margin: 0, paddingLeft: vars.space.lg, display: 'grid', gap: vars.space.xs });

export const dialogButtons = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.sm, justifyContent: 'flex-end', marginTop: vars.space.sm });
