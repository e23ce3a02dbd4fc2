import { style } from '@vanilla-extract/css';
import { vars } from '../../../styles/theme.css.ts';
import { media } from '../../../styles/tokens.ts';
import { dialogBox, dialogOverlay, errorBox, errorBoxTitle } from '../../components/ui.css.ts';

/** "Mina gåvor" and a voucher's page: one narrow column (the layout gives the container). */

export const page = style({ maxWidth: 640, margin: `${vars.space.md} auto ${vars.space.xl}`, display: 'grid', gap: vars.space.lg });
export const title = style({ margin: 0, fontSize: 'clamp(1.75rem, 5vw, 2.25rem)', outline: 'none' });
export const intro = style({ margin: 0, color: vars.color.textMuted });
export const sectionTitle = style({ margin: `0 0 ${vars.space.sm}`, fontSize: '1.125rem' });
export const list = style({ display: 'grid', gap: vars.space.sm, margin: 0, padding: 0, listStyle: 'none' });
export const skeleton = style({ height: 88, borderRadius: vars.radius.large, background: vars.color.surface });
export const muted = style({ margin: 0, color: vars.color.textMuted });

export const empty = style({
  display: 'grid',
  gap: vars.space.sm,
  padding: vars.space.lg,
  borderRadius: vars.radius.large,
  background: vars.color.primarySoft,
});
export const emptyTitle = style({ margin: 0, fontSize: '1.25rem' });
export const emptyText = style({ margin: 0 });

export const alert = errorBox;
export const alertTitle = errorBoxTitle;

export const back = style({ color: vars.color.primaryText, fontWeight: 700, justifySelf: 'start' });

export const card = style({
  display: 'grid',
  gap: vars.space.md,
  padding: vars.space.lg,
  borderRadius: vars.radius.large,
  background: vars.color.background,
  boxShadow: vars.shadow.card,
});
export const head = style({ display: 'flex', gap: vars.space.md, alignItems: 'center' });
export const logo = style({ width: 72, height: 72, borderRadius: vars.radius.base, objectFit: 'contain', background: vars.color.surface });
export const merchant = style({ margin: 0, color: vars.color.textMuted, fontWeight: 700 });
export const product = style({ margin: 0, fontSize: 'clamp(1.5rem, 5vw, 2rem)', outline: 'none' });
export const amount = style({ margin: 0, fontSize: '1.5rem', fontWeight: 700 });
export const status = style({ margin: 0, fontWeight: 600 });
export const statusSpent = style({ margin: 0, fontWeight: 700, color: vars.color.text, padding: `${vars.space.xs} ${vars.space.sm}`, borderRadius: vars.radius.base, background: vars.color.surface, justifySelf: 'start' });
export const badge = style({
  justifySelf: 'start',
  padding: `2px ${vars.space.sm}`,
  borderRadius: vars.radius.pill,
  background: vars.color.primarySoft,
  color: vars.color.primaryText,
  fontSize: '0.8125rem',
  fontWeight: 700,
});

export const actions = style({ display: 'flex', gap: vars.space.sm, flexWrap: 'wrap', alignItems: 'center' });
export const wide = style({ width: '100%', '@media': { [media.tablet]: { width: 'auto' } } });

export const codeBox = style({
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'space-between',
  gap: vars.space.md,
  flexWrap: 'wrap',
  padding: vars.space.md,
  borderRadius: vars.radius.base,
  border: `2px dashed ${vars.color.primary}`,
  background: vars.color.primarySoft,
});
export const codeLabel = style({ margin: 0, fontSize: '0.875rem', fontWeight: 700, color: vars.color.primaryText });
export const code = style({ margin: 0, fontSize: '1.5rem', fontWeight: 700, letterSpacing: '0.08em', fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', userSelect: 'all', overflowWrap: 'anywhere' });
export const live = style({ margin: 0, minHeight: '1.5em', color: vars.color.success, fontWeight: 600 });
export const error = style({ margin: 0, color: vars.color.danger, fontWeight: 600 });

export const certificate = style({
  display: 'grid',
  gap: vars.space.sm,
  padding: vars.space.lg,
  borderRadius: vars.radius.large,
  border: `2px solid ${vars.color.primary}`,
  background: `linear-gradient(180deg, ${vars.color.primarySoft}, ${vars.color.background})`,
  textAlign: 'center',
});
export const certificateTitle = style({ margin: 0, fontSize: '1.25rem', textTransform: 'uppercase', letterSpacing: '0.08em', color: vars.color.primaryText });
export const facts = style({ display: 'grid', gridTemplateColumns: 'auto 1fr', gap: `${vars.space.xs} ${vars.space.md}`, margin: 0, textAlign: 'left' });
export const factName = style({ color: vars.color.textMuted, fontWeight: 600 });
export const factValue = style({ margin: 0, fontWeight: 700 });

export { dialogOverlay };
export const dialog = style([dialogBox, { display: 'grid', gap: vars.space.md }]);
export const dialogTitle = style({ margin: 0, fontSize: '1.25rem' });
export const dialogText = style({ margin: 0 });

export const balance = style({ margin: 0, fontSize: '1.125rem', fontWeight: 700 });
export const history = style({ display: 'grid', gap: vars.space.xs });
export const historyList = style({ display: 'grid', gap: vars.space.xs, margin: 0, padding: 0, listStyle: 'none' });
export const historyItem = style({
  display: 'flex',
  justifyContent: 'space-between',
  gap: vars.space.md,
  flexWrap: 'wrap',
  padding: `${vars.space.xs} 0`,
  borderBottom: `1px solid ${vars.color.border}`,
});
export const historyUndone = style({ color: vars.color.textMuted });
export const historyAmount = style({ display: 'flex', gap: vars.space.sm, alignItems: 'center', fontWeight: 700, whiteSpace: 'nowrap' });
export const undoneBadge = style({
  padding: `0 ${vars.space.sm}`,
  borderRadius: vars.radius.pill,
  background: vars.color.surface,
  color: vars.color.text,
  fontSize: '0.8125rem',
  fontWeight: 700,
});

export const donate = style({ display: 'grid', gap: vars.space.sm, paddingTop: vars.space.md, borderTop: `1px solid ${vars.color.border}` });
export const choices = style({ display: 'grid', gap: vars.space.sm, margin: 0, padding: 0, border: 'none' });
export const legend = style({ fontWeight: 700, marginBottom: vars.space.xs, padding: 0 });
export const choice = style({
  display: 'grid',
  gridTemplateColumns: 'auto 40px 1fr',
  alignItems: 'center',
  gap: vars.space.sm,
  padding: vars.space.sm,
  borderRadius: vars.radius.base,
  border: `1px solid ${vars.color.border}`,
  cursor: 'pointer',
});
export const choiceLogo = style({ width: 40, height: 40, borderRadius: vars.radius.base, objectFit: 'contain', background: vars.color.surface });
export const choiceText = style({ display: 'grid', gap: 2 });
export const notice = style({ margin: 0, padding: vars.space.md, borderRadius: vars.radius.base, background: vars.color.primarySoft, fontWeight: 600, outline: 'none' });
