/**
 * The chart frame's zoom and pan, as pure functions (decision 043). A view places the chart in
 * its frame: a point (cx, cy) of the chart is drawn at (x + cx·scale, y + cy·scale) of the frame.
 * There are two modes: 'fit' follows the frame (every resize fits the whole chart again) and
 * 'free' keeps the scale the person chose and only keeps the chart within reach.
 */

export interface Size {
  width: number;
  height: number;
}

export interface Box extends Size {
  x: number;
  y: number;
}

export interface View {
  scale: number;
  x: number;
  y: number;
  mode: 'fit' | 'free';
}

/** The smallest text on a chart: transition labels are drawn at 11 px at 100 %. */
export const SMALLEST_TEXT_PX = 11;
/** Below this many pixels a label stops being readable. */
export const READABLE_TEXT_PX = 9;
/** The scale at which the smallest text is still readable (about 0.82). */
export const READABLE_SCALE = READABLE_TEXT_PX / SMALLEST_TEXT_PX;
export const MAX_SCALE = 3;
/** Space kept free around a fitted chart, in frame pixels. */
const MARGIN = 8;
const ZOOM_STEP = 1.25;

/** The largest scale at which the whole chart fits the frame, never above 100 %. */
export function fitScale(content: Size, frame: Size): number {
  if (content.width <= 0 || content.height <= 0 || frame.width <= 0 || frame.height <= 0) return 1;
  const w = Math.max(1, frame.width - 2 * MARGIN);
  const h = Math.max(1, frame.height - 2 * MARGIN);
  return Math.min(1, w / content.width, h / content.height);
}

/** The whole chart, centred in the frame. */
export function fitView(content: Size, frame: Size): View {
  const scale = fitScale(content, frame);
  return { scale, x: (frame.width - content.width * scale) / 2, y: (frame.height - content.height * scale) / 2, mode: 'fit' };
}

/**
 * Keeps the chart within reach: on an axis where it is smaller than the frame it is centred;
 * where it is larger, no edge of the frame shows empty space beyond the chart's edge.
 */
export function clampView(view: View, content: Size, frame: Size): View {
  const axis = (offset: number, contentLength: number, frameLength: number) => {
    const drawn = contentLength * view.scale;
    if (drawn <= frameLength) return (frameLength - drawn) / 2;
    return Math.min(0, Math.max(frameLength - drawn, offset));
  };
  return { ...view, x: axis(view.x, content.width, frame.width), y: axis(view.y, content.height, frame.height) };
}

/** Whether the whole chart is in view (then no overview is needed). */
export function showsWhole(view: View, content: Size, frame: Size): boolean {
  const eps = 0.5;
  return (
    view.x >= -eps &&
    view.y >= -eps &&
    view.x + content.width * view.scale <= frame.width + eps &&
    view.y + content.height * view.scale <= frame.height + eps
  );
}

/**
 * How a chart opens: fitted when its text stays readable that way; otherwise at 100 % around
 * where the flow starts (`start`, the initial state's box; else the top left corner), with the
 * overview showing the rest.
 */
export function openView(content: Size, frame: Size, start?: Box): View {
  const fit = fitView(content, frame);
  if (fit.scale >= READABLE_SCALE) return fit;
  const actual: View = { scale: 1, x: 0, y: 0, mode: 'free' };
  if (!start) return clampView(actual, content, frame);
  return centreOn(actual, start.x + start.width / 2, start.y + start.height / 2, content, frame);
}

/** Zoom by `factor` keeping the frame point (px, py) — by default its centre — where it is. */
export function zoomView(view: View, factor: number, content: Size, frame: Size, at?: { x: number; y: number }): View {
  const min = Math.min(fitScale(content, frame), READABLE_SCALE) / 2;
  const scale = Math.min(MAX_SCALE, Math.max(min, view.scale * factor));
  const px = at?.x ?? frame.width / 2;
  const py = at?.y ?? frame.height / 2;
  const k = scale / view.scale;
  return clampView({ scale, x: px - (px - view.x) * k, y: py - (py - view.y) * k, mode: 'free' }, content, frame);
}

export const zoomIn = (view: View, content: Size, frame: Size) => zoomView(view, ZOOM_STEP, content, frame);
export const zoomOut = (view: View, content: Size, frame: Size) => zoomView(view, 1 / ZOOM_STEP, content, frame);

export function panView(view: View, dx: number, dy: number, content: Size, frame: Size): View {
  return clampView({ ...view, x: view.x + dx, y: view.y + dy, mode: 'free' }, content, frame);
}

/** Show the chart point (cx, cy) in the middle of the frame at the current scale. */
export function centreOn(view: View, cx: number, cy: number, content: Size, frame: Size): View {
  return clampView({ ...view, x: frame.width / 2 - cx * view.scale, y: frame.height / 2 - cy * view.scale, mode: 'free' }, content, frame);
}

/**
 * Bring a box of the chart (a state, a label) into view, readable: nothing changes when it is
 * already wholly in view at a readable scale; otherwise it is centred, zoomed in to a readable
 * scale if need be.
 */
export function revealBox(view: View, box: Box, content: Size, frame: Size): View {
  const left = view.x + box.x * view.scale;
  const top = view.y + box.y * view.scale;
  const inside = left >= 0 && top >= 0 && left + box.width * view.scale <= frame.width && top + box.height * view.scale <= frame.height;
  if (inside && view.scale >= READABLE_SCALE) return view;
  const scaled = { ...view, scale: Math.max(view.scale, Math.min(1, READABLE_SCALE * 1.1)) };
  return centreOn(scaled, box.x + box.width / 2, box.y + box.height / 2, content, frame);
}

/** The part of the chart (in chart coordinates) the frame shows: the SVG's viewBox. */
export function visibleBox(view: View, frame: Size): Box {
  // `+ 0` turns -0 into 0, which reads better in a viewBox.
  return { x: -view.x / view.scale + 0, y: -view.y / view.scale + 0, width: frame.width / view.scale, height: frame.height / view.scale };
}

/**
 * Of the layouts of a chart (one per direction), the one that shows most of it in this frame:
 * the largest fitted scale. On a phone that is usually top to bottom, on a wide screen left to
 * right; the chart's own shape decides the close cases.
 */
export function chooseDirection<D extends string>(sizes: Record<D, Size>, frame: Size): D {
  const entries = Object.entries(sizes) as [D, Size][];
  const wide = frame.width >= frame.height;
  return entries
    .map(([d, s]) => ({ d, scale: fitScale(s, frame) }))
    .sort((a, b) => b.scale - a.scale || (wide ? (a.d === 'RIGHT' ? -1 : 1) : a.d === 'DOWN' ? -1 : 1))[0]!.d;
}
