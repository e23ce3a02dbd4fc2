import {
  CONTENT_MAX_ELEMENTS,
  ROTATION_MAX,
  ROTATION_MIN,
  SCALE_MAX,
  SCALE_MIN,
  TEXT_MAX_LENGTH,
  type ContentElement,
} from '../../../../contract/greetie.ts';

/**
 * The editor's rules for content elements, as pure functions: what adding, moving, scaling and
 * rotating do to an element, for the keyboard and for pointers alike. The numbers stay inside the
 * contract's bounds (contract/greetie.ts), so whatever the editor makes, the server accepts.
 */

export { CONTENT_MAX_ELEMENTS as MAX_ELEMENTS, TEXT_MAX_LENGTH as MAX_TEXT_LENGTH };
export type { ContentElement };

/** What one key press does: arrows move 1 % of the frame (Shift: 5 %), +/- scale by 0.1, [ ] turn 15°. */
export const KEY_STEPS = { move: 0.01, moveLarge: 0.05, scale: 0.1, rotate: 15 } as const;

/** The smallest and largest scale the editor offers (inside the contract's 0.1..10). */
export const EDITOR_SCALE_MIN = Math.max(SCALE_MIN, 0.2);
export const EDITOR_SCALE_MAX = Math.min(SCALE_MAX, 5);

const round = (v: number, places: number) => {
  const f = 10 ** places;
  return Math.round(v * f) / f;
};
const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** Degrees folded into -180..180 (well inside the contract's -360..360). */
export function normaliseRotation(deg: number): number {
  let r = deg % 360;
  if (r > 180) r -= 360;
  if (r <= -180) r += 360;
  return clamp(round(r, 1), ROTATION_MIN, ROTATION_MAX);
}

export function placeAt(el: ContentElement, x: number, y: number): ContentElement {
  return { ...el, x: round(clamp(x, 0, 1), 4), y: round(clamp(y, 0, 1), 4) };
}

export function moveBy(el: ContentElement, dx: number, dy: number): ContentElement {
  return placeAt(el, el.x + dx, el.y + dy);
}

export function scaleTo(el: ContentElement, scale: number): ContentElement {
  return { ...el, scale: round(clamp(scale, EDITOR_SCALE_MIN, EDITOR_SCALE_MAX), 2) };
}

export function rotateTo(el: ContentElement, rotation: number): ContentElement {
  return { ...el, rotation: normaliseRotation(rotation) };
}

let counter = 0;
/** A stable client key for an element (the contract's optional `id`: 1..40 of [A-Za-z0-9_-]). */
export function newElementId(): string {
  counter += 1;
  return `e${Date.now().toString(36)}${counter.toString(36)}`;
}

/** The key an element is known by in lists: its id, or its place when it came without one. */
export function elementKey(el: ContentElement, index: number): string {
  return el.id ?? `i${index}`;
}

type Placement = 'id' | 'x' | 'y' | 'scale' | 'rotation';
/** What the person chose: an element without its place. */
export type NewElement = ContentElement extends infer E ? (E extends ContentElement ? Omit<E, Placement> : never) : never;

/**
 * A new element in the middle of the frame, a little off the previous one so several added in a
 * row do not hide each other.
 */
export function createElement(spec: NewElement, existing: number): ContentElement {
  const offset = ((existing % 5) - 2) * 0.04;
  return { ...spec, id: newElementId(), x: 0.5 + offset, y: 0.5 + offset, scale: 1, rotation: 0 } as ContentElement;
}

/** Adds an element unless the greetie already has the most it may have. */
export function addElement(elements: readonly ContentElement[], el: ContentElement): ContentElement[] {
  if (elements.length >= CONTENT_MAX_ELEMENTS) return [...elements];
  return [...elements, el];
}

/** A text shortened to what an element may hold, counted as the browser and the server count. */
export function limitText(text: string): string {
  return text.slice(0, TEXT_MAX_LENGTH);
}

export type KeyAction = 'left' | 'right' | 'up' | 'down' | 'grow' | 'shrink' | 'rotateLeft' | 'rotateRight' | 'remove';

/** The keyboard map (arrows, + and -, [ and ], Delete and Backspace); anything else is null. */
export function keyAction(key: string): KeyAction | null {
  switch (key) {
    case 'ArrowLeft':
      return 'left';
    case 'ArrowRight':
      return 'right';
    case 'ArrowUp':
      return 'up';
    case 'ArrowDown':
      return 'down';
    case '+':
    case '=':
    case 'Add':
      return 'grow';
    case '-':
    case '_':
    case 'Subtract':
      return 'shrink';
    case '[':
      return 'rotateLeft';
    case ']':
      return 'rotateRight';
    case 'Delete':
    case 'Backspace':
      return 'remove';
    default:
      return null;
  }
}

/** What a key action does to an element (removal is the caller's: it changes the list). */
export function applyKeyAction(el: ContentElement, action: Exclude<KeyAction, 'remove'>, large = false): ContentElement {
  const step = large ? KEY_STEPS.moveLarge : KEY_STEPS.move;
  switch (action) {
    case 'left':
      return moveBy(el, -step, 0);
    case 'right':
      return moveBy(el, step, 0);
    case 'up':
      return moveBy(el, 0, -step);
    case 'down':
      return moveBy(el, 0, step);
    case 'grow':
      return scaleTo(el, el.scale + KEY_STEPS.scale);
    case 'shrink':
      return scaleTo(el, el.scale - KEY_STEPS.scale);
    case 'rotateLeft':
      return rotateTo(el, el.rotation - KEY_STEPS.rotate);
    case 'rotateRight':
      return rotateTo(el, el.rotation + KEY_STEPS.rotate);
  }
}

// ---- Pointer gestures ----

export interface Point {
  x: number;
  y: number;
}

/**
 * One drag or pinch, measured from where it started: the element as it was, the pointers as they
 * were (px), and the frame's size (px). Every move is computed from this start, never from the
 * previous move, so rounding does not drift.
 */
export interface GestureStart {
  element: ContentElement;
  pointers: Point[];
  frame: { width: number; height: number };
}

const centroid = (ps: Point[]): Point => ({
  x: ps.reduce((s, p) => s + p.x, 0) / ps.length,
  y: ps.reduce((s, p) => s + p.y, 0) / ps.length,
});

/**
 * The element after the pointers moved: one pointer drags it; two also scale it by how far apart
 * they are now against at the start, and turn it by how much the line between them turned.
 */
export function applyGesture(start: GestureStart, now: Point[]): ContentElement {
  const { element, pointers, frame } = start;
  if (pointers.length === 0 || now.length !== pointers.length || frame.width <= 0 || frame.height <= 0) return element;
  const c0 = centroid(pointers);
  const c1 = centroid(now);
  let el = moveBy(element, (c1.x - c0.x) / frame.width, (c1.y - c0.y) / frame.height);
  if (pointers.length >= 2 && now.length >= 2) {
    const [a0, b0] = pointers as [Point, Point];
    const [a1, b1] = now as [Point, Point];
    const d0 = Math.hypot(b0.x - a0.x, b0.y - a0.y);
    const d1 = Math.hypot(b1.x - a1.x, b1.y - a1.y);
    if (d0 > 0) el = scaleTo(el, element.scale * (d1 / d0));
    const turn = (Math.atan2(b1.y - a1.y, b1.x - a1.x) - Math.atan2(b0.y - a0.y, b0.x - a0.x)) * (180 / Math.PI);
    el = rotateTo(el, element.rotation + turn);
  }
  return el;
}
