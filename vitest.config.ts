import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { vanillaExtractPlugin } from '@vanilla-extract/vite-plugin';

// Two projects: the browser-side code (jsdom) and the server (node, real PostgreSQL).
export default defineConfig({
  test: {
    projects: [
      {
        plugins: [react(), vanillaExtractPlugin()],
        test: {
          name: 'client',
          environment: 'jsdom',
          include: ['tests/client/**/*.test.{ts,tsx}', 'tests/machines/**/*.test.ts', 'src/**/*.test.{ts,tsx}', 'machines/**/*.test.ts', 'tests/model/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/client/setup.ts'],
          restoreMocks: true,
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
