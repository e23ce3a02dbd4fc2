import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import {
  OVERLAY_MAX_BYTES,
  OVERLAY_TYPES,
  PHOTO_MAX_BYTES,
  PHOTO_TYPES,
  POSTER_MAX_BYTES,
  VIDEO_MAX_BYTES,
  VIDEO_MAX_SECONDS,
  VIDEO_TYPES,
} from '../../contract/media.ts';
import type { Greetie } from '../../contract/greetie.ts';
import { transaction } from '../db/index.ts';
import { HttpError, badRequest, conflict, notFound } from '../errors.ts';
import type { Deps } from '../services.ts';
import type { Storage } from '../providers/storage/index.ts';
import { lockOwnGreetie, readGreetie } from '../greetie/rules.ts';
import { encodeOverlay, encodePhoto, placeholderPoster, ImageUnreadable, THUMBNAIL_MAX_SIDE, type Encoded } from './photo.ts';
import { probeVideo, VideoUnreadable } from './video.ts';
import { receive, tempName, type Received, type ReceiveRules } from './receive.ts';
import { fileByKey, replaceFiles, uploadTarget, type NewFile, type Role } from './queries.ts';
import { newStorageKey, validSignature } from '../mediaUrls.ts';

/**
 * Media rules (API.md "Greetie": media, mediaoverlay, picture; decisions 070 and 071):
 * - Only the sender may upload, and only to a draft: another user's greetie is 404, a greetie that
 *   has left draft is 409 (checked before the upload is read, and again, locked, before it is kept).
 * - A file's type is read from its bytes; its limit follows from the type and is counted while it
 *   streams to a temporary file. Nothing reaches the storage before it has been checked: photos
 *   are re-encoded (no metadata survives), videos measured (≤ 60 s).
 * - The storage gets new objects first; then one transaction swaps the rows; then the replaced
 *   objects are deleted. A failure in between leaves an unreferenced object, never a row without
 *   its file.
 */

export type MediaDeps = Pick<Deps, 'db' | 'config'> & { services: Pick<Deps['services'], 'now' | 'storage'> };

/** One part of a multipart upload, as the route hands it over. */
export interface UploadPart {
  fieldname: string;
  /** The bytes of a file part; undefined for a plain field. */
  file: Readable | undefined;
}

/** A video may run this much over the limit: container rounding (60.02 s from a 60 s recording). */
const DURATION_SLACK_MS = 500;
const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

/** Where uploads wait while they are checked: on the same disk as DATA_DIR/media, so a rename keeps them. */
export const uploadTmpDir = (dataDir: string) => path.join(dataDir, 'tmp', 'uploads');
const tmpDirOf = (deps: MediaDeps) => uploadTmpDir(deps.config.dataDir);

const isOneOf = <T extends string>(list: readonly T[], mime: string): mime is T => (list as readonly string[]).includes(mime);

function rulesFor(deps: MediaDeps, kind: 'media' | 'poster' | 'overlay' | 'picture'): ReceiveRules {
  const tmpDir = tmpDirOf(deps);
  const emptyError = () => badRequest('MEDIA_UNREADABLE');
  switch (kind) {
    case 'media':
      return {
        tmpDir,
        emptyError,
        maxBytes: (m) => (isOneOf(PHOTO_TYPES, m) ? PHOTO_MAX_BYTES : isOneOf(VIDEO_TYPES, m) ? VIDEO_MAX_BYTES : undefined),
        typeError: () => new HttpError(415, 'MEDIA_TYPE_NOT_ALLOWED'),
        sizeError: (m) =>
          isOneOf(VIDEO_TYPES, m)
            ? new HttpError(413, 'VIDEO_TOO_LARGE', { maxMb: mb(VIDEO_MAX_BYTES) })
            : new HttpError(413, 'PHOTO_TOO_LARGE', { maxMb: mb(PHOTO_MAX_BYTES) }),
      };
    case 'picture':
      return {
        tmpDir,
        emptyError,
        maxBytes: (m) => (isOneOf(PHOTO_TYPES, m) ? PHOTO_MAX_BYTES : undefined),
        typeError: () => new HttpError(415, 'PICTURE_TYPE_NOT_ALLOWED'),
        sizeError: () => new HttpError(413, 'PHOTO_TOO_LARGE', { maxMb: mb(PHOTO_MAX_BYTES) }),
      };
    case 'poster':
      return {
        tmpDir,
        emptyError,
        maxBytes: (m) => (m === 'image/jpeg' || m === 'image/png' || m === 'image/webp' ? POSTER_MAX_BYTES : undefined),
        typeError: () => new HttpError(415, 'POSTER_TYPE_NOT_ALLOWED'),
        sizeError: () => new HttpError(413, 'POSTER_TOO_LARGE', { maxMb: mb(POSTER_MAX_BYTES) }),
      };
    case 'overlay':
      return {
        tmpDir,
        emptyError,
        maxBytes: (m) => (isOneOf(OVERLAY_TYPES, m) ? OVERLAY_MAX_BYTES : undefined),
        typeError: () => new HttpError(415, 'OVERLAY_TYPE_NOT_ALLOWED'),
        sizeError: () => new HttpError(413, 'OVERLAY_TOO_LARGE', { maxMb: mb(OVERLAY_MAX_BYTES) }),
      };
  }
}

