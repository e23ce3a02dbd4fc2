import path from 'node:path';
import { defineConfig } from 'vitest/config';
import { SlowestFirstSequencer } from '../sequencer.ts';

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
    // Files run side by side, each journey in its own browser context on the one Chromium. Two at
    // once on 2 cores: with three, the flow viewer's in-browser chart layout (ELK) and the gift
    // journey's 60 s budget were starved on a fresh CI machine (both pass alone and with two).
    maxWorkers: 2,
    sequence: { sequencer: SlowestFirstSequencer },
    // A worker keeps playwright-core loaded from one file to the next (each file still connects
    // and disconnects on its own); importing it afresh per file costs seconds on a busy machine.
    isolate: false,
    // A journey walks a whole flow in a real browser; 45 s was short for compose on a
    // loaded 2-core machine once it hands over to payment in the chart.
    testTimeout: 90_000,
    // Polled expectations wait as long as a locator does (the default 1 s is too short on a busy machine).
    expect: { poll: { timeout: 10_000, interval: 50 } },
    hookTimeout: 30_000,
    teardownTimeout: 60_000,
  },
});
