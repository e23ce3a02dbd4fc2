import { describe, expect, it } from 'vitest';
import {
  READABLE_SCALE,
  chooseDirection,
  clampView,
  fitView,
  openView,
  panView,
  revealBox,
  showsWhole,
  visibleBox,
  zoomView,
} from '../../../src/pages/flows/view.ts';

/** The chart's box as drawn in the frame by a view. */
const drawn = (v: { scale: number; x: number; y: number }, c: { width: number; height: number }) => ({
  left: v.x,
  top: v.y,
  right: v.x + c.width * v.scale,
  bottom: v.y + c.height * v.scale,
});

describe('the chart frame view', () => {
  const frame = { width: 888, height: 600 };

  it('fits a chart wider than its frame wholly inside it, centred', () => {
    const auth = { width: 2629, height: 478 };
    const v = fitView(auth, frame);
    const box = drawn(v, auth);
    expect(box.left).toBeGreaterThanOrEqual(0);
    expect(box.top).toBeGreaterThanOrEqual(0);
    expect(box.right).toBeLessThanOrEqual(frame.width);
    expect(box.bottom).toBeLessThanOrEqual(frame.height);
    // As large as it can be: it touches the frame's sides but for the margin.
    expect(frame.width - (box.right - box.left)).toBeLessThanOrEqual(16.01);
    expect(box.top).toBeCloseTo(frame.height - box.bottom, 5);
    expect(showsWhole(v, auth, frame)).toBe(true);
  });

  it('never enlarges a small chart past 100 %', () => {
    expect(fitView({ width: 200, height: 100 }, frame).scale).toBe(1);
  });

  it('opens fitted when the text stays readable, else at 100 % from the top left with the rest out of view', () => {
    const small = { width: 900, height: 400 };
    expect(openView(small, frame)).toMatchObject({ mode: 'fit' });
    expect(fitView(small, frame).scale).toBeGreaterThanOrEqual(READABLE_SCALE);

    const compose = { width: 3691, height: 1498 };
    const v = openView(compose, frame);
    expect(v).toEqual({ scale: 1, x: 0, y: 0, mode: 'free' });
    expect(showsWhole(v, compose, frame)).toBe(false);
    // Around where the flow starts, when the chart says where that is.
    const start = { x: 40, y: 700, width: 90, height: 40 };
    const around = openView(compose, frame, start);
    expect(around.scale).toBe(1);
    expect(around.x).toBe(0);
    expect(around.y + (start.y + start.height / 2)).toBe(frame.height / 2);
  });

  it('keeps a chart within reach however far it is dragged', () => {
    const big = { width: 3000, height: 2000 };
    const start = { scale: 1, x: 0, y: 0, mode: 'free' as const };
    expect(panView(start, 500, 500, big, frame)).toMatchObject({ x: 0, y: 0 });
    const far = panView(start, -10_000, -10_000, big, frame);
    expect(drawn(far, big).right).toBe(frame.width);
    expect(drawn(far, big).bottom).toBe(frame.height);
    // Smaller than the frame on an axis: centred on it.
    const wide = { width: 3000, height: 200 };
    expect(clampView({ ...start, y: -50 }, wide, frame).y).toBe(200);
  });

  it('zooms around the given point, which stays where it is', () => {
    const big = { width: 3000, height: 2000 };
    const v = { scale: 1, x: -400, y: -300, mode: 'free' as const };
    const at = { x: 300, y: 200 };
    const z = zoomView(v, 1.25, big, frame, at);
    expect(z.scale).toBe(1.25);
    // The chart point under (300, 200) before is under it after.
    expect((at.x - v.x) / v.scale).toBeCloseTo((at.x - z.x) / z.scale, 5);
    expect((at.y - v.y) / v.scale).toBeCloseTo((at.y - z.y) / z.scale, 5);
  });

  it('brings a state out of view into the middle, readable; leaves one in view alone', () => {
    const big = { width: 3000, height: 2000 };
    const fitted = fitView(big, frame);
    const state = { x: 2500, y: 1500, width: 120, height: 40 };
    const r = revealBox(fitted, state, big, frame);
    expect(r.scale).toBeGreaterThanOrEqual(READABLE_SCALE);
    const seen = visibleBox(r, frame);
    expect(seen.x).toBeLessThanOrEqual(state.x);
    expect(seen.y).toBeLessThanOrEqual(state.y);
    expect(seen.x + seen.width).toBeGreaterThanOrEqual(state.x + state.width);
    expect(seen.y + seen.height).toBeGreaterThanOrEqual(state.y + state.height);
    expect(revealBox(r, state, big, frame)).toBe(r);
  });

  it('the visible box is the part of the chart the frame shows (the SVG viewBox)', () => {
    expect(visibleBox({ scale: 0.5, x: -100, y: 20, mode: 'free' }, frame)).toEqual({ x: 200, y: -40, width: 1776, height: 1200 });
  });

  it('chooses the layout direction that shows the chart largest in the frame', () => {
    // auth's two layouts (ELK, left to right and top to bottom).
    const auth = { RIGHT: { width: 2649, height: 478 }, DOWN: { width: 1432, height: 1142 } };
    expect(chooseDirection(auth, { width: 358, height: 548 })).toBe('DOWN');
    const line = { RIGHT: { width: 1600, height: 200 }, DOWN: { width: 300, height: 1500 } };
    expect(chooseDirection(line, { width: 1100, height: 650 })).toBe('RIGHT');
    expect(chooseDirection(line, { width: 358, height: 548 })).toBe('DOWN');
    // Both fit at 100 %: the frame's shape decides.
    const tiny = { RIGHT: { width: 200, height: 80 }, DOWN: { width: 80, height: 200 } };
    expect(chooseDirection(tiny, { width: 1100, height: 650 })).toBe('RIGHT');
    expect(chooseDirection(tiny, { width: 358, height: 548 })).toBe('DOWN');
  });
});
