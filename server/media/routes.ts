import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import multipart from '@fastify/multipart';
import { IdParams, errorResponses } from '../../contract/common.ts';
import { Greetie } from '../../contract/greetie.ts';
import {
  MediaFileAnswer,
  MediaFileHeaders,
  MediaFileParams,
  MediaFileQuery,
  MediaNotModified,
  MediaRangeAnswer,
  MediaUploadBody,
  OverlayUploadBody,
  PictureAnswer,
  PictureUploadBody,
  VIDEO_MAX_BYTES,
} from '../../contract/media.ts';
import { access, publicAccess } from '../access.ts';
import { HttpError } from '../errors.ts';
import { StorageMissing } from '../providers/storage/index.ts';
import { closeDecoding, configureDecoding } from './photo.ts';
import { sweepTemp } from './receive.ts';
import { checkUploadTarget, readableFile, uploadTmpDir, uploadMedia, uploadOverlay, uploadPicture, type UploadPart } from './rules.ts';

/**
 * Media (API.md "Greetie": media, mediaoverlay, picture) and the files themselves
 * (GET /api/media/{storageKey}). Uploads are multipart, read as a stream: the route checks who
 * may upload before a byte is read, the rules read and check the parts.
 */

/** A stored file never changes under its key. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** A draft's file: the same bytes forever, but for its sender's browser only. */
const PRIVATE_IMMUTABLE = 'private, max-age=86400, immutable';

async function* partsOf(req: FastifyRequest): AsyncGenerator<UploadPart> {
  for await (const part of req.parts()) {
    yield { fieldname: part.fieldname, file: part.type === 'file' ? part.file : undefined };
  }
}

const requireMultipart = (req: FastifyRequest) => {
  if (!req.isMultipart()) throw new HttpError(415, 'MEDIA_NOT_MULTIPART');
};

