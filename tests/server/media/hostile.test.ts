import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import sharp from 'sharp';
import path from 'node:path';
import Tinypool from 'tinypool';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configureDecoding, decodeStats, encodePhoto } from '../../../server/media/photo.ts';
import { heicDeclaring, jpegDeclaring, pngDeclaring, webpVp8, webpVp8l, webpVp8x } from './hostile-images.ts';
import { draftOf, mediaTestApp, mp4, person, upload, webm, type Person } from './support.ts';

/**
 * Hostile media (decisions 072 and 073): pictures whose container
 * declares a giant canvas are refused from the declaration, before anything is decoded; a HEIC
 * that declares a small one and carries a giant one is contained by the decoder's worker; videos
 * are measured by what a player plays, and refused when their own figures disagree.
 */

type T = Awaited<ReturnType<typeof mediaTestApp>>;
let t: T;
let alice: Person;

beforeAll(async () => {
  t = await mediaTestApp();
  alice = await person(t.app);
});
afterAll(async () => {
  await t.close();
});

const FIXTURES = path.join(import.meta.dirname, 'fixtures');

async function tooManyPixels(url: string, data: Buffer) {
  const before = { ...decodeStats };
  const started = Date.now();
  const res = await upload(t.app, alice, url, [{ name: 'file', data }]);
  expect(res.statusCode, res.body).toBe(400);
  expect(res.json()).toMatchObject({ code: 'MEDIA_TOO_MANY_PIXELS', message: 'Bilden har för många bildpunkter. Välj en mindre bild.' });
  // Refused from what the container declares: nothing was decoded, not even started.
  expect(decodeStats).toEqual(before);
  return Date.now() - started;
}

describe('a picture declaring a giant canvas is refused before it is decoded', () => {
  it('a 370-byte HEIC declaring 11000×11000', async () => {
    const id = await draftOf(t.app, alice);
    const heic = heicDeclaring(11000, 11000);
    expect(heic.length).toBeLessThan(400);
    await tooManyPixels(`/api/greetie/${id}/media`, heic);
    await tooManyPixels(`/api/greetie/${id}/picture`, heic);
    // Its meta box after 600 KB of image data: found all the same.
    await tooManyPixels(`/api/greetie/${id}/media`, heicDeclaring(11000, 11000, { dataFirst: 600 * 1024 }));
  });

  it('a real HEIC of 11000×11000 (28 KB: one colour compresses to nothing)', async () => {
    const id = await draftOf(t.app, alice);
    await tooManyPixels(`/api/greetie/${id}/media`, readFileSync(path.join(FIXTURES, 'green-11000x11000.heic')));
  });

  it('PNG (IHDR), JPEG (SOF0) and WebP (VP8X, VP8L, VP8) declaring more than 100 million pixels', async () => {
    const id = await draftOf(t.app, alice);
    for (const file of [pngDeclaring(100_000, 100_000), jpegDeclaring(65_000, 65_000), webpVp8x(16_384, 16_384), webpVp8l(16_384, 16_384), webpVp8(16_383, 16_383)]) {
      expect(file.length).toBeLessThan(400);
      await tooManyPixels(`/api/greetie/${id}/media`, file);
    }
    // An overlay has its own, smaller limit (40 million), checked the same way.
    await tooManyPixels(`/api/greetie/${id}/mediaoverlay`, pngDeclaring(8000, 8000));
    // A video's poster too.
    const res = await upload(t.app, alice, `/api/greetie/${id}/media`, [{ name: 'file', data: mp4(5) }, { name: 'poster', data: jpegDeclaring(20_000, 20_000) }]);
    expect(res.json()).toMatchObject({ code: 'MEDIA_TOO_MANY_PIXELS' });
  });

  it('a HEIC declaring nothing (no ispe) is unreadable, also without decoding', async () => {
    const id = await draftOf(t.app, alice);
    const noIspe = heicDeclaring(64, 48);
    noIspe.write('xxxx', noIspe.indexOf('ispe'), 'latin1');
    const before = { ...decodeStats };
    const res = await upload(t.app, alice, `/api/greetie/${id}/media`, [{ name: 'file', data: noIspe }]);
    expect(res.json()).toMatchObject({ code: 'MEDIA_UNREADABLE' });
    expect(decodeStats).toEqual(before);
  });
});

describe('a HEIC that lies: it declares 100×100, its HEVC stream is 11000×11000', () => {
  const liar = () => {
    const file = readFileSync(path.join(FIXTURES, 'green-11000x11000.heic'));
    const at = file.indexOf('ispe');
    file.writeUInt32BE(100, at + 8);
    file.writeUInt32BE(100, at + 12);
    return file;
  };

  it('is decoded in a worker, refused as unreadable, and the memory it could take stays bounded', { timeout: 60_000 }, async () => {
    const id = await draftOf(t.app, alice);
    const before = { ...decodeStats };
    const rss = process.memoryUsage().rss;
    let peak = rss;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
    try {
      const res = await upload(t.app, alice, `/api/greetie/${id}/media`, [{ name: 'file', data: liar() }]);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ code: 'MEDIA_UNREADABLE' });
    } finally {
      clearInterval(sampler);
    }
    expect(decodeStats.heic).toBe(before.heic + 1);
    // Decoding 11000×11000 would take 121 million pixels × 4 bytes (484 MB) for the RGBA alone.
    expect(peak - rss).toBeLessThan(200 * 1024 * 1024);
  });

  it("the worker's WebAssembly limit alone stops a decode larger than the declared size allows", { timeout: 60_000 }, async () => {
    // libheif itself refuses the liar above (its decoded size far past ispe); here the worker's own
    // limit is what stops it: the honest 11000×11000 file, with room for a 64 MB decoder only.
    const pool = new Tinypool({ filename: new URL('../../../server/media/heic-worker.mjs', import.meta.url).href, isolateWorkers: true, maxThreads: 1 });
    try {
      const answer = (await pool.run({ file: path.join(FIXTURES, 'green-11000x11000.heic'), maxPixels: 200_000_000, wasmLimitBytes: 64 * 1024 * 1024 })) as { ok: boolean; reason?: string };
      expect(answer).toMatchObject({ ok: false, reason: 'unreadable' });
    } finally {
      await pool.destroy();
    }
  });

  it('a real HEIC still decodes (in the worker) and is stored', async () => {
    const id = await draftOf(t.app, alice);
    const before = decodeStats.heic;
    const res = await upload(t.app, alice, `/api/greetie/${id}/media`, [{ name: 'file', data: readFileSync(path.join(FIXTURES, 'green-64x48.heic')) }]);
    expect(res.statusCode, res.body).toBe(200);
    expect(decodeStats.heic).toBe(before + 1);
  });
});

