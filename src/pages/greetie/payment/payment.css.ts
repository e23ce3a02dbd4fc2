import { keyframes, style } from '@vanilla-extract/css';
import { vars } from '../../../../styles/theme.css.ts';
import { media } from '../../../../styles/tokens.ts';

// Phone first: one column; the QR code centred, large enough to scan from a screen.
export const panel = style({ display: 'grid', gap: vars.space.md, margin: `${vars.space.md} 0` });
export const amount = style({ fontSize: '1.25rem', fontWeight: 700, color: vars.color.primaryText, margin: 0 });
export const text = style({ margin: 0, lineHeight: 1.5 });
export const qr = style({
  display: 'block',
  width: 'min(260px, 70vw)',
  height: 'auto',
  aspectRatio: '1',
  margin: '0 auto',
  padding: vars.space.sm,
  background: '#FFFFFF',
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.base,
});
export const payerForm = style({
  display: 'grid',
  gap: vars.space.sm,
  padding: vars.space.md,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.large,
});
export const payerField = style({ display: 'grid', gap: vars.space.xs });
export const payerRow = style({ display: 'grid', gap: vars.space.sm, '@media': { [media.tablet]: { gridTemplateColumns: '1fr auto', alignItems: 'end' } } });
export const waiting = style({
  display: 'flex',
  gap: vars.space.sm,
  alignItems: 'center',
  padding: vars.space.md,
  borderRadius: vars.radius.large,
  background: vars.color.primarySoft,
});
const spin = keyframes({ to: { transform: 'rotate(360deg)' } });
export const spinner = style({
  width: 20,
  height: 20,
  flex: 'none',
  borderRadius: '50%',
  border: `3px solid ${vars.color.primary}`,
  borderTopColor: 'transparent',
  '@media': { '(prefers-reduced-motion: no-preference)': { animation: `${spin} 1s linear infinite` } },
});
export const note = style({ margin: 0, color: vars.color.textMuted, fontSize: '0.9375rem' });
export const success = style({
  padding: vars.space.md,
  borderRadius: vars.radius.large,
  background: vars.color.successSoft,
  color: vars.color.success,
});
export const receipt = style({
  display: 'grid',
  gap: vars.space.sm,
  padding: vars.space.md,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.large,
});
export const receiptHeading = style({ margin: 0, fontSize: '1.125rem' });
export const receiptTotal = style({ display: 'flex', justifyContent: 'space-between', fontWeight: 700, fontSize: '1.125rem', margin: 0 });
/** The validity and the right of withdrawal, in short lines under the total. */
export const receiptTerms = style({ margin: 0, fontSize: '0.9375rem', lineHeight: 1.5 });
export const legal = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.md, margin: 0, fontSize: '0.9375rem' });
/** The Swish mark inside its button, before the text. */
export const mark = style({ display: 'inline-block', verticalAlign: '-4px', marginInlineEnd: vars.space.xs, flexShrink: 0 });
