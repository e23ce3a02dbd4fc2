import { globalStyle } from '@vanilla-extract/css';
import { vars } from './theme.css.ts';
import { media } from './tokens.ts';

globalStyle('*, *::before, *::after', { boxSizing: 'border-box' });
// Light only: no dark variant, and form controls and scrollbars stay light too.
globalStyle('html', { WebkitTextSizeAdjust: '100%', colorScheme: 'light' });
globalStyle('body', {
  margin: 0,
  fontFamily: vars.font.body,
  color: vars.color.text,
  background: vars.color.background,
  lineHeight: 1.5,
  WebkitFontSmoothing: 'antialiased',
});
globalStyle('img, svg, video', { maxWidth: '100%', display: 'block' });
globalStyle('a', { color: vars.color.primaryText });
globalStyle('button, input, select, textarea', { font: 'inherit' });
globalStyle(':focus-visible', { outline: `3px solid ${vars.color.focus}`, outlineOffset: '2px' });
globalStyle('*, *::before, *::after', {
  '@media': {
    [media.reducedMotion]: { animationDuration: '0s !important', transitionDuration: '0s !important' },
  },
});
