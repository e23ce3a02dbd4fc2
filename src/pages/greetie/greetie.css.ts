import { globalStyle, style } from '@vanilla-extract/css';
import { vars } from '../../../styles/theme.css.ts';
import { media } from '../../../styles/tokens.ts';
import { FRAME_ASPECT } from './editor/layout.ts';
import { button, buttonSecondary, container, dialogBox, dialogOverlay, formHint, formInput, formLabel, linkCard } from '../../components/ui.css.ts';

// Phone first (390 px): one column, the actions at the bottom of each step; wider screens get a
// narrow centred column, as a phone-shaped card.
export const page = style([container, { paddingTop: vars.space.md, paddingBottom: vars.space.xxl, maxWidth: 640 }]);
export const widePage = style([container, { paddingTop: vars.space.lg, paddingBottom: vars.space.xxl, maxWidth: 900 }]);

export const title = style({ margin: `0 0 ${vars.space.sm}`, fontSize: 'clamp(1.5rem, 5vw, 2.25rem)', outline: 'none' });
export const stepTitle = style({ margin: `${vars.space.md} 0 ${vars.space.sm}`, fontSize: '1.375rem', outline: 'none' });
export const lead = style({ margin: `0 0 ${vars.space.md}`, color: vars.color.textMuted });

export const stepper = style({
  display: 'flex',
  gap: vars.space.xs,
  listStyle: 'none',
  margin: `0 0 ${vars.space.sm}`,
  padding: 0,
  counterReset: 'step',
});
export const stepItem = style({
  flex: 1,
  minWidth: 0,
  paddingTop: vars.space.sm,
  borderTop: `4px solid ${vars.color.border}`,
  color: vars.color.textMuted,
  fontSize: '0.75rem',
  // A phone's fifth of the width fits 'Mottagare' at this size; a longer word (English) wraps
  // rather than being cut off.
  overflowWrap: 'anywhere',
  hyphens: 'auto',
  lineHeight: 1.3,
});
export const stepDone = style({ borderTopColor: vars.color.primary, color: vars.color.text });
export const stepCurrent = style({ borderTopColor: vars.color.primaryDark, color: vars.color.primaryText, fontWeight: 700 });

export const saveStatus = style({ minHeight: '1.5em', margin: `0 0 ${vars.space.sm}`, color: vars.color.textMuted, fontSize: '0.9375rem' });

export const actions = style({
  display: 'flex',
  gap: vars.space.sm,
  justifyContent: 'space-between',
  flexWrap: 'wrap',
  marginTop: vars.space.lg,
});

export const field = style({ display: 'grid', gap: vars.space.xs, marginBottom: vars.space.md });
export const label = formLabel;
export const hint = formHint;
export const input = formInput;
export const textarea = style([input, { minHeight: 96, padding: vars.space.sm, resize: 'vertical' }]);
export const fieldError = style({ color: vars.color.danger, fontSize: '0.9375rem', margin: 0 });
export const check = style({ display: 'flex', gap: vars.space.sm, alignItems: 'center', minHeight: 44, marginBottom: vars.space.sm });

export const alert = style({
  padding: vars.space.md,
  margin: `${vars.space.md} 0`,
  borderRadius: vars.radius.base,
  background: vars.color.dangerSoft,
  color: vars.color.danger,
});
export const alertTitle = style({ margin: `0 0 ${vars.space.xs}`, fontSize: '1.0625rem' });
export const notice = style({ padding: vars.space.md, borderRadius: vars.radius.large, background: vars.color.surface, margin: `${vars.space.md} 0` });

export const frame = style({
  position: 'relative',
  width: '100%',
  aspectRatio: FRAME_ASPECT,
  borderRadius: vars.radius.large,
  overflow: 'hidden',
  background: vars.color.surface,
  display: 'grid',
  placeItems: 'center',
});
export const frameMedia = style({ position: 'absolute', inset: 0, width: '100%', height: '100%', objectFit: 'cover', objectPosition: 'center' });
export const frameEmpty = style({ color: vars.color.textMuted, textAlign: 'center', padding: vars.space.lg });

/**
 * A file field shown as a button: the native input stays in the page (focusable, labelled, what a
 * screen reader and the tests use) but out of sight; its label is the button a person taps, in
 * Swedish, with the input's keyboard focus drawn on it.
 */
