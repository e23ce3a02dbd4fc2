import { style } from '@vanilla-extract/css';
import { vars } from '../../../styles/theme.css.ts';
import { formInput, formLabel } from '../../components/ui.css.ts';

/** The recipient's thank-you: the form on the greetie they opened, and the note the sender reads. */

export const section = style({ marginTop: vars.space.lg, display: 'grid', gap: vars.space.sm });
export const title = style({ margin: 0, fontSize: '1.25rem', outline: 'none' });
export const form = style({ display: 'grid', gap: vars.space.md });
export const field = style({ display: 'grid', gap: vars.space.xs });
export const label = formLabel;
export const textarea = style([formInput, { minHeight: 112, padding: vars.space.sm, resize: 'vertical' }]);
export const counter = style({ margin: 0, color: vars.color.textMuted, fontSize: '0.875rem', textAlign: 'right' });
export const error = style({ margin: 0, color: vars.color.danger, fontWeight: 600 });
export const alert = style({ margin: 0, padding: vars.space.md, borderRadius: vars.radius.base, background: vars.color.dangerSoft, color: vars.color.danger });

export const emojis = style({ border: 'none', margin: 0, padding: 0, display: 'flex', flexWrap: 'wrap', gap: vars.space.sm });
export const legend = style([formLabel, { padding: 0, marginBottom: vars.space.xs }]);
/** One choice: the radio and its emoji in a pill at least 44 px high; the picked one stands out. */
export const emojiChoice = style({
  display: 'inline-flex',
  alignItems: 'center',
  gap: vars.space.xs,
  minHeight: 44,
  minWidth: 44,
  padding: `0 ${vars.space.sm}`,
  borderRadius: vars.radius.pill,
  border: `2px solid ${vars.color.border}`,
  background: vars.color.background,
  cursor: 'pointer',
  selectors: { '&:has(input:checked)': { borderColor: vars.color.primaryDark, background: vars.color.primarySoft } },
});
export const emojiRadio = style({ margin: 0, accentColor: vars.color.primaryDark });
export const emojiGlyph = style({ fontSize: '1.5rem', lineHeight: 1 });

/** A thank-you as sent: its emoji, its words and when. */
export const note = style({
  margin: `${vars.space.md} 0`,
  padding: vars.space.md,
  borderRadius: vars.radius.large,
  background: vars.color.successSoft,
  color: vars.color.text,
  display: 'grid',
  gap: vars.space.xs,
  outline: 'none',
});
export const noteText = style({ margin: 0, fontSize: '1.0625rem', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' });
export const noteMeta = style({ margin: 0, color: vars.color.textMuted, fontSize: '0.9375rem' });
