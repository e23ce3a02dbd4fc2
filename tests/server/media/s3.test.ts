import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Greetie } from '../../../contract/greetie.ts';
import { startFakeS3, type FakeS3 } from './fake-s3.ts';
import { draftOf, mediaTestApp, mp4, person, upload, type Person } from './support.ts';

/**
 * The same calls with MEDIA_STORAGE=s3, against a local stand-in that speaks S3's REST protocol
 * (tests/server/media/fake-s3.ts): the objects land in the bucket under the prefix, ranges are
 * asked of the bucket, replaced and deleted media leave it.
 */

let s3: FakeS3;
let t: Awaited<ReturnType<typeof mediaTestApp>>;
let alice: Person;

beforeAll(async () => {
  s3 = await startFakeS3({ bucket: 'greetie-media', accessKeyId: 'TESTKEY' });
  t = await mediaTestApp({
    MEDIA_STORAGE: 's3',
    S3_BUCKET: 'greetie-media',
    S3_ENDPOINT: s3.url,
    S3_REGION: 'eu-north-1',
    S3_PREFIX: 'media/',
    S3_ACCESS_KEY_ID: 'TESTKEY',
    S3_SECRET_ACCESS_KEY: 'test-secret-key-0123456789',
  });
  alice = await person(t.app);
});
afterAll(async () => {
  await t?.close();
  await s3?.close();
});

const keyOf = (url: string) => url.replace(/^\/api\/media\//, '').replace(/\?.*$/, '');

describe('media in an S3-compatible bucket', () => {
  it('stores the photo and its thumbnail in the bucket under the prefix, with their types', async () => {
    const id = await draftOf(t.app, alice);
    const photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#ff0000' } }).jpeg().toBuffer();
    const res = await upload(t.app, alice, `/api/greetie/${id}/media`, [{ name: 'file', data: photo }]);
    expect(res.statusCode, res.body).toBe(200);
    const g = res.json() as Greetie;
    const stored = s3.objects.get(`media/${keyOf(g.media!.url)}`);
    expect(stored?.contentType).toBe('image/jpeg');
    expect(stored?.cacheControl).toBe('public, max-age=31536000, immutable');
    expect(s3.objects.has(`media/${keyOf(g.media!.thumbnailUrl!)}`)).toBe(true);
    const file = await t.app.inject({ method: 'GET', url: g.media!.url });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(stored!.body)).toBe(true);
  });

  it('serves a range by asking the bucket for that range, and replacing media deletes the old objects', async () => {
    const id = await draftOf(t.app, alice);
    const video = mp4(4, { padTo: 5000 });
    const first = (await upload(t.app, alice, `/api/greetie/${id}/media`, [{ name: 'file', data: video }])).json() as Greetie;
    const part = await t.app.inject({ method: 'GET', url: first.media!.url, headers: { range: 'bytes=1000-1999' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe('bytes 1000-1999/5000');
    expect(part.rawPayload.equals(video.subarray(1000, 2000))).toBe(true);
    expect(s3.requests.at(-1)).toMatchObject({ method: 'GET', range: 'bytes=1000-1999' });

    const old = [keyOf(first.media!.url), keyOf(first.media!.thumbnailUrl!)];
    const photo = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#00ff00' } }).png().toBuffer();
    const second = (await upload(t.app, alice, `/api/greetie/${id}/media`, [{ name: 'file', data: photo }])).json() as Greetie;
    for (const k of old) expect(s3.objects.has(`media/${k}`)).toBe(false);
    const current = [keyOf(second.media!.url), keyOf(second.media!.thumbnailUrl!)];
    for (const k of current) expect(s3.objects.has(`media/${k}`)).toBe(true);

    const del = await t.app.inject({ method: 'DELETE', url: `/api/greetie/${id}`, headers: alice.auth });
    expect(del.statusCode).toBe(204);
    for (const k of current) expect(s3.objects.has(`media/${k}`)).toBe(false);
    expect([...s3.objects.keys()].filter((k) => !k.startsWith('media/'))).toEqual([]);
  });

  it('an object missing from the bucket is a 404, not a 500', async () => {
    const id = await draftOf(t.app, alice);
    const g = (await upload(t.app, alice, `/api/greetie/${id}/media`, [{ name: 'file', data: mp4(2) }])).json() as Greetie;
    s3.objects.delete(`media/${keyOf(g.media!.url)}`);
    expect((await t.app.inject({ method: 'GET', url: g.media!.url })).statusCode).toBe(404);
  });
});