describe('decodes at a time', () => {
  it('at most MEDIA_DECODE_CONCURRENCY photos are decoded at once; the others wait their turn', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'greetie-decodes-'));
    try {
      const photo = path.join(dir, 'in.jpg');
      writeFileSync(photo, await sharp({ create: { width: 1200, height: 900, channels: 3, background: '#336699' } }).jpeg().toBuffer());
      configureDecoding({ concurrency: 2 });
      decodeStats.peakAtOnce = 0;
      const done = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => encodePhoto(photo, 'image/jpeg', path.join(dir, `out${i}.jpg`))));
      expect(done.map((e) => e.width)).toEqual([1200, 1200, 1200, 1200, 1200, 1200]);
      expect(decodeStats.peakAtOnce).toBe(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// ---- Hostile videos.

async function videoRefused(data: Buffer, code: string) {
  const id = await draftOf(t.app, alice);
  const res = await upload(t.app, alice, `/api/greetie/${id}/media`, [{ name: 'file', data }]);
  expect(res.statusCode, res.body).toBe(400);
  const body = res.json() as { code: string; message: string };
  expect(body.code).toBe(code);
  return body;
}

async function videoKept(data: Buffer): Promise<number> {
  const id = await draftOf(t.app, alice);
  const res = await upload(t.app, alice, `/api/greetie/${id}/media`, [{ name: 'file', data }]);
  expect(res.statusCode, res.body).toBe(200);
  const row = await t.db.db.selectFrom('media_file').select('duration_ms').where('greetie_id', '=', id).where('role', '=', 'media').executeTakeFirstOrThrow();
  return row.duration_ms!;
}

describe('a video is measured by what a player plays', () => {
  it('an MP4 whose movie header says 10 s but whose track (tkhd, mdhd, edits) runs 3,600 s is too long', async () => {
    const body = await videoRefused(mp4(10, { trackSeconds: 3600, editSeconds: 3600 }), 'VIDEO_TOO_LONG');
    expect(body.message).toBe('Videon är för lång (3600 sekunder). Den får vara högst 60 sekunder.');
    // The same as a MOV.
    await videoRefused(mp4(10, { brand: 'qt  ', trackSeconds: 3600, mediaSeconds: 3600 }), 'VIDEO_TOO_LONG');
  });

  it('a fragmented MP4 whose samples take their duration from trex is measured from it (mehd saying 1 s or not)', async () => {
    // 90,025 samples of trex's 40 ms: 3,601 s, as a browser reads it.
    const body = await videoRefused(mp4(0, { fragmented: true, trexSampleMs: 40, trexSamples: 90_025, mehdSeconds: 1 }), 'VIDEO_TOO_LONG');
    expect(body.message).toMatch(/\(3601 sekunder\)/);
    await videoRefused(mp4(0, { fragmented: true, trexSampleMs: 40, trexSamples: 90_025 }), 'VIDEO_TOO_LONG');
    // 500 samples of 40 ms: 20 s, kept and measured.
    expect(await videoKept(mp4(0, { fragmented: true, trexSampleMs: 40, trexSamples: 500 }))).toBe(20_000);
  });

  it('refuses a file whose own figures disagree, though each is under the limit', async () => {
    const mismatch = 'VIDEO_LENGTH_MISMATCH';
    const body = await videoRefused(mp4(10, { trackSeconds: 30, editSeconds: 30 }), mismatch);
    expect(body.message).toMatch(/^Videons längd går inte att avgöra/);
    await videoRefused(mp4(10, { trackSeconds: 10, mediaSeconds: 40 }), mismatch);
    await videoRefused(mp4(10, { brand: 'qt  ', trackSeconds: 10, editSeconds: 40 }), mismatch);
    await videoRefused(mp4(0, { fragmented: true, trexSampleMs: 40, trexSamples: 750, mehdSeconds: 10 }), mismatch);
    await videoRefused(webm(30, { declaredSeconds: 10 }), mismatch);
  });

  it('keeps honest files whose figures differ only by rounding, and a trimmed one (edits shorter than its media)', async () => {
    expect(await videoKept(mp4(12, { trackSeconds: 12.4, mediaSeconds: 12.4 }))).toBe(12_400);
    expect(await videoKept(mp4(0, { fragmented: true, trexSampleMs: 40, trexSamples: 750, mehdSeconds: 30 }))).toBe(30_000);
    // Trimmed without re-encoding: the media runs 120 s, the edit list plays 20 s of it.
    expect(await videoKept(mp4(20, { trackSeconds: 20, mediaSeconds: 120, editSeconds: 20 }))).toBe(20_000);
    expect(await videoKept(webm(30, { declaredSeconds: 30.04 }))).toBe(30_040);
  });
});