/** 404 unless the caller sent the greetie; 409 once it is no longer a draft. Before any byte is read. */
export async function checkUploadTarget(deps: Pick<Deps, 'db'>, userId: string, greetieId: string): Promise<void> {
  const g = await uploadTarget(deps.db, greetieId);
  if (!g || g.sender_id !== userId) throw notFound('GREETIE_NOT_FOUND');
  if (g.status !== 'draft') throw conflict('GREETIE_NOT_DRAFT');
}

/**
 * Reads the parts: `expected` names each allowed file field and how to receive it. Every part is
 * read to its end (refused ones are dropped), so the answer goes out after the request is in.
 */
async function receiveParts(
  deps: MediaDeps,
  parts: AsyncIterable<UploadPart>,
  expected: Record<string, 'media' | 'poster' | 'overlay' | 'picture'>,
): Promise<Map<string, Received>> {
  const got = new Map<string, Received>();
  let failure: unknown;
  try {
    for await (const part of parts) {
      const kind = expected[part.fieldname];
      if (failure || !kind || !part.file || got.has(part.fieldname)) {
        failure ??= badRequest('MEDIA_UNEXPECTED_PART', { field: part.fieldname.slice(0, 40) });
        part.file?.resume();
        continue;
      }
      try {
        got.set(part.fieldname, await receive(part.file, rulesFor(deps, kind)));
      } catch (err) {
        failure = err;
      }
    }
  } catch (err) {
    failure ??= err;
  }
  if (failure) {
    await removeTemp([...got.values()].map((r) => r.path));
    throw mapMultipartError(failure);
  }
  return got;
}

/** @fastify/multipart's own limits and parse errors, as our answers. */
function mapMultipartError(err: unknown): unknown {
  if (err instanceof HttpError) return err;
  const code = (err as { code?: string }).code;
  if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') return badRequest('MEDIA_UNEXPECTED_PART', { field: '…' });
  if (code === 'FST_REQ_FILE_TOO_LARGE') return new HttpError(413, 'PAYLOAD_TOO_LARGE');
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') return new HttpError(415, 'MEDIA_NOT_MULTIPART');
  // busboy: a malformed body ("Unexpected end of form", a missing boundary…).
  if (err instanceof Error && /multipart|boundary|unexpected end of form|malformed/i.test(err.message)) return badRequest('BAD_REQUEST');
  return err;
}

async function removeTemp(paths: string[]): Promise<void> {
  await Promise.all(paths.map((p) => rm(p, { force: true })));
}

function asImageError(err: unknown): never {
  if (err instanceof ImageUnreadable) throw badRequest(err.reason === 'too-many-pixels' ? 'MEDIA_TOO_MANY_PIXELS' : 'MEDIA_UNREADABLE');
  throw err;
}

interface Prepared {
  /** Finished files to store: temporary path, key, row. */
  files: { path: string; row: Omit<NewFile, 'greetie_id'> }[];
}

