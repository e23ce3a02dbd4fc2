import { open as openFile } from 'node:fs/promises';
import sharp, { type Sharp } from 'sharp';
import { imageSize } from 'image-size';
import Tinypool from 'tinypool';

/** The longest side of a stored photo: sharp on a phone screen, a fraction of a camera's original. */
export const PHOTO_MAX_SIDE = 2048;
/** The longest side of a thumbnail or poster (lists, link previews). */
export const THUMBNAIL_MAX_SIDE = 480;
/** Decompression bombs: a small file that claims a giant canvas is refused before decoding. */
export const MAX_INPUT_PIXELS = 100_000_000;
/** An overlay is drawn for the media frame: far fewer pixels than a camera's photo. */
const OVERLAY_MAX_PIXELS = 40_000_000;
/** Photos decoded at once in this process, unless configureDecoding says otherwise (MEDIA_DECODE_CONCURRENCY). */
export const DEFAULT_DECODE_CONCURRENCY = 2;
/** A HEIC decode that has not finished by then is ended (its worker terminated). */
const HEIC_DECODE_TIMEOUT_MS = 60_000;
/**
 * The HEIC worker's limits (decision 072): its JavaScript heap (resourceLimits), and libheif's
 * WebAssembly memory: a base for the decoder itself plus bytes per pixel the container declared
 * (the coded planes, libheif's copy and the RGBA conversion: about 7).
 */
const HEIC_WORKER_HEAP_MB = 64;
const HEIC_WASM_BASE_BYTES = 64 * 1024 * 1024;
const HEIC_WASM_BYTES_PER_PIXEL = 8;
/** image-size reads the header from the start of a file; 512 KiB covers large EXIF and ICC segments. */
const HEAD_BYTES = 512 * 1024;

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
 * Decodes started (sharp or the HEIC worker). A file refused from its declared size never adds to
 * it: the tests read it to show that such a file was not decoded.
 */
export const decodeStats = { started: 0, heic: 0, /** the most decodes that ran at once */ peakAtOnce: 0 };

// ---- At most `concurrency` photos are decoded at once; the others wait their turn.

let concurrency = DEFAULT_DECODE_CONCURRENCY;
let running = 0;
const waiting: (() => void)[] = [];
let heicPool: Tinypool | undefined;

async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (running >= concurrency) await new Promise<void>((resolve) => waiting.push(resolve));
  else running++;
  decodeStats.peakAtOnce = Math.max(decodeStats.peakAtOnce, running);
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

/** Sets how many photos are decoded at once (MEDIA_DECODE_CONCURRENCY); from the media routes at start. */
export function configureDecoding(opts: { concurrency: number }): void {
  const next = Math.max(1, Math.floor(opts.concurrency));
  if (next === concurrency) return;
  concurrency = next;
  // A pool of the old size is ended once its decodes are done; the next HEIC makes a new one.
  if (heicPool) void heicPool.destroy();
  heicPool = undefined;
}

/** Ends the HEIC workers (the app's close). */
export async function closeDecoding(): Promise<void> {
  const pool = heicPool;
  heicPool = undefined;
  await pool?.destroy();
}

/**
 * HEIC decodes run in worker threads (tinypool): libheif is WebAssembly, and a decode holds the
 * thread it runs on for seconds. Each decode gets a fresh worker, ended after it (isolateWorkers),
 * so the memory it grew goes back to the system at once.
 */
