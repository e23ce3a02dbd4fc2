import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../server/config.ts';

/** MEDIA_STORAGE and the S3_* settings: a default that needs nothing, one line per bad setting. */
describe('media storage settings', () => {
  it('default to the folder DATA_DIR/media', () => {
    const r = parseConfig({ DATA_DIR: '/srv/greetie' });
    expect(r.ok && r.config.storage).toEqual({ provider: 'local', dir: path.join('/srv/greetie', 'media') });
  });

  it('take an S3-compatible bucket, path-style by default when an endpoint is given', () => {
    const r = parseConfig({
      MEDIA_STORAGE: 's3',
      S3_BUCKET: 'greetie-media',
      S3_ENDPOINT: 'http://127.0.0.1:9000/',
      S3_REGION: 'eu-north-1',
      S3_PREFIX: 'media/',
      S3_ACCESS_KEY_ID: 'id',
      S3_SECRET_ACCESS_KEY: 'secret',
    });
    expect(r.ok && r.config.storage).toEqual({
      provider: 's3',
      s3: {
        bucket: 'greetie-media',
        region: 'eu-north-1',
        endpoint: 'http://127.0.0.1:9000',
        forcePathStyle: true,
        prefix: 'media/',
        credentials: { accessKeyId: 'id', secretAccessKey: 'secret' },
      },
    });
    const aws = parseConfig({ MEDIA_STORAGE: 's3', S3_BUCKET: 'greetie-media' });
    expect(aws.ok && aws.config.storage).toMatchObject({ s3: { region: 'us-east-1', endpoint: undefined, forcePathStyle: false, credentials: undefined } });
  });

  it('name every bad setting on a line of its own', () => {
    const r = parseConfig({
      MEDIA_STORAGE: 's3',
      S3_BUCKET: 'Not A Bucket',
      S3_REGION: 'EU North',
      S3_ENDPOINT: 'ftp://x',
      S3_FORCE_PATH_STYLE: 'maybe',
      S3_PREFIX: 'no-slash',
      S3_ACCESS_KEY_ID: 'only-the-id',
    });
    expect(r.ok).toBe(false);
    const errors = r.ok ? [] : r.errors;
    for (const name of ['S3_BUCKET', 'S3_REGION', 'S3_ENDPOINT', 'S3_FORCE_PATH_STYLE', 'S3_PREFIX', 'S3_ACCESS_KEY_ID']) {
      expect(errors.filter((e) => e.startsWith(name)), name).toHaveLength(1);
    }
    const other = parseConfig({ MEDIA_STORAGE: 'ftp' });
    expect(other.ok ? [] : other.errors).toEqual(['MEDIA_STORAGE must be "local" or "s3" (got "ftp")']);
  });
});

/** MEDIA_DECODE_CONCURRENCY (decision 072): photos decoded at once by one process. */
describe('photo decoding setting', () => {
  it('is 2 by default, a whole number from 1 to 16 when given, one line when not', () => {
    const d = parseConfig({});
    expect(d.ok && d.config.mediaDecodeConcurrency).toBe(2);
    const four = parseConfig({ MEDIA_DECODE_CONCURRENCY: '4' });
    expect(four.ok && four.config.mediaDecodeConcurrency).toBe(4);
    for (const bad of ['0', '17', '1.5', 'many']) {
      const r = parseConfig({ MEDIA_DECODE_CONCURRENCY: bad });
      expect(r.ok ? [] : r.errors).toEqual([`MEDIA_DECODE_CONCURRENCY must be a whole number from 1 to 16 (got "${bad}")`]);
    }
  });
});
