import { createReadStream } from 'node:fs';
import { copyFile, mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { StorageMissing, type Storage } from './provider.ts';

const KEY = /^[A-Za-z0-9_-]{22,}(\.[a-z0-9]{1,5})?$/;

/**
 * Media in a folder (DATA_DIR/media by default). Keys fan out over two levels of subfolders named
 * by their first characters, so no folder grows to millions of entries. A file appears under its
 * final name only when complete (written beside it, then renamed).
 */
export function createLocalStorage(dir: string): Storage {
  const fileOf = (key: string): string => {
    // Keys come from our database, but a key is a path here: never let one climb out.
    if (!KEY.test(key)) throw new Error('invalid storage key');
    return path.join(dir, key.slice(0, 2), key.slice(2, 4), key);
  };

  return {
    async put(key, sourcePath) {
      const file = fileOf(key);
      await mkdir(path.dirname(file), { recursive: true });
      const partial = `${file}.partial`;
      try {
        await rename(sourcePath, partial);
      } catch (err) {
        // Another filesystem (DATA_DIR/tmp on another mount): copy instead.
        if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
        await copyFile(sourcePath, partial);
        await rm(sourcePath, { force: true });
      }
      await rename(partial, file);
    },

    async read(key, range) {
      const file = fileOf(key);
      const stream = createReadStream(file, range ? { start: range.start, end: range.end } : {});
      await new Promise<void>((resolve, reject) => {
        stream.once('open', () => resolve());
        stream.once('error', (err: NodeJS.ErrnoException) => reject(err.code === 'ENOENT' ? new StorageMissing(key) : err));
      });
      return stream as Readable;
    },

    async delete(keys) {
      await Promise.all(keys.map((key) => rm(fileOf(key), { force: true })));
    },

    async exists(key) {
      try {
        return (await stat(fileOf(key))).isFile();
      } catch {
        return false;
      }
    },
  };
}
