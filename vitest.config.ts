import { configDefaults, defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { vanillaExtractPlugin } from '@vanilla-extract/vite-plugin';
import { SlowestFirstSequencer } from './tests/sequencer.ts';

const jsdom = {
  environment: 'jsdom' as const,
  setupFiles: ['tests/client/setup.ts'],
  restoreMocks: true,
  // vanilla-extract's styles are put in the document, so a test can read computed styles.
  css: { include: [/\.vanilla\.css$/] },
};

/**
 * Client files that need a module graph of their own (decision 146): those that replace a module
 * (`vi.mock`); the first-load check, which asks which translation namespaces a fresh start
 * loads; and the /flows bridge's, which reads every actor the page's process still runs. They run isolated, in the project `client-isolated`; every other client file shares its
 * worker's loaded modules with the files before it.
 */
const OWN_MODULES = [
  'tests/client/editor/motion.test.tsx',
  'tests/client/editor/ContentEditor.test.tsx',
  'tests/client/editor/shownAsSent.test.tsx',
  'tests/client/flows/approval.test.tsx',
  'tests/client/shell/firstLoad.test.ts',
  'tests/client/flows/bridge.test.ts',
];
const clientFiles = ['tests/client/**/*.test.{ts,tsx}', 'tests/machines/**/*.test.ts', 'tests/charts/**/*.test.ts', 'tests/lint/**/*.test.ts', 'machines/**/*.test.ts'];

// Five projects: the browser-side code (jsdom; apart, the files that need a module graph of their
// own), the model-based tests generated from machines/ (jsdom), the server (node, real
// PostgreSQL) and the reliability suite. `npm test` runs them in
// one Vitest run (see package.json), so no project's slowest file leaves a core idle at its end.
export default defineConfig({
  test: {
    // Vitest runs (cores − 1) files at once: one on a 2-core machine, which left a core idle while
    // a server test waited on PostgreSQL (its own process). Each server file has its own database.
    maxWorkers: 2,
    sequence: { sequencer: SlowestFirstSequencer },
    projects: [
      {
        plugins: [react(), vanillaExtractPlugin()],
        test: {
          name: 'client',
          include: clientFiles,
          exclude: [...configDefaults.exclude, ...OWN_MODULES],
          // A worker keeps the page modules it has loaded from one file to the next (decision 146);
          // each file still gets its own document, and Testing Library empties it after each test.
          isolate: false,
          ...jsdom,
          // The lint tests run ESLint over the tree and a page's first render compiles its styles:
          // seconds on a busy 2-core machine, where the default 5 s made them time out, not fail.
          testTimeout: 15_000,
        },
      },
      {
        plugins: [react(), vanillaExtractPlugin()],
        test: {
          name: 'client-isolated',
          include: OWN_MODULES,
          ...jsdom,
          testTimeout: 15_000,
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
          // A worker keeps the server's modules loaded from one file to the next (decision 146):
          // importing Fastify and every route afresh was most of a server file's CPU time. Each
          // file still has its own database and its own app (createTestApp()); no server test
          // mocks a module, and the module-level memories (merchant codes, prepared statement
          // names) are keyed by what they remember, so a file never sees another's rows.
          isolate: false,
          globalSetup: ['tests/server/global-setup.ts'],
          testTimeout: 20_000,
          hookTimeout: 60_000,
        },
      },
      {
        // The reliability suite (docs/decisions/061-reliability-suite.md): fuzzing from the OpenAPI
        // document, the authorization matrix and crash safety, on real PostgreSQL like the server
        // tests. `npm test` runs its seeded quick pass in the same run as the unit and model tests,
        // so its long files overlap theirs on the two workers instead of running after them;
        // `npm run test:reliability` is the long pass (RELIABILITY=long).
        test: {
          name: 'reliability',
          environment: 'node',
          include: ['tests/reliability/**/*.test.ts'],
          globalSetup: ['tests/server/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
