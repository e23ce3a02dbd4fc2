import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import sharp from 'sharp';
import { Value } from 'typebox/value';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Greetie, MEDIA_URL_PATTERN } from '../../../contract/greetie.ts';
import { draftOf, mediaTestApp, mp4, multipart, person, upload, webm, type Person } from './support.ts';

/**
 * Media uploads and media files on real PostgreSQL and the real local storage (API.md "Greetie":
 * media, mediaoverlay, picture; GET /api/media/{key}; decisions 070 and 071).
 */

type T = Awaited<ReturnType<typeof mediaTestApp>>;
let t: T;
let alice: Person;
let bob: Person;

beforeAll(async () => {
  t = await mediaTestApp();
  alice = await person(t.app);
  bob = await person(t.app);
});
afterAll(async () => {
  await t.close();
});

/** A photo as a phone takes it: turned (EXIF orientation 6) and with where it was taken (GPS). */
async function phonePhoto(width = 64, height = 48): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 30, b: 90 } } })
    .jpeg()
    .withExif({
      IFD0: { Make: 'Phone', Model: 'Camera' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '59/1 19/1 4600/100', GPSLongitudeRef: 'E', GPSLongitude: '18/1 4/1 1200/100' },
    })
    .withMetadata({ orientation: 6 })
    .toBuffer();
}
const png = (width = 32, height = 32) =>
  sharp({ create: { width, height, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0.5 } } })
    .png()
    .toBuffer();

