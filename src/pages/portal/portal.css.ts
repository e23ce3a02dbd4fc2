import { style } from '@vanilla-extract/css';
import { vars } from '../../../styles/theme.css.ts';
import { media } from '../../../styles/tokens.ts';
import { container, dialogBox, dialogOverlay, formField, formInput, formLabel, linkCard } from '../../components/ui.css.ts';

/** The merchant portal: phone first (one column), the cards side by side from a tablet's width. */

export const page = style([container, { paddingTop: vars.space.lg, paddingBottom: vars.space.xxl }]);
export const title = style({ margin: `0 0 ${vars.space.xs}`, fontSize: 'clamp(1.75rem, 5vw, 2.5rem)', outline: 'none' });
export const lead = style({ margin: `0 0 ${vars.space.lg}`, color: vars.color.textMuted, maxWidth: '44em' });
export const sectionTitle = style({ margin: `${vars.space.xl} 0 ${vars.space.md}`, fontSize: '1.375rem' });

export const chooser = style({ listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: vars.space.md });
export const chooserLink = style([linkCard, { display: 'grid', gap: vars.space.xs }]);
export const chooserName = style({ fontWeight: 700, fontSize: '1.125rem' });
export const muted = style({ color: vars.color.textMuted, margin: 0 });

export const actions = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.sm, margin: `${vars.space.md} 0` });

export const cards = style({
  listStyle: 'none',
  margin: 0,
  padding: 0,
  display: 'grid',
  gap: vars.space.md,
  '@media': { [media.tablet]: { gridTemplateColumns: 'repeat(4, 1fr)' } },
});
export const card = style({ padding: vars.space.md, borderRadius: vars.radius.large, background: vars.color.surface, display: 'grid', gap: vars.space.xs, alignContent: 'start' });
export const cardLabel = style({ margin: 0, fontWeight: 700 });
export const cardAmount = style({ margin: 0, fontSize: '1.5rem', fontWeight: 700 });
export const cardNote = style({ margin: 0, color: vars.color.textMuted, fontSize: '0.875rem' });

export const filters = style({
  display: 'grid',
  gap: vars.space.md,
  padding: vars.space.md,
  margin: `0 0 ${vars.space.md}`,
  border: 'none',
  borderRadius: vars.radius.large,
  background: vars.color.surface,
  '@media': { [media.tablet]: { gridTemplateColumns: '1fr 1fr auto', alignItems: 'end' } },
});
export const field = formField;
export const label = formLabel;
export const input = formInput;

export const list = style({ listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: vars.space.sm });
export const row = style({
  display: 'grid',
  gridTemplateColumns: '1fr auto',
  gap: `${vars.space.xs} ${vars.space.md}`,
  padding: vars.space.md,
  borderRadius: vars.radius.base,
  border: `1px solid ${vars.color.border}`,
});
export const rowUndone = style({ background: vars.color.surface });
export const rowProduct = style({ margin: 0, fontWeight: 700 });
export const rowAmount = style({ margin: 0, fontWeight: 700, textAlign: 'right', whiteSpace: 'nowrap' });
export const rowMeta = style({ margin: 0, color: vars.color.textMuted, fontSize: '0.875rem' });
export const badge = style({
  display: 'inline-block',
  marginLeft: vars.space.sm,
  padding: `0 ${vars.space.sm}`,
  borderRadius: vars.radius.pill,
  background: vars.color.dangerSoft,
  color: vars.color.danger,
  fontWeight: 700,
  fontSize: '0.8125rem',
});
export const struck = style({ textDecoration: 'line-through' });

export const status = style({ margin: `${vars.space.sm} 0`, color: vars.color.textMuted });
export const error = style({ margin: `${vars.space.sm} 0`, color: vars.color.danger, fontWeight: 600 });

export const overlay = dialogOverlay;
export const dialog = style([dialogBox, { width: 'min(92vw, 460px)' }]);
export const dialogTitle = style({ margin: `0 0 ${vars.space.sm}`, fontSize: '1.25rem' });
export const code = style({
  display: 'block',
  margin: `${vars.space.md} 0`,
  padding: vars.space.md,
  borderRadius: vars.radius.base,
  background: vars.color.primarySoft,
  fontSize: 'clamp(2rem, 10vw, 2.75rem)',
  fontWeight: 700,
  letterSpacing: '0.15em',
  textAlign: 'center',
  fontVariantNumeric: 'tabular-nums',
  wordBreak: 'break-all',
  userSelect: 'all',
});
