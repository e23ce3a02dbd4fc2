/**
 * The floor under issue 28's TBT (decision 161): what React 19 alone costs in Lighthouse's mobile
 * preset on this host. Builds bench/fixtures/react-floor with Vite in production mode (react and
 * react-dom from node_modules, nothing of the app) into a temporary folder, serves it statically on
 * localhost (node:http, no throttling, no compression), and runs the bench's own `lighthouseRuns`
 * on four pages, alternating:
 *   - `/` (hej.tsx): `createRoot(el).render(<div>Hej</div>)` into an empty page (the first paint is
 *     React's, so react-dom's evaluation often falls before FCP, where TBT does not count);
 *   - `/painted.html`: the same after a first screen in the HTML, as the app's pages (decision 094),
 *     so that everything React does is after FCP;
 *   - `/empty.html` (empty.tsx): react-dom/client imported, nothing rendered;
 *   - `/none.html`: the same text, no script (the host's own floor).
 * Prints each run's score, TBT, LCP, long tasks and `benchmarkIndex`, then the medians.
 *
 *   nice -n -10 node --import tsx bench/react-floor.ts      (FLOOR_RUNS runs a page, 3)
 *
 * With FLOOR_SESSION=N it times react-dom's evaluation in the page instead (`/session.html`, a
 * `performance.measure` around react-dom's module, reported back to this server), N loads a side,
 * alternating: Chromium given only the URL (no DevTools session), and Chromium driven by puppeteer
 * (a DevTools session with `Runtime` enabled, as Lighthouse has). Decision 161: V8 re-parses
 * react-dom's wrapper function for source positions only while such a session is attached.
 *
 * With FLOOR_SERVE=1 it only builds and serves, printing the base URL, until stopped (Ctrl-C): for
 * bench/main-thread-tasks.ts (the tasks' CPU time × 4, which a busy machine disturbs less).
 */
import http from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import * as chromeLauncher from 'chrome-launcher';
import puppeteer from 'puppeteer-core';
import { lighthouseRuns } from './frontend.ts';

const RUNS = Number(process.env.FLOOR_RUNS ?? 3);
const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const FIXTURE = fileURLToPath(new URL('./fixtures/react-floor/', import.meta.url));
const PAGES = ['/', '/painted.html', '/empty.html', '/none.html'];
const SESSION_RUNS = Number(process.env.FLOOR_SESSION ?? 0);
/** The page's own measure of react-dom's evaluation, by label, as `/measured` receives them. */
const measured = new Map<string, (ms: number) => void>();

/** One load of `/session.html#label`, with or without a DevTools session; the page's measure in ms. */
async function timedLoad(base: string, label: string, session: boolean): Promise<number> {
  const got = new Promise<number>((resolve) => measured.set(label, resolve));
  const url = `${base}/session.html#${label}`;
  const flags = ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run', '--no-default-browser-check'];
  if (session) {
    const browser = await puppeteer.launch({ executablePath: CHROME_PATH, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
    try {
      await (await browser.newPage()).goto(url);
      return await withTimeout(got);
    } finally {
      await browser.close();
    }
  }
  const chrome = await chromeLauncher.launch({ chromePath: CHROME_PATH, chromeFlags: flags, startingUrl: url, logLevel: 'silent' });
  try {
    return await withTimeout(got);
  } finally {
    chrome.kill();
  }
}
const withTimeout = (p: Promise<number>) => Promise.race([p, new Promise<number>((resolve) => setTimeout(() => resolve(NaN), 15_000))]);
const log = (s: string) => process.stderr.write(`${s}\n`);
const load = () => os.loadavg().map((l) => l.toFixed(1)).join(' ');
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8' };

async function main(): Promise<void> {
  const out = mkdtempSync(path.join(os.tmpdir(), 'greetie-react-floor-'));
  await build({
    configFile: false,
    root: FIXTURE,
    logLevel: 'warn',
    mode: 'production',
    oxc: { jsx: { runtime: 'automatic' } },
    build: {
      outDir: out,
      emptyOutDir: true,
      modulePreload: false,
      rollupOptions: {
        input: Object.fromEntries(['index', 'painted', 'empty', 'none', 'session'].map((name) => [name, path.join(FIXTURE, `${name}.html`)])),
      },
    },
  });
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/measured') {
      measured.get(url.searchParams.get('label') ?? '')?.(Number(url.searchParams.get('ms')));
      res.writeHead(204).end();
      return;
    }
    const file = path.join(out, url.pathname === '/' ? 'index.html' : path.normalize(url.pathname));
    try {
      const body = readFileSync(file);
      res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-cache' });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://localhost:${(server.address() as { port: number }).port}`;
  if (process.env.FLOOR_SERVE) {
    process.stdout.write(`${base}\n`);
    const done = () => {
      server.close();
      rmSync(out, { recursive: true, force: true });
      process.exit(0);
    };
    process.on('SIGINT', done);
    process.on('SIGTERM', done);
    return;
  }
  if (SESSION_RUNS > 0) {
    const times: Record<string, number[]> = { 'no session': [], 'DevTools session': [] };
    try {
      for (let run = 1; run <= SESSION_RUNS; run++) {
        for (const session of run % 2 ? [false, true] : [true, false]) {
          const side = session ? 'DevTools session' : 'no session';
          const before = load();
          const ms = await timedLoad(base, `run${run}-${session ? 'session' : 'plain'}`, session);
          times[side]!.push(ms);
          log(`run ${run} ${side} (load ${before}): react-dom evaluated in ${ms} ms`);
        }
      }
      for (const [side, xs] of Object.entries(times)) log(`${side}: median ${median(xs)} ms (runs ${xs.join(', ')})`);
    } finally {
      server.close();
      rmSync(out, { recursive: true, force: true });
    }
    return;
  }
  const figures = new Map<string, { score: number; tbt: number; lcp: number; index: number }[]>();
  try {
    for (let run = 1; run <= RUNS; run++) {
      for (const page of PAGES) {
        const before = load();
        const [r] = await lighthouseRuns([base + page], 1, CHROME_PATH, { diagnostics: true });
        const f = { score: r!.performance, tbt: r!.tbtMs, lcp: r!.lcpMs, index: r!.benchmarkIndexes[0]! };
        figures.set(page, [...(figures.get(page) ?? []), f]);
        log(`run ${run} ${page} (load ${before} → ${load()}): score ${f.score}, TBT ${Math.round(f.tbt)} ms, LCP ${Math.round(f.lcp)} ms, benchmarkIndex ${Math.round(f.index)}`);
        log(r!.diagnostics?.[0] ?? '');
      }
    }
    log('\nmedians (score, TBT ms, LCP ms, benchmarkIndex):');
    for (const [page, fs] of figures) {
      log(`${page}\t${median(fs.map((f) => f.score))}\t${Math.round(median(fs.map((f) => f.tbt)))}\t${Math.round(median(fs.map((f) => f.lcp)))}\t${Math.round(median(fs.map((f) => f.index)))}\t(runs: ${fs.map((f) => `${f.score}/${Math.round(f.tbt)}/${Math.round(f.index)}`).join(' ')})`);
    }
  } finally {
    server.close();
    rmSync(out, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  log(String((err as Error).stack ?? err));
  process.exit(1);
});
