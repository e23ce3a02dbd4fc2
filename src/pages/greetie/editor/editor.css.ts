import { globalStyle, style, styleVariants } from '@vanilla-extract/css';
import { vars } from '../../../../styles/theme.css.ts';
import { header, media } from '../../../../styles/tokens.ts';
import { errorText, formField, formHint } from '../../../components/ui.css.ts';
import { BASE_SIZE, FRAME_ASPECT, GREETIE_FRAME, TEXT_LINE_HEIGHT, TEXT_MAX_WIDTH } from './layout.ts';

/** Container units: 1 = the frame's width, so an element keeps its size relative to the media. */
const cqw = (fraction: number) => `${fraction * 100}cqw`;

export const emojiFontStack = '"Apple Color Emoji", "Segoe UI Emoji", "Noto Color Emoji", sans-serif';

// ---- The layer of elements (read-only view and editor share it) ----

export const layer = style({
  position: 'absolute',
  inset: 0,
  containerType: 'size',
  overflow: 'hidden',
  pointerEvents: 'none',
});

export const placed = style({
  position: 'absolute',
  width: 'max-content',
  transformOrigin: 'center',
  lineHeight: 1,
});

export const visual = styleVariants({
  emoji: { display: 'block', fontSize: cqw(BASE_SIZE.emoji), fontFamily: emojiFontStack, lineHeight: 1 },
  sticker: { display: 'block', width: cqw(BASE_SIZE.sticker), height: cqw(BASE_SIZE.sticker) },
  lottie: { display: 'block', width: cqw(BASE_SIZE.lottie), height: cqw(BASE_SIZE.lottie) },
  picture: { display: 'block', width: cqw(BASE_SIZE.picture), height: 'auto', maxWidth: 'none' },
  text: {
    display: 'block',
    width: 'max-content',
    maxWidth: cqw(TEXT_MAX_WIDTH),
    fontSize: cqw(BASE_SIZE.text),
    lineHeight: TEXT_LINE_HEIGHT,
    whiteSpace: 'pre-wrap',
    overflowWrap: 'anywhere',
    textAlign: 'center',
  },
});

globalStyle(`${visual.lottie} svg`, { display: 'block' });

// ---- The editor ----

export const editor = style({
  display: 'grid',
  gap: vars.space.md,
  width: '100%',
  maxWidth: 560,
  margin: '0 auto',
});

/** The greetie's frame (layout.ts), as high as fits beside the tools on a laptop's screen. */
export const frame = style({
  position: 'relative',
  margin: '0 auto',
  aspectRatio: FRAME_ASPECT,
  width: `min(100%, calc(62vh * ${GREETIE_FRAME.width / GREETIE_FRAME.height}))`,
  maxWidth: '100%',
  overflow: 'hidden',
  borderRadius: vars.radius.large,
  background: `repeating-linear-gradient(45deg, ${vars.color.surface} 0 16px, ${vars.color.primarySoft} 16px 32px)`,
  boxShadow: `inset 0 0 0 1px ${vars.color.border}`,
  // The browser must not scroll or zoom the page while a finger drags or pinches an element.
  touchAction: 'none',
  userSelect: 'none',
  WebkitUserSelect: 'none',
});

export const mediaFill = style({
  position: 'absolute',
  inset: 0,
  width: '100%',
  height: '100%',
  objectFit: 'cover',
  objectPosition: 'center',
  display: 'block',
});

export const emptyFrameText = style({
  position: 'absolute',
  inset: 0,
  display: 'grid',
  placeItems: 'center',
  padding: vars.space.lg,
  textAlign: 'center',
  color: vars.color.textMuted,
  pointerEvents: 'none',
});

/** The editing layer: like `layer`, but its elements take pointers and focus. */
export const editLayer = style([layer, { pointerEvents: 'auto' }]);

export const elementButton = style({
  padding: 0,
  border: 'none',
  background: 'none',
  color: 'inherit',
  font: 'inherit',
  cursor: 'grab',
  touchAction: 'none',
  borderRadius: 4,
  outlineOffset: 4,
  selectors: {
    '&:focus-visible': { outline: `3px dashed ${vars.color.focus}` },
    '&[aria-pressed="true"]': { outline: `3px solid ${vars.color.primary}` },
    '&[aria-pressed="true"]:focus-visible': { outline: `3px dashed ${vars.color.focus}` },
  },
});

export const toolbar = style({
  display: 'flex',
  flexWrap: 'wrap',
  gap: vars.space.sm,
});

export const toolButton = style({
  display: 'inline-flex',
  alignItems: 'center',
  gap: vars.space.xs,
  minHeight: 44,
  padding: `0 ${vars.space.md}`,
  border: `2px solid ${vars.color.primary}`,
  borderRadius: vars.radius.pill,
  background: vars.color.background,
  color: vars.color.primaryText,
  font: 'inherit',
  fontWeight: 700,
  cursor: 'pointer',
  selectors: {
    '&[aria-expanded="true"]': { background: vars.color.primarySoft },
    '&:disabled': { opacity: 0.5, cursor: 'not-allowed' },
    '&:focus-visible': { outline: `3px solid ${vars.color.focus}`, outlineOffset: 2 },
  },
});

