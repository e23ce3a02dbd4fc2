import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { vanillaExtractPlugin } from '@vanilla-extract/vite-plugin';

const jsdom = {
  environment: 'jsdom' as const,
  setupFiles: ['tests/client/setup.ts'],
  restoreMocks: true,
  // vanilla-extract's styles are put in the document, so a test can read computed styles.
  css: { include: [/\.vanilla\.css$/] },
};

// Three projects: the browser-side code (jsdom), the model-based tests generated from machines/
// (jsdom; run by `npm run test:paths`), and the server (node, real PostgreSQL).
export default defineConfig({
  test: {
    projects: [
      {
        plugins: [react(), vanillaExtractPlugin()],
        test: {
          name: 'client',
          include: ['tests/client/**/*.test.{ts,tsx}', 'tests/machines/**/*.test.ts', 'tests/charts/**/*.test.ts', 'tests/lint/**/*.test.ts', 'machines/**/*.test.ts'],
          ...jsdom,
        },
      },
      {
        plugins: [react(), vanillaExtractPlugin()],
        test: {
          name: 'model',
          include: ['tests/model/**/*.test.{ts,tsx}'],
          ...jsdom,
          // A path at UI level renders real pages (the first compose path takes ~3 s cold); on a
          // busy 2-core machine the default 5 s is too tight, and one timed-out path spoils the rest.
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'server',
          environment: 'node',
          include: ['tests/server/**/*.test.ts'],
          globalSetup: ['tests/server/global-setup.ts'],
          testTimeout: 20_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
