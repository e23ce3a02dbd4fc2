import { chromium, type Browser } from 'playwright-core';
import { launchOptions } from '../tests/e2e/harness/browser.ts';

/**
 * The draw time of /flows?machine=…: from navigation (the page's time origin) to the frame after
 * the chart's first state is in the document, read inside the page (performance.now() in a
 * requestAnimationFrame), so the browser's own start-up is not counted. Each load is cold: a new
 * browser context (empty cache) at 1400 × 900, the product owner's screen.
 */
export interface FlowsDrawResult {
  available: true;
  loads: number;
  /** Per machine: every load's draw time in ms, in order. */
  machines: { machine: string; ms: number[]; median: number; worst: number }[];
  median: number;
  worst: number;
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

declare global {
  interface Window {
    __flowsDrawn?: Promise<number>;
  }
}

// A string, not a function: tsx would wrap a function's inner functions in a helper the page lacks.
const DRAWN = `window.__flowsDrawn = new Promise((resolve) => {
  const observer = new MutationObserver(() => {
    if (!document.querySelector('svg[role="group"] g.state')) return;
    observer.disconnect();
    requestAnimationFrame(() => resolve(performance.now()));
  });
  observer.observe(document, { childList: true, subtree: true });
});`;

/** One cold load of /flows?machine=… in a new context: ms from navigation to drawn (also bench/ab-flows.ts's). */
export async function drawFlowsOnce(browser: Browser, baseUrl: string, machine: string): Promise<number> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  try {
    const page = await context.newPage();
    await page.addInitScript(DRAWN);
    await page.goto(`${baseUrl}/flows?machine=${encodeURIComponent(machine)}`, { waitUntil: 'commit' });
    await page.waitForSelector('svg[role="group"] g.state', { timeout: 30_000 });
    return Math.round(await page.evaluate(() => window.__flowsDrawn!));
  } finally {
    await context.close();
  }
}

export async function benchFlowsDraw(baseUrl: string, opts: { machines: string[]; loads: number; log: (s: string) => void }): Promise<FlowsDrawResult> {
  const browser = await chromium.launch(launchOptions());
  const drawOnce = (machine: string) => drawFlowsOnce(browser, baseUrl, machine);
  try {
    // One load first, not counted: the server's first answers for these files are not the page's.
    await drawOnce(opts.machines[0]!);
    const machines: FlowsDrawResult['machines'] = [];
    for (const machine of opts.machines) {
      const ms: number[] = [];
      for (let i = 0; i < opts.loads; i++) ms.push(await drawOnce(machine));
      machines.push({ machine, ms, median: median(ms), worst: Math.max(...ms) });
      opts.log(`  /flows?machine=${machine}: median ${median(ms)} ms, worst ${Math.max(...ms)} ms (${ms.join(', ')})`);
    }
    const all = machines.flatMap((m) => m.ms);
    return { available: true, loads: opts.loads, machines, median: median(all), worst: Math.max(...all) };
  } finally {
    await browser.close();
  }
}
