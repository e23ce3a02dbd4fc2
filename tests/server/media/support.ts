import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { createTestApp } from '../helpers.ts';
import { TestClock, freshNumber, signIn } from '../auth/support.ts';
import { box, full, movieHeader, u16, u32, type MovieOptions } from './mp4.ts';

/** A signed-in person and the Authorization header to send. */
export interface Person {
  mobileNumber: string;
  auth: { authorization: string };
}

export async function person(app: FastifyInstance): Promise<Person> {
  const mobileNumber = freshNumber();
  const s = await signIn(app, mobileNumber);
  return { mobileNumber, auth: { authorization: `Bearer ${s.token}` } };
}

/** The real app with its own DATA_DIR (so its media folder is the test's) and a clock. */
export async function mediaTestApp(env: Record<string, string> = {}) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'greetie-media-test-'));
  const clock = new TestClock();
  const t = await createTestApp({ env: { DATA_DIR: dataDir, ...env }, services: { now: clock.now } });
  return {
    ...t,
    clock,
    dataDir,
    close: async () => {
      await t.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function draftOf(app: FastifyInstance, who: Person): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/greetie', headers: who.auth, payload: {} });
  if (res.statusCode !== 200) throw new Error(`POST /api/greetie answered ${res.statusCode}: ${res.body}`);
  return (res.json() as { id: string }).id;
}

export interface Part {
  name: string;
  data: Buffer;
  /** The name the browser says; never believed. */
  filename?: string;
  /** The type the browser says; never believed. */
  contentType?: string;
}

/** A multipart/form-data body, as a browser's FormData makes it. */
export function multipart(parts: Part[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----greetie${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = p.filename !== undefined ? `form-data; name="${p.name}"; filename="${p.filename}"` : `form-data; name="${p.name}"`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\nContent-Type: ${p.contentType ?? 'application/octet-stream'}\r\n\r\n`));
    chunks.push(p.data, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export function upload(app: FastifyInstance, who: Person | undefined, url: string, parts: Part[]) {
  const body = multipart(parts);
  return app.inject({ method: 'POST', url, headers: { ...(who?.auth ?? {}), ...body.headers }, payload: body.payload });
}

// ---- Generated fixtures: small, made in the test, no binary files in the repository.

/**
 * An MP4 (or MOV with `brand` 'qt  ') whose movie header says `seconds` long, with one video
 * track of `width`×`height`: the boxes a real file has, around a few bytes of "media data".
 */
export function mp4(seconds: number, opts: MovieOptions & { padTo?: number; moovLast?: boolean; trexSamples?: number } = {}): Buffer {
  const { ftyp, moov } = movieHeader(seconds, opts);
  if (opts.fragmented && opts.trexSamples !== undefined) {
    // One fragment whose samples take their duration from the moov's trex: tfhd gives none
    // (only default-base-is-moof), trun lists no per-sample fields, just how many there are.
    const tfhd = full('tfhd', 0, 0x20000, u32(1));
    const tfdt = full('tfdt', 1, 0, Buffer.concat([u32(0), u32(0)]));
    const trun = full('trun', 0, 0, u32(opts.trexSamples));
    return Buffer.concat([ftyp, moov, box('moof', full('mfhd', 0, 0, u32(1)), box('traf', tfhd, tfdt, trun)), box('mdat', Buffer.alloc(1000))]);
  }
  if (opts.fragmented) {
    // One fragment per second: tfdt says where it starts, trun has 25 samples of tfhd's default 40 ms.
    const fragments: Buffer[] = [];
    for (let i = 0; i < Math.round(seconds); i++) {
      const tfhd = full('tfhd', 0, 0x20008, u32(1), u32(40));
      const tfdt = full('tfdt', 1, 0, Buffer.concat([u32(0), u32(i * 1000)]));
      const trun = full('trun', 0, 0, u32(25));
      fragments.push(box('moof', full('mfhd', 0, 0, u32(i + 1)), box('traf', tfhd, tfdt, trun)), box('mdat', Buffer.alloc(100_000)));
    }
    return Buffer.concat([ftyp, moov, ...fragments]);
  }
  const head = Buffer.concat([ftyp, moov]);
  const mdat = box('mdat', Buffer.alloc(Math.max(16, (opts.padTo ?? 0) - head.length - 8)));
  // A camera writes the movie header after the frames; an encoder made for streaming, before.
  return opts.moovLast ? Buffer.concat([ftyp, mdat, moov]) : Buffer.concat([head, mdat]);
}

// EBML (WebM)
function ebmlSize(n: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(n) | (1n << 56n));
  return b;
}
const UNKNOWN = Buffer.from([0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
const el = (id: number[], ...payload: Buffer[]) => {
  const body = Buffer.concat(payload);
  return Buffer.concat([Buffer.from(id), ebmlSize(body.length), body]);
};
const uintEl = (id: number[], n: number) => el(id, u32(n));

/**
 * A WebM as a browser's MediaRecorder writes it: segment and clusters of unknown size, no
 * Duration in the header; frames every second up to `seconds`.
 */
export function webm(seconds: number, opts: { declaredSeconds?: number } = {}): Buffer {
  const header = el([0x1a, 0x45, 0xdf, 0xa3], el([0x42, 0x82], Buffer.from('webm')), uintEl([0x42, 0x87], 4), uintEl([0x42, 0x85], 2));
  const duration: Buffer[] = [];
  if (opts.declaredSeconds !== undefined) {
    // Duration: a float64 in TimecodeScale units (1 ms), as a muxer that knows the length writes it.
    const f = Buffer.alloc(8);
    f.writeDoubleBE(opts.declaredSeconds * 1000);
    duration.push(el([0x44, 0x89], f));
  }
  const info = el([0x15, 0x49, 0xa9, 0x66], uintEl([0x2a, 0xd7, 0xb1], 1_000_000), ...duration);
  const tracks = el(
    [0x16, 0x54, 0xae, 0x6b],
    el([0xae], uintEl([0xd7], 1), el([0x86], Buffer.from('V_VP8')), el([0xe0], uintEl([0xb0], 320), uintEl([0xba], 240))),
  );
  const clusters: Buffer[] = [];
  for (let start = 0; start <= seconds * 1000; start += 30_000) {
    const blocks: Buffer[] = [];
    for (let t = 0; t < 30_000 && start + t <= seconds * 1000; t += 1000) {
      const block = Buffer.concat([Buffer.from([0x81]), u16(t), Buffer.from([0x80]), Buffer.alloc(8)]);
      blocks.push(el([0xa3], block));
    }
    clusters.push(Buffer.concat([Buffer.from([0x1f, 0x43, 0xb6, 0x75]), UNKNOWN, uintEl([0xe7], start), ...blocks]));
  }
  return Buffer.concat([header, Buffer.from([0x18, 0x53, 0x80, 0x67]), UNKNOWN, info, tracks, ...clusters]);
}
