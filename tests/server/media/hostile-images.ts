/**
 * Pictures whose container declares a giant canvas, a few hundred bytes each, built where they
 * are used (tests/server/media/hostile.test.ts, tests/reliability/media-bombs.test.ts). Plain Node,
 * no test runner.
 */
import { randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { box, full, u16, u32 } from './mp4.ts';

/** A HEIC's boxes declaring one `width`×`height` image (ispe), with a few hundred bytes of "data". */
export function heicDeclaring(width: number, height: number, opts: { dataFirst?: number } = {}): Buffer {
  const ftyp = box('ftyp', Buffer.from('heic'), u32(0), Buffer.from('mif1heic'));
  const hdlr = full('hdlr', 0, 0, u32(0), Buffer.from('pict'), Buffer.alloc(12), Buffer.from('\0'));
  const pitm = full('pitm', 0, 0, u16(1));
  const iinf = full('iinf', 0, 0, u16(1), full('infe', 2, 0, u16(1), u16(0), Buffer.from('hvc1'), Buffer.from('\0')));
  const ipco = box('ipco', full('ispe', 0, 0, u32(width), u32(height)));
  const ipma = full('ipma', 0, 0, u32(1), u16(1), Buffer.from([1, 0x81]));
  const meta = full('meta', 0, 0, hdlr, pitm, iinf, box('iprp', ipco, ipma));
  // A writer may put the image data (mdat) before the meta box: `dataFirst` bytes of it.
  if (opts.dataFirst) return Buffer.concat([ftyp, box('mdat', Buffer.alloc(opts.dataFirst)), meta]);
  return Buffer.concat([ftyp, meta, box('mdat', randomBytes(200))]);
}

const pngChunk = (type: string, data: Buffer) => {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  return Buffer.concat([u32(data.length), body, u32(crc32(body))]);
};
/** A PNG whose IHDR says `width`×`height` (RGBA, 8 bits), followed by a scrap of data. */
export function pngDeclaring(width: number, height: number): Buffer {
  const ihdr = Buffer.concat([u32(width), u32(height), Buffer.from([8, 6, 0, 0, 0])]);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), pngChunk('IHDR', ihdr), pngChunk('IDAT', randomBytes(100)), pngChunk('IEND', Buffer.alloc(0))]);
}

/** A baseline JPEG whose SOF0 says `width`×`height` (three components), then a scrap of scan. */
export function jpegDeclaring(width: number, height: number): Buffer {
  const app0 = Buffer.concat([Buffer.from([0xff, 0xe0]), u16(16), Buffer.from('JFIF\0', 'latin1'), Buffer.from([1, 1, 0]), u16(1), u16(1), Buffer.from([0, 0])]);
  const sof0 = Buffer.concat([Buffer.from([0xff, 0xc0]), u16(17), Buffer.from([8]), u16(height), u16(width), Buffer.from([3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1])]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof0, Buffer.from([0xff, 0xda]), u16(12), Buffer.from([3, 1, 0, 2, 0x11, 3, 0x11, 0, 0x3f, 0]), randomBytes(100), Buffer.from([0xff, 0xd9])]);
}

const riff = (chunk: string, data: Buffer) => {
  const size = Buffer.alloc(4);
  size.writeUInt32LE(data.length);
  const body = Buffer.concat([Buffer.from('WEBP'), Buffer.from(chunk, 'latin1'), size, data]);
  const riffSize = Buffer.alloc(4);
  riffSize.writeUInt32LE(body.length);
  return Buffer.concat([Buffer.from('RIFF'), riffSize, body]);
};
const u24le = (n: number) => Buffer.from([n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff]);
/** WebP, extended (VP8X): the canvas `width`×`height`. */
export const webpVp8x = (width: number, height: number) => riff('VP8X', Buffer.concat([Buffer.from([0, 0, 0, 0]), u24le(width - 1), u24le(height - 1)]));
/** WebP, lossless (VP8L): 14 bits each for width−1 and height−1. */
export function webpVp8l(width: number, height: number): Buffer {
  const bits = Buffer.alloc(4);
  bits.writeUInt32LE(((width - 1) | ((height - 1) << 14)) >>> 0);
  return riff('VP8L', Buffer.concat([Buffer.from([0x2f]), bits, randomBytes(60)]));
}
/** WebP, lossy (VP8): a key frame's tag, start code, then 14 bits each for width and height. */
export function webpVp8(width: number, height: number): Buffer {
  const dims = Buffer.alloc(4);
  dims.writeUInt16LE(width & 0x3fff, 0);
  dims.writeUInt16LE(height & 0x3fff, 2);
  return riff('VP8 ', Buffer.concat([Buffer.from([0x50, 0x02, 0x00, 0x9d, 0x01, 0x2a]), dims, randomBytes(60)]));
}