export const fileInput = style({
  position: 'absolute',
  width: 1,
  height: 1,
  margin: -1,
  padding: 0,
  overflow: 'hidden',
  clip: 'rect(0, 0, 0, 0)',
  border: 0,
  opacity: 0,
});
export const fileButton = style({
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'center',
  gap: vars.space.sm,
  width: '100%',
  minHeight: 48,
  padding: `${vars.space.sm} ${vars.space.md}`,
  borderRadius: vars.radius.base,
  fontWeight: 700,
  textAlign: 'center',
  cursor: 'pointer',
  background: vars.color.primaryDark,
  color: vars.color.onPrimary,
  selectors: {
    '&:hover': { background: vars.color.primaryText },
    [`${fileInput}:focus-visible + &`]: { outline: `3px solid ${vars.color.focus}`, outlineOffset: '2px' },
  },
});
export const fileButtonSecondary = style({
  background: vars.color.background,
  color: vars.color.primaryText,
  boxShadow: `inset 0 0 0 2px ${vars.color.primary}`,
  selectors: { '&:hover': { background: vars.color.primarySoft } },
});
export const fileFields = style({ display: 'grid', gap: vars.space.sm, '@media': { [media.tablet]: { gridTemplateColumns: '1fr 1fr' } } });
export const progress = style({ width: '100%', height: 12, accentColor: vars.color.primaryDark });
export const uploadBox = style({ display: 'grid', gap: vars.space.sm, margin: `${vars.space.md} 0` });

export const list = style({ listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: vars.space.sm });
export const row = style({
  display: 'grid',
  gridTemplateColumns: '1fr auto',
  gap: vars.space.sm,
  alignItems: 'center',
  padding: vars.space.md,
  borderRadius: vars.radius.base,
  background: vars.color.background,
  boxShadow: vars.shadow.card,
});
export const rowTitle = style({ margin: 0, fontSize: '1rem', fontWeight: 700 });
export const rowMeta = style({ margin: `${vars.space.xs} 0 0`, color: vars.color.textMuted, fontSize: '0.9375rem' });
/** A product sold out just now: greyed, in its place. */
export const productSoldOut = style({ background: vars.color.surface, boxShadow: 'none', border: `1px dashed ${vars.color.border}`, color: vars.color.textMuted });
/** A chosen gift found sold out: marked until it is removed. */
export const rowSoldOut = style({ boxShadow: `inset 4px 0 0 ${vars.color.danger}, ${vars.shadow.card}` });
/** The add button of a sold-out product: visibly off. */
export const soldOutButton = style({
  selectors: {
    '&:disabled': { background: vars.color.border, borderColor: vars.color.border, color: vars.color.textMuted, cursor: 'not-allowed', boxShadow: 'none' },
  },
});
/** Why a chosen gift is marked: plain text in the danger colour (it can run to two lines). */
export const soldOutNote = style({ margin: `${vars.space.xs} 0 0`, color: vars.color.danger, fontSize: '0.9375rem', fontWeight: 700 });
export const soldOutBadge = style({
  display: 'inline-block',
  margin: `${vars.space.xs} 0 0`,
  padding: `2px ${vars.space.sm}`,
  borderRadius: vars.radius.pill,
  background: vars.color.dangerSoft,
  color: vars.color.danger,
  fontSize: '0.875rem',
  fontWeight: 700,
});
export const total = style({ fontSize: '1.25rem', fontWeight: 700, color: vars.color.primaryText, margin: `${vars.space.md} 0` });
export const linkButton = style({
  background: 'none',
  border: 'none',
  padding: 0,
  minHeight: 44,
  color: vars.color.primaryText,
  textDecoration: 'underline',
  cursor: 'pointer',
  font: 'inherit',
});

