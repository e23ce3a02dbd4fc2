import { readFile } from 'node:fs/promises';
import sharp, { type Sharp } from 'sharp';
import decodeHeic from 'heic-decode';

/** The longest side of a stored photo: sharp on a phone screen, a fraction of a camera's original. */
export const PHOTO_MAX_SIDE = 2048;
/** The longest side of a thumbnail or poster (lists, link previews). */
export const THUMBNAIL_MAX_SIDE = 480;
/** Decompression bombs: a small file that claims a giant canvas is refused before decoding. */
const MAX_INPUT_PIXELS = 100_000_000;

// One request's image at a time per core is plenty; libvips' operation cache only costs memory here.
sharp.cache(false);

export interface Encoded {
  path: string;
  contentType: 'image/jpeg' | 'image/webp' | 'image/png';
  ext: 'jpg' | 'webp' | 'png';
  size: number;
  width: number;
  height: number;
}

export class ImageUnreadable extends Error {
  constructor(
    readonly reason: 'unreadable' | 'too-many-pixels',
    cause?: unknown,
  ) {
    super(reason, { cause });
    this.name = 'ImageUnreadable';
  }
}

/**
 * The decoder for a file: sharp itself, except HEIC, which sharp's prebuilt libvips cannot decode
 * (its libheif has only AV1): libheif compiled to WebAssembly (heic-decode) gives the pixels, with
 * the file's rotation and mirroring already applied, and sharp takes them from there.
 */
async function open(file: string, mime: string): Promise<Sharp> {
  if (mime === 'image/heic') {
    const buffer = await readFile(file);
    let decoded: { width: number; height: number; data: Uint8ClampedArray };
    try {
      decoded = await decodeHeic({ buffer });
    } catch (err) {
      throw new ImageUnreadable('unreadable', err);
    }
    if (decoded.width * decoded.height > MAX_INPUT_PIXELS) throw new ImageUnreadable('too-many-pixels');
    return sharp(Buffer.from(decoded.data.buffer, decoded.data.byteOffset, decoded.data.byteLength), {
      raw: { width: decoded.width, height: decoded.height, channels: 4 },
    });
  }
  // failOn 'warning': a truncated or damaged file is refused, not stored half grey.
  return sharp(file, { failOn: 'warning', limitInputPixels: MAX_INPUT_PIXELS, sequentialRead: true });
}

function toImageError(err: unknown): never {
  if (err instanceof ImageUnreadable) throw err;
  const text = err instanceof Error ? err.message : '';
  throw new ImageUnreadable(/pixel limit/i.test(text) ? 'too-many-pixels' : 'unreadable', err);
}

/**
 * Re-encodes a photo: turned upright from its EXIF orientation (`rotate()` first, while the
 * orientation is still known), at most `maxSide` pixels on the longest side, in sRGB, with no
 * metadata at all (sharp writes none unless told to: EXIF with GPS, XMP, maker notes are gone).
 * JPEG, or WebP when the image has transparency (a PNG or WebP with alpha).
 */
export async function encodePhoto(file: string, mime: string, out: string, maxSide = PHOTO_MAX_SIDE): Promise<Encoded> {
  try {
    const img = await open(file, mime);
    const meta = await img.metadata();
    // Camera HEICs are opaque (their decoded pixels carry an alpha channel all the same).
    const alpha = mime !== 'image/heic' && meta.hasAlpha === true;
    const pipeline = img
      .rotate()
      .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true })
      .toColourspace('srgb');
    const info = alpha
      ? await pipeline.webp({ quality: 82, alphaQuality: 90 }).toFile(out)
      : await pipeline.flatten({ background: '#ffffff' }).jpeg({ quality: 82, progressive: true, mozjpeg: false }).toFile(out);
    return alpha
      ? { path: out, contentType: 'image/webp', ext: 'webp', size: info.size, width: info.width, height: info.height }
      : { path: out, contentType: 'image/jpeg', ext: 'jpg', size: info.size, width: info.width, height: info.height };
  } catch (err) {
    toImageError(err);
  }
}

/**
 * An overlay (the content flattened to one image): kept as PNG or WebP with its transparency, its
 * size as sent (it was drawn for this media frame), metadata dropped by re-encoding.
 */
export async function encodeOverlay(file: string, mime: string, out: string): Promise<Encoded> {
  try {
    const img = sharp(file, { failOn: 'warning', limitInputPixels: 40_000_000 });
    const pipeline = img.resize({ width: 4096, height: 4096, fit: 'inside', withoutEnlargement: true });
    const info = mime === 'image/png' ? await pipeline.png({ compressionLevel: 8 }).toFile(out) : await pipeline.webp({ quality: 90, alphaQuality: 100 }).toFile(out);
    return mime === 'image/png'
      ? { path: out, contentType: 'image/png', ext: 'png', size: info.size, width: info.width, height: info.height }
      : { path: out, contentType: 'image/webp', ext: 'webp', size: info.size, width: info.width, height: info.height };
  } catch (err) {
    toImageError(err);
  }
}

/**
 * A video's stand-in poster when the client sent none: the app's pink with a play sign, at the
 * video's shape. (No frame can be taken on the server without an ffmpeg binary; see decision 070.)
 */
export async function placeholderPoster(out: string, width: number | null, height: number | null): Promise<Encoded> {
  // The video's shape (16:9 when unknown), its aspect kept within 1:4..4:1, longest side 480.
  const aspect = Math.min(4, Math.max(0.25, width && height ? width / height : 16 / 9));
  const w = Math.round(aspect >= 1 ? THUMBNAIL_MAX_SIDE : THUMBNAIL_MAX_SIDE * aspect);
  const h = Math.round(aspect >= 1 ? THUMBNAIL_MAX_SIDE / aspect : THUMBNAIL_MAX_SIDE);
  const r = Math.round(Math.min(w, h) / 6);
  const cx = w / 2;
  const cy = h / 2;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><rect width="100%" height="100%" fill="#ED5AA4"/><circle cx="${cx}" cy="${cy}" r="${r}" fill="#ffffff" fill-opacity="0.9"/><path d="M ${cx - r * 0.35} ${cy - r * 0.5} L ${cx + r * 0.55} ${cy} L ${cx - r * 0.35} ${cy + r * 0.5} Z" fill="#ED5AA4"/></svg>`;
  const info = await sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toFile(out);
  return { path: out, contentType: 'image/jpeg', ext: 'jpg', size: info.size, width: info.width, height: info.height };
}
