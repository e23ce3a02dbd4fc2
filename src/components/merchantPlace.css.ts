import { style } from '@vanilla-extract/css';
import { vars } from '../../styles/theme.css.ts';

/** Where and when (MerchantPlace): address with a map link, opening hours. */
export const place = style({ display: 'grid', gap: vars.space.sm, margin: `${vars.space.md} 0` });
export const row = style({ display: 'grid', gap: 2 });
export const term = style({ fontSize: '0.875rem', fontWeight: 700, color: vars.color.textMuted });
export const value = style({ margin: 0, display: 'grid', gap: 4 });
export const address = style({ fontStyle: 'normal' });
