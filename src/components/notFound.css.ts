import { style } from '@vanilla-extract/css';
import { vars } from '../../styles/theme.css.ts';

export const box = style({ maxWidth: 560, margin: '0 auto', padding: `${vars.space.xxl} 0`, textAlign: 'center' });

export const code = style({ margin: 0, fontSize: '4.5rem', fontWeight: 700, lineHeight: 1, color: vars.color.primary });

export const title = style({ margin: `${vars.space.md} 0 ${vars.space.sm}`, fontSize: '1.75rem', outline: 'none' });

export const help = style({ color: vars.color.textMuted });

export const actions = style({
  display: 'flex',
  gap: vars.space.sm,
  justifyContent: 'center',
  flexWrap: 'wrap',
  marginTop: vars.space.lg,
});
