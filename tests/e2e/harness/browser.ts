import { existsSync } from 'node:fs';
import type { LaunchOptions } from 'playwright-core';

/** Debian's Chromium (.ci/run installs the `chromium` package when it is missing). */
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/**
 * Chromium with everything that would phone home switched off: background connections are
 * refused on the test network, and a journey must see only the requests the app itself makes.
 * Playwright gives every launch a fresh, temporary user-data-dir of its own (it refuses a
 * --user-data-dir flag), so no profile state leaks from one run to the next.
 */
export function launchOptions(): LaunchOptions {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium not found at ${CHROMIUM}: install Debian's package (apt-get install -y chromium) or set CHROMIUM_PATH`);
  }
  return {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  };
}