export const cards = style({
  listStyle: 'none',
  margin: 0,
  padding: 0,
  display: 'grid',
  gap: vars.space.md,
  '@media': { [media.tablet]: { gridTemplateColumns: 'repeat(2, 1fr)' } },
});
export const card = style([
  linkCard,
  {
    display: 'grid',
    gridTemplateColumns: '72px 1fr',
    gap: vars.space.md,
    alignItems: 'center',
  },
]);
export const thumb = style({ width: 72, height: 90, borderRadius: vars.radius.base, objectFit: 'cover', background: vars.color.surface });
/** The list's picture: the photo's small copy (or the video's poster) with the content over it. */
export const thumbStack = style([thumb, { position: 'relative', display: 'block', overflow: 'hidden' }]);
export const thumbLayer = style({ position: 'absolute', inset: 0, width: '100%', height: '100%', objectFit: 'cover' });
/** A greetie with no photo or video yet (a draft, or one made with text and gifts only): a card, not a blank. */
export const thumbEmpty = style([
  thumb,
  { display: 'grid', placeItems: 'center', background: `linear-gradient(160deg, ${vars.color.primarySoft}, ${vars.color.primary})`, color: '#fff' },
]);
/** A draft's row: the card, and 'Ta bort' beside it (under it on a narrow screen). */
export const draftRow = style({ display: 'grid', gridTemplateColumns: '1fr auto', gap: vars.space.sm, alignItems: 'center' });
export const draftDelete = style({ minHeight: 44 });
/** A draft's message, one line, to tell drafts apart. */
export const rowExcerpt = style({
  display: 'block',
  marginTop: vars.space.xs,
  color: vars.color.textMuted,
  fontSize: '0.9375rem',
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  whiteSpace: 'nowrap',
});

export const status = style({
  display: 'inline-block',
  padding: `2px ${vars.space.sm}`,
  borderRadius: vars.radius.pill,
  background: vars.color.primarySoft,
  color: vars.color.primaryText,
  fontSize: '0.8125rem',
  fontWeight: 700,
});
export const message = style({ whiteSpace: 'pre-wrap', fontSize: '1.0625rem', margin: `${vars.space.md} 0` });
export const skeleton = style({ height: 96, borderRadius: vars.radius.large, background: vars.color.surface });

export { dialogOverlay, dialogBox as dialog };
export const dialogTitle = style({ margin: `0 0 ${vars.space.sm}`, fontSize: '1.25rem' });
export const danger = style({ background: vars.color.danger, selectors: { '&:hover': { background: vars.color.danger } } });
export const pickButton = style({ width: '100%', border: 'none', textAlign: 'left', font: 'inherit', cursor: 'pointer', color: vars.color.text });
export const fieldset = style({ border: `1px solid ${vars.color.border}`, borderRadius: vars.radius.base, padding: vars.space.md, margin: 0 });
export const primary = button;
export const secondary = buttonSecondary;
export const facts = style({
  display: 'grid',
  gridTemplateColumns: 'auto 1fr',
  gap: `${vars.space.xs} ${vars.space.md}`,
  margin: `${vars.space.md} 0`,
});
globalStyle(`${facts} dt`, { fontWeight: 700 });
globalStyle(`${facts} dd`, { margin: 0 });

/** The withdrawal consent at review (WithdrawalConsent.tsx): the box beside its label, the terms' link under it. */
export const consent = style({ display: 'grid', gap: vars.space.xs, margin: `${vars.space.md} 0` });
export const consentRow = style({ display: 'flex', gap: vars.space.sm, alignItems: 'flex-start' });
export const consentBox = style({ width: 24, height: 24, minWidth: 24, margin: '2px 0 0', accentColor: vars.color.primaryDark });

/** A value gift card's amount chips (200, 300, 500 kr within its range): toggle buttons. */
export const chips = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.sm, marginTop: vars.space.xs });
export const chip = style({
  minHeight: 44,
  minWidth: 64,
  padding: `0 ${vars.space.md}`,
  borderRadius: 999,
  border: `1px solid ${vars.color.border}`,
  background: vars.color.surface,
  color: vars.color.text,
  font: 'inherit',
  fontWeight: 700,
  cursor: 'pointer',
  selectors: {
    '&[aria-pressed="true"]': { background: vars.color.primary, borderColor: vars.color.primary, color: vars.color.onPrimary },
  },
});

/**
 * A product in the picker: its image, what it is, and 'Lägg till' on one line at its end. Three
 * columns: in `row`'s two the button fell under the image, in a column as narrow as the image,
 * and its label broke in two on a phone.
 */
export const productRow = style({ gridTemplateColumns: 'auto minmax(0, 1fr) auto' });
export const productAdd = style({ whiteSpace: 'nowrap' });
/** A product in the picker: its image (the merchant's logo when it has none) and what it is. */
export const productLogo = style({ width: 48, height: 48, borderRadius: vars.radius.base, objectFit: 'contain', background: vars.color.surface, flexShrink: 0 });
export const productDescription = style({ margin: 0, fontSize: '0.9375rem' });