function prepared(role: Role, kind: 'photo' | 'video', e: Encoded | { path: string; contentType: string; ext: string; size: number; width: number | null; height: number | null }, durationMs: number | null = null) {
  return {
    path: e.path,
    row: {
      role,
      kind,
      storage_key: newStorageKey(e.ext),
      content_type: e.contentType,
      size: e.size,
      width: e.width,
      height: e.height,
      duration_ms: durationMs,
    },
  };
}

const VIDEO_EXT: Record<string, string> = { 'video/mp4': 'mp4', 'video/webm': 'webm', 'video/quicktime': 'mov' };

async function preparePhoto(deps: MediaDeps, upload: Received, role: 'media' | 'picture'): Promise<Prepared> {
  const tmp = tmpDirOf(deps);
  const main = await encodePhoto(upload.path, upload.mime, tempName(tmp, '.photo')).catch(asImageError);
  if (role === 'picture') return { files: [prepared('picture', 'photo', main)] };
  const thumb = await encodePhoto(main.path, main.contentType, tempName(tmp, '.thumb'), THUMBNAIL_MAX_SIDE).catch(asImageError);
  return { files: [prepared('media', 'photo', main), prepared('thumbnail', 'photo', thumb)] };
}

async function prepareVideo(deps: MediaDeps, upload: Received, poster: Received | undefined): Promise<Prepared> {
  const tmp = tmpDirOf(deps);
  let facts;
  try {
    facts = await probeVideo(upload.path, upload.mime);
  } catch (err) {
    if (err instanceof VideoUnreadable) throw badRequest('MEDIA_UNREADABLE');
    throw err;
  }
  // The longest figure the file gives or runs (decision 073): over the limit is too long…
  if (facts.durationMs > VIDEO_MAX_SECONDS * 1000 + DURATION_SLACK_MS) {
    throw badRequest('VIDEO_TOO_LONG', { seconds: Math.round(facts.durationMs / 1000), maxSeconds: VIDEO_MAX_SECONDS });
  }
  // …and a file whose figures disagree cannot be trusted to play as long as it says.
  if (facts.disagreement) {
    throw badRequest('VIDEO_LENGTH_MISMATCH', {}, { reason: facts.disagreement });
  }
  const still = poster
    ? await encodePhoto(poster.path, poster.mime, tempName(tmp, '.poster'), THUMBNAIL_MAX_SIDE).catch(asImageError)
    : await placeholderPoster(tempName(tmp, '.poster'), facts.width, facts.height);
  const video = { path: upload.path, contentType: upload.mime, ext: VIDEO_EXT[upload.mime] ?? 'mp4', size: upload.size, width: facts.width, height: facts.height };
  return { files: [prepared('media', 'video', video, facts.durationMs), prepared('thumbnail', 'photo', still)] };
}

/**
 * Stores the prepared files, then swaps the rows of `replace` roles in one transaction with the
 * greetie locked (still the caller's, still a draft), then deletes what was replaced.
 */
async function keep(deps: MediaDeps, userId: string, greetieId: string, p: Prepared, replace: Role[]): Promise<void> {
  const storage = deps.services.storage;
  const stored: string[] = [];
  let removed: string[] = [];
  try {
    for (const f of p.files) {
      await storage.put(f.row.storage_key, f.path, { contentType: f.row.content_type, size: f.row.size });
      stored.push(f.row.storage_key);
    }
    removed = await transaction(deps.db, async (tx) => {
      const g = await lockOwnGreetie(tx, greetieId, userId);
      if (!g) throw notFound('GREETIE_NOT_FOUND');
      if (g.status !== 'draft') throw conflict('GREETIE_NOT_DRAFT');
      return replaceFiles(tx, greetieId, replace, p.files.map((f) => ({ ...f.row, greetie_id: greetieId })));
    });
  } catch (err) {
    await storage.delete(stored).catch(() => {});
    throw err;
  }
  // The rows are the truth: a failure here leaves unreferenced objects, never a broken greetie.
  await storage.delete(removed).catch(() => {});
}

