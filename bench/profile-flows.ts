/**
 * `node --import tsx bench/profile-flows.ts [loads] [machines]`: where a cold load of
 * /flows?machine=… spends its time before the chart is drawn (issue 29 "Drawn at once"; decision
 * 139). Builds into a directory of its own (or takes PROFILE_DIST, a built tree), starts the
 * production server as the bench does (bench/server.ts, embedded PostgreSQL), then loads each
 * machine `loads` times (5) cold at 1400 × 900, like bench/flows.ts, and prints per load and as
 * medians the steps, in ms from navigation:
 * the HTML answered, the entry script answered, the page's chunk requested and answered, the
 * GET /api/sandbox requested and answered, the route's early chunk and the machine's files (chart, layout,
 * paths: the first requested, the last answered), the first
 * "Laddar"/"Ritar" status in the document, the chart's first state in the document and the frame
 * after it (the bench's "drawn"), and the main thread's long tasks (> 50 ms) before it.
 * PROFILE_CPU=1 also records a CPU profile of each load (CDP) and prints self time by script and
 * by function.
 * Not part of `npm run bench`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { launchOptions } from '../tests/e2e/harness/browser.ts';
import { ROOT, serve, stop } from './server.ts';
import { removeDataDir } from '../server/db/datadir.ts';

interface Steps {
  [step: string]: number | undefined;
}

// A string, not a function: tsx would wrap a function's inner functions in a helper the page lacks.
const WATCH = `window.__marks = {};
window.__longTasks = [];
new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__longTasks.push([Math.round(e.startTime), Math.round(e.duration)]); }).observe({ type: 'longtask', buffered: true });
window.__flowsDrawn = new Promise((resolve) => {
  const observer = new MutationObserver(() => {
    const m = window.__marks;
    if (m.frame === undefined && document.querySelector('[role="region"] [role="status"], [role="region"] svg')) m.frame = performance.now();
    if (m.checking === undefined && document.querySelector('main [role="status"]')) m.checking = performance.now();
    if (!document.querySelector('svg[role="group"] g.state')) return;
    m.state = performance.now();
    observer.disconnect();
    requestAnimationFrame(() => resolve(performance.now()));
  });
  observer.observe(document, { childList: true, subtree: true });
});`;

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

/** Self time by script (and by function within the page's chunks), over all profiles, in ms. */
function summariseCpu(profiles: CpuProfile[]): void {
  const byUrl = new Map<string, number>();
  const byFn = new Map<string, number>();
  for (const p of profiles) {
    const nodes = new Map(p.nodes.map((n) => [n.id, n]));
    p.samples.forEach((id, i) => {
      const n = nodes.get(id)!;
      const ms = (p.timeDeltas[i + 1] ?? 0) / 1000;
      const url = n.callFrame.url ? new URL(n.callFrame.url).pathname : `(${n.callFrame.functionName || 'native'})`;
      byUrl.set(url, (byUrl.get(url) ?? 0) + ms);
      const fn = `${n.callFrame.functionName || '(anonymous)'} ${url}:${n.callFrame.lineNumber}`;
      byFn.set(fn, (byFn.get(fn) ?? 0) + ms);
    });
  }
  const top = (m: Map<string, number>, n: number) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => `  ${(v / profiles.length).toFixed(0).padStart(6)} ms  ${k}`)
      .join('\n');
  console.log(`\nCPU self time per load (mean over ${profiles.length}), by script:\n${top(byUrl, 15)}\nby function:\n${top(byFn, 25)}`);
}

const cpu = process.env.PROFILE_CPU === '1';
const cpuProfiles: CpuProfile[] = [];

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