const keyOf = (url: string) => url.replace(/^\/api\/media\//, '').replace(/\?.*$/, '');
const filesOf = (greetieId: string) =>
  t.db.db.selectFrom('media_file').selectAll().where('greetie_id', '=', greetieId).orderBy('role').execute();
const storage = () => t.app.services.storage;
const uploadsLeft = () => {
  const dir = path.join(t.dataDir, 'tmp', 'uploads');
  return existsSync(dir) ? readdirSync(dir) : [];
};

async function accepted(res: { statusCode: number; body: string; json: () => unknown }): Promise<Greetie> {
  expect(res.statusCode, res.body).toBe(200);
  const g = res.json() as Greetie;
  expect(Value.Check(Greetie, g), res.body).toBe(true);
  return g;
}

/** Answers `status`/`code` in Swedish, stores nothing, and leaves no temporary file behind. */
async function refused(greetieId: string, send: () => Promise<{ statusCode: number; body: string; json: () => unknown }>, status: number, code: string) {
  const before = await filesOf(greetieId);
  const res = await send();
  const body = res.json() as { code: string; message: string };
  expect(res.statusCode, res.body).toBe(status);
  expect(body.code).toBe(code);
  expect(body.message.length).toBeGreaterThan(0);
  expect(await filesOf(greetieId)).toEqual(before);
  expect(uploadsLeft()).toEqual([]);
  return body;
}

describe('POST /api/greetie/{id}/media: a photo', () => {
  it('is re-encoded upright, without EXIF or GPS, at most 2048 px, with a thumbnail; its URLs are signed while a draft', async () => {
    const original = await phonePhoto();
    const meta = await sharp(original).metadata();
    expect(meta.orientation).toBe(6);
    expect(meta.exif && (meta.exif.includes(Buffer.from([0x88, 0x25])) || meta.exif.includes(Buffer.from([0x25, 0x88])))).toBe(true);

    const id = await draftOf(t.app, alice);
    const g = await accepted(await upload(t.app, alice, `/api/greetie/${id}/media`, [{ name: 'file', data: original, filename: 'IMG_0001.JPG', contentType: 'image/jpeg' }]));
    expect(g.media).toMatchObject({ kind: 'photo', overlayUrl: null });
    expect(g.media!.url).toMatch(/^\/api\/media\/[A-Za-z0-9_-]{22,}\.jpg\?exp=\d+&sig=[A-Za-z0-9_-]{43}$/);
    expect(g.media!.thumbnailUrl).toMatch(/^\/api\/media\/[A-Za-z0-9_-]{22,}\.jpg\?exp=/);

    const file = await t.app.inject({ method: 'GET', url: g.media!.url });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/jpeg');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.headers['cache-control']).toBe('private, max-age=86400, immutable');
    const stored = await sharp(file.rawPayload).metadata();
    expect(stored.exif).toBeUndefined();
    expect(stored.xmp).toBeUndefined();
    expect(stored.orientation).toBeUndefined();
    // Orientation 6 is a quarter turn: 64×48 as stored by the camera is 48×64 upright.
    expect([stored.width, stored.height]).toEqual([48, 64]);

    const rows = await filesOf(id);
    expect(rows.map((r) => [r.role, r.kind, r.content_type])).toEqual([
      ['media', 'photo', 'image/jpeg'],
      ['thumbnail', 'photo', 'image/jpeg'],
    ]);
    expect(rows[0]).toMatchObject({ width: 48, height: 64, size: file.rawPayload.length });
    for (const r of rows) expect(r.storage_key).toMatch(/^[A-Za-z0-9_-]{22}\.jpg$/);
  });

  it('is made smaller when larger than 2048 px', async () => {
    const id = await draftOf(t.app, alice);
    const big = await sharp({ create: { width: 3000, height: 1000, channels: 3, background: '#336699' } }).png().toBuffer();
    await accepted(await upload(t.app, alice, `/api/greetie/${id}/media`, [{ name: 'file', data: big }]));
    const [media, thumb] = await filesOf(id);
    expect([media!.width, media!.height]).toEqual([2048, 683]);
    expect([thumb!.width, thumb!.height]).toEqual([480, 160]);
  });

  it('keeps transparency (WebP) for a PNG with alpha', async () => {
    const id = await draftOf(t.app, alice);
    const g = await accepted(await upload(t.app, alice, `/api/greetie/${id}/media`, [{ name: 'file', data: await png() }]));
    expect(g.media!.url).toMatch(/\.webp\?/);
  });

  it('decodes an iPhone HEIC (WebAssembly libheif) and stores it as JPEG', async () => {
    const heic = readFileSync(path.join(import.meta.dirname, 'fixtures', 'green-64x48.heic'));
    const id = await draftOf(t.app, alice);
    const g = await accepted(await upload(t.app, alice, `/api/greetie/${id}/media`, [{ name: 'file', data: heic, filename: 'IMG_0002.HEIC', contentType: 'image/heic' }]));
    expect(g.media!.url).toMatch(/\.jpg\?/);
    const file = await t.app.inject({ method: 'GET', url: g.media!.url });
    const { data, info } = await sharp(file.rawPayload).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([64, 48]);
    const [r, gr, b] = [data[0]!, data[1]!, data[2]!];
    expect(Math.abs(r - 40) + Math.abs(gr - 160) + Math.abs(b - 90)).toBeLessThan(30);
  });

  it('refuses an .exe named photo.jpg (the bytes decide, not the name or type)', async () => {
    const id = await draftOf(t.app, alice);
    const exe = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(58), Buffer.from([0x80, 0, 0, 0]), Buffer.alloc(64), Buffer.from('PE\0\0'), Buffer.alloc(5000)]);
    await refused(id, () => upload(t.app, alice, `/api/greetie/${id}/media`, [{ name: 'file', data: exe, filename: 'photo.jpg', contentType: 'image/jpeg' }]), 415, 'MEDIA_TYPE_NOT_ALLOWED');
  });

  it('refuses an SVG with a script in it', async () => {
    const id = await draftOf(t.app, alice);
    const svg = Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(document.cookie)</script><rect width="10" height="10"/></svg>');
    await refused(id, () => upload(t.app, alice, `/api/greetie/${id}/media`, [{ name: 'file', data: svg, filename: 'photo.svg', contentType: 'image/svg+xml' }]), 415, 'MEDIA_TYPE_NOT_ALLOWED');
    const asPng = await refused(id, () => upload(t.app, alice, `/api/greetie/${id}/media`, [{ name: 'file', data: svg, filename: 'photo.png', contentType: 'image/png' }]), 415, 'MEDIA_TYPE_NOT_ALLOWED');
    expect(asPng.message).toMatch(/Filtypen stöds inte/);
  });

  it('refuses a truncated JPEG', async () => {
    const id = await draftOf(t.app, alice);
    const whole = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#abcdef' } }).jpeg().toBuffer();
    await refused(id, () => upload(t.app, alice, `/api/greetie/${id}/media`, [{ name: 'file', data: whole.subarray(0, Math.floor(whole.length / 2)) }]), 400, 'MEDIA_UNREADABLE');
  });

  it('refuses a 16 MB photo at its limit, in Swedish', async () => {
    const id = await draftOf(t.app, alice);
    const jpegStart = (await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } }).jpeg().toBuffer()).subarray(0, 200);
    const huge = Buffer.concat([jpegStart, Buffer.alloc(16 * 1024 * 1024)]);
    const body = await refused(id, () => upload(t.app, alice, `/api/greetie/${id}/media`, [{ name: 'file', data: huge }]), 413, 'PHOTO_TOO_LARGE');
    expect(body.message).toBe('Fotot är för stort. Det får vara högst 15 MB.');
  });

  it('refuses an empty file, a missing file, a stray field, and a body that is not multipart', async () => {
    const id = await draftOf(t.app, alice);
    await refused(id, () => upload(t.app, alice, `/api/greetie/${id}/media`, [{ name: 'file', data: Buffer.alloc(0) }]), 400, 'MEDIA_UNREADABLE');
    await refused(id, () => upload(t.app, alice, `/api/greetie/${id}/media`, []), 400, 'MEDIA_FILE_MISSING');
    await refused(id, () => upload(t.app, alice, `/api/greetie/${id}/media`, [{ name: 'other', data: Buffer.from('x'), filename: 'x' }]), 400, 'MEDIA_UNEXPECTED_PART');
    await refused(
      id,
      () => t.app.inject({ method: 'POST', url: `/api/greetie/${id}/media`, headers: { ...alice.auth, 'content-type': 'application/json' }, payload: '{}' }),
      415,
      'MEDIA_NOT_MULTIPART',
    );
  });
});