export const dangerButton = style([
  toolButton,
  { borderColor: vars.color.danger, color: vars.color.danger, selectors: { '&:hover': { background: vars.color.dangerSoft } } },
]);

export const panel = style({
  // Brought into view when it opens: clear of the sticky header above.
  scrollMarginTop: header.desktopHeight + 8,
  scrollMarginBottom: 8,
  display: 'grid',
  gap: vars.space.md,
  padding: vars.space.md,
  borderRadius: vars.radius.large,
  background: vars.color.surface,
  boxShadow: `inset 0 0 0 1px ${vars.color.border}`,
});

/** Focus lands on the title when a panel opens (to be read out, not to be typed in): no ring. */
export const panelTitle = style({ margin: 0, fontSize: '1.05rem', outline: 'none' });

export const hint = formHint;

export const error = errorText;

export const field = formField;

export const textarea = style({
  width: '100%',
  minHeight: 72,
  padding: vars.space.sm,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.base,
  font: 'inherit',
  fontSize: '1rem',
  resize: 'vertical',
  selectors: { '&:focus-visible': { outline: `3px solid ${vars.color.focus}`, outlineOffset: 1 } },
});

export const input = style([textarea, { minHeight: 44, resize: 'none' }]);

export const choiceRow = style({
  display: 'flex',
  flexWrap: 'wrap',
  gap: vars.space.sm,
  margin: 0,
  padding: 0,
  border: 'none',
});

export const choice = style({
  position: 'relative',
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  minWidth: 44,
  minHeight: 44,
  padding: `0 ${vars.space.sm}`,
  borderRadius: vars.radius.base,
  border: `2px solid ${vars.color.border}`,
  background: vars.color.background,
  cursor: 'pointer',
  selectors: {
    '&:has(input:checked)': { borderColor: vars.color.primaryDark, boxShadow: `0 0 0 2px ${vars.color.primarySoft}` },
    '&:has(input:focus-visible)': { outline: `3px solid ${vars.color.focus}`, outlineOffset: 2 },
  },
});

export const choiceInput = style({ position: 'absolute', opacity: 0, width: 1, height: 1, margin: 0 });

export const swatch = style({
  width: 24,
  height: 24,
  borderRadius: '50%',
  boxShadow: 'inset 0 0 0 1px rgba(0, 0, 0, 0.25)',
});

export const fontSample = styleVariants({
  quicksand: { fontFamily: '"Quicksand", system-ui, sans-serif', fontWeight: 700 },
  serif: { fontFamily: '"Lora", Georgia, serif', fontWeight: 600 },
  handwriting: { fontFamily: '"Caveat", cursive', fontWeight: 700, fontSize: '1.25rem' },
});

export const grid = style({
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fill, minmax(72px, 1fr))',
  gap: vars.space.sm,
  margin: 0,
  padding: 0,
  listStyle: 'none',
});

export const emojiGrid = style([grid, { gridTemplateColumns: 'repeat(auto-fill, minmax(44px, 1fr))', maxHeight: 280, overflowY: 'auto' }]);

export const tile = style({
  display: 'grid',
  justifyItems: 'center',
  gap: vars.space.xs,
  width: '100%',
  minHeight: 44,
  padding: vars.space.xs,
  border: `2px solid transparent`,
  borderRadius: vars.radius.base,
  background: vars.color.background,
  color: vars.color.text,
  font: 'inherit',
  fontSize: '0.8rem',
  cursor: 'pointer',
  selectors: {
    '&:hover': { borderColor: vars.color.primarySoft },
    '&:focus-visible': { outline: `3px solid ${vars.color.focus}`, outlineOffset: 1 },
    '&:disabled': { opacity: 0.5, cursor: 'not-allowed' },
  },
});

export const tileImage = style({ width: 56, height: 56, display: 'block' });

export const emojiTile = style([tile, { fontSize: '1.75rem', lineHeight: 1, fontFamily: emojiFontStack, padding: 0 }]);

export const tabs = style({ display: 'flex', gap: vars.space.xs, overflowX: 'auto', paddingBottom: vars.space.xs });

export const tab = style([
  tile,
  {
    width: 'auto',
    minWidth: 44,
    fontSize: '1.25rem',
    fontFamily: emojiFontStack,
    selectors: { '&[aria-pressed="true"]': { borderColor: vars.color.primaryDark } },
  },
]);

export const countLine = style({
  display: 'flex',
  flexWrap: 'wrap',
  justifyContent: 'space-between',
  gap: vars.space.sm,
  margin: 0,
  fontSize: '0.875rem',
  color: vars.color.textMuted,
});

export const selectedBar = style({
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'center',
  gap: vars.space.sm,
  '@media': { [media.tablet]: { gap: vars.space.md } },
});

export const form = style({ display: 'grid', gap: vars.space.md });
