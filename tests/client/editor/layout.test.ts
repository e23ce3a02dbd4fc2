import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ANIMATIONS, STICKERS } from '../../../contract/catalogue.ts';
import type { ContentElement } from '../../../contract/greetie.ts';
import { applyGesture, normaliseRotation } from '../../../src/pages/greetie/editor/elements.ts';
import { EMOJI_MAX_VERSION, prepareEmoji, searchEmoji, type RawEmoji } from '../../../src/pages/greetie/editor/emojiData.ts';
import { BASE_SIZE, overlaySize, placement, textShadowColor, wrapText } from '../../../src/pages/greetie/editor/layout.ts';
import { OVERLAY_MAX_BYTES } from '../../../contract/media.ts';
import { encodeWithinLimit } from '../../../src/pages/greetie/editor/overlay.ts';

/**
 * The overlay's layout as pure functions (jsdom has no canvas: the pixels themselves are checked
 * by the compose journey in Chromium), the gesture maths, the emoji data and the artwork files.
 */

const el = (over: Partial<ContentElement>): ContentElement =>
  ({ type: 'sticker', value: 'heart', x: 0.5, y: 0.5, scale: 1, rotation: 0, ...over }) as ContentElement;

describe('placement (shared by the live layer and the overlay)', () => {
  it('puts the centre at x, y of the frame, turns clockwise in radians, sizes by the frame width', () => {
    expect(placement(el({ x: 0.25, y: 0.75, rotation: 90, scale: 2 }), 800, 1000)).toEqual({
      cx: 200,
      cy: 750,
      angle: Math.PI / 2,
      scale: 2,
      base: BASE_SIZE.sticker * 800,
    });
    expect(placement(el({ type: 'text', value: 'Hej' }), 1000, 500).base).toBe(BASE_SIZE.text * 1000);
  });
});

describe('wrapText', () => {
  // Every character 10 px wide.
  const measure = (s: string) => s.length * 10;

  it('keeps the writer’s line breaks and breaks before a word that would pass the width', () => {
    expect(wrapText('Grattis på födelsedagen\nKram', 120, measure)).toEqual(['Grattis på', 'födelsedagen', 'Kram']);
  });

  it('cuts a word longer than a line where it overflows', () => {
    expect(wrapText('abcdefghijklmno', 50, measure)).toEqual(['abcde', 'fghij', 'klmno']);
  });

  it('leaves a short text on one line', () => {
    expect(wrapText('Hej!', 100, measure)).toEqual(['Hej!']);
  });
});

describe('overlaySize', () => {
  it('keeps the frame’s aspect with the longest side at most 2048 px', () => {
    expect(overlaySize(4032, 3024)).toEqual({ width: 2048, height: 1536 });
    expect(overlaySize(1080, 1920)).toEqual({ width: 1080, height: 1920 });
    expect(overlaySize(3000, 4000, 1280)).toEqual({ width: 960, height: 1280 });
  });
  it('refuses a frame without a size', () => {
    expect(() => overlaySize(0, 100)).toThrow(RangeError);
  });
});

describe('encodeWithinLimit', () => {
  const blob = (type: string, size: number) => new Blob([new Uint8Array(size)], { type });

  it('takes WebP when the browser makes it and it fits 5 MB', async () => {
    const tried: string[] = [];
    const out = await encodeWithinLimit(async (type) => (tried.push(type), blob(type, 1000)));
    expect(out?.type).toBe('image/webp');
    expect(tried).toEqual(['image/webp']);
  });

  it('falls back to PNG when the browser answers PNG for WebP (Safari) or WebP is too big', async () => {
    expect((await encodeWithinLimit(async () => blob('image/png', 10)))?.type).toBe('image/png');
    const out = await encodeWithinLimit(async (type) => blob(type, type === 'image/webp' ? OVERLAY_MAX_BYTES + 1 : 500));
    expect(out?.type).toBe('image/png');
  });

  it('answers null when nothing fits, so the caller draws a smaller image', async () => {
    expect(await encodeWithinLimit(async (type) => blob(type, 11), 10)).toBeNull();
    expect(await encodeWithinLimit(async () => null)).toBeNull();
  });
});

