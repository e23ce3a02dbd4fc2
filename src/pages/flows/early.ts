import type { StoredLayouts } from '../../../charts/layout.ts';
import { isSandboxOn } from '../../api/sandbox.ts';

/**
 * What /flows needs before it can draw, started by the route (src/app/routes.tsx) beside the
 * page's chunk rather than after it (decision 139): the answer of GET /api/sandbox (the page
 * exists only then) and the asked machine's generated layout (docs/flows/layouts/<machine>.json,
 * a small chunk each). A small chunk of its own, so the first page of the app does not carry it.
 */

const files = import.meta.glob<{ default: StoredLayouts }>('../../../docs/flows/layouts/*.json');

const layouts = new Map<string, Promise<StoredLayouts | undefined>>();
const loaded = new Map<string, StoredLayouts | undefined>();

/** A machine's generated layout file (undefined: none), loaded once per page load. */
export function layoutFile(machine: string): Promise<StoredLayouts | undefined> {
  let p = layouts.get(machine);
  if (!p) {
    const file = files[`../../../docs/flows/layouts/${machine}.json`];
    p = file ? file().then((m) => m.default) : Promise.resolve(undefined);
    p.then(
      (data) => loaded.set(machine, data),
      () => layouts.delete(machine),
    );
    layouts.set(machine, p);
  }
  return p;
}

/** The layout file if it has arrived already ('pending' if not, undefined if there is none), so the chart can draw in the page's first render. */
export function layoutFileNow(machine: string): StoredLayouts | undefined | 'pending' {
  return loaded.has(machine) ? loaded.get(machine) : files[`../../../docs/flows/layouts/${machine}.json`] ? 'pending' : undefined;
}

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

/** The route's start: the sandbox check and, for a named machine, its layout. */
export function startFlows(machine: string | null): void {
  startSandboxCheck();
  if (machine) void layoutFile(machine).catch(() => undefined);
}
