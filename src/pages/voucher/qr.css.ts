import { style } from '@vanilla-extract/css';
import { vars } from '../../../styles/theme.css.ts';

/**
 * The voucher's QR for the till: black on white whatever the theme (a scanner needs the contrast),
 * at least 240 CSS px wide with its quiet zone (4 modules of white) inside, so a phone at full
 * brightness scans it from 30 cm.
 */
export const box = style({ display: 'grid', gap: vars.space.sm, justifyItems: 'center', margin: 0 });
export const code = style({
  display: 'block',
  width: 'min(280px, 80vw)',
  minWidth: 240,
  height: 'auto',
  aspectRatio: '1',
  background: '#ffffff',
  borderRadius: vars.radius.base,
});
export const placeholder = style([code, { border: `1px solid ${vars.color.border}` }]);
export const token = style({
  margin: 0,
  fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
  fontSize: '1.5rem',
  fontWeight: 700,
  letterSpacing: '0.15em',
});
export const caption = style({ margin: 0, color: vars.color.textMuted, textAlign: 'center' });