/** `bytes=a-b`, `bytes=a-`, `bytes=-n` of a file of `size` bytes; undefined: serve it whole; 'unsatisfiable': 416. */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | undefined {
  if (!header) return undefined;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  // Several ranges, or another unit: the whole file is a correct answer (RFC 9110, 14.2).
  if (!m || (m[1] === '' && m[2] === '')) return undefined;
  if (m[1] === '') {
    const n = Number(m[2]);
    if (n === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (!Number.isSafeInteger(start) || start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((t) => {
    const v = t.trim();
    return v === '*' || v === etag || v === `W/${etag}`;
  });
}

export const mediaRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const deps = { db: app.db, config: app.config, services: app.services };
  // Temporary files a crash left behind (an upload in flight elsewhere is younger than an hour).
  const swept = await sweepTemp(uploadTmpDir(app.config.dataDir), 3600_000);
  if (swept > 0) app.log.info({ swept }, 'removed temporary upload files left by an earlier run');
  // Photos are decoded a few at a time, HEIC in worker threads (decision 072); ended with the app.
  configureDecoding({ concurrency: app.config.mediaDecodeConcurrency });
  app.addHook('onClose', async () => closeDecoding());

  // Only here: the other resources keep answering 415 to multipart bodies.
  await app.register(multipart, {
    // Just over the largest file we take: the rules refuse at the type's own limit first.
    limits: { fileSize: VIDEO_MAX_BYTES + 1, files: 2, fields: 2, parts: 4, fieldSize: 1024, headerPairs: 50 },
  });

  const uploadAccess = access({ visitor: 401, owner: 200, other: 404, note: 'The sender of a draft; another user gets 404, a greetie no longer a draft 409' });

  app.post(
    '/greetie/:id/media',
    {
      preHandler: app.authenticate,
      schema: {
        ...uploadAccess,
        operationId: 'uploadGreetieMedia',
        tags: ['Greetie'],
        summary: "Upload the greetie's photo or video (replaces the one it had)",
        description:
          'multipart/form-data, field `file`: a photo (JPEG, PNG, WebP or HEIC, ≤ 15 MB) or a video (MP4, WebM or MOV, ≤ 100 MB, ≤ 60 s), ' +
          'recognised from its bytes, never from its name or declared type. Photos are re-encoded (≤ 2048 px, no EXIF or GPS, turned upright). ' +
          'A video may come with `poster`, a still for before it plays (JPEG, PNG or WebP ≤ 5 MB); without one it gets a plain poster. ' +
          'Answers the greetie; its media URLs carry a signature while it is a draft. ' +
          '413 over the size limit, 415 another type, 400 a damaged file or a video over 60 s.',
        params: IdParams,
        body: MediaUploadBody,
        response: { 200: Greetie, ...errorResponses(400, 401, 404, 409, 413, 415) },
      },
    },
    async (req) => {
      requireMultipart(req);
      await checkUploadTarget(deps, req.userId, req.params.id);
      return uploadMedia(deps, req.userId, req.params.id, partsOf(req));
    },
  );

  app.post(
    '/greetie/:id/mediaoverlay',
    {
      preHandler: app.authenticate,
      schema: {
        ...uploadAccess,
        operationId: 'uploadGreetieOverlay',
        tags: ['Greetie'],
        summary: 'Upload the content flattened to one image (replaces the one it had)',
        description:
          'multipart/form-data, field `file`: PNG or WebP, ≤ 5 MB, recognised from its bytes. Used for the thumbnail, link previews and lists. ' +
          'Answers the greetie.',
        params: IdParams,
        body: OverlayUploadBody,
        response: { 200: Greetie, ...errorResponses(400, 401, 404, 409, 413, 415) },
      },
    },
    async (req) => {
      requireMultipart(req);
      await checkUploadTarget(deps, req.userId, req.params.id);
      return uploadOverlay(deps, req.userId, req.params.id, partsOf(req));
    },
  );

  app.post(
    '/greetie/:id/picture',
    {
      preHandler: app.authenticate,
      schema: {
        ...uploadAccess,
        operationId: 'uploadGreetiePicture',
        tags: ['Greetie'],
        summary: 'Upload the image of a picture element',
        description:
          'multipart/form-data, field `file`: a photo, with the photo rules (JPEG, PNG, WebP or HEIC, ≤ 15 MB, re-encoded without metadata). ' +
          'Answers `{ url }`, the value for a `picture` content element of this greetie.',
        params: IdParams,
        body: PictureUploadBody,
        response: { 200: PictureAnswer, ...errorResponses(400, 401, 404, 409, 413, 415) },
      },
    },
    async (req) => {
      requireMultipart(req);
      await checkUploadTarget(deps, req.userId, req.params.id);
      return uploadPicture(deps, req.userId, req.params.id, partsOf(req));
    },
  );

  /** GET and HEAD /media/{key}: bytes from the storage, not a serialized body (the plain reply type). */
  async function serveFile(req: Pick<FastifyRequest, 'headers' | 'method' | 'log'> & { params: MediaFileParams; query: MediaFileQuery }, reply: FastifyReply) {
    const key = req.params.storageKey;
    const file = await readableFile(deps, key, req.query);
    const etag = `"${key}"`;
    reply
      .header('etag', etag)
      .header('cache-control', file.draft ? PRIVATE_IMMUTABLE : IMMUTABLE)
      .header('accept-ranges', 'bytes')
      .header('x-content-type-options', 'nosniff')
      // A file is shown by the app, never run as a page of its own.
      .header('content-security-policy', "default-src 'none'; img-src 'self'; media-src 'self'; sandbox")
      .header('cross-origin-resource-policy', 'same-origin');
    if (etagMatches(req.headers['if-none-match'], etag)) return reply.code(304).send();

    const ifRange = req.headers['if-range'];
    const range = ifRange && ifRange !== etag ? undefined : parseRange(req.headers.range, file.size);
    if (range === 'unsatisfiable') {
      throw new HttpError(416, 'RANGE_NOT_SATISFIABLE', {}, undefined, { 'content-range': `bytes */${file.size}` });
    }
    reply.type(file.contentType);
    if (range) reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${file.size}`);
    reply.header('content-length', range ? range.end - range.start + 1 : file.size);
    if (req.method === 'HEAD') return reply.send();
    try {
      return reply.send(await app.services.storage.read(key, range));
    } catch (err) {
      if (err instanceof StorageMissing) {
        req.log.error({ storageKey: key }, 'a media_file row names an object the storage does not have');
        reply.removeHeader('content-length').removeHeader('content-range');
        throw new HttpError(404, 'NOT_FOUND');
      }
      throw err;
    }
  }

  // HEAD by hand, before GET: Fastify's automatic one would read the whole file to throw it away,
  // and answer Content-Length 0 when no body is sent.
  app.head(
    '/media/:storageKey',
    { schema: { ...publicAccess(200), hide: true, params: MediaFileParams, querystring: MediaFileQuery } },
    async (req, reply) => serveFile(req, reply as unknown as FastifyReply),
  );

  app.get(
    '/media/:storageKey',
    {
      schema: {
        ...publicAccess(200, 'Anyone holding the URL: keys are unguessable; a draft\'s files also need the expiring signature its sender is given (decision 071)'),
        operationId: 'getMediaFile',
        tags: ['Media'],
        summary: 'A stored photo, video, poster, overlay or picture',
        description:
          'Range requests (one range) answer 206; an unsatisfiable range 416. Strong ETag (the key: a file never changes), ' +
          'If-None-Match answers 304. Cached for a year (immutable); a draft\'s files privately.',
        params: MediaFileParams,
        querystring: MediaFileQuery,
        headers: MediaFileHeaders,
        response: {
          200: MediaFileAnswer,
          206: MediaRangeAnswer,
          304: MediaNotModified,
          ...errorResponses(400, 404, 416),
        },
      },
    },
    async (req, reply) => serveFile(req, reply as unknown as FastifyReply),
  );
};