function pool(): Tinypool {
  heicPool ??= new Tinypool({
    filename: new URL('./heic-worker.mjs', import.meta.url).href,
    isolateWorkers: true,
    // One worker waits with libheif loaded (about a second of start-up on a busy machine), from the
    // first HEIC on: a process that never sees one never starts it.
    minThreads: 1,
    maxThreads: concurrency,
    resourceLimits: { maxOldGenerationSizeMb: HEIC_WORKER_HEAP_MB, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
  });
  return heicPool;
}

type HeicAnswer = { ok: true; width: number; height: number; data: Uint8ClampedArray } | { ok: false; reason: 'unreadable' | 'too-many-pixels'; message: string };

async function decodeHeicInWorker(file: string, declaredPixels: number, maxPixels: number): Promise<{ width: number; height: number; data: Uint8ClampedArray }> {
  decodeStats.heic++;
  let answer: HeicAnswer;
  try {
    answer = (await pool().run(
      { file, maxPixels, wasmLimitBytes: HEIC_WASM_BASE_BYTES + declaredPixels * HEIC_WASM_BYTES_PER_PIXEL },
      { signal: AbortSignal.timeout(HEIC_DECODE_TIMEOUT_MS) },
    )) as HeicAnswer;
  } catch (err) {
    // The worker ran out of its heap, was ended by the timeout, or failed to start.
    throw new ImageUnreadable('unreadable', err);
  }
  if (!answer.ok) throw new ImageUnreadable(answer.reason, new Error(answer.message));
  return answer;
}

// ---- The size a file declares, read from its container before anything is decoded.

export interface Declared {
  width: number;
  height: number;
}

/**
 * The largest picture a file's container declares, without decoding it (image-size): HEIC's
 * `ispe` properties (every one: a grid and its tiles), PNG's IHDR, JPEG's SOF, WebP's VP8, VP8L
 * or VP8X header. When image-size finds none in a JPEG, PNG or WebP, libvips' own header reading
 * (sharp's metadata, no pixels) answers; a HEIC without one is unreadable (ispe is mandatory).
 */
export async function declaredSize(file: string, mime: string): Promise<Declared> {
  const read = async (whole: boolean) => {
    const fh = await openFile(file, 'r');
    try {
      const size = (await fh.stat()).size;
      const len = whole ? size : Math.min(size, HEAD_BYTES);
      const buf = Buffer.alloc(len);
      await fh.read(buf, 0, len, 0);
      return { buf, complete: len === size };
    } finally {
      await fh.close();
    }
  };
  const sizesIn = (buf: Buffer): Declared[] => {
    const found = imageSize(buf);
    return found.images?.length ? found.images : [{ width: found.width, height: found.height }];
  };
  let sizes: Declared[];
  try {
    let head = await read(false);
    // A HEIC's meta box (with its ispe) may come after its image data, or run past the head:
    // then the whole file (≤ 15 MB).
    if (mime === 'image/heic' && !head.complete && metaEnd(head.buf) > head.buf.length) head = await read(true);
    sizes = sizesIn(head.buf);
  } catch (err) {
    if (mime === 'image/heic') throw new ImageUnreadable('unreadable', err);
    const meta = await sharp(file).metadata().catch((e: unknown) => {
      throw new ImageUnreadable('unreadable', e);
    });
    sizes = [{ width: meta.width ?? 0, height: meta.height ?? 0 }];
  }
  let largest: Declared = { width: 0, height: 0 };
  for (const s of sizes) {
    if (!(s.width > 0 && s.height > 0)) throw new ImageUnreadable('unreadable');
    if (s.width * s.height > largest.width * largest.height) largest = s;
  }
  return largest;
}

/** Where a HEIF file's top-level meta box ends (Infinity when it is not within `buf`). */
function metaEnd(buf: Buffer): number {
  let p = 0;
  while (p + 8 <= buf.length) {
    const size = buf.readUInt32BE(p);
    if (buf.toString('latin1', p + 4, p + 8) === 'meta') return p + size;
    if (size < 8) return Infinity;
    p += size;
  }
  return Infinity;
}

/** Refuses a file whose container declares more than `maxPixels`, before any decoding. */
async function checkDeclared(file: string, mime: string, maxPixels: number): Promise<Declared> {
  const declared = await declaredSize(file, mime);
  if (declared.width * declared.height > maxPixels) throw new ImageUnreadable('too-many-pixels');
  return declared;
}

/**
 * The decoder for a file: sharp itself, except HEIC, which sharp's prebuilt libvips cannot decode
 * (its libheif has only AV1): libheif compiled to WebAssembly (heic-decode) gives the pixels, with
 * the file's rotation and mirroring already applied, in a worker (above), and sharp takes them
 * from there. sharp's own pixel limit stays as a second fence behind the declared size.
 */
async function open(file: string, mime: string, declared: Declared, maxPixels: number): Promise<Sharp> {
  decodeStats.started++;
  if (mime === 'image/heic') {
    const decoded = await decodeHeicInWorker(file, declared.width * declared.height, maxPixels);
    return sharp(Buffer.from(decoded.data.buffer, decoded.data.byteOffset, decoded.data.byteLength), {
      raw: { width: decoded.width, height: decoded.height, channels: 4 },
    });
  }
  // failOn 'warning': a truncated or damaged file is refused, not stored half grey.
  return sharp(file, { failOn: 'warning', limitInputPixels: maxPixels, sequentialRead: true });
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
    const declared = await checkDeclared(file, mime, MAX_INPUT_PIXELS);
    return await inTurn(() => encodeDecoded(file, mime, out, maxSide, declared));
  } catch (err) {
    toImageError(err);
  }
}

async function encodeDecoded(file: string, mime: string, out: string, maxSide: number, declared: Declared): Promise<Encoded> {
  const img = await open(file, mime, declared, MAX_INPUT_PIXELS);
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
}

/**
 * An overlay (the content flattened to one image): kept as PNG or WebP with its transparency, its
 * size as sent (it was drawn for this media frame), metadata dropped by re-encoding.
 */
export async function encodeOverlay(file: string, mime: string, out: string): Promise<Encoded> {
  try {
    const declared = await checkDeclared(file, mime, OVERLAY_MAX_PIXELS);
    return await inTurn(() => encodeOverlayDecoded(file, mime, out, declared));
  } catch (err) {
    toImageError(err);
  }
}

async function encodeOverlayDecoded(file: string, mime: string, out: string, declared: Declared): Promise<Encoded> {
  const img = await open(file, mime, declared, OVERLAY_MAX_PIXELS);
  const pipeline = img.resize({ width: 4096, height: 4096, fit: 'inside', withoutEnlargement: true });
  const info = mime === 'image/png' ? await pipeline.png({ compressionLevel: 8 }).toFile(out) : await pipeline.webp({ quality: 90, alphaQuality: 100 }).toFile(out);
  return mime === 'image/png'
    ? { path: out, contentType: 'image/png', ext: 'png', size: info.size, width: info.width, height: info.height }
    : { path: out, contentType: 'image/webp', ext: 'webp', size: info.size, width: info.width, height: info.height };
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
