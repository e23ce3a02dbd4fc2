import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { StorageMissing, type Storage } from './provider.ts';

export interface S3Options {
  bucket: string;
  region: string;
  /** An S3-compatible service's address (MinIO, R2, Spaces…); AWS itself when undefined. */
  endpoint: string | undefined;
  /** Path-style addressing (endpoint/bucket/key), which most S3-compatible services want. */
  forcePathStyle: boolean;
  /** Prepended to every key ("greetie/media/"), so one bucket can hold other things too. */
  prefix: string;
  /** Static credentials; when undefined the SDK's default chain (environment, instance role) is used. */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
}

const missing = (err: unknown) =>
  err instanceof S3ServiceException && (err.name === 'NoSuchKey' || err.name === 'NotFound' || err.$metadata.httpStatusCode === 404);

/**
 * Media in an S3-compatible bucket through the AWS SDK v3. Objects are written with one PUT of a
 * file stream with its length known (our largest object is 100 MB, far under S3's 5 GB single-PUT
 * limit), so no multipart upload and nothing buffered. Checksums only where the protocol requires
 * them: the SDK's default CRC trailers (aws-chunked bodies) are not spoken by every S3-compatible
 * service.
 */
export function createS3Storage(opts: S3Options): Storage {
  const client = new S3Client({
    region: opts.region,
    endpoint: opts.endpoint,
    forcePathStyle: opts.forcePathStyle,
    credentials: opts.credentials,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 3,
  });
  const Bucket = opts.bucket;
  const Key = (key: string) => `${opts.prefix}${key}`;

  return {
    async put(key, sourcePath, meta) {
      await client.send(
        new PutObjectCommand({
          Bucket,
          Key: Key(key),
          Body: createReadStream(sourcePath),
          ContentLength: meta.size,
          ContentType: meta.contentType,
          CacheControl: 'public, max-age=31536000, immutable',
        }),
      );
    },

    async read(key, range) {
      try {
        const out = await client.send(new GetObjectCommand({ Bucket, Key: Key(key), Range: range ? `bytes=${range.start}-${range.end}` : undefined }));
        return out.Body as Readable;
      } catch (err) {
        if (missing(err)) throw new StorageMissing(key);
        throw err;
      }
    },

    async delete(keys) {
      // One DELETE per object: DeleteObjects needs a Content-MD5 that some services refuse to
      // compute alike, and a greetie has a handful of files.
      await Promise.all(keys.map((key) => client.send(new DeleteObjectCommand({ Bucket, Key: Key(key) }))));
    },

    async exists(key) {
      try {
        await client.send(new HeadObjectCommand({ Bucket, Key: Key(key) }));
        return true;
      } catch (err) {
        if (missing(err)) return false;
        throw err;
      }
    },
  };
}
