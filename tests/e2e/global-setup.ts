import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { buildSpa, startServer, ROOT, type RunningServer } from './harness/server.ts';
import { launchOptions } from './harness/browser.ts';
import type { TestProject } from 'vitest/node';
import { removeDataDir } from '../../server/db/datadir.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the production server answers, e.g. http://127.0.0.1:41234 */
    baseURL: string;
    /** Playwright endpoint of the one Chromium every journey connects to. */
    browserWSEndpoint: string;
    /** test-results/ at the repository root: screenshots and logs. */
    resultsDir: string;
  }
}

/**
 * One production build, one server (`node --import tsx server/main.ts`, fresh DATA_DIR, embedded
 * PostgreSQL, sandbox on) and one Chromium for the whole run. Journeys open their own browser
 * contexts (one per viewport) on that browser.
 */
export default async function setup(project: TestProject) {
  const resultsDir = path.join(ROOT, 'test-results');
  mkdirSync(resultsDir, { recursive: true });
  // Screenshots and axe reports of an earlier run would pass for this one's.
  for (const f of readdirSync(resultsDir)) {
    if (f.endsWith('.png') || f.endsWith('-axe.json')) rmSync(path.join(resultsDir, f), { force: true });
  }
  const work = mkdtempSync(path.join(tmpdir(), 'greetie-e2e-'));
  const staticDir = path.join(work, 'dist');
  const serverLog = path.join(resultsDir, 'e2e-server.log');

  const t0 = Date.now();
  const since = () => `${((Date.now() - t0) / 1000).toFixed(1)} s`;
  let server: RunningServer | undefined;
  // The build and Chromium's start-up do not depend on each other.
  const browserPromise = chromium.launchServer(launchOptions());
  browserPromise.catch(() => {});
  try {
    await buildSpa(staticDir, path.join(resultsDir, 'e2e-build.log'));
    console.log(`e2e: production build ready (${since()})`);
    server = await startServer({ staticDir, dataDir: path.join(work, 'data'), logFile: serverLog });
  } catch (err) {
    await browserPromise.then((b) => b.close()).catch(() => {});
    removeDataDir(path.join(work, 'data'));
    rmSync(work, { recursive: true, force: true });
    throw err;
  }
  const browser = await browserPromise;
  console.log(`e2e: server at ${server.baseURL}, Chromium ${browser.wsEndpoint() ? 'up' : ''} (${since()})`);

  project.provide('baseURL', server.baseURL);
  project.provide('browserWSEndpoint', browser.wsEndpoint());
  project.provide('resultsDir', resultsDir);

  return async () => {
    const t1 = Date.now();
    await browser.close();
    try {
      await server.stop();
    } finally {
      rmSync(staticDir, { recursive: true, force: true });
    }
    removeDataDir(path.join(work, 'data'));
    rmSync(work, { recursive: true, force: true });
    // A journey can pass while the server fails behind it (a 500 the page shrugged off).
    const errors = readFileSync(serverLog, 'utf8')
      .split('\n')
      .filter((line) => /"level":(50|60)\b/.test(line));
    if (errors.length) throw new Error(`the server logged ${errors.length} error(s) during the journeys:\n${errors.slice(0, 5).join('\n')}`);
    console.log(`e2e: server and database stopped cleanly (${((Date.now() - t1) / 1000).toFixed(1)} s)`);
  };
}