describe('who may upload', () => {
  it("another user's draft is 404, a visitor 401, a greetie no longer a draft 409", async () => {
    const id = await draftOf(t.app, alice);
    const photo = await phonePhoto();
    await refused(id, () => upload(t.app, bob, `/api/greetie/${id}/media`, [{ name: 'file', data: photo }]), 404, 'GREETIE_NOT_FOUND');
    await refused(id, () => upload(t.app, bob, `/api/greetie/${id}/picture`, [{ name: 'file', data: photo }]), 404, 'GREETIE_NOT_FOUND');
    await refused(id, async () => upload(t.app, bob, `/api/greetie/${id}/mediaoverlay`, [{ name: 'file', data: await png() }]), 404, 'GREETIE_NOT_FOUND');
    await refused(id, () => upload(t.app, undefined, `/api/greetie/${id}/media`, [{ name: 'file', data: photo }]), 401, 'UNAUTHORIZED');
    await refused(id, () => upload(t.app, alice, `/api/greetie/00000000-0000-4000-8000-000000000000/media`, [{ name: 'file', data: photo }]), 404, 'GREETIE_NOT_FOUND');
    await sql`UPDATE greetie SET status = 'scheduled' WHERE id = ${id}`.execute(t.db.db);
    await refused(id, () => upload(t.app, alice, `/api/greetie/${id}/media`, [{ name: 'file', data: photo }]), 409, 'GREETIE_NOT_DRAFT');
  });
});

