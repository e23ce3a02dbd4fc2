import { style } from '@vanilla-extract/css';
import { vars } from '../../../styles/theme.css.ts';
import { container } from '../../components/ui.css.ts';

export const footer = style({ borderTop: `1px solid ${vars.color.border}`, background: vars.color.surface, marginTop: vars.space.xl });

export const inner = style([
  container,
  { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: `${vars.space.xs} ${vars.space.lg}`, paddingTop: vars.space.md, paddingBottom: vars.space.md },
]);

export const links = style({ display: 'flex', flexWrap: 'wrap', gap: `${vars.space.xs} ${vars.space.lg}`, margin: 0, padding: 0, listStyle: 'none' });

export const link = style({
  display: 'inline-flex',
  alignItems: 'center',
  minHeight: 44,
  color: vars.color.primaryText,
  fontWeight: 700,
});

export const brand = style({ margin: 0, color: vars.color.textMuted, fontSize: '0.9375rem' });
