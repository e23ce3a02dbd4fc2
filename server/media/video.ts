import { open, type FileHandle } from 'node:fs/promises';
import { createFile, MP4BoxBuffer, type Movie } from 'mp4box';

export interface VideoFacts {
  /** The longest the file says or runs (the longest track, fragments included), in ms. */
  durationMs: number;
  width: number | null;
  height: number | null;
  /** Set when the file's own figures for its length disagree (rules.ts refuses such a file). */
  disagreement?: string;
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
/** A movie fragment's boxes (not its frames) larger than this is not a recording's: refused. */
const MOOF_MAX_BYTES = 16 * 1024 * 1024;

/**
 * Lengths that may differ this much and still be one video: rounding between timescales, an audio
 * track a few frames longer, encoder priming. Beyond it, the file's own figures disagree.
 */
export const DURATION_TOLERANCE_MS = 1000;

/** The file's figures for its length disagree: a player could play longer than it says. */
export class VideoLengthMismatch extends Error {
  constructor(
    message: string,
    readonly durationMs: number,
  ) {
    super(message);
    this.name = 'VideoLengthMismatch';
  }
}

interface TrackLengths {
  id: number;
  /** tkhd, in the movie's timescale (0: not given, as in a fragmented file). */
  tkhdMs: number;
  /** mdhd, in the track's timescale. */
  mdhdMs: number;
  /** The sample table's durations (stts), when it has samples. */
  samplesMs: number | undefined;
  /** The end of the track's last fragment (moof/traf/trun with tfhd or trex defaults), if any. */
  fragmentsMs: number | undefined;
  /** The edit list's length (elst), when it has one that says it. */
  editsMs: number | undefined;
  /** What a player plays of it: the edits when there are, else the media, fragments included. */
  playedMs: number;
}

const ms = (ticks: number, timescale: number) => (timescale > 0 ? (ticks / timescale) * 1000 : 0);
const apart = (a: number, b: number) => Math.abs(a - b) > DURATION_TOLERANCE_MS;

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
  const video = movie.videoTracks[0];
  if (!video) throw new VideoUnreadable('no video track');

  // Fragments: mp4box saw only what it was given before the header was ready; every moof is read here.
  const trexDurations = new Map<number, number>();
  for (const trex of mp4.moov?.mvex?.trexs ?? []) trexDurations.set(trex.track_id, trex.default_sample_duration);
  // The samples in the moov itself (stts), read from the box: mp4box's own total may already hold fragments.
  const moovTicks = new Map<number, number>();
  for (const trak of mp4.moov?.traks ?? []) {
    const stts = trak.mdia?.minf?.stbl?.stts;
    let ticks = 0;
    stts?.sample_counts.forEach((count, i) => (ticks += count * (stts.sample_deltas[i] ?? 0)));
    if (trak.tkhd) moovTicks.set(trak.tkhd.track_id, ticks);
  }
  const fragmentEnds = movie.isFragmented ? await readFragmentEnds(fh, size, trexDurations, moovTicks) : new Map<number, number>();

  const tracks: TrackLengths[] = movie.tracks.map((t) => {
    const mdhdMs = ms(t.duration, t.timescale);
    const moovSamples = moovTicks.get(t.id) ?? 0;
    const samplesMs = moovSamples > 0 ? ms(moovSamples, t.timescale) : undefined;
    const fragEnd = fragmentEnds.get(t.id);
    const fragmentsMs = fragEnd === undefined ? undefined : ms(fragEnd, t.timescale);
    const mediaMs = Math.max(mdhdMs, samplesMs ?? 0, fragmentsMs ?? 0);
    const edits = t.edits ?? [];
    // An edit of length 0 (a fragmented file's "to the end of the media") leaves the length to the media.
    const editsMs = edits.length > 0 && edits.every((e) => e.segment_duration > 0) ? ms(edits.reduce((sum, e) => sum + e.segment_duration, 0), movie!.timescale) : undefined;
    return { id: t.id, tkhdMs: ms(t.movie_duration, movie!.timescale), mdhdMs, samplesMs, fragmentsMs, editsMs, playedMs: editsMs ?? mediaMs };
  });
  const mvhdMs = ms(movie.duration, movie.timescale);
  // mehd from its box: mp4box's fragment_duration, without one, is what it has parsed so far.
  const mehd = mp4.moov?.mvex?.mehd;
  const mehdMs = mehd ? ms(mehd.fragment_duration, movie.timescale) : 0;
  const playedMs = Math.max(0, ...tracks.map((t) => t.playedMs));
  // The longest figure anywhere counts: a player may believe any of them.
  const durationMs = Math.max(playedMs, mvhdMs, mehdMs, ...tracks.map((t) => t.tkhdMs));
  if (!Number.isFinite(durationMs) || durationMs <= 0) throw new VideoUnreadable('the video has no length');
  const facts = { durationMs: Math.round(durationMs), width: video.video?.width ?? video.track_width ?? null, height: video.video?.height ?? video.track_height ?? null };
  const disagreement = mp4Disagreement(movie.isFragmented, mvhdMs, mehdMs, playedMs, tracks);
  return disagreement ? { ...facts, disagreement } : facts;
}

