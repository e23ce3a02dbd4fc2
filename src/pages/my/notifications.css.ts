import { style } from '@vanilla-extract/css';
import { vars } from '../../../styles/theme.css.ts';

/** The notification list of /my/notifications. */
export const toolbar = style({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: '12px' });

export const list = style({ listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: '8px' });

export const item = style({
  display: 'grid',
  gap: '4px',
  padding: '12px 16px',
  borderRadius: vars.radius.base,
  border: `1px solid ${vars.color.border}`,
  background: vars.color.background,
  color: 'inherit',
  textDecoration: 'none',
  ':focus-visible': { outline: `3px solid ${vars.color.focus}`, outlineOffset: 2 },
  ':hover': { borderColor: vars.color.primary },
});

export const unread = style({ borderLeft: `4px solid ${vars.color.primary}`, background: vars.color.primarySoft });

export const itemTitle = style({ margin: 0, fontWeight: 700, display: 'flex', gap: '8px', alignItems: 'center', flexWrap: 'wrap' });

export const badge = style({
  fontSize: '0.75rem',
  fontWeight: 700,
  padding: '2px 8px',
  borderRadius: 999,
  background: vars.color.primaryText,
  color: vars.color.onPrimary,
});

export const time = style({ margin: 0, color: vars.color.textMuted, fontSize: '0.875rem' });
