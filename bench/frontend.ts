import { readFileSync, readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/**
 * What '/' makes the browser fetch before the app is interactive, read from the built tree:
 * the entry script and stylesheets index.html names (script, modulepreload, stylesheet links),
 * plus every chunk those scripts import statically (followed transitively). Everything else in
 * assets/ that is JavaScript is a lazy chunk (loaded by import() when a route needs it).
 * Sizes are measured here with gzip -9 and brotli q11 on the files themselves, which is what the
 * server sends (vite-plugin-compression2 writes .gz/.br with the same maximum settings).
 */
export interface FileSize {
  file: string;
  raw: number;
  gzip: number;
  brotli: number;
}

export interface RouteLoad {
  /** A path of the app (a pattern for routes with a parameter). */
  route: string;
  /** The route group's lazy chunk (src/pages/<group>/routes.tsx). */
  group: string;
  /** Everything the route needs before its page shows: the initial files, its group's chunk and that chunk's static imports, and the group's Swedish strings and voucher store (loaded beside it). */
  js: Omit<FileSize, 'file'>;
  css: Omit<FileSize, 'file'>;
  /** Of which the route's own (not in the initial load). */
  ownJs: Omit<FileSize, 'file'>;
}

export interface BundleReport {
  initialJs: FileSize[];
  initialCss: FileSize[];
  lazyChunks: FileSize[];
  totals: { initialJs: Omit<FileSize, 'file'>; initialCss: Omit<FileSize, 'file'> };
  /** Per route, from the build's manifest (`vite build --manifest`); empty without one. */
  routes: RouteLoad[];
  /** The languages whose strings are in the initial load (a chunk named i18n.<lang> is lazy). */
  lazyLanguages: string[];
}

/** The routes reported, each with its group (src/app/routes.tsx). */
export const ROUTES: [route: string, group: string][] = [
  ['/', 'landing'],
  ['/merchant', 'merchant'],
  ['/merchant/details/:id', 'merchant'],
  ['/auth/jwt/login', 'auth'],
  ['/greetie/view/:id', 'greetie/view'],
  ['/greetie/new', 'greetie'],
  ['/my/profile', 'my'],
  ['/redeem', 'redeem'],
  ['/voucher', 'voucher'],
  ['/sandbox', 'sandbox'],
  ['/flows', 'flows'],
  ['/404', 'errors'],
];

function sizeOf(dist: string, rel: string): FileSize {
  const buf = readFileSync(path.join(dist, rel));
  return {
    file: rel,
    raw: buf.length,
    gzip: gzipSync(buf, { level: 9 }).length,
    brotli: brotliCompressSync(buf, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
}

const sum = (xs: FileSize[]) => ({
  raw: xs.reduce((a, f) => a + f.raw, 0),
  gzip: xs.reduce((a, f) => a + f.gzip, 0),
  brotli: xs.reduce((a, f) => a + f.brotli, 0),
});

/** Static `import … from "./x.js"` and bare `import "./x.js"` in minified output (not `import(`). */
function staticImports(code: string): string[] {
  const out: string[] = [];
  const re = /(?:^|[;\n}])\s*(?:import|export)\s*(?:[\w$*{}\s,]+?\s*from\s*)?["']([^"']+\.js)["']/g;
  for (const m of code.matchAll(re)) out.push(m[1]!);
  return out;
}

/** `start` plus its static imports, transitively (paths relative to dist). */
function closure(dist: string, start: string[]): Set<string> {
  const seen = new Set(start);
  const queue = [...start];
  while (queue.length) {
    const rel = queue.shift()!;
    const file = path.join(dist, rel);
    if (!existsSync(file)) continue;
    for (const spec of staticImports(readFileSync(file, 'utf8'))) {
      const next = path.posix.normalize(path.posix.join(path.posix.dirname(rel), spec));
      if (!seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  return seen;
}

interface ManifestChunk {
  file: string;
  name?: string;
  css?: string[];
  imports?: string[];
}

/**
 * What each route group's `lazy` loads beside its page chunk (src/app/routes.tsx `groups`): its
 * locale namespaces, for some the voucher store, and for all but the start page the session's code
 * (which main.tsx starts loading at once; decision 011). Read from the source's text, so the bench
 * needs no React to know it; tests/client/shell/firstLoad.test.ts keeps the lists true.
 */
function groupExtras(): Map<string, { namespaces: string[]; voucherStore: boolean; session: boolean }> {
  const src = readFileSync(path.join(process.cwd(), 'src/app/routes.tsx'), 'utf8');
  const out = new Map<string, { namespaces: string[]; voucherStore: boolean; session: boolean }>();
  const re = /\bgroup\(\(\) => import\('\.\.\/pages\/([\w/-]+)\/routes\.tsx'\)(?:,\s*\[([^\]]*)\])?(?:,\s*\{([^}]*)\})?\)/g;
  for (const m of src.matchAll(re)) {
    const namespaces = [...(m[2] ?? '').matchAll(/'([\w-]+)'/g)].map((n) => n[1]!);
    const options = m[3] ?? '';
    out.set(m[1]!, { namespaces, voucherStore: /voucherStore: true/.test(options), session: !/session: false/.test(options) });
  }
  return out;
}

function routeLoads(dist: string, initialJs: Set<string>, initialCss: Set<string>): RouteLoad[] {
  const manifestFile = path.join(dist, '.vite', 'manifest.json');
  if (!existsSync(manifestFile)) return [];
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, ManifestChunk>;
  const extras = groupExtras();
  const out: RouteLoad[] = [];
  for (const [route, group] of ROUTES) {
    const entry = manifest[`src/pages/${group}/routes.tsx`];
    if (!entry) continue;
    // The group's page chunk, its Swedish strings (the default language), when it shows gifts the
    // voucher store, and the session's code: all loaded before the page renders.
    const extra = extras.get(group);
    const alongside = [
      ...(extra?.namespaces ?? []).map((ns) => manifest[`locales/sv/${ns}.json`]?.file),
      extra?.voucherStore ? manifest['src/app/vouchers.ts']?.file : undefined,
      // One chunk of its own (vite.config.ts's group 'session'), or src/app/sessionCode.ts's.
      extra?.session ? (manifest['src/app/sessionCode.ts'] ?? Object.values(manifest).find((c) => c.name === 'session'))?.file : undefined,
    ].filter((f): f is string => Boolean(f));
    const js = closure(dist, [...initialJs, entry.file, ...alongside]);
    const css = new Set(initialCss);
    // The CSS of the group's chunk and of every chunk it imports.
    const cssOf = (key: string, seen = new Set<string>()) => {
      if (seen.has(key)) return;
      seen.add(key);
      const c = manifest[key];
      for (const f of c?.css ?? []) css.add(f);
      for (const i of c?.imports ?? []) cssOf(i, seen);
    };
    cssOf(`src/pages/${group}/routes.tsx`);
    const files = (set: Set<string>) => [...set].filter((f) => existsSync(path.join(dist, f))).map((f) => sizeOf(dist, f));
    out.push({ route, group, js: sum(files(js)), css: sum(files(css)), ownJs: sum(files(new Set([...js].filter((f) => !initialJs.has(f))))) });
  }
  return out;
}

export function bundleReport(dist: string): BundleReport {
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const attr = (tag: string, name: string) => new RegExp(`${name}=["']([^"']+)["']`).exec(tag)?.[1];
  const js = new Set<string>();
  const css = new Set<string>();
  for (const tag of html.match(/<(script|link)\b[^>]*>/g) ?? []) {
    const src = attr(tag, 'src') ?? attr(tag, 'href');
    if (!src || /^https?:/.test(src)) continue;
    const rel = src.replace(/^\//, '');
    if (tag.startsWith('<script') && rel.endsWith('.js')) js.add(rel);
    else if (/rel=["']modulepreload["']/.test(tag)) js.add(rel);
    else if (/rel=["']stylesheet["']/.test(tag)) css.add(rel);
  }
  // Follow static imports: the browser needs them before the entry runs.
  for (const f of closure(dist, [...js])) js.add(f);
  const assets = existsSync(path.join(dist, 'assets')) ? readdirSync(path.join(dist, 'assets')) : [];
  const lazy = assets.filter((f) => f.endsWith('.js') && !js.has(`assets/${f}`)).map((f) => `assets/${f}`);
  const initialJs = [...js].filter((f) => existsSync(path.join(dist, f))).map((f) => sizeOf(dist, f));
  const initialCss = [...css].filter((f) => existsSync(path.join(dist, f))).map((f) => sizeOf(dist, f));
  const lazyChunks = lazy.map((f) => sizeOf(dist, f)).sort((a, b) => b.gzip - a.gzip);
  const lazyLanguages = lazy.map((f) => /(?:^|\/)i18n\.([a-z]{2})-/.exec(f)?.[1]).filter((l): l is string => Boolean(l));
  return {
    initialJs,
    initialCss,
    lazyChunks,
    totals: { initialJs: sum(initialJs), initialCss: sum(initialCss) },
    routes: routeLoads(dist, js, css),
    lazyLanguages,
  };
}

export interface LighthouseRun {
  url: string;
  runs: number;
  /** Medians over the runs. */
  performance: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  fcpMs: number;
  /** The LCP element as Lighthouse names it (its label and HTML snippet), per run. */
  lcpElements: string[];
  /**
   * Per run, Lighthouse's LCP breakdown (TTFB, load delay, load time, render delay, in ms) and the
   * unthrottled first and largest paints it simulated from: the simulation counts every request
   * that finished before the observed largest paint (decision 094), so these say why a run is slow.
   */
  lcpBreakdowns: string[];
  all: { performance: number; lcpMs: number; tbtMs: number; cls: number }[];
  /**
   * Per run, Lighthouse's `environment.benchmarkIndex`: its measure of this host's CPU. Its
   * throttling docs take the 4× slowdown as right for a high-end desktop (1500–2000); its calculator
   * gives 3× at 1300 and 4× at 1533 (decision 161). A busy machine measures lower.
   */
  benchmarkIndexes: number[];
  /** With `diagnostics: true`: per run, where the main thread's time went (diagnosticsOf). */
  diagnostics?: string[];
}

type Audits = Record<string, { details?: unknown; numericValue?: number } | undefined>;
type TableItems = Array<Record<string, unknown>>;
const itemsOf = (audits: Audits, id: string): TableItems => ((audits[id]?.details as { items?: TableItems } | undefined)?.items ?? []);
const short = (url: unknown) => (typeof url === 'string' ? url.replace(/^https?:\/\/[^/]+/, '').replace(/^\/assets\//, '') || url : String(url));
const ms = (n: unknown) => Math.round(Number(n));

/**
 * Where a run's main-thread time went, from the audits Lighthouse already has (decision 152):
 * 'long-tasks' (each task ≥ 50 ms with its script and start, in simulated ms), 'bootup-time' (per
 * script: evaluation and parse/compile), 'mainthread-work-breakdown' (by category), the LCP element
 * and 'layout-shifts' (each shift's element and score). Printed by bench/lighthouse-diag.ts and by
 * `npm run bench` with BENCH_LH_DIAG=1.
 */
export function diagnosticsOf(lhr: { audits: Audits }): string {
  const a = lhr.audits;
  const tasks = itemsOf(a, 'long-tasks').map((t) => `${ms(t.duration)}@${ms(t.startTime)} ${short(t.url)}`);
  const boot = itemsOf(a, 'bootup-time')
    .slice(0, 5)
    .map((t) => `${short(t.url)} total ${ms(t.total)} (eval ${ms(t.scripting)}, parse ${ms(t.scriptParseCompile)})`);
  const work = itemsOf(a, 'mainthread-work-breakdown').map((t) => `${String(t.groupLabel ?? t.group)} ${ms(t.duration)}`);
  type Node = { nodeLabel?: string; snippet?: string; selector?: string };
  const shifts = itemsOf(a, 'layout-shifts').map((t) => {
    const node = t.node as Node | undefined;
    return `${Number(t.score).toFixed(3)} ${node?.selector ?? node?.snippet ?? 'unknown'}`;
  });
  return [
    `    long tasks (ms@start): ${tasks.join('; ') || 'none'}`,
    `    bootup: ${boot.join('; ') || 'none'}`,
    `    main thread: ${work.join(', ')}`,
    `    TBT ${ms(a['total-blocking-time']?.numericValue)}, LCP ${ms(a['largest-contentful-paint']?.numericValue)}, FCP ${ms(a['first-contentful-paint']?.numericValue)}; LCP element: ${lcpElementOf(a['largest-contentful-paint-element'])}`,
    `    layout shifts: ${shifts.join('; ') || 'none'}`,
  ].join('\n');
}

/** The LCP phases of the same audit (its second table), and the observed paints from 'metrics'. */
function lcpBreakdownOf(lhr: { audits: Record<string, { details?: unknown } | undefined> }): string {
  type Table = { items?: Array<{ phase?: string; timing?: number }> };
  const details = lhr.audits['largest-contentful-paint-element']?.details as { type?: string; items?: Table[] } | undefined;
  const phases = (details?.type === 'list' ? (details.items ?? []) : [])
    .flatMap((t) => t.items ?? [])
    .filter((i) => i.phase && typeof i.timing === 'number')
    .map((i) => `${i.phase} ${Math.round(i.timing!)}`);
  const observed = (lhr.audits.metrics?.details as { items?: Array<Record<string, number>> } | undefined)?.items?.[0];
  const paints = observed ? `observed FCP ${observed.observedFirstContentfulPaint} LCP ${observed.observedLargestContentfulPaint}` : '';
  return [...phases, paints].filter(Boolean).join(', ');
}

/** Lighthouse's 'largest-contentful-paint-element' audit: the element's label and HTML snippet. */
function lcpElementOf(audit: { details?: unknown } | undefined): string {
  type Node = { type?: string; nodeLabel?: string; snippet?: string };
  type Table = { type?: string; items?: Array<{ node?: Node } & Record<string, unknown>> };
  const details = audit?.details as { type?: string; items?: Table[] } | undefined;
  const tables: Table[] = details?.type === 'list' ? (details.items ?? []) : details ? [details as Table] : [];
  for (const t of tables) {
    const node = t.items?.find((i) => i.node?.type === 'node')?.node;
    if (node) return `${node.nodeLabel ?? ''} ${node.snippet ?? ''}`.trim();
  }
  return 'unknown';
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/**
 * Lighthouse 12 (the npm package) driving Debian's Chromium: the default config, which is the
 * mobile preset (Moto G Power emulation, simulated slow 4G and 4× CPU slowdown), performance only.
 */
export async function lighthouseRuns(urls: string[], runs: number, chromePath: string, opts: { cpuSlowdown?: number; diagnostics?: boolean } = {}): Promise<LighthouseRun[]> {
  // The mobile preset's throttling with only the CPU slowdown changed (4× by default): a run with a
  // further 2× (8×) shows whether the margin survives a busier phone or machine (issue 28).
  const { throttling } = (await import('lighthouse/core/config/constants.js')) as unknown as { throttling: { mobileSlow4G: Record<string, number> } };
  const flags = opts.cpuSlowdown ? { throttling: { ...throttling.mobileSlow4G, cpuSlowdownMultiplier: opts.cpuSlowdown } } : {};
  const { default: lighthouse } = await import('lighthouse');
  const chromeLauncher = await import('chrome-launcher');
  const chrome = await chromeLauncher.launch({
    chromePath,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--no-default-browser-check'],
    logLevel: 'silent',
  });
  try {
    const out: LighthouseRun[] = [];
    for (const url of urls) {
      const all: LighthouseRun['all'] = [];
      const fcps: number[] = [];
      const lcpElements: string[] = [];
      const lcpBreakdowns: string[] = [];
      const diagnostics: string[] = [];
      const benchmarkIndexes: number[] = [];
      for (let i = 0; i < runs; i++) {
        // A trace Lighthouse could not record (NO_NAVSTART and its kin, "please run Lighthouse
        // again", seen on a loaded machine) is run again, up to 3 tries.
        let result: Awaited<ReturnType<typeof lighthouse>> | undefined;
        for (let attempt = 1; ; attempt++) {
          result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'], ...flags });
          const error = result?.lhr.runtimeError;
          if (!error || attempt >= 3) break;
          process.stderr.write(`bench:   Lighthouse ${error.code} on ${new URL(url).pathname}, run again (${attempt + 1} of 3)\n`);
        }
        const lhr = result?.lhr;
        if (!lhr) throw new Error(`Lighthouse gave no result for ${url}`);
        if (lhr.runtimeError) throw new Error(`Lighthouse on ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
        all.push({
          performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
          lcpMs: lhr.audits['largest-contentful-paint']?.numericValue ?? NaN,
          tbtMs: lhr.audits['total-blocking-time']?.numericValue ?? NaN,
          cls: lhr.audits['cumulative-layout-shift']?.numericValue ?? NaN,
        });
        fcps.push(lhr.audits['first-contentful-paint']?.numericValue ?? NaN);
        benchmarkIndexes.push(lhr.environment?.benchmarkIndex ?? NaN);
        lcpElements.push(lcpElementOf(lhr.audits['largest-contentful-paint-element']));
        lcpBreakdowns.push(lcpBreakdownOf(lhr));
        if (opts.diagnostics) diagnostics.push(diagnosticsOf(lhr as unknown as { audits: Audits }));
      }
      out.push({
        url,
        runs,
        performance: median(all.map((a) => a.performance)),
        lcpMs: median(all.map((a) => a.lcpMs)),
        tbtMs: median(all.map((a) => a.tbtMs)),
        cls: median(all.map((a) => a.cls)),
        fcpMs: median(fcps),
        lcpElements,
        lcpBreakdowns,
        all,
        benchmarkIndexes,
        ...(opts.diagnostics ? { diagnostics } : {}),
      });
    }
    return out;
  } finally {
    chrome.kill();
  }
}
