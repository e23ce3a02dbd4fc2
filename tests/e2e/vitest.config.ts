import path from 'node:path';
import { defineConfig } from 'vitest/config';

/**
 * Browser journeys (`npm run test:e2e`): real Chromium against the production build served by the
 * production server. Kept out of the root vitest config because it needs the build, a server and a
 * browser; see docs/decisions/050-browser-journeys.md.
 */
export default defineConfig({
  root: path.resolve(import.meta.dirname, '../..'),
  test: {
    name: 'e2e',
    environment: 'node',
    include: ['tests/e2e/**/*.e2e.test.ts'],
    globalSetup: ['tests/e2e/global-setup.ts'],
    // Two files (visitor, account) in two workers: the browser and the server do the work, and
    // one browser process serves both. More would only fight over 2 cores.
    maxWorkers: 2,
    testTimeout: 45_000,
    hookTimeout: 30_000,
    teardownTimeout: 60_000,
  },
});
