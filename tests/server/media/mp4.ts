/**
 * MP4 boxes for generated fixtures: small, made where they are used, no binary files in the
 * repository. Plain Node, no test runner, so the bench's streamed upload builds the same header.
 */

export const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};
export const u16 = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
};
export const box = (type: string, ...payload: Buffer[]) => {
  const body = Buffer.concat(payload);
  return Buffer.concat([u32(body.length + 8), Buffer.from(type, 'latin1'), body]);
};
export const full = (type: string, version: number, flags: number, ...payload: Buffer[]) => box(type, u32((version << 24) | flags), ...payload);
const MATRIX = Buffer.concat([u32(0x10000), u32(0), u32(0), u32(0), u32(0x10000), u32(0), u32(0), u32(0), u32(0x40000000)]);

export interface MovieOptions {
  brand?: string;
  width?: number;
  height?: number;
  fragmented?: boolean;
  /** The track header's (tkhd) length, when it is not the movie header's. */
  trackSeconds?: number;
  /** The media header's (mdhd) length, when it is not the track header's. */
  mediaSeconds?: number;
  /** An edit list (elst) of one edit this long, from the start of the media. */
  editSeconds?: number;
  /** A fragmented file's mehd (the whole length, as its writer says). */
  mehdSeconds?: number;
  /** The trex box's default sample duration, in ms (0 unless given). */
  trexSampleMs?: number;
}

/**
 * What precedes the media data: ftyp (`brand`, 'qt  ' for a MOV) and a moov whose movie header
 * says `seconds` long, with one video track of `width`×`height`. The track's headers say the same
 * unless told otherwise (a hostile file's do not).
 */
export function movieHeader(seconds: number, opts: MovieOptions = {}): { ftyp: Buffer; moov: Buffer } {
  const timescale = 1000;
  // A fragmented MP4 (Safari's MediaRecorder) says 0 here: its length is in its fragments.
  const duration = opts.fragmented ? 0 : Math.round(seconds * timescale);
  const trackDuration = opts.trackSeconds !== undefined ? Math.round(opts.trackSeconds * timescale) : duration;
  const mediaDuration = opts.mediaSeconds !== undefined ? Math.round(opts.mediaSeconds * timescale) : trackDuration;
  const w = opts.width ?? 320;
  const h = opts.height ?? 240;
  const brand = opts.brand ?? 'isom';
  const ftyp = box('ftyp', Buffer.from(brand, 'latin1'), u32(512), Buffer.from(`${brand}iso2mp41`, 'latin1'));
  const mvhd = full('mvhd', 0, 0, u32(0), u32(0), u32(timescale), u32(duration), u32(0x10000), u16(0x100), Buffer.alloc(10), MATRIX, Buffer.alloc(24), u32(2));
  const tkhd = full('tkhd', 0, 3, u32(0), u32(0), u32(1), u32(0), u32(trackDuration), Buffer.alloc(8), u16(0), u16(0), u16(0), u16(0), MATRIX, u32(w << 16), u32(h << 16));
  const mdhd = full('mdhd', 0, 0, u32(0), u32(0), u32(timescale), u32(mediaDuration), u16(0x55c4), u16(0));
  const hdlr = full('hdlr', 0, 0, u32(0), Buffer.from('vide', 'latin1'), Buffer.alloc(12), Buffer.from('VideoHandler\0', 'latin1'));
  const avc1 = box('avc1', Buffer.alloc(6), u16(1), Buffer.alloc(16), u16(w), u16(h), u32(0x480000), u32(0x480000), u32(0), u16(1), Buffer.alloc(32), u16(0x18), u16(0xffff));
  const stbl = box(
    'stbl',
    full('stsd', 0, 0, u32(1), avc1),
    full('stts', 0, 0, u32(0)),
    full('stsc', 0, 0, u32(0)),
    full('stsz', 0, 0, u32(0), u32(0)),
    full('stco', 0, 0, u32(0)),
  );
  const minf = box('minf', full('vmhd', 0, 1, Buffer.alloc(8)), box('dinf', full('dref', 0, 0, u32(1), full('url ', 0, 1))), stbl);
  const mehd = opts.mehdSeconds !== undefined ? [full('mehd', 0, 0, u32(Math.round(opts.mehdSeconds * timescale)))] : [];
  const trex = full('trex', 0, 0, u32(1), u32(1), u32(opts.trexSampleMs ?? 0), u32(0), u32(0));
  const mvex = opts.fragmented ? [box('mvex', ...mehd, trex)] : [];
  // elst v0: one edit of `editSeconds` (movie timescale) playing the media from its start at rate 1.
  const edts = opts.editSeconds !== undefined ? [box('edts', full('elst', 0, 0, u32(1), u32(Math.round(opts.editSeconds * timescale)), u32(0), u16(1), u16(0)))] : [];
  const moov = box('moov', mvhd, box('trak', tkhd, ...edts, box('mdia', mdhd, hdlr, minf)), ...mvex);
  return { ftyp, moov };
}
