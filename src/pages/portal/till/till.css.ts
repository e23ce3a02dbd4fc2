import { style } from '@vanilla-extract/css';
import { vars } from '../../../../styles/theme.css.ts';

/** Till mode's own pieces; the rest is the till's look (src/components/till/till.css.ts). */

export const scanner = style({ display: 'grid', gap: vars.space.sm });
export const video = style({
  width: '100%',
  aspectRatio: '1 / 1',
  objectFit: 'cover',
  borderRadius: vars.radius.large,
  background: '#000',
});
export const scanHint = style({ margin: 0, fontWeight: 700, textAlign: 'center' });
export const actions = style({ display: 'grid', gap: vars.space.sm });
