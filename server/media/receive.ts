import { randomBytes } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { once } from 'node:events';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { fileTypeFromBuffer } from 'file-type';
import type { HttpError } from '../errors.ts';

/** What a file is, from its first bytes (file-type's signatures): never from its name or declared type. */
export interface Sniffed {
  mime: string;
}

/** file-type reads at most this much to decide (its own `reasonableDetectionSizeInBytes`). */
const SNIFF_BYTES = 4100;

/** The names file-type gives, to the types we store under. */
const SAME_AS: Record<string, string> = {
  'image/heif': 'image/heic',
  'video/x-m4v': 'video/mp4',
};

export async function sniff(head: Uint8Array): Promise<Sniffed | undefined> {
  const found = await fileTypeFromBuffer(head);
  if (!found) return undefined;
  return { mime: SAME_AS[found.mime] ?? found.mime };
}

export interface Received {
  /** A temporary file holding exactly what was sent; the caller removes it. */
  path: string;
  size: number;
  mime: string;
}

export interface ReceiveRules {
  /** Where temporary files go (DATA_DIR/tmp/uploads). */
  tmpDir: string;
  /** The largest file allowed for a type, or undefined when the type is refused. */
  maxBytes(mime: string): number | undefined;
  /** The answer for a type that is not allowed (or not recognised). */
  typeError: () => HttpError;
  /** The answer for a file over its type's limit. */
  sizeError: (mime: string) => HttpError;
  /** The answer for an empty file. */
  emptyError: () => HttpError;
}

export const tempName = (tmpDir: string, suffix = '') => path.join(tmpDir, `${randomBytes(12).toString('hex')}${suffix}`);

/**
 * Streams one uploaded file to a temporary file. Its type is decided from the first 4100 bytes,
 * before anything is written, and its size limit (which depends on the type) is counted as the
 * bytes arrive: a file over the limit is refused at the limit, never held whole in memory. On any
 * refusal the partial file is removed and the rest of the upload is read and dropped (the client
 * gets the answer once it has sent its request; the multipart limit bounds how much that is).
 */
export async function receive(stream: Readable, rules: ReceiveRules): Promise<Received> {
  await mkdir(rules.tmpDir, { recursive: true });
  const file = tempName(rules.tmpDir, '.upload');
  // Opened once the type is accepted: a refused file never touches the disk.
  let out: WriteStream | undefined;
  let outError: Error | undefined;
  let size = 0;
  let head: Buffer[] = [];
  let headBytes = 0;
  let type: { mime: string; max: number } | undefined;
  let failure: unknown;

  const decide = async (bytes: Buffer) => {
    const found = await sniff(bytes);
    const max = found ? rules.maxBytes(found.mime) : undefined;
    if (!found || max === undefined) throw rules.typeError();
    type = { mime: found.mime, max };
    out = createWriteStream(file, { flags: 'wx' });
    out.on('error', (err) => (outError = err));
  };
  const write = async (chunk: Buffer) => {
    if (size > type!.max) throw rules.sizeError(type!.mime);
    if (outError) throw outError;
    if (!out!.write(chunk)) await once(out!, 'drain');
  };

  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (failure) continue; // drain
      size += chunk.length;
      try {
        if (!type) {
          head.push(chunk);
          headBytes += chunk.length;
          if (headBytes < SNIFF_BYTES) continue;
          const all = Buffer.concat(head);
          head = [];
          await decide(all);
          await write(all);
        } else {
          await write(chunk);
        }
      } catch (err) {
        failure = err;
      }
    }
  } catch (err) {
    // The multipart parser stops a file at its own limit (set just above ours) with an error.
    const code = (err as { code?: string }).code;
    failure ??= code === 'FST_REQ_FILE_TOO_LARGE' && type ? rules.sizeError(type.mime) : err;
  }

  try {
    if (!failure && !type) {
      if (headBytes === 0) throw rules.emptyError();
      const all = Buffer.concat(head);
      await decide(all);
      await write(all);
    }
    if (failure) throw failure;
    const done = once(out!, 'close');
    out!.end();
    await done;
    if (outError) throw outError;
    return { path: file, size, mime: type!.mime };
  } catch (err) {
    if (out && !out.closed) {
      // The file may still be opening: remove it only once the stream has let go of it.
      const closed = once(out, 'close').catch(() => {});
      out.destroy();
      await closed;
    }
    await rm(file, { force: true });
    throw err;
  }
}

/**
 * Removes temporary files older than `olderThanMs` (left by a crash or a kill mid-upload). Run at
 * start; an upload in flight in another process is younger than that.
 */
export async function sweepTemp(tmpDir: string, olderThanMs: number, now = Date.now()): Promise<number> {
  let names: string[];
  try {
    names = await readdir(tmpDir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    const file = path.join(tmpDir, name);
    try {
      if (now - (await stat(file)).mtimeMs > olderThanMs) {
        await rm(file, { force: true });
        removed++;
      }
    } catch {
      // gone meanwhile
    }
  }
  return removed;
}
