import { style, globalStyle } from '@vanilla-extract/css';
import { vars } from '../../../styles/theme.css.ts';
import { media } from '../../../styles/tokens.ts';

export const page = style({ paddingBlock: vars.space.lg });

export const layout = style({
  display: 'grid',
  gap: vars.space.lg,
  '@media': {
    [media.tablet]: { gridTemplateColumns: '240px minmax(0, 1fr)', gridTemplateAreas: '"nav main" "journey main"', gridTemplateRows: 'auto 1fr' },
  },
});
// In the source: machines, chart, journey (a phone reads them in that order); on a wider screen the
// journey stands under the machine list, beside the chart.
export const navArea = style({ '@media': { [media.tablet]: { gridArea: 'nav' } } });
export const mainArea = style({ minWidth: 0, '@media': { [media.tablet]: { gridArea: 'main' } } });
export const journeyArea = style({ minWidth: 0, '@media': { [media.tablet]: { gridArea: 'journey' } } });

export const machineList = style({ listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: vars.space.xs });

export const machineLink = style({
  display: 'flex',
  flexWrap: 'wrap',
  justifyContent: 'space-between',
  gap: vars.space.sm,
  padding: `${vars.space.sm} ${vars.space.md}`,
  borderRadius: vars.radius.base,
  color: vars.color.text,
  textDecoration: 'none',
  selectors: {
    '&:hover': { background: vars.color.primarySoft },
    '&[aria-current="page"]': { background: vars.color.primarySoft, fontWeight: 700, color: vars.color.primaryText },
  },
});

export const badge = style({ fontSize: '0.85em', color: vars.color.textMuted, whiteSpace: 'nowrap' });
export const badgeGap = style({ color: vars.color.danger, fontWeight: 700 });
export const liveDot = style({ color: vars.color.success, fontWeight: 700 });

export const toolbar = style({
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'center',
  gap: vars.space.md,
  margin: `${vars.space.md} 0`,
});

export const smallButton = style({
  minHeight: 44,
  padding: `0 ${vars.space.md}`,
  borderRadius: vars.radius.base,
  border: `2px solid ${vars.color.primary}`,
  background: vars.color.background,
  color: vars.color.primaryText,
  fontWeight: 600,
  cursor: 'pointer',
  selectors: { '&:disabled': { opacity: 0.5, cursor: 'default' } },
});

export const pathLabel = style({ display: 'flex', flexDirection: 'column', gap: vars.space.xs, flex: '1 1 100%', minWidth: 0 });

export const select = style({ minHeight: 44, width: '100%', maxWidth: '100%', borderRadius: vars.radius.base, border: `1px solid ${vars.color.border}`, padding: `0 ${vars.space.sm}` });

export const stepText = style({
  minHeight: '3em',
  padding: vars.space.md,
  background: vars.color.surface,
  borderRadius: vars.radius.base,
});

export const buttonGroup = style({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: vars.space.sm });

// − and + are one character: square buttons, so the zoom row fits a phone's width.
export const iconButton = style({ minWidth: 44, paddingInline: 0 });

export const zoomValue = style({ minWidth: '3.5em', textAlign: 'center', fontVariantNumeric: 'tabular-nums' });

export const frameWrap = style({ position: 'relative' });

// The chart with its zoom row; in full screen (the Fullscreen API, or fixed over the window where
// there is none) the frame takes all the height the row leaves.
export const chartBox = style({ display: 'flex', flexDirection: 'column', background: vars.color.background });
export const chartBoxFull = style({ position: 'fixed', inset: 0, zIndex: 1000, padding: vars.space.sm });
export const chartToolbar = style({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: vars.space.sm, marginBottom: vars.space.sm });

// The chart's frame: a fixed window onto the chart, which the frame's view moves and scales
// (decision 043). Dragging pans it, so the browser's own touch panning is off inside it.
export const frame = style({
  height: 'clamp(400px, 62vh, 760px)',
  overflow: 'hidden',
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.large,
  background: vars.color.background,
  touchAction: 'none',
  cursor: 'grab',
  selectors: {
    '&:focus-visible': { outline: `3px solid ${vars.color.focus}`, outlineOffset: 2 },
    '&:active': { cursor: 'grabbing' },
  },
});

globalStyle(`${chartBoxFull} ${frameWrap}`, { flex: '1 1 auto', minHeight: 0, display: 'flex', flexDirection: 'column' });
globalStyle(`${chartBoxFull} ${frame}`, { flex: '1 1 auto', height: 'auto' });

