import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * The reliability suite (docs/decisions/061-reliability-suite.md): fuzzing from the OpenAPI
 * document, the authorization matrix and crash safety, on real PostgreSQL like the server tests.
 *   npm run test:reliability:quick   the seeded quick pass inside `npm test`
 *   npm run test:reliability         the long pass (RELIABILITY=long)
 */
export default defineConfig({
  test: {
    root: fileURLToPath(new URL('../..', import.meta.url)),
    name: 'reliability',
    environment: 'node',
    include: ['tests/reliability/**/*.test.ts'],
    globalSetup: ['tests/server/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
