import { keyframes, style } from '@vanilla-extract/css';
import { vars } from '../../../styles/theme.css.ts';
import { media } from '../../../styles/tokens.ts';
import { container, errorBox, errorBoxTitle, formField, formInput, formLabel, linkCard } from '../../components/ui.css.ts';

// The shared container (width, side padding) plus room above and below; composed, so this file's
// rules come after the container's and neither undoes the other.
export const page = style([container, { paddingTop: vars.space.lg, paddingBottom: vars.space.xxl }]);

export const title = style({ margin: `0 0 ${vars.space.sm}`, fontSize: 'clamp(1.75rem, 5vw, 2.5rem)', outline: 'none' });

export const lead = style({ margin: `0 0 ${vars.space.lg}`, color: vars.color.textMuted, maxWidth: '44em' });

export const filters = style({
  display: 'grid',
  gap: vars.space.md,
  padding: vars.space.md,
  marginBottom: vars.space.lg,
  borderRadius: vars.radius.large,
  background: vars.color.surface,
  '@media': { [media.tablet]: { gridTemplateColumns: '2fr 1fr 1fr', alignItems: 'end' } },
});

export const field = formField;

export const label = formLabel;

// The shared field's font: inherit is what the global reset gives a select or an input anyway.
export const input = formInput;

export const status = style({ margin: `0 0 ${vars.space.md}`, color: vars.color.textMuted, minHeight: '1.5em' });

export const grid = style({
  listStyle: 'none',
  margin: 0,
  padding: 0,
  display: 'grid',
  gap: vars.space.md,
  gridTemplateColumns: 'repeat(auto-fill, minmax(260px, 1fr))',
});

export const card = style([
  linkCard,
  {
    display: 'grid',
    gridTemplateColumns: '64px 1fr',
    gap: vars.space.md,
    alignItems: 'start',
    height: '100%',
    selectors: { '&:hover': { boxShadow: `0 0 0 2px ${vars.color.primary}` } },
  },
]);

export const logo = style({ width: 64, height: 64, borderRadius: vars.radius.base, objectFit: 'contain' });

export const cardName = style({ margin: 0, fontSize: '1.125rem', lineHeight: 1.3 });

export const cardMeta = style({ margin: `${vars.space.xs} 0 0`, color: vars.color.textMuted, fontSize: '0.9375rem' });

export const tags = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.xs, listStyle: 'none', margin: `${vars.space.sm} 0 0`, padding: 0 });

export const tag = style({
  padding: `2px ${vars.space.sm}`,
  borderRadius: vars.radius.pill,
  background: vars.color.primarySoft,
  color: vars.color.primaryText,
  fontSize: '0.8125rem',
  fontWeight: 600,
});

const pulse = keyframes({ '0%': { opacity: 1 }, '50%': { opacity: 0.45 }, '100%': { opacity: 1 } });

export const skeleton = style({
  height: 128,
  borderRadius: vars.radius.large,
  background: vars.color.surface,
  animation: `${pulse} 1.4s ease-in-out infinite`,
});

export const notice = style({
  padding: vars.space.lg,
  borderRadius: vars.radius.large,
  background: vars.color.surface,
  textAlign: 'center',
});

export const alert = errorBox;

export const alertTitle = errorBoxTitle;

export const more = style({ display: 'flex', justifyContent: 'center', marginTop: vars.space.lg });

export const back = style({ display: 'inline-block', marginBottom: vars.space.md });

export const header = style({
  display: 'grid',
  gridTemplateColumns: '96px 1fr',
  gap: vars.space.lg,
  alignItems: 'center',
  marginBottom: vars.space.lg,
});

export const headerLogo = style({ width: 96, height: 96, borderRadius: vars.radius.large });

export const description = style({ maxWidth: '44em', fontSize: '1.0625rem' });

export const products = style({
  listStyle: 'none',
  margin: 0,
  padding: 0,
  display: 'grid',
  gap: vars.space.md,
  gridTemplateColumns: 'repeat(auto-fill, minmax(280px, 1fr))',
});

export const product = style({
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space.sm,
  height: '100%',
  padding: vars.space.lg,
  borderRadius: vars.radius.large,
  boxShadow: vars.shadow.card,
});

export const productName = style({ margin: 0, fontSize: '1.125rem' });

export const price = style({ margin: 0, fontSize: '1.375rem', fontWeight: 700, color: vars.color.primaryText });

export const productText = style({ margin: 0, color: vars.color.textMuted, flexGrow: 1 });

/** In place of a sold-out product's send link: says why it cannot be chosen. */
export const soldOut = style({ margin: 0, fontWeight: 700, color: vars.color.textMuted });