async function main(): Promise<void> {
  const loads = Number(process.argv[2] ?? 5);
  const machines = (process.argv[3] ?? 'payment,compose,auth').split(',');
  const work = mkdtempSync(path.join(os.tmpdir(), 'greetie-profile-flows-'));
  const dist = process.env.PROFILE_DIST ?? path.join(work, 'dist');
  if (!process.env.PROFILE_DIST) {
    execFileSync('npx', ['vite', 'build', '--outDir', dist, '--emptyOutDir', '--logLevel', 'error'], { cwd: ROOT, stdio: 'ignore' });
  }
  const dataDir = path.join(work, 'data');
  const server = await serve({ dataDir, staticDir: dist, env: { TRUST_PROXY: 'on' } });
  const browser = await chromium.launch(launchOptions());
  const rows: { machine: string; steps: Steps; long: [number, number][] }[] = [];
  try {
    const once = async (machine: string) => {
      const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
      try {
        const page = await context.newPage();
        await page.addInitScript(WATCH);
        const cdp = cpu ? await context.newCDPSession(page) : undefined;
        if (cdp) {
          await cdp.send('Profiler.enable');
          await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
          await cdp.send('Profiler.start');
        }
        await page.goto(`${server.baseUrl}/flows?machine=${encodeURIComponent(machine)}`, { waitUntil: 'commit' });
        await page.waitForSelector('svg[role="group"] g.state', { timeout: 30_000 });
        const drawn = await page.evaluate(() => (window as unknown as { __flowsDrawn: Promise<number> }).__flowsDrawn);
        if (cdp) cpuProfiles.push(((await cdp.send('Profiler.stop')) as { profile: CpuProfile }).profile);
        const got = await page.evaluate(() => {
          const w = window as unknown as { __marks: Record<string, number>; __longTasks: [number, number][] };
          const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
          const res = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((r) => ({
            name: new URL(r.name).pathname,
            start: r.startTime,
            end: r.responseEnd,
            size: r.encodedBodySize,
          }));
          return { nav: { html: nav.responseEnd, dcl: nav.domContentLoadedEventEnd }, res, marks: w.__marks, long: w.__longTasks };
        });
        const find = (re: RegExp) => got.res.find((r) => re.test(r.name));
        const entry = find(/\/assets\/index-[\w-]+\.js$/);
        // The flows group's chunk is the one that holds the page (its name is "routes-…", as every group's).
        const chunk = got.res.filter((r) => /\/assets\/routes-[\w-]+\.js$/.test(r.name)).sort((a, b) => b.size - a.size)[0];
        const sandbox = find(/\/api\/sandbox$/);
        // The machine's files (its chart, layout and paths: decision 142) are chunks named after it.
        const machineFiles = got.res.filter((r) => new RegExp(`/assets/${machine}-[\\w-]+\\.js$`).test(r.name));
        const early = find(/\/assets\/early-[\w-]+\.js$/);
        const steps: Steps = {
          html: got.nav.html,
          entryJs: entry?.end,
          chunkStart: chunk?.start,
          chunkEnd: chunk?.end,
          checking: got.marks.checking,
          sandboxStart: sandbox?.start,
          sandboxEnd: sandbox?.end,
          frame: got.marks.frame,
          earlyStart: early?.start,
          earlyEnd: early?.end,
          machineFilesStart: machineFiles.length ? Math.min(...machineFiles.map((r) => r.start)) : undefined,
          machineFilesEnd: machineFiles.length ? Math.max(...machineFiles.map((r) => r.end)) : undefined,
          state: got.marks.state,
          drawn,
        };
        return { steps, long: got.long.filter(([at]) => at <= drawn), chunkKiB: chunk ? chunk.size / 1024 : 0 };
      } finally {
        await context.close();
      }
    };
    await once(machines[0]!);
    for (const machine of machines) {
      for (let i = 0; i < loads; i++) {
        const r = await once(machine);
        rows.push({ machine, steps: r.steps, long: r.long });
        const fmt = Object.entries(r.steps)
          .map(([k, v]) => `${k} ${v === undefined ? '–' : Math.round(v)}`)
          .join(', ');
        console.log(`${machine} #${i + 1}: ${fmt}; long tasks ${r.long.map(([a, d]) => `${d}@${a}`).join(' ') || 'none'} (chunk ${r.chunkKiB.toFixed(1)} KiB over the wire)`);
      }
    }
    const keys = Object.keys(rows[0]!.steps);
    console.log(`\nmedians over ${rows.length} loads (ms from navigation; load average ${os.loadavg().map((x) => x.toFixed(2)).join(', ')}):`);
    for (const k of keys) {
      const xs = rows.map((r) => r.steps[k]).filter((x): x is number => x !== undefined);
      console.log(`  ${k.padEnd(13)} ${xs.length ? Math.round(median(xs)) : '–'}`);
    }
    const longSum = rows.map((r) => r.long.reduce((s, [, d]) => s + d, 0));
    console.log(`  long tasks before drawn, total: median ${Math.round(median(longSum))} ms`);
    if (cpu) summariseCpu(cpuProfiles);
  } finally {
    await browser.close();
    await stop(server);
    removeDataDir(dataDir);
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
