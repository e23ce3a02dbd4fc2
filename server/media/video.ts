import { open, type FileHandle } from 'node:fs/promises';
import { createFile, MP4BoxBuffer, type Movie } from 'mp4box';

export interface VideoFacts {
  durationMs: number;
  width: number | null;
  height: number | null;
}

export class VideoUnreadable extends Error {
  constructor(message: string, cause?: unknown) {
    super(message, { cause });
    this.name = 'VideoUnreadable';
  }
}

/** A video's length and frame size, read from its container without decoding a frame. */
export async function probeVideo(file: string, mime: string): Promise<VideoFacts> {
  const fh = await open(file, 'r');
  try {
    const size = (await fh.stat()).size;
    return mime === 'video/webm' ? await probeWebm(new Reader(fh, size)) : await probeMp4(fh, size);
  } finally {
    await fh.close();
  }
}

// ---- MP4 and MOV: mp4box reads the boxes; the media data (mdat) is skipped, not read.

const MP4_CHUNK = 256 * 1024;

async function probeMp4(fh: FileHandle, size: number): Promise<VideoFacts> {
  const mp4 = createFile();
  let movie: Movie | undefined;
  let failed: string | undefined;
  mp4.onReady = (info) => (movie = info);
  mp4.onError = (_module, message) => (failed = message);
  let pos = 0;
  try {
    while (!movie && !failed && pos < size) {
      const len = Math.min(MP4_CHUNK, size - pos);
      const chunk = new ArrayBuffer(len);
      const { bytesRead } = await fh.read(new Uint8Array(chunk), 0, len, pos);
      if (bytesRead === 0) break;
      // mp4box answers where it wants to read next: past a box it skips (mdat), or on.
      const next = mp4.appendBuffer(MP4BoxBuffer.fromArrayBuffer(chunk.slice(0, bytesRead), pos), pos + bytesRead >= size);
      pos = typeof next === 'number' && next > pos ? next : pos + bytesRead;
    }
    mp4.flush();
  } catch (err) {
    throw new VideoUnreadable('the MP4/MOV boxes could not be read', err);
  }
  if (failed || !movie) throw new VideoUnreadable(failed ?? 'no movie header (moov) in the file');
  const track = movie.videoTracks[0];
  if (!track) throw new VideoUnreadable('no video track');
  let durationMs = movie.timescale > 0 ? (movie.duration / movie.timescale) * 1000 : 0;
  if (movie.fragment_duration && movie.fragment_duration.den > 0) {
    durationMs = Math.max(durationMs, (movie.fragment_duration.num / movie.fragment_duration.den) * 1000);
  }
  // Fragments: what mp4box saw is only the part it was given before the header was ready.
  if (movie.isFragmented) durationMs = Math.max(durationMs, await fragmentedDurationMs(fh, size, track.id, track.timescale));
  if (!Number.isFinite(durationMs) || durationMs <= 0) throw new VideoUnreadable('the video has no length');
  return { durationMs: Math.round(durationMs), width: track.video?.width ?? track.track_width ?? null, height: track.video?.height ?? track.track_height ?? null };
}

/**
 * A fragmented MP4 (Safari's MediaRecorder) may say 0 in its movie header: its length is the end of
 * its last fragment (the whole file is walked, box header by box header; the frames are skipped). Walks the top-level boxes; in each moof, the video track's tfdt (where the
 * fragment starts) plus the sample durations of its trun boxes (or tfhd's default duration).
 */
async function fragmentedDurationMs(fh: FileHandle, size: number, trackId: number, timescale: number): Promise<number> {
  if (!(timescale > 0)) return 0;
  let end = 0;
  let pos = 0;
  const header = Buffer.alloc(16);
  while (pos + 8 <= size) {
    await fh.read(header, 0, 16, pos);
    let boxSize = header.readUInt32BE(0);
    const type = header.toString('latin1', 4, 8);
    let headerLen = 8;
    if (boxSize === 1) {
      boxSize = Number(header.readBigUInt64BE(8));
      headerLen = 16;
    } else if (boxSize === 0) boxSize = size - pos;
    if (boxSize < headerLen) break;
    if (type === 'moof' && boxSize <= 16 * 1024 * 1024) {
      const moof = Buffer.alloc(boxSize - headerLen);
      await fh.read(moof, 0, moof.length, pos + headerLen);
      end = Math.max(end, moofEnd(moof, trackId));
    }
    pos += boxSize;
  }
  return (end / timescale) * 1000;
}

function* boxes(buf: Buffer, from = 0, to = buf.length): Generator<{ type: string; start: number; end: number }> {
  let p = from;
  while (p + 8 <= to) {
    const size = buf.readUInt32BE(p);
    if (size < 8 || p + size > to) return;
    yield { type: buf.toString('latin1', p + 4, p + 8), start: p + 8, end: p + size };
    p += size;
  }
}

function moofEnd(moof: Buffer, trackId: number): number {
  let end = 0;
  for (const traf of boxes(moof)) {
    if (traf.type !== 'traf') continue;
    let id = -1;
    let defaultDuration = 0;
    let base = 0;
    let total = 0;
    for (const b of boxes(moof, traf.start, traf.end)) {
      const flags = moof.readUInt32BE(b.start) & 0xffffff;
      const version = moof[b.start]!;
      if (b.type === 'tfhd') {
        id = moof.readUInt32BE(b.start + 4);
        let q = b.start + 8;
        if (flags & 0x1) q += 8;
        if (flags & 0x2) q += 4;
        if (flags & 0x8) defaultDuration = moof.readUInt32BE(q);
      } else if (b.type === 'tfdt') {
        base = version === 1 ? Number(moof.readBigUInt64BE(b.start + 4)) : moof.readUInt32BE(b.start + 4);
      } else if (b.type === 'trun') {
        const count = moof.readUInt32BE(b.start + 4);
        let q = b.start + 8;
        if (flags & 0x1) q += 4;
        if (flags & 0x4) q += 4;
        const per = [0x100, 0x200, 0x400, 0x800].filter((f) => flags & f).length * 4;
        if (!(flags & 0x100)) total += count * defaultDuration;
        else for (let i = 0; i < count && q + 4 <= b.end; i++, q += per) total += moof.readUInt32BE(q);
      }
    }
    if (id === trackId) end = Math.max(end, base + total);
  }
  return end;
}

