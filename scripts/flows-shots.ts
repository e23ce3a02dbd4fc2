/**
 * npm run flows:shots — pictures of the real pages, one per machine state, for /flows's state
 * panel (issue 29). Builds the app and starts it as the journeys do (tests/e2e/harness: a
 * production build, `node --import tsx server/main.ts` with a fresh embedded PostgreSQL and the
 * sandbox on), opens Chromium at the phone's size (390 × 844), and runs the drivers
 * (scripts/shots/drivers.ts), which walk the pages to each state. The camera knows the states from
 * the app's own /flows channel, so a picture is only taken while its state is really active.
 *
 * Writes docs/flows/shots/<machine>/<state path>.webp (each ≤ 60 KB) and docs/flows/shots/index.json:
 * per machine and state its picture, that no page shows it (src/pages/flows/background.ts, with
 * the reason), or `todo` with why it has none yet. tests/charts/shots.test.ts checks the manifest.
 *
 *   npm run flows:shots                       everything
 *   npm run flows:shots -- --only auth,loader  those drivers (a state they do not picture keeps its picture)
 *   npm run flows:shots -- --base-url http://127.0.0.1:3000   against a server already running (sandbox on)
 *
 * Not part of `npm test`: it takes minutes.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { discoverMachines, readChart, type Chart } from '../charts/chart.ts';
import { SHOTS_DIR, shotStatePaths, type ShotEntry, type ShotManifest } from '../charts/shots.ts';
import { backgroundReason } from '../src/pages/flows/background.ts';
import { launchOptions } from '../tests/e2e/harness/browser.ts';
import { ROOT, buildSpa, startServer, type RunningServer } from '../tests/e2e/harness/server.ts';
import { removeDataDir } from '../server/db/datadir.ts';
import { DRIVERS } from './shots/drivers.ts';
import { Album, Camera, PHONE } from './shots/recorder.ts';

const { values } = parseArgs({ options: { only: { type: 'string' }, 'base-url': { type: 'string' } } });
const only = values.only ? values.only.split(',').map((s) => s.trim()) : null;
const unknown = only?.filter((d) => !DRIVERS[d]) ?? [];
if (unknown.length) {
  console.error(`No driver named ${unknown.join(', ')}; the drivers are ${Object.keys(DRIVERS).join(', ')}.`);
  process.exit(2);
}

async function loadCharts(): Promise<Chart[]> {
  const modules: Record<string, unknown> = {};
  for (const dir of ['machines', ...readdirSync(path.join(ROOT, 'machines'), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => `machines/${d.name}`)]) {
    for (const f of readdirSync(path.join(ROOT, dir))) {
      if (f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.endsWith('.d.ts')) modules[`${dir}/${f}`] = await import(pathToFileURL(path.join(ROOT, dir, f)).href);
    }
  }
  return discoverMachines(modules).map((m) => readChart(m.machine, m.id));
}

const started = Date.now();
const charts = await loadCharts();
const dir = path.join(ROOT, SHOTS_DIR);
const manifestFile = path.join(dir, 'index.json');
const previous: ShotManifest | null = existsSync(manifestFile) ? (JSON.parse(readFileSync(manifestFile, 'utf8')) as ShotManifest) : null;
const drivers = Object.entries(DRIVERS).filter(([name]) => !only || only.includes(name));
const driven = new Set(drivers.flatMap(([, d]) => d.machines));

// A full run takes every picture afresh; with --only, a state not pictured now keeps the one it had.
if (!only && existsSync(dir)) for (const d of readdirSync(dir, { withFileTypes: true })) if (d.isDirectory()) rmSync(path.join(dir, d.name), { recursive: true, force: true });

const album = new Album(dir);
const failures = new Map<string, string>();
let server: RunningServer | undefined;
const work = mkdtempSync(path.join(tmpdir(), 'greetie-shots-'));
let baseURL = values['base-url'];
try {
  if (!baseURL) {
    console.log('flows:shots: building the app…');
    await buildSpa(path.join(work, 'dist'), path.join(work, 'build.log'));
    server = await startServer({ staticDir: path.join(work, 'dist'), dataDir: path.join(work, 'data'), logFile: path.join(work, 'server.log') });
    baseURL = server.baseURL;
  }
  console.log(`flows:shots: the app at ${baseURL} (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  // A fake camera (a test picture) for till mode's scanner, and its permission asked of no one.
  const launch = launchOptions();
  const browser = await chromium.launch({ ...launch, args: [...(launch.args ?? []), '--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'] });
  try {
    for (const [name, driver] of drivers) {
      console.log(`${name} (${driver.machines.join(', ')})`);
      const camera = await Camera.open(browser, album, baseURL);
      try {
        await driver.run(camera);
      } catch (err) {
        const message = (err as Error).message.split('\n')[0];
        console.log(`  ✗ stopped: ${message}`);
        // Where it stopped, for whoever fixes the driver (a directory of their choosing, never docs/).
        if (process.env.FLOWS_SHOTS_DEBUG) await camera.page.screenshot({ path: path.join(process.env.FLOWS_SHOTS_DEBUG, `${name}-stopped.png`) }).catch(() => undefined);
        for (const m of driver.machines) failures.set(m, `the ${name} driver stopped: ${message}`);
      } finally {
        await camera.close();
      }
    }
  } finally {
    await browser.close();
  }
} finally {
  await server?.stop().catch((err: unknown) => console.error(`the server did not stop cleanly: ${(err as Error).message}`));
  removeDataDir(path.join(work, 'data'));
  rmSync(work, { recursive: true, force: true });
}

const manifest: ShotManifest = { viewport: PHONE, machines: {} };
const counts = { picture: 0, noPage: 0, todo: 0 };
for (const chart of charts) {
  const entries: Record<string, ShotEntry> = {};
  for (const statePath of shotStatePaths(chart)) {
    const picture = album.pictures.get(chart.id)?.get(statePath);
    const reason = backgroundReason(chart.id, statePath);
    const before = previous?.machines[chart.id]?.[statePath];
    let entry: ShotEntry;
    if (reason) entry = { noPage: reason };
    else if (picture) entry = { picture: picture.file, page: picture.page };
    else if (only && before && 'picture' in before && existsSync(path.join(dir, before.picture))) entry = before;
    else if (only && !driven.has(chart.id) && before && 'todo' in before) entry = before;
    else if (driven.has(chart.id)) entry = { todo: failures.get(chart.id) ?? 'its driver does not reach it yet' };
    else entry = { todo: 'no driver for this machine yet (scripts/shots/drivers.ts)' };
    entries[statePath] = entry;
    counts['picture' in entry ? 'picture' : 'noPage' in entry ? 'noPage' : 'todo'] += 1;
  }
  manifest.machines[chart.id] = entries;
}
mkdirSync(dir, { recursive: true });
writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);

// Pictures no entry names any more (a state renamed or gone) go.
const named = new Set(Object.values(manifest.machines).flatMap((e) => Object.values(e).flatMap((x) => ('picture' in x ? [x.picture] : []))));
for (const machine of readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory())) {
  for (const f of readdirSync(path.join(dir, machine.name))) {
    if (!named.has(`${machine.name}/${f}`)) rmSync(path.join(dir, machine.name, f));
  }
}

console.log(
  `flows:shots: ${counts.picture} states pictured, ${counts.noPage} shown by no page, ${counts.todo} todo; wrote ${path.relative(ROOT, manifestFile)} in ${((Date.now() - started) / 1000).toFixed(0)} s`,
);