describe('gestures and rotation', () => {
  const start = { element: el({}), pointers: [{ x: 100, y: 100 }], frame: { width: 200, height: 400 } };

  it('drags by the pointer’s movement as fractions of the frame, clamped to it', () => {
    expect(applyGesture(start, [{ x: 120, y: 60 }])).toMatchObject({ x: 0.6, y: 0.4 });
    expect(applyGesture(start, [{ x: 1000, y: -1000 }])).toMatchObject({ x: 1, y: 0 });
  });

  it('ignores a move while the frame has no size', () => {
    expect(applyGesture({ ...start, frame: { width: 0, height: 0 } }, [{ x: 500, y: 500 }])).toBe(start.element);
  });

  it('scales within 0.2..5 when pinching', () => {
    const pinch = { ...start, pointers: [{ x: 0, y: 0 }, { x: 100, y: 0 }] };
    expect(applyGesture(pinch, [{ x: 0, y: 0 }, { x: 1000, y: 0 }]).scale).toBe(5);
    expect(applyGesture(pinch, [{ x: 0, y: 0 }, { x: 1, y: 0 }]).scale).toBe(0.2);
  });

  it('folds rotation into -180..180', () => {
    expect(normaliseRotation(190)).toBe(-170);
    expect(normaliseRotation(-180)).toBe(180);
    expect(normaliseRotation(720)).toBe(0);
    expect(normaliseRotation(-45)).toBe(-45);
  });
});

describe('text shadow', () => {
  it('gives light text a dark shadow and dark text a light one', () => {
    expect(textShadowColor('#FFFFFF')).toMatch(/^rgba\(0, 0, 0/);
    expect(textShadowColor('#212B36')).toMatch(/^rgba\(255, 255, 255/);
  });
});

describe('emoji data', () => {
  const raw: RawEmoji[] = [
    { label: 'rött hjärta', emoji: '❤️', tags: ['kärlek'], group: 8, order: 3, version: 0.6 },
    { label: 'ansikte med stort leende', emoji: '😀', tags: ['glad'], group: 0, order: 1, version: 1 },
    { label: 'ljus hy', emoji: '🏻', group: 2, order: 2, version: 1 },
    { label: 'regional indikator A', emoji: '🇦', version: 0 },
    { label: 'för nytt', emoji: '🫩', group: 0, order: 9, version: EMOJI_MAX_VERSION + 1 },
  ];

  it('keeps offered groups and emoji phones can draw, in Unicode order', () => {
    expect(prepareEmoji(raw).map((e) => e.emoji)).toEqual(['😀', '❤️']);
  });

  it('searches names and tags, names that start with the word first', () => {
    const list = prepareEmoji(raw);
    expect(searchEmoji(list, 'KÄRLEK').map((e) => e.emoji)).toEqual(['❤️']);
    expect(searchEmoji(list, 'ansikte glad').map((e) => e.emoji)).toEqual(['😀']);
    expect(searchEmoji(list, '  ')).toEqual([]);
  });
});

describe('artwork in public/', () => {
  const root = resolve(__dirname, '../../../public');

  it.each(STICKERS)('sticker %s is a sized SVG with no script or outside reference', (id) => {
    const svg = readFileSync(resolve(root, `stickers/${id}.svg`), 'utf8');
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="200" height="200" viewBox="0 0 200 200">/);
    expect(svg).not.toMatch(/<script|on\w+=|href=|<foreignObject|url\(/i);
    // Well-formed XML (a duplicate attribute makes the browser refuse the whole image).
    const doc = new DOMParser().parseFromString(svg, 'image/svg+xml');
    expect(doc.querySelector('parsererror')).toBeNull();
    expect(doc.documentElement.nodeName).toBe('svg');
  });

  it.each(ANIMATIONS)('animation %s is a small Lottie document without expressions or images', (id) => {
    const text = readFileSync(resolve(root, `lottie/${id}.json`), 'utf8');
    expect(text.length).toBeLessThan(64 * 1024);
    const doc = JSON.parse(text) as { w: number; h: number; fr: number; ip: number; op: number; assets: unknown[]; layers: { ty: number; ip: number; op: number }[] };
    expect(doc).toMatchObject({ w: 200, h: 200, fr: 30, ip: 0, assets: [] });
    expect(doc.layers.length).toBeGreaterThan(0);
    expect(doc.layers.every((l) => l.ty === 4 && l.ip >= 0 && l.op <= doc.op)).toBe(true);
    // Expressions ("x": "...") would need eval, which lottie_light and our CSP refuse.
    expect(text).not.toMatch(/"x":"/);
  });
});
