/**
 * Where Lighthouse's mobile time goes, A/B (decision 152): one server per side (a checkout and its
 * production build), the four pages of `npm run bench`'s Lighthouse part (a delivered greetie's
 * view made on each), one run a page a side, alternating side by side so both meet the same load,
 * printing each run's figures and `diagnosticsOf` (long tasks, boot-up per script, the main
 * thread by category, the LCP element, the layout shifts), then the medians per side.
 *
 *   node --import tsx bench/lighthouse-diag.ts [label=root:dist | label=http://host:port …]
 *
 * A side given as a URL is a server already running (sandbox on, TRUST_PROXY=on); the script only
 * makes the greetie for its view.
 * With no side it builds this checkout into a temporary directory and measures it alone.
 * LH_RUNS runs per page (3), LH_PAGES a comma list of '/', '/merchant', '/auth/jwt/login', 'view'.
 * The load average is printed with every run: simulated throttling multiplies real main-thread
 * time, so figures on a shared machine are worse than on an idle one.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { lighthouseRuns } from './frontend.ts';
import { ROOT, serve, stop, type Served } from './server.ts';
import { deliveredGreetieWithPhoto } from './view.ts';
import { signIn } from './auth.ts';
import { removeDataDir } from '../server/db/datadir.ts';

const RUNS = Number(process.env.LH_RUNS ?? 3);
const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const PAGES = (process.env.LH_PAGES ?? '/,/merchant,/auth/jwt/login,view').split(',').filter(Boolean);
const log = (s: string) => process.stderr.write(`${s}\n`);
const load = () => os.loadavg()[0]!.toFixed(1);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** A recipient per greetie: a server run again would refuse a fourth greetie a day to one number. */
const freshRecipient = () => `+46709${String(Math.floor(Math.random() * 1e6)).padStart(6, '0')}`;

interface Side {
  label: string;
  root?: string;
  dist?: string;
  url?: string;
  server?: Served;
  dataDir?: string;
  view?: string;
}

async function main(): Promise<void> {
  const work = mkdtempSync(path.join(os.tmpdir(), 'greetie-lhdiag-'));
  const sides: Side[] = process.argv.slice(2).map((arg) => {
    const [label, rest] = arg.split(/=(.*)/s) as [string, string];
    if (/^https?:/.test(rest)) return { label, url: rest };
    const [root, dist] = rest.split(':') as [string, string];
    return { label, root, dist };
  });
  if (sides.length === 0) {
    const dist = path.join(work, 'dist');
    execFileSync('npx', ['vite', 'build', '--outDir', dist, '--emptyOutDir', '--logLevel', 'error', '--manifest'], { cwd: ROOT, stdio: 'ignore', env: { ...process.env, NODE_ENV: 'production' } });
    sides.push({ label: 'this', root: ROOT, dist });
  }
  try {
    for (const side of sides) {
      if (!side.url) {
        side.dataDir = path.join(work, `data-${side.label}`);
        side.server = await serve({ dataDir: side.dataDir, staticDir: side.dist!, env: { TRUST_PROXY: 'on' }, root: side.root });
        side.url = side.server.baseUrl;
      }
      if (PAGES.includes('view')) side.view = (await deliveredGreetieWithPhoto(side.url, signIn, freshRecipient())).path;
      log(`${side.label}: ${side.url} (${side.root ?? 'running'}, ${side.dist ?? ''})`);
    }
    const figures = new Map<string, { score: number; lcp: number; tbt: number; cls: number }[]>();
    for (let run = 1; run <= RUNS; run++) {
      for (const page of PAGES) {
        for (const side of run % 2 ? sides : [...sides].reverse()) {
          const p = page === 'view' ? side.view! : page;
          const before = load();
          const [r] = await lighthouseRuns([side.url! + p], 1, CHROME_PATH, { diagnostics: true });
          const key = `${page}\t${side.label}`;
          const f = { score: r!.performance, lcp: r!.lcpMs, tbt: r!.tbtMs, cls: r!.cls };
          figures.set(key, [...(figures.get(key) ?? []), f]);
          log(`run ${run} ${page} ${side.label} (load ${before}→${load()}): score ${f.score}, LCP ${Math.round(f.lcp)} ms, TBT ${Math.round(f.tbt)} ms, CLS ${f.cls.toFixed(3)}`);
          log(r!.diagnostics?.[0] ?? '');
          log(`    LCP phases: ${r!.lcpBreakdowns[0]}`);
        }
      }
    }
    log('\nmedians (score, LCP ms, TBT ms, CLS):');
    for (const [key, fs] of figures) {
      log(`${key}\t${median(fs.map((f) => f.score))}\t${Math.round(median(fs.map((f) => f.lcp)))}\t${Math.round(median(fs.map((f) => f.tbt)))}\t${median(fs.map((f) => f.cls)).toFixed(3)}\t(runs: ${fs.map((f) => `${f.score}/${Math.round(f.tbt)}`).join(' ')})`);
    }
  } finally {
    for (const side of sides) {
      if (side.server) await stop(side.server);
      if (side.dataDir) removeDataDir(side.dataDir);
    }
  }
}

main().catch((err: unknown) => {
  log(String((err as Error).stack ?? err));
  process.exit(1);
});
