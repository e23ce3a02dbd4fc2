import { expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';

/** The compose editor's gestures, walked by compose.e2e (desktop, the mouse) and gift.e2e (phone, a finger). */

/** A box's centre as fractions of another's (the frame's), and that frame's width / height. */
export async function placeIn(frame: Locator, el: Locator): Promise<{ x: number; y: number; aspect: number }> {
  const f = await frame.boundingBox();
  const e = await el.boundingBox();
  if (!f || !e) throw new Error('no box to measure');
  return { x: (e.x + e.width / 2 - f.x) / f.width, y: (e.y + e.height / 2 - f.y) / f.height, aspect: f.width / f.height };
}

/**
 * The review shows the greetie as the editor left it: the same frame shape, and the element with
 * `text` on the same spot of it (to 1 % of the frame) as `inEditor` measured there.
 */
export async function expectSamePlace(shown: Locator, text: string, inEditor: { x: number; y: number; aspect: number }): Promise<void> {
  const inReview = await placeIn(shown, shown.locator('[data-element-key]').filter({ hasText: text }));
  expect(inReview.aspect).toBeCloseTo(inEditor.aspect, 2);
  expect(Math.abs(inReview.x - inEditor.x)).toBeLessThan(0.01);
  expect(Math.abs(inReview.y - inEditor.y)).toBeLessThan(0.01);
}

/** Drags with a finger on the phone (real touch events through the DevTools protocol: the mouse is not a finger), with the mouse on the desktop. */
export async function drag(page: Page, phone: boolean, from: { x: number; y: number }, by: { x: number; y: number }): Promise<void> {
  if (phone) {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: from.x, y: from.y }] });
    for (let i = 1; i <= 8; i++) {
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: from.x + (i * by.x) / 8, y: from.y + (i * by.y) / 8 }] });
    }
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await cdp.detach();
  } else {
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(from.x + by.x, from.y + by.y, { steps: 8 });
    await page.mouse.up();
  }
}

/**
 * Drags `el` far past `frame`'s lower right corner (to just past it: a finger stays on the screen)
 * and waits until it stops with its edges on the frame's. Resolves to where it ended in the frame.
 */
export async function dragPastCorner(page: Page, phone: boolean, frame: Locator, el: Locator): Promise<{ x: number; y: number; aspect: number }> {
  await frame.scrollIntoViewIfNeeded();
  const before = await el.boundingBox();
  const f = await frame.boundingBox();
  const screen = page.viewportSize();
  if (!before || !f || !screen) throw new Error('the element or the frame has no box');
  const start = { x: before.x + before.width / 2, y: before.y + before.height / 2 };
  const end = { x: Math.min(f.x + f.width + 30, screen.width - 2), y: Math.min(f.y + f.height + 30, screen.height - 2) };
  await drag(page, phone, start, { x: end.x - start.x, y: end.y - start.y });
  await expect
    .poll(async () => {
      const t = await el.boundingBox();
      return !!t && t.x >= f.x - 1 && t.y >= f.y - 1 && t.x + t.width <= f.x + f.width + 1 && t.y + t.height <= f.y + f.height + 1 && t.x + t.width > f.x + f.width - 4;
    })
    .toBe(true);
  return placeIn(frame, el);
}
