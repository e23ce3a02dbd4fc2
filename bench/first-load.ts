import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BundleReport } from './frontend.ts';

/**
 * Each route group's first load against the figures last agreed (bench/first-load.json): a route
 * whose JavaScript (gzip, what it loads before its page shows) grows by more than GROWTH_LIMIT_KIB
 * fails the bench unless decision 011 has a line for it under "Growth allowed", saying why
 * (issue 28). The baseline moves when someone means it to: BENCH_FIRST_LOAD_UPDATE=1 writes this
 * run's figures.
 */
export const GROWTH_LIMIT_KIB = 5;
const HERE = path.dirname(fileURLToPath(import.meta.url));
export const BASELINE_FILE = path.join(HERE, 'first-load.json');
export const DECISION_FILE = path.join(HERE, '..', 'docs', 'decisions', '011-initial-bundle-budget.md');
/** The key for what index.html loads itself. */
export const INITIAL = 'initial JS of /';

export interface FirstLoadBaseline {
  /** When the figures were taken, and from what (a note for the reader). */
  note: string;
  /** KiB gzip per route (and INITIAL). */
  kib: Record<string, number>;
}

export interface Growth {
  route: string;
  baseline: number | undefined;
  now: number;
  grew: number;
  /** The line of decision 011 that allows it, when it grew by more than the limit. */
  allowedBy?: string;
  pass: boolean;
}

/** This build's figures, KiB gzip, one decimal. */
export function firstLoadFigures(bundle: BundleReport): Record<string, number> {
  const kib = (n: number) => Math.round((n / 1024) * 10) / 10;
  return { [INITIAL]: kib(bundle.totals.initialJs.gzip), ...Object.fromEntries(bundle.routes.map((r) => [r.route, kib(r.js.gzip)])) };
}

/** The lines under decision 011's "Growth allowed" heading that name `route` in backticks. */
function allowance(decision: string, route: string): string | undefined {
  const at = decision.search(/^#+ Growth allowed/m);
  if (at < 0) return undefined;
  const section = decision.slice(at).split('\n').slice(1);
  const end = section.findIndex((l) => /^#+ /.test(l));
  return (end < 0 ? section : section.slice(0, end)).find((l) => l.startsWith('- ') && l.includes(`\`${route}\``));
}

export function firstLoadGrowth(now: Record<string, number>, baseline: FirstLoadBaseline, decision: string): Growth[] {
  return Object.entries(now).map(([route, kib]) => {
    const before = baseline.kib[route];
    const grew = before === undefined ? 0 : Math.round((kib - before) * 10) / 10;
    const allowedBy = grew > GROWTH_LIMIT_KIB ? allowance(decision, route) : undefined;
    return { route, baseline: before, now: kib, grew, allowedBy, pass: grew <= GROWTH_LIMIT_KIB || allowedBy !== undefined };
  });
}

export function readBaseline(file = BASELINE_FILE): FirstLoadBaseline {
  return JSON.parse(readFileSync(file, 'utf8')) as FirstLoadBaseline;
}

export function writeBaseline(now: Record<string, number>, note: string, file = BASELINE_FILE): void {
  writeFileSync(file, `${JSON.stringify({ note, kib: now }, null, 2)}\n`);
}
