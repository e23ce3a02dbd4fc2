import { keyframes, style } from '@vanilla-extract/css';
import { vars } from '../../../styles/theme.css.ts';
import { media } from '../../../styles/tokens.ts';
import { errorBox, errorBoxTitle } from '../ui.css.ts';

/**
 * The till's look, shared by the customer's-phone till (src/pages/redeem/) and till mode in the
 * merchant portal (src/pages/portal/till/): the lists to pick from, and the till screen made to be
 * read across a counter.
 */

export const page = style({ maxWidth: 640, margin: `${vars.space.md} auto ${vars.space.xl}`, display: 'grid', gap: vars.space.lg });
export const title = style({ margin: 0, fontSize: 'clamp(1.75rem, 5vw, 2.25rem)', outline: 'none' });
export const intro = style({ margin: 0, color: vars.color.textMuted });
export const list = style({ display: 'grid', gap: vars.space.sm, margin: 0, padding: 0, listStyle: 'none' });
export const muted = style({ margin: 0, color: vars.color.textMuted });
export const back = style({ color: vars.color.primaryText, fontWeight: 700, justifySelf: 'start' });
export const alert = errorBox;
export const alertTitle = errorBoxTitle;
export const chosen = style({
  justifySelf: 'start',
  marginTop: vars.space.xs,
  padding: `2px ${vars.space.sm}`,
  borderRadius: vars.radius.pill,
  background: vars.color.primary,
  color: vars.color.text,
  fontSize: '0.8125rem',
  fontWeight: 700,
});

export const voucher = style({
  display: 'grid',
  gap: vars.space.xs,
  padding: vars.space.lg,
  borderRadius: vars.radius.large,
  background: vars.color.primarySoft,
  textAlign: 'center',
});
export const voucherLogo = style({ width: 64, height: 64, justifySelf: 'center', borderRadius: vars.radius.base, objectFit: 'contain', background: vars.color.background });
export const voucherMerchant = style({ margin: 0, fontWeight: 700, color: vars.color.textMuted });
export const voucherProduct = style({ margin: 0, fontSize: 'clamp(1.5rem, 6vw, 2rem)', outline: 'none' });
export const voucherAmount = style({ margin: 0, fontSize: 'clamp(2rem, 9vw, 3rem)', fontWeight: 700, color: vars.color.primaryText });
export const customer = style({ margin: 0, fontWeight: 600 });

export const staff = style({
  display: 'grid',
  gap: vars.space.sm,
  padding: vars.space.lg,
  borderRadius: vars.radius.large,
  border: `2px solid ${vars.color.border}`,
  background: vars.color.background,
});
export const staffTitle = style({ margin: 0, fontSize: '1.125rem' });
export const label = style({ fontWeight: 700, fontSize: '1.125rem' });
export const codeInput = style({
  minHeight: 56,
  padding: `0 ${vars.space.md}`,
  border: `2px solid ${vars.color.textMuted}`,
  borderRadius: vars.radius.base,
  fontSize: '1.5rem',
  letterSpacing: '0.12em',
  textTransform: 'uppercase',
  font: 'inherit',
  width: '100%',
  selectors: { '&[aria-invalid="true"]': { borderColor: vars.color.danger } },
});
/** The amount for a value voucher: big digits, the phone's decimal keypad, "kr" after. */
export const amountRow = style({ display: 'flex', alignItems: 'center', gap: vars.space.sm });
export const amountInput = style({
  minHeight: 64,
  padding: `0 ${vars.space.md}`,
  border: `2px solid ${vars.color.textMuted}`,
  borderRadius: vars.radius.base,
  font: 'inherit',
  fontSize: '2rem',
  fontWeight: 700,
  fontVariantNumeric: 'tabular-nums',
  textAlign: 'right',
  width: '100%',
  minWidth: 0,
  selectors: { '&[aria-invalid="true"]': { borderColor: vars.color.danger } },
});
export const amountUnit = style({ fontSize: '1.5rem', fontWeight: 700 });
export const remaining = style({ margin: 0, fontSize: '1.25rem', fontWeight: 700 });
export const submit = style({ minHeight: 56, fontSize: '1.25rem', width: '100%' });
export const error = style({ margin: 0, color: vars.color.danger, fontWeight: 700 });
export const notice = style({ margin: 0, padding: vars.space.md, borderRadius: vars.radius.base, background: vars.color.surface, fontWeight: 700 });

const sweep = keyframes({ from: { backgroundPosition: '0 0' }, to: { backgroundPosition: '112px 0' } });
const pulse = keyframes({ '0%, 100%': { transform: 'scale(1)' }, '50%': { transform: 'scale(1.08)' } });

/**
 * "Inlöst": green, large, moving stripes and a pulsing mark, with the live time. A screenshot of
 * an old one shows a still picture and the wrong time. With reduced motion nothing moves; the
 * seconds ticking by are the live cue.
 */
export const done = style({
  display: 'grid',
  gap: vars.space.sm,
  justifyItems: 'center',
  padding: `${vars.space.xl} ${vars.space.lg}`,
  borderRadius: vars.radius.large,
  color: vars.color.onPrimary,
  textAlign: 'center',
  backgroundColor: vars.color.success,
  backgroundImage: 'repeating-linear-gradient(135deg, rgba(255,255,255,0.12) 0 28px, rgba(255,255,255,0) 28px 56px)',
  backgroundSize: '112px 112px',
  animation: `${sweep} 1.2s linear infinite`,
  '@media': { [media.reducedMotion]: { animation: 'none' } },
});
export const doneMark = style({
  display: 'grid',
  placeItems: 'center',
  width: 96,
  height: 96,
  borderRadius: '50%',
  background: vars.color.onPrimary,
  color: vars.color.success,
  fontSize: '3.5rem',
  fontWeight: 700,
  lineHeight: 1,
  animation: `${pulse} 1.6s ease-in-out infinite`,
  '@media': { [media.reducedMotion]: { animation: 'none' } },
});
export const doneTitle = style({ margin: 0, fontSize: 'clamp(3rem, 16vw, 5rem)', lineHeight: 1, letterSpacing: '0.02em', outline: 'none' });
export const doneWhat = style({ margin: 0, fontSize: '1.25rem', fontWeight: 700 });
export const doneTaken = style({ margin: 0, fontSize: 'clamp(1.5rem, 7vw, 2rem)', fontWeight: 700, fontVariantNumeric: 'tabular-nums' });
export const doneAt = style({ margin: 0, fontSize: '1.125rem' });
export const clock = style({
  margin: 0,
  padding: `${vars.space.sm} ${vars.space.md}`,
  borderRadius: vars.radius.base,
  background: 'rgba(0,0,0,0.25)',
  fontSize: 'clamp(2rem, 10vw, 3rem)',
  fontWeight: 700,
  fontVariantNumeric: 'tabular-nums',
});
export const clockLabel = style({ display: 'block', fontSize: '0.875rem', fontWeight: 600, letterSpacing: '0.04em' });
export const live = style({ margin: 0, fontSize: '0.875rem' });
export const doneLink = style({ color: vars.color.primaryText, fontWeight: 700, justifySelf: 'center' });

/** Undone: plain, not green: nothing was taken. */
export const undone = style({
  display: 'grid',
  gap: vars.space.sm,
  padding: vars.space.lg,
  borderRadius: vars.radius.large,
  border: `2px solid ${vars.color.border}`,
  background: vars.color.surface,
  textAlign: 'center',
});
