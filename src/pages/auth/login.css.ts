import { style } from '@vanilla-extract/css';
import { vars } from '../../../styles/theme.css.ts';

/** The login page: a centred card on a soft gradient. */
export const page = style({
  minHeight: '100vh',
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'center',
  padding: vars.space.md,
  background: `linear-gradient(135deg, ${vars.color.primarySoft} 0%, ${vars.color.background} 50%, #F3E8FB 100%)`,
});

export const card = style({
  width: '100%',
  maxWidth: 420,
  background: vars.color.background,
  borderRadius: vars.radius.large,
  boxShadow: vars.shadow.card,
  padding: vars.space.lg,
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space.md,
});

export const home = style({
  alignSelf: 'flex-start',
  color: vars.color.primaryText,
  fontWeight: 700,
  fontSize: 22,
  textDecoration: 'none',
});

export const title = style({ margin: 0, fontSize: 28, color: vars.color.text });

export const text = style({ margin: 0, color: vars.color.textMuted, lineHeight: 1.5 });

export const form = style({ display: 'flex', flexDirection: 'column', gap: vars.space.sm });

export const label = style({ fontWeight: 700, color: vars.color.text });

export const input = style({
  minHeight: 48,
  padding: `0 ${vars.space.md}`,
  fontSize: 18,
  fontFamily: 'inherit',
  borderRadius: vars.radius.base,
  border: `2px solid ${vars.color.border}`,
  color: vars.color.text,
  selectors: {
    '&:focus-visible': { outline: `3px solid ${vars.color.focus}`, outlineOffset: 2 },
    '&[aria-invalid="true"]': { borderColor: vars.color.danger },
  },
});

export const codeInput = style([input, { letterSpacing: '0.3em', fontVariantNumeric: 'tabular-nums' }]);

export const hint = style({ margin: 0, fontSize: 14, color: vars.color.textMuted });

export const error = style({
  margin: 0,
  padding: vars.space.sm,
  borderRadius: vars.radius.base,
  background: vars.color.dangerSoft,
  color: vars.color.danger,
  fontWeight: 600,
});

export const row = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.sm, alignItems: 'center' });

export const linkButton = style({
  background: 'none',
  border: 'none',
  padding: `${vars.space.xs} 0`,
  minHeight: 44,
  color: vars.color.primaryText,
  fontWeight: 700,
  fontFamily: 'inherit',
  fontSize: 16,
  textDecoration: 'underline',
  cursor: 'pointer',
  selectors: { '&:disabled': { color: vars.color.textMuted, cursor: 'default' } },
});

export const busy = style({ opacity: 0.8, cursor: 'progress' });
