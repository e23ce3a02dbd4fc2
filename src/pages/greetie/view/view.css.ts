import { keyframes, style } from '@vanilla-extract/css';
import { vars } from '../../../../styles/theme.css.ts';
import { media } from '../../../../styles/tokens.ts';
import { container } from '../../../components/ui.css.ts';
import { FRAME_ASPECT } from '../editor/layout.ts';

// Phone first (390 px): the greetie fills the width under the corner menu; wider screens get it
// as a phone-shaped card in the middle, the gifts below it.
export const page = style([
  container,
  { maxWidth: 560, paddingTop: 64, paddingBottom: vars.space.xxl, '@media': { [media.tablet]: { paddingTop: vars.space.xl } } },
]);

/**
 * The greetie's page: on a phone the greetie first, right under the corner menu, then the title,
 * its message and gifts; on a wide screen the greetie on the left and the rest beside it, so the
 * gifts are in view without scrolling. The title comes first in the document (it is what a screen
 * reader meets first); the greetie's place never depends on it: index.html's #boot-frame draws the
 * first frame at exactly this place before any script (decision 090; keep the two in step).
 */
export const greetiePage = style([
  container,
  {
    maxWidth: 560,
    paddingTop: 64,
    paddingBottom: vars.space.xxl,
    display: 'grid',
    gridTemplateAreas: '"stage" "title" "text"',
    gridTemplateColumns: 'minmax(0, 1fr)',
    alignContent: 'start',
    '@media': {
      [media.tablet]: {
        maxWidth: 1000,
        paddingTop: vars.space.xl,
        gridTemplateAreas: '"stage title" "stage text"',
        gridTemplateColumns: 'minmax(0, 480px) minmax(0, 1fr)',
        gridTemplateRows: 'auto 1fr',
        columnGap: vars.space.xl,
      },
    },
  },
]);
export const titleArea = style({ gridArea: 'title' });
export const stageArea = style({ gridArea: 'stage', alignSelf: 'start' });
export const textArea = style({ gridArea: 'text' });

export const title = style({ margin: `${vars.space.md} 0 0`, '@media': { [media.tablet]: { margin: `0 0 ${vars.space.md}` } }, fontSize: 'clamp(1.375rem, 5vw, 2rem)', lineHeight: 1.25, outline: 'none' });

export const stage = style({
  position: 'relative',
  width: '100%',
  aspectRatio: FRAME_ASPECT,
  borderRadius: vars.radius.large,
  overflow: 'hidden',
  background: vars.color.surface,
  boxShadow: vars.shadow.card,
});

export const media_ = style({ position: 'absolute', inset: 0, width: '100%', height: '100%', objectFit: 'cover', objectPosition: 'center', display: 'block' });

export const noMedia = style({
  position: 'absolute',
  inset: 0,
  display: 'grid',
  placeItems: 'center',
  background: `linear-gradient(160deg, ${vars.color.primarySoft}, ${vars.color.surface})`,
});

/** The full photo over its small copy: shown once it has loaded. */
export const sharpen = style({
  opacity: 0,
  transition: 'opacity 0.3s ease-out',
  selectors: { '&[data-loaded="true"]': { opacity: 1 } },
  '@media': { [media.reducedMotion]: { transition: 'none' } },
});

const appear = keyframes({ from: { opacity: 0, transform: 'scale(0.92)' }, to: { opacity: 1, transform: 'none' } });

/** The content elements appear over the media a moment after it shows. */
export const content = style({
  position: 'absolute',
  inset: 0,
  animation: `${appear} 0.6s 0.25s cubic-bezier(0.2, 0.8, 0.2, 1) both`,
  '@media': { [media.reducedMotion]: { animation: 'none' } },
});

