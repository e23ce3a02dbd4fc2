import { style } from '@vanilla-extract/css';
import { vars } from '../../../styles/theme.css.ts';
import { media } from '../../../styles/tokens.ts';
import { container } from '../../components/ui.css.ts';

export const hero = style({
  background: `linear-gradient(180deg, ${vars.color.primarySoft} 0%, ${vars.color.background} 100%)`,
  padding: `${vars.space.xl} 0 ${vars.space.xxl}`,
});

export const heroInner = style([
  container,
  {
    display: 'grid',
    gap: vars.space.xl,
    alignItems: 'center',
    '@media': { [media.tablet]: { gridTemplateColumns: '1.2fr 1fr' } },
  },
]);

export const eyebrow = style({
  margin: 0,
  color: vars.color.primaryText,
  fontWeight: 700,
  textTransform: 'uppercase',
  letterSpacing: '0.08em',
  fontSize: '0.8125rem',
});

export const title = style({
  margin: `${vars.space.sm} 0 ${vars.space.md}`,
  fontSize: 'clamp(2rem, 7vw, 3.25rem)',
  lineHeight: 1.1,
  // Lines of even length: never a last word alone (the title's last two words are also joined by a
  // no-break space in the strings, for browsers without balance).
  textWrap: 'balance',
  fontWeight: 700,
  outline: 'none',
});

export const lead = style({ margin: 0, fontSize: '1.125rem', color: vars.color.textMuted, maxWidth: '40em' });

export const ctas = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.sm, marginTop: vars.space.lg });

export const preview = style({
  justifySelf: 'center',
  width: '100%',
  maxWidth: 300,
  aspectRatio: '9 / 14',
  borderRadius: vars.radius.large,
  padding: vars.space.md,
  display: 'flex',
  flexDirection: 'column',
  justifyContent: 'space-between',
  background: `radial-gradient(circle at 30% 20%, #FFD6EA 0%, ${vars.color.primary} 55%, #8E2A6A 100%)`,
  color: vars.color.onPrimary,
  boxShadow: vars.shadow.card,
});

export const previewEmoji = style({ width: 56, height: 56 });

export const previewGreeting = style({ margin: 0, fontSize: '1.5rem', fontWeight: 700, lineHeight: 1.2 });

export const previewGift = style({
  alignSelf: 'flex-start',
  padding: `${vars.space.xs} ${vars.space.md}`,
  borderRadius: vars.radius.pill,
  background: 'rgba(255, 255, 255, 0.92)',
  color: vars.color.primaryText,
  fontWeight: 700,
});

export const section = style([container, { padding: `${vars.space.xl} ${vars.space.md}` }]);

export const sectionTitle = style({ margin: `0 0 ${vars.space.lg}`, fontSize: '1.75rem' });

export const steps = style({
  listStyle: 'none',
  margin: 0,
  padding: 0,
  display: 'grid',
  gap: vars.space.md,
  counterReset: 'step',
  '@media': { [media.tablet]: { gridTemplateColumns: 'repeat(3, 1fr)' } },
});

export const step = style({
  padding: vars.space.lg,
  borderRadius: vars.radius.base,
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
});

export const stepNumber = style({
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  width: 36,
  height: 36,
  borderRadius: '50%',
  background: vars.color.primaryDark,
  color: vars.color.onPrimary,
  fontWeight: 700,
});

export const stepTitle = style({ margin: `${vars.space.sm} 0 ${vars.space.xs}`, fontSize: '1.125rem' });

export const stepText = style({ margin: 0, color: vars.color.textMuted });

export const cards = style({
  display: 'grid',
  gap: vars.space.md,
  '@media': { [media.tablet]: { gridTemplateColumns: '1fr 1fr' } },
});

export const card = style({
  padding: vars.space.lg,
  borderRadius: vars.radius.base,
  boxShadow: vars.shadow.card,
  background: vars.color.background,
});

export const cardTitle = style({ margin: `0 0 ${vars.space.sm}`, fontSize: '1.25rem' });

export const startPage = style([container, { paddingTop: vars.space.xl, paddingBottom: vars.space.xxl, maxWidth: 720 }]);

export const startSteps = style([steps, { marginTop: vars.space.lg, '@media': { [media.tablet]: { gridTemplateColumns: '1fr' } } }]);
