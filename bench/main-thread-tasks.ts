/**
 * The main thread's tasks of a page's load, by CPU time, A/B (decision 156): on a shared machine a
 * task's wall time includes the time the renderer waited for a core, which Lighthouse's simulated 4×
 * slowdown multiplies too (the "Unattributable" second-long tasks of a busy machine). A trace's
 * thread time (`tdur`) leaves that out. For each URL, `TRACE_RUNS` (5) loads in a fresh browser
 * context (cold cache), a phone's viewport, no throttling; per load it prints the tasks whose CPU
 * time × 4 is over 50 ms (what Lighthouse's 4× phone would count, with what ran in them) and their
 * excess over 50 ms summed ("blocking ×4"), then the median per URL.
 *
 *   node --import tsx bench/main-thread-tasks.ts label=http://host:port/path …
 *
 * Sides are alternated run by run so both meet the same load. Not a Lighthouse figure: it counts
 * every task of the load (Lighthouse counts those between FCP and TTI) and no network simulation.
 */
import os from 'node:os';
import puppeteer, { type Browser } from 'puppeteer-core';

const RUNS = Number(process.env.TRACE_RUNS ?? 5);
const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const SLOWDOWN = 4;
// TRACE_CATEGORIES=lighthouse records with Lighthouse's own categories (with its stack traces,
// `disabled-by-default-devtools.timeline.stack`, whose re-parsing of scripts Lighthouse counts too;
// decisions 156, 161); by default the lighter set below.
const LIGHTHOUSE_CATEGORIES = process.env.TRACE_CATEGORIES === 'lighthouse';
const categories = async (): Promise<string[]> => {
  if (!LIGHTHOUSE_CATEGORIES) return ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink.user_timing', 'loading'];
  const { default: Trace } = (await import('lighthouse/core/gather/gatherers/trace.js')) as unknown as { default: { getDefaultTraceCategories(): string[] } };
  return Trace.getDefaultTraceCategories();
};

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string; data?: { frames?: { processId?: number; parent?: string }; url?: string; functionName?: string } & Record<string, unknown> };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

async function traceOnce(browser: Browser, url: string): Promise<{ blocking: number; tasks: string[] }> {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  await page.setViewport({ width: 412, height: 823, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true });
  await page.tracing.start({ categories: await categories() });
  await page.goto(url, { waitUntil: 'networkidle0' });
  await new Promise((r) => setTimeout(r, 2500));
  const buf = await page.tracing.stop();
  await context.close();
  const events = (JSON.parse(Buffer.from(buf!).toString('utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
  // The page's renderer: the main thread that parsed this page's HTML (a browser's own pages, such
  // as its omnibox popup, have renderers of their own in the same trace).
  const isTask = (e: TraceEvent) => e.ph === 'X' && (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask');
  const origin = new URL(url).origin;
  const parse = events.find((e) => e.name === 'ParseHTML' && String((e.args as { beginData?: { url?: string } } | undefined)?.beginData?.url ?? '').startsWith(origin));
  if (!parse) throw new Error(`no ParseHTML of ${url} in the trace`);
  const onMain = events.filter((e) => e.pid === parse.pid && e.tid === parse.tid && e.ph === 'X');
  const tasks = onMain.filter((e) => isTask(e) && (e.tdur ?? 0) * SLOWDOWN > 50_000);
  let blocking = 0;
  const out: string[] = [];
  for (const t of tasks) {
    const ms = ((t.tdur ?? 0) * SLOWDOWN) / 1000;
    blocking += ms - 50;
    const inside = onMain.filter((e) => e !== t && e.ts >= t.ts && e.ts < t.ts + (t.dur ?? 0) && (e.dur ?? 0) > 1000);
    const what = inside
      .filter((e) => /^(v8\.evaluateModule|EvaluateScript|FunctionCall|TimerFire|FireAnimationFrame|ParseHTML|UpdateLayoutTree|Layout|Paint|MajorGC|MinorGC|v8\.compileModule|v8\.compile|EventDispatch|V8\.CollectSourcePositions)$/.test(e.name))
      .sort((a, b) => (b.tdur ?? b.dur ?? 0) - (a.tdur ?? a.dur ?? 0))
      .slice(0, 3)
      .map((e) => `${e.name}${e.args?.data?.url ? ` ${String(e.args.data.url).replace(/^.*\//, '').slice(0, 40)}` : ''}${e.args?.data?.functionName ? ` ${e.args.data.functionName}` : ''} ${((e.tdur ?? e.dur ?? 0) / 1000).toFixed(1)}`);
    out.push(`${ms.toFixed(0)} ms ×4 (${((t.dur ?? 0) / 1000).toFixed(1)} ms wall): ${what.join('; ')}`);
  }
  return { blocking, tasks: out };
}

async function main(): Promise<void> {
  const sides = process.argv.slice(2).map((arg) => {
    const [label, url] = arg.split(/=(.*)/s) as [string, string];
    return { label, url };
  });
  const browser = await puppeteer.launch({ executablePath: CHROME_PATH, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  const figures = new Map<string, number[]>();
  try {
    for (let run = 1; run <= RUNS; run++) {
      for (const side of run % 2 ? sides : [...sides].reverse()) {
        const before = os.loadavg()[0]!.toFixed(1);
        const r = await traceOnce(browser, side.url);
        figures.set(side.label, [...(figures.get(side.label) ?? []), r.blocking]);
        process.stderr.write(`run ${run} ${side.label} (load ${before}): blocking ×4 ${r.blocking.toFixed(0)} ms\n${r.tasks.map((t) => `    ${t}`).join('\n')}\n`);
      }
    }
  } finally {
    await browser.close();
  }
  for (const [label, xs] of figures) process.stderr.write(`${label}: median blocking ×4 ${median(xs).toFixed(0)} ms (runs ${xs.map((x) => x.toFixed(0)).join(', ')})\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${String((err as Error).stack ?? err)}\n`);
  process.exit(1);
});
