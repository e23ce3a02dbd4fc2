import type { Config } from '../../config.ts';
import type { Storage } from './provider.ts';
import { createLocalStorage } from './local.ts';
import { createS3Storage } from './s3.ts';

/** The storage interface (./provider.ts) and the store config.storage chooses. */
export * from './provider.ts';

export function createStorage(config: Config): Storage {
  const s = config.storage;
  if (s.provider === 's3') return createS3Storage(s.s3);
  return createLocalStorage(s.dir);
}