export const soundButton = style({
  position: 'absolute',
  right: vars.space.sm,
  bottom: vars.space.sm,
  zIndex: 2,
  display: 'inline-flex',
  alignItems: 'center',
  gap: vars.space.xs,
  minHeight: 44,
  padding: `0 ${vars.space.md}`,
  border: 'none',
  borderRadius: vars.radius.pill,
  background: 'rgba(31, 26, 36, 0.72)',
  color: '#FFFFFF',
  fontWeight: 700,
  cursor: 'pointer',
});

export const message = style({ margin: `${vars.space.md} 0 0`, '@media': { [media.tablet]: { marginTop: 0 } }, fontSize: '1.125rem', lineHeight: 1.5, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' });

export const gifts = style({ marginTop: vars.space.lg, '@media': { [media.tablet]: { marginTop: vars.space.md } } });
export const giftsTitle = style({ margin: `0 0 ${vars.space.sm}`, fontSize: '1.25rem' });
export const giftList = style({ listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: vars.space.sm });

const pop = keyframes({
  '0%': { opacity: 0, transform: 'translateY(12px) scale(0.9)' },
  '70%': { opacity: 1, transform: 'translateY(-2px) scale(1.02)' },
  '100%': { opacity: 1, transform: 'none' },
});

/** Each gift pops in, one after the other (the delay is set per item); still with reduced motion. */
export const gift = style({
  display: 'grid',
  gap: vars.space.sm,
  padding: vars.space.md,
  borderRadius: vars.radius.large,
  background: vars.color.primarySoft,
  animation: `${pop} 0.5s cubic-bezier(0.2, 0.8, 0.2, 1) both`,
  '@media': { [media.reducedMotion]: { animation: 'none' } },
});
export const giftRedeemed = style({ background: vars.color.surface, color: vars.color.textMuted });
export const giftName = style({ margin: 0, fontWeight: 700, fontSize: '1.0625rem' });
export const giftMeta = style({ margin: 0, color: vars.color.textMuted });
export const giftActions = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.sm });

export const seen = style({
  display: 'inline-block',
  margin: `${vars.space.md} 0 0`,
  padding: `${vars.space.xs} ${vars.space.md}`,
  borderRadius: vars.radius.pill,
  background: vars.color.successSoft,
  color: vars.color.success,
  fontWeight: 700,
});
export const notSeen = style([seen, { background: vars.color.surface, color: vars.color.textMuted }]);

export const signIn = style({ marginTop: vars.space.md, display: 'grid', gap: vars.space.sm, justifyItems: 'start' });
/** What to do next, under the gifts: sign in with another number, Mina gåvor, send one's own. */
export const nextSteps = style({ marginTop: vars.space.lg, display: 'flex', flexWrap: 'wrap', gap: vars.space.sm, alignItems: 'center' });
export const hint = style({ margin: 0, color: vars.color.textMuted });

export const box = style({ padding: vars.space.lg, borderRadius: vars.radius.large, background: vars.color.surface, display: 'grid', gap: vars.space.sm, justifyItems: 'start' });
export const alert = style([box, { background: vars.color.dangerSoft, color: vars.color.danger }]);
export const boxTitle = style({ margin: 0, fontSize: '1.25rem', outline: 'none' });

const shimmer = keyframes({ from: { opacity: 0.6 }, to: { opacity: 1 } });
export const skeleton = style([
  stage,
  { boxShadow: 'none', animation: `${shimmer} 0.9s ease-in-out infinite alternate`, '@media': { [media.reducedMotion]: { animation: 'none' } } },
]);

// The trust note under the greetie: Greetie's wordmark, who sent it, how to tell a real SMS.
export const trust = style({
  marginTop: vars.space.lg,
  padding: vars.space.md,
  borderRadius: vars.radius.large,
  background: vars.color.surface,
  display: 'grid',
  gap: vars.space.xs,
});
export const trustBrand = style({ margin: 0, display: 'flex', flexWrap: 'wrap', alignItems: 'baseline', gap: vars.space.sm, fontWeight: 600 });
export const wordmark = style({ color: vars.color.primaryText, fontWeight: 700, fontSize: '1.125rem' });
