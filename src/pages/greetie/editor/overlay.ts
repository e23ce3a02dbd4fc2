import { stickerUrl, type AnimationId } from '../../../../contract/catalogue.ts';
import type { ContentElement } from '../../../../contract/greetie.ts';
import { OVERLAY_MAX_BYTES } from '../../../../contract/media.ts';
import { emojiFontStack } from './editor.css.ts';
import { loadAnimationData, loadLottie, stillFrame } from './lottie.ts';
import { FONT_FAMILIES, TEXT_LINE_HEIGHT, TEXT_MAX_WIDTH, overlaySize, placement, textShadowColor, textStyleOf, wrapText } from './layout.ts';

export { ContentLayer } from './ContentLayer.tsx';

/**
 * The content flattened to one still image (POST /api/greetie/{id}/mediaoverlay: the thumbnail,
 * the link preview, the lists). It follows the same layout as the live ContentLayer (layout.ts);
 * animations contribute their still frame (the one shown when motion is reduced).
 */

/** Tried in order (the server takes OVERLAY_TYPES up to OVERLAY_MAX_BYTES): WebP (small), then PNG (every browser encodes it); then a smaller image. */
export const OVERLAY_ENCODINGS = [
  { type: 'image/webp', quality: 0.92 },
  { type: 'image/png', quality: undefined },
] as const;
export const OVERLAY_SIDES = [2048, 1280, 720] as const;

export type Encoder = (type: string, quality: number | undefined) => Promise<Blob | null>;

/**
 * The first encoding the browser really produced (a browser without WebP answers PNG for it) that
 * fits the limit, or null when none does.
 */
export async function encodeWithinLimit(encode: Encoder, maxBytes = OVERLAY_MAX_BYTES): Promise<Blob | null> {
  for (const { type, quality } of OVERLAY_ENCODINGS) {
    const blob = await encode(type, quality);
    if (blob && blob.type === type && blob.size > 0 && blob.size <= maxBytes) return blob;
  }
  return null;
}

export async function renderOverlay(elements: readonly ContentElement[], width: number, height: number): Promise<Blob> {
  const sources = await loadSources(elements);
  for (const side of OVERLAY_SIDES) {
    const size = overlaySize(width, height, side);
    const canvas = document.createElement('canvas');
    canvas.width = size.width;
    canvas.height = size.height;
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('overlay: this browser cannot draw to a canvas');
    await loadFonts(elements, size.width);
    for (const el of elements) drawElement(ctx, el, size.width, size.height, sources);
    const blob = await encodeWithinLimit((type, quality) => new Promise((resolve) => canvas.toBlob(resolve, type, quality)));
    if (blob) return blob;
  }
  throw new Error(`overlay: no encoding fits ${OVERLAY_MAX_BYTES} bytes`);
}

// ---- Drawing ----

type Sources = Map<string, HTMLImageElement>;
const sourceKey = (el: ContentElement) => `${el.type}:${el.value}`;

function drawElement(ctx: CanvasRenderingContext2D, el: ContentElement, width: number, height: number, sources: Sources) {
  const p = placement(el, width, height);
  ctx.save();
  ctx.translate(p.cx, p.cy);
  ctx.rotate(p.angle);
  ctx.scale(p.scale, p.scale);
  switch (el.type) {
    case 'emoji':
      ctx.font = `${p.base}px ${emojiFontStack}`;
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      ctx.fillText(el.value, 0, 0);
      break;
    case 'sticker':
    case 'lottie': {
      const img = sources.get(sourceKey(el));
      if (img) ctx.drawImage(img, -p.base / 2, -p.base / 2, p.base, p.base);
      break;
    }
    case 'picture': {
      const img = sources.get(sourceKey(el));
      if (img && img.naturalWidth > 0) {
        const h = (p.base * img.naturalHeight) / img.naturalWidth;
        ctx.drawImage(img, -p.base / 2, -h / 2, p.base, h);
      }
      break;
    }
    case 'text': {
      const { font, color } = textStyleOf(el);
      const face = FONT_FAMILIES[font];
      ctx.font = `${face.weight} ${p.base}px ${face.family}`;
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      const lines = wrapText(el.value, TEXT_MAX_WIDTH * width, (s) => ctx.measureText(s).width);
      const lineHeight = p.base * TEXT_LINE_HEIGHT;
      // Shadows are not transformed with the drawing: scale them by hand, as CSS's em does.
      ctx.shadowColor = textShadowColor(color);
      ctx.shadowBlur = 0.12 * p.base * p.scale;
      ctx.shadowOffsetY = 0.04 * p.base * p.scale;
      ctx.fillStyle = color;
      lines.forEach((line, i) => ctx.fillText(line, 0, (i - (lines.length - 1) / 2) * lineHeight));
      break;
    }
  }
  ctx.restore();
}

// ---- Loading what is drawn ----

function loadImage(src: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.decoding = 'async';
    img.onload = () => resolve(img);
    img.onerror = () => reject(new Error(`overlay: could not load ${src}`));
    img.src = src;
  });
}

async function loadSources(elements: readonly ContentElement[]): Promise<Sources> {
  const sources: Sources = new Map();
  const wanted = new Map<string, () => Promise<HTMLImageElement>>();
  for (const el of elements) {
    if (el.type === 'sticker') wanted.set(sourceKey(el), () => loadImage(stickerUrl(el.value)));
    if (el.type === 'picture') wanted.set(sourceKey(el), () => loadImage(el.value));
    if (el.type === 'lottie') wanted.set(sourceKey(el), () => lottieStill(el.value));
  }
  await Promise.all([...wanted].map(async ([key, load]) => sources.set(key, await load())));
  return sources;
}

/** An animation's still frame as an image: the SVG lottie draws, serialised and decoded. */
async function lottieStill(id: AnimationId): Promise<HTMLImageElement> {
  const [lottie, animationData] = await Promise.all([loadLottie(), loadAnimationData(id)]);
  const box = document.createElement('div');
  box.setAttribute('aria-hidden', 'true');
  box.style.position = 'fixed';
  box.style.left = '-10000px';
  box.style.width = box.style.height = '512px';
  document.body.append(box);
  const anim = lottie.loadAnimation({ container: box, renderer: 'svg', loop: false, autoplay: false, animationData });
  try {
    anim.goToAndStop(stillFrame(anim), true);
    const svg = box.querySelector('svg');
    if (!svg) throw new Error(`overlay: animation ${id} drew nothing`);
    svg.setAttribute('width', '512');
    svg.setAttribute('height', '512');
    svg.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
    const url = URL.createObjectURL(new Blob([new XMLSerializer().serializeToString(svg)], { type: 'image/svg+xml' }));
    try {
      return await loadImage(url);
    } finally {
      URL.revokeObjectURL(url);
    }
  } finally {
    anim.destroy();
    box.remove();
  }
}

async function loadFonts(elements: readonly ContentElement[], width: number): Promise<void> {
  if (typeof document === 'undefined' || !document.fonts) return;
  const faces = new Set<string>();
  for (const el of elements) {
    if (el.type !== 'text') continue;
    const face = FONT_FAMILIES[textStyleOf(el).font];
    faces.add(`${face.weight} ${Math.round(placement(el, width, 1).base)}px ${face.family}`);
  }
  await Promise.all([...faces].map((f) => document.fonts.load(f).catch(() => [])));
}