describe('POST /api/greetie/{id}/media: a video', () => {
  it('an MP4 of 10 s is kept as sent, measured, with the client-made poster as its thumbnail', async () => {
    const id = await draftOf(t.app, alice);
    const video = mp4(10, { width: 640, height: 360 });
    const poster = await sharp({ create: { width: 640, height: 360, channels: 3, background: '#112233' } }).jpeg().toBuffer();
    const g = await accepted(
      await upload(t.app, alice, `/api/greetie/${id}/media`, [
        { name: 'file', data: video, filename: 'clip.bin', contentType: 'application/octet-stream' },
        { name: 'poster', data: poster, filename: 'poster.jpg' },
      ]),
    );
    expect(g.media).toMatchObject({ kind: 'video' });
    expect(g.media!.url).toMatch(/\.mp4\?exp=/);
    const rows = await filesOf(id);
    expect(rows.map((r) => [r.role, r.kind, r.content_type, r.duration_ms])).toEqual([
      ['media', 'video', 'video/mp4', 10000],
      ['thumbnail', 'photo', 'image/jpeg', null],
    ]);
    expect(rows[0]).toMatchObject({ width: 640, height: 360, size: video.length });
    expect([rows[1]!.width, rows[1]!.height]).toEqual([480, 270]);
    const file = await t.app.inject({ method: 'GET', url: g.media!.url });
    expect(file.headers['content-type']).toBe('video/mp4');
    expect(file.rawPayload.equals(video)).toBe(true);
  });

  it('a MOV whose movie header comes after 3 MB of frames (as a camera writes it) is measured', async () => {
    const id = await draftOf(t.app, alice);
    await accepted(await upload(t.app, alice, `/api/greetie/${id}/media`, [{ name: 'file', data: mp4(42, { brand: 'qt  ', moovLast: true, padTo: 3 * 1024 * 1024 }) }]));
    const [media] = await filesOf(id);
    expect(media).toMatchObject({ content_type: 'video/quicktime', duration_ms: 42000, width: 320, height: 240 });
    const tooLong = mp4(61.5, { moovLast: true, padTo: 1024 * 1024 });
    await refused(id, () => upload(t.app, alice, `/api/greetie/${id}/media`, [{ name: 'file', data: tooLong }]), 400, 'VIDEO_TOO_LONG');
  });

  it('a fragmented MP4 with no length in its movie header (Safari recording) is measured from its fragments', async () => {
    const id = await draftOf(t.app, alice);
    await accepted(await upload(t.app, alice, `/api/greetie/${id}/media`, [{ name: 'file', data: mp4(20, { fragmented: true }) }]));
    const [media] = await filesOf(id);
    expect(media).toMatchObject({ content_type: 'video/mp4', duration_ms: 20000 });
    await refused(id, () => upload(t.app, alice, `/api/greetie/${id}/media`, [{ name: 'file', data: mp4(70, { fragmented: true }) }]), 400, 'VIDEO_TOO_LONG');
  });

  it('a MOV without a poster gets a plain one', async () => {
    const id = await draftOf(t.app, alice);
    const g = await accepted(await upload(t.app, alice, `/api/greetie/${id}/media`, [{ name: 'file', data: mp4(5, { brand: 'qt  ', width: 360, height: 640 }) }]));
    expect(g.media!.url).toMatch(/\.mov\?/);
    const rows = await filesOf(id);
    expect(rows.map((r) => r.content_type)).toEqual(['video/quicktime', 'image/jpeg']);
    expect([rows[1]!.width, rows[1]!.height]).toEqual([270, 480]);
  });

  it('a browser-recorded WebM without a duration in its header is measured by reading it through', async () => {
    const id = await draftOf(t.app, alice);
    await accepted(await upload(t.app, alice, `/api/greetie/${id}/media`, [{ name: 'file', data: webm(45) }]));
    const [media] = await filesOf(id);
    expect(media).toMatchObject({ content_type: 'video/webm', duration_ms: 45000, width: 320, height: 240 });
  });

  it('refuses a 70 s video, MP4 or WebM, with a clear Swedish message', async () => {
    const id = await draftOf(t.app, alice);
    const a = await refused(id, () => upload(t.app, alice, `/api/greetie/${id}/media`, [{ name: 'file', data: mp4(70) }]), 400, 'VIDEO_TOO_LONG');
    expect(a.message).toBe('Videon är för lång (70 sekunder). Den får vara högst 60 sekunder.');
    await refused(id, () => upload(t.app, alice, `/api/greetie/${id}/media`, [{ name: 'file', data: webm(70) }]), 400, 'VIDEO_TOO_LONG');
  });

  it('refuses a video without a movie header, and a poster that is not an image', async () => {
    const id = await draftOf(t.app, alice);
    const noMoov = mp4(5).subarray(0, 32);
    await refused(id, () => upload(t.app, alice, `/api/greetie/${id}/media`, [{ name: 'file', data: Buffer.concat([noMoov, Buffer.alloc(5000)]) }]), 400, 'MEDIA_UNREADABLE');
    await refused(
      id,
      () => upload(t.app, alice, `/api/greetie/${id}/media`, [{ name: 'file', data: mp4(5) }, { name: 'poster', data: mp4(1) }]),
      415,
      'POSTER_TYPE_NOT_ALLOWED',
    );
  });
});

describe('replacing and deleting', () => {
  it('a new upload replaces the media: the old files leave the storage and the database', async () => {
    const id = await draftOf(t.app, alice);
    const first = await accepted(await upload(t.app, alice, `/api/greetie/${id}/media`, [{ name: 'file', data: await phonePhoto() }]));
    const oldKeys = [keyOf(first.media!.url), keyOf(first.media!.thumbnailUrl!)];
    for (const k of oldKeys) expect(await storage().exists(k)).toBe(true);

    const second = await accepted(await upload(t.app, alice, `/api/greetie/${id}/media`, [{ name: 'file', data: mp4(3) }]));
    expect(second.media!.kind).toBe('video');
    for (const k of oldKeys) expect(await storage().exists(k)).toBe(false);
    const rows = await filesOf(id);
    expect(rows.map((r) => r.storage_key).sort()).toEqual([keyOf(second.media!.url), keyOf(second.media!.thumbnailUrl!)].sort());
    expect((await t.app.inject({ method: 'GET', url: first.media!.url })).statusCode).toBe(404);
  });

  it('DELETE /api/greetie/{id} removes its stored files', async () => {
    const id = await draftOf(t.app, alice);
    const g = await accepted(await upload(t.app, alice, `/api/greetie/${id}/media`, [{ name: 'file', data: await phonePhoto() }]));
    const pic = (await upload(t.app, alice, `/api/greetie/${id}/picture`, [{ name: 'file', data: await phonePhoto() }])).json() as { url: string };
    const keys = [keyOf(g.media!.url), keyOf(g.media!.thumbnailUrl!), keyOf(pic.url)];
    const del = await t.app.inject({ method: 'DELETE', url: `/api/greetie/${id}`, headers: alice.auth });
    expect(del.statusCode, del.body).toBe(204);
    for (const k of keys) expect(await storage().exists(k)).toBe(false);
  });
});