/** The greetie as its sender reads it (readGreetie signs a draft's media URLs, decision 071). */
function answer(deps: MediaDeps, userId: string, greetieId: string): Promise<Greetie> {
  return readGreetie(deps, userId, greetieId, false);
}

/** POST /greetie/{id}/media: a photo or a video (with an optional poster) replaces the greetie's media. */
export async function uploadMedia(deps: MediaDeps, userId: string, greetieId: string, parts: AsyncIterable<UploadPart>): Promise<Greetie> {
  const got = await receiveParts(deps, parts, { file: 'media', poster: 'poster' });
  const temps = [...got.values()].map((r) => r.path);
  try {
    const upload = got.get('file');
    if (!upload) throw badRequest('MEDIA_FILE_MISSING');
    const poster = got.get('poster');
    const isVideo = isOneOf(VIDEO_TYPES, upload.mime);
    if (!isVideo && poster) throw badRequest('MEDIA_UNEXPECTED_PART', { field: 'poster' });
    const p = isVideo ? await prepareVideo(deps, upload, poster) : await preparePhoto(deps, upload, 'media');
    temps.push(...p.files.map((f) => f.path));
    await keep(deps, userId, greetieId, p, ['media', 'thumbnail']);
    return await answer(deps, userId, greetieId);
  } finally {
    await removeTemp(temps);
  }
}

/** POST /greetie/{id}/mediaoverlay: the content flattened to one PNG or WebP replaces the overlay. */
export async function uploadOverlay(deps: MediaDeps, userId: string, greetieId: string, parts: AsyncIterable<UploadPart>): Promise<Greetie> {
  const got = await receiveParts(deps, parts, { file: 'overlay' });
  const temps = [...got.values()].map((r) => r.path);
  try {
    const upload = got.get('file');
    if (!upload) throw badRequest('MEDIA_FILE_MISSING');
    const encoded = await encodeOverlay(upload.path, upload.mime, tempName(tmpDirOf(deps), '.overlay')).catch(asImageError);
    temps.push(encoded.path);
    await keep(deps, userId, greetieId, { files: [prepared('overlay', 'photo', encoded)] }, ['overlay']);
    return await answer(deps, userId, greetieId);
  } finally {
    await removeTemp(temps);
  }
}

/** POST /greetie/{id}/picture: a photo for a `picture` element → its URL (kept with the greetie). */
export async function uploadPicture(deps: MediaDeps, userId: string, greetieId: string, parts: AsyncIterable<UploadPart>): Promise<{ url: string }> {
  const got = await receiveParts(deps, parts, { file: 'picture' });
  const temps = [...got.values()].map((r) => r.path);
  try {
    const upload = got.get('file');
    if (!upload) throw badRequest('MEDIA_FILE_MISSING');
    const p = await preparePhoto(deps, upload, 'picture');
    temps.push(...p.files.map((f) => f.path));
    await keep(deps, userId, greetieId, p, []);
    return { url: `/api/media/${p.files[0]!.row.storage_key}` };
  } finally {
    await removeTemp(temps);
  }
}

/**
 * GET /media/{key}: the file's type and size when the caller may read it, else 404. A draft's
 * files need the signature its sender was given; a `picture` element's file and every file of a
 * greetie that has left draft are read by the key alone (decision 071).
 */
export async function readableFile(deps: MediaDeps, storageKey: string, q: { exp?: number; sig?: string }) {
  const f = await fileByKey(deps.db, storageKey);
  if (!f) throw notFound('NOT_FOUND');
  const draft = f.status === 'draft';
  if (draft && f.role !== 'picture' && !validSignature(deps.config.tokenSigningKey, storageKey, q.exp, q.sig, deps.services.now())) {
    throw notFound('NOT_FOUND');
  }
  return { contentType: f.content_type, size: f.size, draft };
}

/** What DELETE /greetie/{id} calls once the greetie's rows are gone (server/greetie/cleanup.ts). */
export function createMediaCleanup(storage: Storage) {
  return {
    async deleteForGreetie(greetie: { greetieId: string; storageKeys: string[] }): Promise<void> {
      await storage.delete(greetie.storageKeys);
    },
  };
}