// ---- WebM (Matroska): an EBML walk over the whole file, reading element headers only.

const ID = {
  segment: 0x18538067,
  info: 0x1549a966,
  timecodeScale: 0x2ad7b1,
  duration: 0x4489,
  tracks: 0x1654ae6b,
  trackEntry: 0xae,
  video: 0xe0,
  pixelWidth: 0xb0,
  pixelHeight: 0xba,
  cluster: 0x1f43b675,
  timecode: 0xe7,
  simpleBlock: 0xa3,
  blockGroup: 0xa0,
  block: 0xa1,
  blockDuration: 0x9b,
};
/** Containers we step into (an unknown size, as a live recording writes, is fine: we read on). */
const ENTER = new Set([ID.segment, ID.info, ID.tracks, ID.trackEntry, ID.video, ID.cluster, ID.blockGroup]);

/** Sequential reads from a file through a small window, so a 100 MB file costs 64 KiB of memory. */
class Reader {
  pos = 0;
  private buf = Buffer.alloc(0);
  private bufStart = 0;
  constructor(
    private readonly fh: FileHandle,
    readonly size: number,
  ) {}

  async bytes(n: number): Promise<Buffer | undefined> {
    if (this.pos + n > this.size) return undefined;
    if (this.pos < this.bufStart || this.pos + n > this.bufStart + this.buf.length) {
      const len = Math.min(Math.max(n, 64 * 1024), this.size - this.pos);
      this.buf = Buffer.alloc(len);
      const { bytesRead } = await this.fh.read(this.buf, 0, len, this.pos);
      this.buf = this.buf.subarray(0, bytesRead);
      this.bufStart = this.pos;
      if (bytesRead < n) return undefined;
    }
    const out = this.buf.subarray(this.pos - this.bufStart, this.pos - this.bufStart + n);
    this.pos += n;
    return out;
  }

  /** An EBML variable-length integer: an element id (marker kept) or a size (marker removed; -1 unknown). */
  async vint(kind: 'id' | 'size'): Promise<number | undefined> {
    const first = await this.bytes(1);
    if (!first) return undefined;
    const b = first[0]!;
    let len = 1;
    while (len <= 8 && !(b & (0x80 >> (len - 1)))) len++;
    if (len > (kind === 'id' ? 4 : 8)) throw new VideoUnreadable('bad EBML number');
    const rest = len > 1 ? await this.bytes(len - 1) : Buffer.alloc(0);
    if (!rest) return undefined;
    let value = kind === 'id' ? b : b & (0xff >> len);
    let allOnes = value === (0xff >> len);
    for (const x of rest) {
      value = value * 256 + x;
      if (x !== 0xff) allOnes = false;
    }
    return kind === 'size' && allOnes ? -1 : value;
  }
}

const uint = (b: Buffer) => b.reduce((v, x) => v * 256 + x, 0);

async function probeWebm(r: Reader): Promise<VideoFacts> {
  let scaleNs = 1_000_000;
  let declaredMs = 0;
  let cluster = 0;
  let lastEnd = -1;
  let width: number | null = null;
  let height: number | null = null;
  let blocks = 0;
  // The EBML header must come first.
  const headerId = await r.vint('id');
  if (headerId !== 0x1a45dfa3) throw new VideoUnreadable('not an EBML file');
  const headerSize = await r.vint('size');
  if (headerSize === undefined || headerSize < 0) throw new VideoUnreadable('bad EBML header');
  r.pos += headerSize;

  while (r.pos < r.size) {
    const id = await r.vint('id');
    const size = await r.vint('size');
    if (id === undefined || size === undefined) break;
    if (ENTER.has(id)) continue;
    if (size < 0) throw new VideoUnreadable('an element of unknown size that is not a container');
    const start = r.pos;
    if (id === ID.timecodeScale || id === ID.timecode || id === ID.pixelWidth || id === ID.pixelHeight) {
      const b = await r.bytes(size);
      if (!b) break;
      const v = uint(b);
      if (id === ID.timecodeScale && v > 0) scaleNs = v;
      else if (id === ID.timecode) cluster = v;
      else if (id === ID.pixelWidth && width === null) width = v;
      else if (id === ID.pixelHeight && height === null) height = v;
    } else if (id === ID.duration) {
      const b = await r.bytes(size);
      if (!b) break;
      const units = size === 4 ? b.readFloatBE(0) : size === 8 ? b.readDoubleBE(0) : 0;
      declaredMs = Number.isFinite(units) ? (units * scaleNs) / 1e6 : 0;
    } else if (id === ID.simpleBlock || id === ID.block) {
      // track number (a vint), then the time relative to the cluster (int16), flags, frame data.
      const track = await r.vint('size');
      const b = await r.bytes(2);
      if (track === undefined || !b) break;
      blocks++;
      lastEnd = Math.max(lastEnd, cluster + b.readInt16BE(0));
    }
    r.pos = start + size;
  }
  if (blocks === 0) throw new VideoUnreadable('no frames in the WebM file');
  const measuredMs = (lastEnd * scaleNs) / 1e6;
  return { durationMs: Math.round(Math.max(measuredMs, declaredMs)), width, height };
}