/**
 * Where a file's own figures for its length disagree beyond the tolerance, or undefined. 0 means
 * "not given" (a fragmented file's movie and track headers); in a fragmented file the movie and
 * track headers may cover less than the fragments (only the samples in the moov), never more.
 */
function mp4Disagreement(fragmented: boolean, mvhdMs: number, mehdMs: number, playedMs: number, tracks: TrackLengths[]): string | undefined {
  const s = (n: number) => `${(n / 1000).toFixed(2)} s`;
  const differs = (declared: number, measured: number) => declared > 0 && (fragmented ? declared > measured + DURATION_TOLERANCE_MS : apart(declared, measured));
  if (differs(mvhdMs, playedMs)) return `the movie header says ${s(mvhdMs)}, the tracks run ${s(playedMs)}`;
  if (mehdMs > 0 && apart(mehdMs, playedMs)) return `the fragment header (mehd) says ${s(mehdMs)}, the fragments run ${s(playedMs)}`;
  for (const t of tracks) {
    if (differs(t.tkhdMs, t.playedMs)) return `track ${t.id}: its header says ${s(t.tkhdMs)}, it plays ${s(t.playedMs)}`;
    if (t.editsMs === undefined && t.samplesMs !== undefined && !fragmented && apart(t.mdhdMs, t.samplesMs)) {
      return `track ${t.id}: its media header says ${s(t.mdhdMs)}, its samples run ${s(t.samplesMs)}`;
    }
  }
  return undefined;
}

/**
 * A fragmented MP4 (Safari's and Chrome's MediaRecorder) may say 0 in its movie header: its
 * length is the end of its last fragment. The whole file is walked, box header by box header (the
 * frames are skipped); in each moof, per track: tfdt (where the fragment starts; without one, where
 * the track's previous fragment ended) plus the sample durations of its trun boxes, each from the
 * trun, else tfhd's default, else the moov's trex default. Answers each track's end, in its ticks.
 */
async function readFragmentEnds(fh: FileHandle, size: number, trexDurations: Map<number, number>, moovTicks: Map<number, number>): Promise<Map<number, number>> {
  const ends = new Map<number, number>(moovTicks);
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
    if (type === 'moof') {
      if (boxSize > MOOF_MAX_BYTES) throw new VideoUnreadable(`a movie fragment of ${boxSize} bytes`);
      const moof = Buffer.alloc(boxSize - headerLen);
      await fh.read(moof, 0, moof.length, pos + headerLen);
      readMoof(moof, trexDurations, ends);
    }
    pos += boxSize;
  }
  return ends;
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

/** Adds one moof's track fragments to `ends` (track id → end in the track's ticks). */
function readMoof(moof: Buffer, trexDurations: Map<number, number>, ends: Map<number, number>): void {
  for (const traf of boxes(moof)) {
    if (traf.type !== 'traf') continue;
    let id = -1;
    let defaultDuration: number | undefined;
    let base: number | undefined;
    let total = 0;
    for (const b of boxes(moof, traf.start, traf.end)) {
      if (b.end - b.start < 8) continue;
      const flags = moof.readUInt32BE(b.start) & 0xffffff;
      const version = moof[b.start]!;
      if (b.type === 'tfhd') {
        id = moof.readUInt32BE(b.start + 4);
        let q = b.start + 8;
        if (flags & 0x1) q += 8;
        if (flags & 0x2) q += 4;
        if (flags & 0x8 && q + 4 <= b.end) defaultDuration = moof.readUInt32BE(q);
      } else if (b.type === 'tfdt') {
        if (b.start + 4 + (version === 1 ? 8 : 4) <= b.end) base = version === 1 ? Number(moof.readBigUInt64BE(b.start + 4)) : moof.readUInt32BE(b.start + 4);
      } else if (b.type === 'trun') {
        const count = moof.readUInt32BE(b.start + 4);
        let q = b.start + 8;
        if (flags & 0x1) q += 4;
        if (flags & 0x4) q += 4;
        const per = [0x100, 0x200, 0x400, 0x800].filter((f) => flags & f).length * 4;
        if (!(flags & 0x100)) total += count * (defaultDuration ?? trexDurations.get(id) ?? 0);
        else for (let i = 0; i < count && q + 4 <= b.end; i++, q += per) total += moof.readUInt32BE(q);
      }
    }
    if (id < 0) continue;
    const start = base ?? ends.get(id) ?? 0;
    ends.set(id, Math.max(ends.get(id) ?? 0, start + total));
  }
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
  const facts = { durationMs: Math.round(Math.max(measuredMs, declaredMs)), width, height };
  // As for MP4: a declared Duration (a recorder's WebM has none) must tell the blocks' length.
  if (declaredMs > 0 && apart(declaredMs, measuredMs)) {
    return { ...facts, disagreement: `the header says ${(declaredMs / 1000).toFixed(2)} s, the blocks run ${(measuredMs / 1000).toFixed(2)} s` };
  }
  return facts;
}
