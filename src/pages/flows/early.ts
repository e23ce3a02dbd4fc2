
import type { ChartData, MachineCoverage } from '../../../charts/chart.ts';
import type { StoredLayouts } from '../../../charts/layout.ts';
import { isSandboxOn } from '../../api/sandbox.ts';
import { settings } from '../../settings.ts';
import { forgetOnNewPage } from '../../pageMemory.ts';

/**
 * What /flows needs before it can draw, started by the route (src/app/routes.tsx) beside the
 * page's chunk rather than after it (decision 139): the answer of GET /api/sandbox (the page
 * exists only then) and the asked machine's generated files, a small chunk each: its chart
 * (docs/flows/charts/<machine>.json), its layout (docs/flows/layouts/<machine>.json) and its test
 * paths (docs/coverage/paths/<machine>.json). Only the asked machine's (decision 142). A small
 * chunk of its own, so the first page of the app does not carry it.
 */

/** One generated file per machine, each loaded once per page load, and readable at once when it has arrived. */
function perMachine<T>(files: Record<string, () => Promise<T>>) {
  const byMachine = new Map(Object.entries(files).map(([file, load]) => [/([^/]+)\.json$/.exec(file)![1]!, load]));
  const promises = new Map<string, Promise<T | undefined>>();
  const loaded = new Map<string, T | undefined>();
  forgetOnNewPage(() => {
    promises.clear();
    loaded.clear();
  });
  return {
    /** The machine's file (undefined: none). */
    load(machine: string): Promise<T | undefined> {
      let p = promises.get(machine);
      if (!p) {
        const file = byMachine.get(machine);
        p = file ? file() : Promise.resolve(undefined);
        p.then(
          (data) => loaded.set(machine, data),
          () => promises.delete(machine),
        );
        promises.set(machine, p);
      }
      return p;
    },
    /** The file if it has arrived already ('pending' if not, undefined if there is none), so the page can draw in its first render. */
    now(machine: string): T | undefined | 'pending' {
      return loaded.has(machine) ? loaded.get(machine) : byMachine.has(machine) ? 'pending' : undefined;
    },
  };
}

const layouts = perMachine(import.meta.glob<StoredLayouts>('../../../docs/flows/layouts/*.json', { import: 'default' }));
const charts = perMachine(import.meta.glob<ChartData>(['../../../docs/flows/charts/*.json', '!**/index.json'], { import: 'default' }));
const paths = perMachine(import.meta.glob<MachineCoverage>(['../../../docs/coverage/paths/*.json', '!**/index.json'], { import: 'default' }));

/** A machine's generated layout file (undefined: none). */
export const layoutFile = layouts.load;
/** The layout file if it has arrived already ('pending' if not, undefined if there is none). */
export const layoutFileNow = layouts.now;
/** A machine's chart as data (undefined: no such machine). */
export const chartFile = charts.load;
export const chartFileNow = charts.now;
/** A machine's test paths and coverage (undefined: not in the report). */
export const pathsFile = paths.load;
export const pathsFileNow = paths.now;

interface Check {
  answer: Promise<boolean>;
  /** The answer once there, so the page renders it at once. */
  known?: boolean;
}
let early: Check | undefined;
forgetOnNewPage(() => (early = undefined));

/**
 * Whether the HTML the server answered /flows with says its sandbox is on
 * (`<meta name="greetie-sandbox" content="on">`, server/spa/preloads.ts, decision 149): the answer
 * GET /api/sandbox would give, without the request. Read once (the element is removed), and only
 * when the API is this page's own server.
 */
function sandboxOnInHtml(): boolean {
  if (typeof document === 'undefined' || settings.apiBaseUrl) return false;
  const meta = document.querySelector('meta[name="greetie-sandbox"]');
  if (!meta) return false;
  meta.remove();
  return meta.getAttribute('content') === 'on';
}

/** Takes the answer from the HTML, or asks GET /api/sandbox now, for the page to take (once) when its code has loaded. */
function startSandboxCheck(): void {
  if (early) return;
  if (sandboxOnInHtml()) {
    early = { answer: Promise.resolve(true), known: true };
    return;
  }
  const c: Check = { answer: isSandboxOn() };
  c.answer.then((on) => (c.known = on));
  early = c;
}

/**
 * Whether the route's check (or the HTML) has answered "on" already. Read, not taken: a render
 * React restarts (the page's first render is a time-sliced transition) reads it again. The page
 * takes it with `forgetSandboxCheck` once mounted, so the next visit asks again.
 */
export function sandboxKnownOn(): boolean {
  if (!early && sandboxOnInHtml()) early = { answer: Promise.resolve(true), known: true };
  return early?.known === true;
}

/** The mounted page has taken the answer: the next visit asks again. */
export function forgetSandboxCheck(): void {
  early = undefined;
}

/** The route's check, still on its way or answered (taken), or a new one. */
export function sandboxAnswer(signal?: AbortSignal): Promise<boolean> {
  const c = early;
  early = undefined;
  return c ? c.answer : isSandboxOn(signal);
}

/** The route's start: the sandbox check and, for a named machine, its chart, layout and paths. */
export function startFlows(machine: string | null): void {
  startSandboxCheck();
  if (!machine) return;
  for (const load of [chartFile, layoutFile, pathsFile]) void load(machine).catch(() => undefined);
}