describe('POST /api/greetie/{id}/mediaoverlay', () => {
  it('takes a PNG or WebP with its transparency, and replaces the previous overlay', async () => {
    const id = await draftOf(t.app, alice);
    await accepted(await upload(t.app, alice, `/api/greetie/${id}/media`, [{ name: 'file', data: await phonePhoto() }]));
    const first = await accepted(await upload(t.app, alice, `/api/greetie/${id}/mediaoverlay`, [{ name: 'file', data: await png(48, 64) }]));
    expect(first.media!.overlayUrl).toMatch(/\.png\?exp=/);
    const webp = await sharp({ create: { width: 48, height: 64, channels: 4, background: { r: 1, g: 2, b: 3, alpha: 0.2 } } }).webp().toBuffer();
    const second = await accepted(await upload(t.app, alice, `/api/greetie/${id}/mediaoverlay`, [{ name: 'file', data: webp }]));
    expect(second.media!.overlayUrl).toMatch(/\.webp\?exp=/);
    expect(await storage().exists(keyOf(first.media!.overlayUrl!))).toBe(false);
    const file = await t.app.inject({ method: 'GET', url: second.media!.overlayUrl! });
    expect((await sharp(file.rawPayload).metadata()).hasAlpha).toBe(true);
    expect((await filesOf(id)).filter((r) => r.role === 'overlay')).toHaveLength(1);
  });

  it('refuses a JPEG, an SVG and anything over 5 MB', async () => {
    const id = await draftOf(t.app, alice);
    await refused(id, async () => upload(t.app, alice, `/api/greetie/${id}/mediaoverlay`, [{ name: 'file', data: await phonePhoto() }]), 415, 'OVERLAY_TYPE_NOT_ALLOWED');
    await refused(id, () => upload(t.app, alice, `/api/greetie/${id}/mediaoverlay`, [{ name: 'file', data: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>') }]), 415, 'OVERLAY_TYPE_NOT_ALLOWED');
    const pngStart = (await png()).subarray(0, 64);
    await refused(id, () => upload(t.app, alice, `/api/greetie/${id}/mediaoverlay`, [{ name: 'file', data: Buffer.concat([pngStart, Buffer.alloc(5 * 1024 * 1024)]) }]), 413, 'OVERLAY_TOO_LARGE');
  });
});

describe('POST /api/greetie/{id}/picture', () => {
  it('answers the URL a picture element takes, readable by its key (photo rules: no EXIF)', async () => {
    const id = await draftOf(t.app, alice);
    const res = await upload(t.app, alice, `/api/greetie/${id}/picture`, [{ name: 'file', data: await phonePhoto() }]);
    expect(res.statusCode, res.body).toBe(200);
    const { url } = res.json() as { url: string };
    expect(url).toMatch(new RegExp(MEDIA_URL_PATTERN));
    const file = await t.app.inject({ method: 'GET', url });
    expect(file.statusCode).toBe(200);
    expect((await sharp(file.rawPayload).metadata()).exif).toBeUndefined();
    // The picture is usable in the draft's content.
    const patch = await t.app.inject({
      method: 'PATCH',
      url: `/api/greetie/${id}`,
      headers: alice.auth,
      payload: { content: [{ type: 'picture', value: url, x: 0.5, y: 0.5, scale: 1, rotation: 0 }] },
    });
    expect(patch.statusCode, patch.body).toBe(200);
  });
});

describe('GET /api/media/{key}', () => {
  let id: string;
  let url: string;
  let bytes: Buffer;
  beforeAll(async () => {
    id = await draftOf(t.app, alice);
    const g = await accepted(await upload(t.app, alice, `/api/greetie/${id}/media`, [{ name: 'file', data: mp4(8, { padTo: 10_000 }) }]));
    url = g.media!.url;
    bytes = (await t.app.inject({ method: 'GET', url })).rawPayload;
    expect(bytes.length).toBe(10_000);
  });

  it('answers ranges with 206 and exactly those bytes, an unsatisfiable one with 416', async () => {
    const mid = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=100-199' } });
    expect(mid.statusCode).toBe(206);
    expect(mid.headers['content-range']).toBe('bytes 100-199/10000');
    expect(mid.headers['accept-ranges']).toBe('bytes');
    expect(mid.rawPayload.equals(bytes.subarray(100, 200))).toBe(true);

    const open = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=9990-' } });
    expect(open.statusCode).toBe(206);
    expect(open.rawPayload.equals(bytes.subarray(9990))).toBe(true);
    const suffix = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=-5' } });
    expect(suffix.headers['content-range']).toBe('bytes 9995-9999/10000');
    expect(suffix.rawPayload.equals(bytes.subarray(9995))).toBe(true);

    const beyond = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=10000-10010' } });
    expect(beyond.statusCode).toBe(416);
    expect(beyond.headers['content-range']).toBe('bytes */10000');
    expect(beyond.json()).toMatchObject({ code: 'RANGE_NOT_SATISFIABLE' });
  });

  it('answers HEAD with the length and type, and no body', async () => {
    const head = await t.app.inject({ method: 'HEAD', url });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe('10000');
    expect(head.headers['content-type']).toBe('video/mp4');
    expect(head.rawPayload.length).toBe(0);
  });

  it('answers If-None-Match with 304, and a changed If-Range with the whole file', async () => {
    const first = await t.app.inject({ method: 'GET', url });
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{22,}\.mp4"$/);
    expect((await t.app.inject({ method: 'GET', url, headers: { 'if-none-match': etag } })).statusCode).toBe(304);
    const stale = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=0-9', 'if-range': '"other"' } });
    expect(stale.statusCode).toBe(200);
    expect(stale.rawPayload.length).toBe(10_000);
  });

  it("a draft's media needs its signature: not by key alone, not tampered, not expired", async () => {
    const key = keyOf(url);
    expect((await t.app.inject({ method: 'GET', url: `/api/media/${key}` })).statusCode).toBe(404);
    const sig = new URL(url, 'http://x').searchParams.get('sig')!;
    const exp = Number(new URL(url, 'http://x').searchParams.get('exp'));
    const flipped = (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1);
    expect((await t.app.inject({ method: 'GET', url: `/api/media/${key}?exp=${exp}&sig=${flipped}` })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/media/${key}?exp=${exp + 1}&sig=${sig}` })).statusCode).toBe(404);
    t.clock.advance((exp * 1000 - t.clock.ms) + 1000);
    try {
      expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(404);
    } finally {
      t.clock.ms = Date.parse('2026-11-21T08:00:00.000Z');
    }
  });

  it('once the greetie has left draft, the key alone serves it, cached publicly for a year', async () => {
    await sql`UPDATE greetie SET status = 'scheduled' WHERE id = ${id}`.execute(t.db.db);
    const res = await t.app.inject({ method: 'GET', url: `/api/media/${keyOf(url)}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-type']).toBe('video/mp4');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('an unknown key is 404, a malformed one 400', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/media/AAAAAAAAAAAAAAAAAAAAAA.jpg' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/media/short' })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/api/media/..%2F..%2Fetc%2Fpasswd' })).statusCode).toBe(400);
  });
});

describe('an upload cut off mid-way', () => {
  it('leaves no partial file and no row', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const id = await draftOf(t.app, alice);
    const { payload, headers } = multipart([{ name: 'file', data: mp4(20, { padTo: 8 * 1024 * 1024 }) }]);
    const req = request(`${address}/api/greetie/${id}/media`, {
      method: 'POST',
      headers: { ...alice.auth, ...headers, 'content-length': String(payload.length) },
    });
    req.on('error', () => {});
    req.write(payload.subarray(0, 2 * 1024 * 1024));
    // The server is writing the video to a temporary file…
    await vi.waitFor(() => expect(uploadsLeft().length).toBe(1), { timeout: 10_000, interval: 20 });
    // …when the phone loses its connection.
    req.destroy();
    await vi.waitFor(() => expect(uploadsLeft()).toEqual([]), { timeout: 10_000, interval: 20 });
    expect(await filesOf(id)).toEqual([]);
  });
});
