import type { Chart } from './chart.ts';
import { statePath } from './labels.ts';

/**
 * The pictures of the real pages, one per state (`npm run flows:shots`, scripts/flows-shots.ts):
 * what the manifest docs/flows/shots/index.json says about each state of each machine. Keyed by
 * machine id, then the state's path below the machine's root (as the labels are).
 *
 * - `picture`: a file under docs/flows/shots/ (`<machine>/<state path>.webp`). A parent state
 *   shares the picture of the child it was in when it was taken, so it names that child's file.
 * - `noPage`: a pure background state that no page shows (a timer, a poll between reads), with
 *   the reason; declared in src/pages/flows/background.ts.
 * - `todo`: not reached by the command yet, with the reason. The check in
 *   tests/charts/shots.test.ts allows at most a fixed number of these, a number that only goes down.
 */
export type ShotEntry = { picture: string; page: string } | { noPage: string } | { todo: string };

export interface ShotManifest {
  /** The phone the pictures are taken at (CSS pixels). */
  viewport: { width: number; height: number };
  machines: Record<string, Record<string, ShotEntry>>;
}

export const SHOTS_DIR = 'docs/flows/shots';

/** A picture's file, relative to docs/flows/shots/. */
export const shotFile = (machineId: string, path: string) => `${machineId}/${path}.webp`;

/** Every state a picture is asked for: all but the machine's root (the whole machine). */
export function shotStatePaths(chart: Pick<Chart, 'root' | 'states'>): string[] {
  return chart.states.filter((s) => s.id !== chart.root).map((s) => statePath(chart, s.id));
}

/** What a manifest lacks for these charts: states it says nothing about, and pictures it names that `exists` does not find. */
export function manifestGaps(manifest: ShotManifest, charts: readonly Pick<Chart, 'id' | 'root' | 'states'>[], exists: (file: string) => boolean): string[] {
  const gaps: string[] = [];
  for (const chart of charts) {
    const entries = manifest.machines[chart.id] ?? {};
    for (const path of shotStatePaths(chart)) {
      const entry = entries[path];
      if (!entry) gaps.push(`${chart.id}: ${path} is not in the manifest`);
      else if ('picture' in entry && !exists(entry.picture)) gaps.push(`${chart.id}: ${path} names ${entry.picture}, which is missing`);
    }
  }
  return gaps;
}

/** The `todo` entries of a manifest, as "machine: state path". */
export function todoShots(manifest: ShotManifest): string[] {
  return Object.entries(manifest.machines).flatMap(([machine, entries]) =>
    Object.entries(entries)
      .filter(([, e]) => 'todo' in e)
      .map(([path]) => `${machine}: ${path}`),
  );
}