export const overview = style({
  position: 'absolute',
  right: vars.space.sm,
  bottom: vars.space.sm,
  background: vars.color.background,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.base,
  boxShadow: '0 2px 8px rgba(0, 0, 0, 0.15)',
  cursor: 'pointer',
  touchAction: 'none',
});
globalStyle(`${overview} rect.state`, { fill: vars.color.surface, stroke: vars.color.textMuted, strokeWidth: 1, vectorEffect: 'non-scaling-stroke' });
globalStyle(`${overview} rect.compound`, { fill: 'none', stroke: vars.color.textMuted, strokeWidth: 1, vectorEffect: 'non-scaling-stroke' });
globalStyle(`${overview} rect.visible`, { fill: vars.color.primarySoft, fillOpacity: 0.45, stroke: vars.color.primaryDark, strokeWidth: 2, vectorEffect: 'non-scaling-stroke' });

export const linkStatus = style({ fontSize: '0.9em', color: vars.color.textMuted });

export const details = style({
  marginTop: vars.space.md,
  padding: vars.space.md,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.base,
});

export const legend = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.md, fontSize: '0.9em', color: vars.color.textMuted, listStyle: 'none', padding: 0 });

// The SVG: colours by role. Classes rather than inline colours so the states read the same everywhere.
export const svg = style({ display: 'block', maxWidth: 'none', fontFamily: vars.font.body, userSelect: 'none' });
globalStyle(`${svg} .state rect.box`, { fill: vars.color.background, stroke: vars.color.textMuted, strokeWidth: 1.5 });
globalStyle(`${svg} .state.compound > rect.box`, { fill: vars.color.surface });
globalStyle(`${svg} .state.final rect.inner`, { fill: 'none', stroke: vars.color.textMuted, strokeWidth: 1 });
globalStyle(`${svg} .state text`, { fill: vars.color.text, fontSize: 13, fontWeight: 600 });
globalStyle(`${svg} .state.uncovered > rect.box`, { stroke: vars.color.danger, strokeDasharray: '6 4', strokeWidth: 2 });
globalStyle(`${svg} .state.active > rect.box`, { fill: vars.color.successSoft, stroke: vars.color.success, strokeWidth: 3 });
globalStyle(`${svg} .state.step > rect.box`, { fill: vars.color.primarySoft, stroke: vars.color.primaryDark, strokeWidth: 3 });
globalStyle(`${svg} .state.selected > rect.box`, { strokeWidth: 4 });
globalStyle(`${svg} .initial circle`, { fill: vars.color.text });
globalStyle(`${svg} .initial path`, { stroke: vars.color.text, strokeWidth: 1.5 });
globalStyle(`${svg} .edge path`, { fill: 'none', stroke: vars.color.textMuted, strokeWidth: 1.5 });
globalStyle(`${svg} .edge text`, { fill: vars.color.text, fontSize: 11 });
globalStyle(`${svg} .edge rect`, { fill: vars.color.background, opacity: 0.9 });
globalStyle(`${svg} .edge.covered path`, { stroke: vars.color.success });
globalStyle(`${svg} .edge.uncovered path`, { stroke: vars.color.danger, strokeDasharray: '6 4', strokeWidth: 2 });
globalStyle(`${svg} .edge.uncovered text`, { fill: vars.color.danger, fontWeight: 700 });
globalStyle(`${svg} .edge.taken path`, { stroke: vars.color.primaryDark, strokeWidth: 3.5 });
globalStyle(`${svg} .edge.taken text`, { fontWeight: 700 });
globalStyle(`${svg} .edge.selected path`, { strokeWidth: 4 });
// Changes since approval: a colour, a line (solid and thick for added, dashed for changed) and a sign (+, Δ, −n), never colour alone.
const changedColour = '#8A4B00';
globalStyle(`${svg} .state.diff-added > rect.box`, { stroke: vars.color.success, strokeWidth: 4, fill: vars.color.successSoft });
globalStyle(`${svg} .state.diff-changed > rect.box`, { stroke: changedColour, strokeWidth: 3, strokeDasharray: '9 4', fill: '#FFF4E0' });
globalStyle(`${svg} .edge.diff-added path`, { stroke: vars.color.success, strokeWidth: 3.5 });
globalStyle(`${svg} .edge.diff-changed path`, { stroke: changedColour, strokeWidth: 3, strokeDasharray: '9 4' });
globalStyle(`${svg} .diff-badge rect`, { stroke: 'none' });
globalStyle(`${svg} .diff-badge text`, { fill: vars.color.onPrimary, fontSize: 12, fontWeight: 700 });
globalStyle(`${svg} .diff-badge.added rect`, { fill: vars.color.success });
globalStyle(`${svg} .diff-badge.changed rect`, { fill: changedColour });
globalStyle(`${svg} .diff-badge.removed rect`, { fill: vars.color.danger });
export const diffSwatch = style({ verticalAlign: 'middle', marginInlineEnd: vars.space.xs });
globalStyle(`${diffSwatch} line`, { strokeWidth: 3 });
globalStyle(`${diffSwatch}.added line`, { stroke: vars.color.success, strokeWidth: 4 });
globalStyle(`${diffSwatch}.changed line`, { stroke: changedColour, strokeDasharray: '6 3' });
globalStyle(`${diffSwatch}.removed line`, { stroke: vars.color.danger, strokeDasharray: '2 3' });
export const approvalMark = style({ flexBasis: '100%', fontSize: '0.8em', fontWeight: 400, color: vars.color.textMuted });
export const approvalChanged = style({ color: changedColour, fontWeight: 700 });
export const changes = style({
  marginTop: vars.space.md,
  padding: vars.space.md,
  border: `2px dashed ${changedColour}`,
  borderRadius: vars.radius.base,
});
export const changeList = style({ margin: `${vars.space.xs} 0 ${vars.space.md}`, paddingInlineStart: vars.space.lg });

