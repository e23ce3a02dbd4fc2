import { style } from '@vanilla-extract/css';
import { vars } from '../../../styles/theme.css.ts';
import { errorBox, errorBoxTitle, errorText } from '../../components/ui.css.ts';

export const page = style({ display: 'flex', flexDirection: 'column', gap: vars.space.lg, paddingTop: vars.space.lg, paddingBottom: vars.space.lg });
export const section = style({
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space.sm,
  padding: vars.space.md,
  borderRadius: vars.radius.large,
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
});
export const header = style({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: vars.space.sm });
export const h2 = style({ margin: 0, fontSize: 22 });
export const muted = style({ margin: 0, color: vars.color.textMuted });
export const list = style({ listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: vars.space.sm });
export const message = style({
  padding: vars.space.md,
  borderRadius: vars.radius.base,
  background: vars.color.background,
  boxShadow: vars.shadow.card,
  display: 'grid',
  gap: vars.space.xs,
});
export const meta = style({ display: 'flex', flexWrap: 'wrap', columnGap: vars.space.md, rowGap: vars.space.xs, fontSize: 14, color: vars.color.textMuted, margin: 0 });
export const body = style({ margin: 0, whiteSpace: 'pre-wrap', fontSize: 16, overflowWrap: 'anywhere' });
export const error = errorText;

// The demo merchant codes (MerchantCodesSection).
export const alert = errorBox;
export const alertTitle = errorBoxTitle;
export const table = style({ borderCollapse: 'collapse', width: '100%', maxWidth: 560 });
export const cell = style({ textAlign: 'left', padding: `${vars.space.sm} ${vars.space.md}`, borderBottom: `1px solid ${vars.color.border}` });
export const code = style({ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', fontWeight: 700, letterSpacing: '0.05em' });
