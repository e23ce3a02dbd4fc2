import { describe, expect, it } from 'vitest';
import type { ContentElement } from '../../../contract/greetie.ts';
import { fitScale, halfExtent, keepAllInside, keepInside } from '../../../src/pages/greetie/editor/bounds.ts';
import { EDITOR_SCALE_MIN } from '../../../src/pages/greetie/editor/elements.ts';

/** Keeping an element wholly inside the picture, as pure geometry (sizes in px, places as fractions). */

const el = (over: Partial<ContentElement> = {}): ContentElement =>
  ({ id: 'a', type: 'sticker', value: 'heart', x: 0.5, y: 0.5, scale: 1, rotation: 0, ...over }) as ContentElement;

const frame = { width: 400, height: 500 };
const box = { width: 100, height: 50 };

/** The element's drawn box, in px, for checking that it is inside the frame. */
function edges(e: ContentElement) {
  const half = halfExtent(box, e.scale, e.rotation);
  return { left: e.x * frame.width - half.width, right: e.x * frame.width + half.width, top: e.y * frame.height - half.height, bottom: e.y * frame.height + half.height };
}

describe('halfExtent', () => {
  it('is half the scaled box, and a quarter turn swaps width and height', () => {
    expect(halfExtent(box, 2, 0)).toEqual({ width: 100, height: 50 });
    const turned = halfExtent(box, 1, 90);
    expect(turned.width).toBeCloseTo(25);
    expect(turned.height).toBeCloseTo(50);
  });

  it('widens a box turned by 45° to the box around it', () => {
    const square = halfExtent({ width: 100, height: 100 }, 1, 45);
    expect(square.width).toBeCloseTo(50 * Math.SQRT2);
    expect(square.height).toBeCloseTo(50 * Math.SQRT2);
  });
});

describe('keepInside', () => {
  it('leaves an element that is inside as it is (the same object)', () => {
    const inside = el({ x: 0.3, y: 0.7 });
    expect(keepInside(inside, box, frame)).toBe(inside);
  });

  it('moves an element that pokes out of an edge back until its edge touches the picture’s', () => {
    // 100 px wide: its centre may come no nearer than 50 px (1/8 of 400) to the left or right edge.
    expect(keepInside(el({ x: 0.01, y: 0.5 }), box, frame)).toMatchObject({ x: 0.125, y: 0.5 });
    expect(keepInside(el({ x: 0.99, y: 0.99 }), box, frame)).toMatchObject({ x: 0.875, y: 0.95 });
    expect(keepInside(el({ x: 0.5, y: -0.2 }), box, frame)).toMatchObject({ x: 0.5, y: 0.05 });
  });

  it('counts the turn: a turned element keeps its turned corners inside', () => {
    const kept = keepInside(el({ x: 0, y: 0, rotation: 30 }), box, frame);
    const e = edges(kept);
    expect(e.left).toBeGreaterThanOrEqual(0);
    expect(e.top).toBeGreaterThanOrEqual(0);
    expect(e.left).toBeLessThan(0.5);
    expect(e.top).toBeLessThan(0.5);
  });

  it('makes an element larger than the picture as large as fits, and keeps it inside', () => {
    const kept = keepInside(el({ x: 0.9, y: 0.5, scale: 5 }), box, frame);
    expect(kept.scale).toBe(4);
    expect(kept).toMatchObject({ x: 0.5 });
    const e = edges(kept);
    expect(e.left).toBeGreaterThanOrEqual(0);
    expect(e.right).toBeLessThanOrEqual(frame.width);
  });

  it('never scales below the smallest the editor offers; then the element sits in the middle', () => {
    const huge = { width: 4000, height: 100 };
    const kept = keepInside(el({ x: 0.1, scale: 1 }), huge, frame);
    expect(kept).toMatchObject({ scale: EDITOR_SCALE_MIN, x: 0.5 });
    expect(fitScale(huge, 0, frame)).toBeLessThan(EDITOR_SCALE_MIN);
  });

  it('is stable: keeping a kept element changes nothing', () => {
    for (const start of [el({ x: -1, y: 2, rotation: 37, scale: 3 }), el({ x: 0.9999, y: 0.0001, rotation: -120 })]) {
      const once = keepInside(start, box, frame);
      expect(keepInside(once, box, frame)).toBe(once);
    }
  });

  it('keeps only the centre inside while nothing is laid out yet', () => {
    expect(keepInside(el({ x: 1.4, y: -0.3 }), undefined, frame)).toMatchObject({ x: 1, y: 0 });
    expect(keepInside(el({ x: 1.4, y: 0.3 }), box, { width: 0, height: 0 })).toMatchObject({ x: 1, y: 0.3 });
  });
});

describe('keepAllInside', () => {
  it('answers the same list when nothing moved, and a new one with only the stray element moved', () => {
    const list = [el({ id: 'a' }), el({ id: 'b', x: 0.3 })];
    expect(keepAllInside(list, () => box, frame)).toBe(list);
    const stray = [el({ id: 'a' }), el({ id: 'b', x: 1 })];
    const kept = keepAllInside(stray, () => box, frame);
    expect(kept[0]).toBe(stray[0]);
    expect(kept[1]).toMatchObject({ id: 'b', x: 0.875 });
  });
});
