import type { Readable } from 'node:stream';

/**
 * Where media bytes live: a folder under DATA_DIR (default) or an S3-compatible bucket
 * (MEDIA_STORAGE=s3). Objects are written once under an unguessable key and never changed, so a
 * key names one immutable file; the database (media_file) knows its type and size.
 */
export interface Storage {
  /** Stores the file at `sourcePath` (a finished temporary file) under `key`. */
  put(key: string, sourcePath: string, meta: { contentType: string; size: number }): Promise<void>;
  /** The object's bytes, or `range` of them (inclusive byte offsets). Throws StorageMissing when absent. */
  read(key: string, range?: { start: number; end: number }): Promise<Readable>;
  /** Removes the objects; keys that do not exist are ignored. */
  delete(keys: readonly string[]): Promise<void>;
  /** True when the object exists (tests and clean-up checks). */
  exists(key: string): Promise<boolean>;
}

export class StorageMissing extends Error {
  constructor(key: string) {
    super(`no stored object ${key}`);
    this.name = 'StorageMissing';
  }
}
