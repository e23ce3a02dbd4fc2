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
 * With FLOOR_SERVE=1 it only builds and serves, printing the base URL, until stopped (Ctrl-C): for
 * bench/main-thread-tasks.ts (the tasks' CPU time × 4, which a busy machine disturbs less).
 */
import http from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { lighthouseRuns } from './frontend.ts';

const RUNS = Number(process.env.FLOOR_RUNS ?? 3);
const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const FIXTURE = fileURLToPath(new URL('./fixtures/react-floor/', import.meta.url));
const PAGES = ['/', '/painted.html', '/empty.html', '/none.html'];
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
      rollupOptions: { input: { index: path.join(FIXTURE, 'index.html'), painted: path.join(FIXTURE, 'painted.html'), empty: path.join(FIXTURE, 'empty.html'), none: path.join(FIXTURE, 'none.html') } },
    },
  });
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
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
