
import type { ChartData, MachineCoverage } from '../../../charts/chart.ts';
import type { StoredLayouts } from '../../../charts/layout.ts';
import { isSandboxOn } from '../../api/sandbox.ts';

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

/** Asks GET /api/sandbox now, for the page to take (once) when its code has loaded. */
function startSandboxCheck(): void {
  if (early) return;
  const c: Check = { answer: isSandboxOn() };
  c.answer.then((on) => (c.known = on));
  early = c;
}

/** Whether the route's check has answered "on" already (taken: the next visit asks again). */
export function sandboxKnownOn(): boolean {
  if (early?.known !== true) return false;
  early = undefined;
  return true;
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
