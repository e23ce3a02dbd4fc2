import type { ContentElement } from '../../../../contract/greetie.ts';
import { EDITOR_SCALE_MIN } from './elements.ts';

/**
 * Keeping an element inside the picture, as pure geometry. An element is drawn centred on (x, y)
 * (fractions of the frame), turned by `rotation`, then scaled (layout.ts); what must stay inside
 * the frame is the box around it as drawn: its untransformed size (as the page lays it out), scaled,
 * and widened by the turn.
 */

export interface Size {
  width: number;
  height: number;
}

const FLOOR = 1e4;
/** Rounded as elements.ts rounds a place (4 places), but towards the inside, so a kept place stays kept. */
const up = (v: number) => Math.ceil(v * FLOOR - 1e-9) / FLOOR;
const down = (v: number) => Math.floor(v * FLOOR + 1e-9) / FLOOR;

/** Half the width and height of the box around an element turned by `rotation`° and scaled by `scale`. */
export function halfExtent(box: Size, scale: number, rotation: number): Size {
  const a = (rotation * Math.PI) / 180;
  const cos = Math.abs(Math.cos(a));
  const sin = Math.abs(Math.sin(a));
  return {
    width: ((box.width * cos + box.height * sin) * scale) / 2,
    height: ((box.width * sin + box.height * cos) * scale) / 2,
  };
}

/** The largest scale at which the element, turned as it is, fits the frame (Infinity for an empty box). */
export function fitScale(box: Size, rotation: number, frame: Size): number {
  const unit = halfExtent(box, 1, rotation);
  const byWidth = unit.width > 0 ? frame.width / (2 * unit.width) : Infinity;
  const byHeight = unit.height > 0 ? frame.height / (2 * unit.height) : Infinity;
  return Math.min(byWidth, byHeight);
}

/**
 * The element moved (and, when it is larger than the frame, made smaller) so that all of it is
 * inside the frame. `box` is its untransformed size and `frame` the frame's size, both in pixels;
 * without them (nothing laid out yet) only its centre is kept inside. An element already inside
 * comes back unchanged (the same object), so a caller can tell nothing moved.
 */
export function keepInside(el: ContentElement, box: Size | undefined, frame: Size | undefined): ContentElement {
  if (!box || !frame || !(frame.width > 0) || !(frame.height > 0)) return centreInside(el);
  const fit = fitScale(box, el.rotation, frame);
  // Two decimals, rounded down, as elements.ts keeps a scale; never below the smallest the editor offers.
  const scale = el.scale > fit ? Math.max(EDITOR_SCALE_MIN, Math.floor(fit * 100 + 1e-9) / 100) : el.scale;
  const half = halfExtent(box, scale, el.rotation);
  const x = within(el.x, half.width / frame.width);
  const y = within(el.y, half.height / frame.height);
  if (x === el.x && y === el.y && scale === el.scale) return el;
  return { ...el, x, y, scale };
}

/** A place (0..1) kept `margin` away from both edges; the middle when the element is wider than the frame. */
function within(v: number, margin: number): number {
  const lo = up(margin);
  const hi = down(1 - margin);
  if (lo > hi) return 0.5;
  return Math.min(hi, Math.max(lo, v));
}

function centreInside(el: ContentElement): ContentElement {
  const x = Math.min(1, Math.max(0, el.x));
  const y = Math.min(1, Math.max(0, el.y));
  return x === el.x && y === el.y ? el : { ...el, x, y };
}

/**
 * Every element kept inside; the same array when none had to move (so a caller can skip a change).
 * `boxOf` answers an element's measured size, by its place in the list.
 */
export function keepAllInside(elements: readonly ContentElement[], boxOf: (index: number) => Size | undefined, frame: Size | undefined): readonly ContentElement[] {
  let changed = false;
  const kept = elements.map((el, i) => {
    const next = keepInside(el, boxOf(i), frame);
    if (next !== el) changed = true;
    return next;
  });
  return changed ? kept : elements;
}