globalStyle(`${svg} [tabindex]:focus`, { outline: 'none' });
globalStyle(`${svg} [tabindex]:focus-visible > rect.box, ${svg} [tabindex]:focus-visible > rect.label`, { stroke: vars.color.focus, strokeWidth: 3 });
globalStyle(`${svg} [tabindex]`, { cursor: 'pointer' });

// The journey across tabs (Journey.tsx): beside the machine list on a wide screen, below the chart on a phone.
// State ids are long unbroken words: they wrap anywhere rather than widen the column.
export const journey = style({ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: vars.space.sm, alignContent: 'start', minWidth: 0, overflowWrap: 'anywhere' });
export const journeyTitle = style({ fontSize: '1.125rem', margin: 0 });
export const journeyIntro = style({ margin: 0, fontSize: '0.9em', color: vars.color.textMuted });
export const tabList = style({ listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: vars.space.sm, overflowWrap: 'anywhere' });
export const actorList = style({ margin: `${vars.space.xs} 0 0`, paddingInlineStart: vars.space.md, fontSize: '0.9em' });
export const timeline = style({
  listStyle: 'none',
  margin: 0,
  padding: 0,
  display: 'grid',
  gridTemplateColumns: 'minmax(0, 1fr)',
  gap: vars.space.xs,
  maxHeight: 'min(50vh, 420px)',
  overflowY: 'auto',
  overscrollBehavior: 'contain',
});
export const timelineStep = style({
  display: 'grid',
  width: '100%',
  minHeight: 44,
  padding: `${vars.space.xs} ${vars.space.sm}`,
  textAlign: 'start',
  font: 'inherit',
  fontSize: '0.9em',
  color: vars.color.text,
  background: vars.color.background,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.base,
  cursor: 'pointer',
  overflowWrap: 'anywhere',
  selectors: {
    '&:hover': { background: vars.color.primarySoft },
    '&[aria-current="step"]': { background: vars.color.successSoft, borderColor: vars.color.success, borderWidth: 2 },
    '&:focus-visible': { outline: `3px solid ${vars.color.focus}`, outlineOffset: 1 },
  },
});
export const stepMeta = style({ color: vars.color.textMuted, fontSize: '0.85em' });

export const coveringTitle = style({ fontSize: '1rem', margin: `${vars.space.md} 0 ${vars.space.xs}` });
export const coveringList = style({ margin: 0, paddingInlineStart: vars.space.lg, display: 'grid', gap: vars.space.xs });

// The chart first (decision 122): a short title row, then the chart; the rest below it.
export const pageTitle = style({ margin: `0 0 ${vars.space.sm}` });
export const intro = style({ fontSize: '0.9em', color: vars.color.textMuted });
export const machineHead = style({ display: 'flex', flexWrap: 'wrap', alignItems: 'baseline', gap: vars.space.md, marginBottom: vars.space.xs });
export const machineTitle = style({ margin: 0, fontSize: '1.375rem' });
export const belowChart = style({
  display: 'grid',
  gap: vars.space.md,
  '@media': { [media.tablet]: { gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 1fr)', alignItems: 'start' } },
});
export const panelTitle = style({ margin: `0 0 ${vars.space.xs}` });
export const codeName = style({ fontSize: '0.9em', color: vars.color.textMuted, overflowWrap: 'anywhere' });
export const linkButton = style({
  minHeight: 32,
  padding: 0,
  border: 'none',
  background: 'none',
  color: vars.color.primaryText,
  font: 'inherit',
  textDecoration: 'underline',
  cursor: 'pointer',
  selectors: { '&:focus-visible': { outline: `3px solid ${vars.color.focus}`, outlineOffset: 2 } },
});
// The slot for the page's picture at phone size, when there is no picture (npm run flows:shots).
export const picture = style({
  margin: `${vars.space.md} 0 0`,
  display: 'grid',
  placeItems: 'center',
  width: 180,
  aspectRatio: '390 / 844',
  border: `1px dashed ${vars.color.border}`,
  borderRadius: vars.radius.base,
  color: vars.color.textMuted,
  textAlign: 'center',
  padding: vars.space.sm,
});

// The page's picture at phone size (390 × 844 shown at 180 px wide), framed like a phone's screen.
export const shot = style({
  margin: `${vars.space.md} 0 0`,
  width: 180,
});
export const shotImage = style({
  display: 'block',
  width: '100%',
  height: 'auto',
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.base,
});
