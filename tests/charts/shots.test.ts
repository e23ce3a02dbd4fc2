import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHOTS_DIR, manifestGaps, shotStatePaths, todoShots, type ShotManifest } from '../../charts/shots.ts';
import { BACKGROUND, backgroundReason } from '../../src/pages/flows/background.ts';
import { charts } from './machines.ts';

/**
 * Every state of every machine has a picture of the page it shows (docs/flows/shots/, made by
 * `npm run flows:shots`) or is shown by no page (src/pages/flows/background.ts, with a reason).
 * No state is left `todo`: a new machine or state gets its picture from a driver
 * (scripts/shots/drivers.ts; `npm run flows:shots -- --only <driver>` takes just those), or, when
 * it truly is pure background work, its reason in background.ts.
 */

const dir = join(process.cwd(), SHOTS_DIR);
const manifest = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8')) as ShotManifest;

describe('pictures of the pages (docs/flows/shots)', () => {
  it('says something about every state of every machine, and every picture it names is there', () => {
    expect(manifestGaps(manifest, charts, (file) => existsSync(join(dir, file))), 'run npm run flows:shots').toEqual([]);
  });

  it('marks exactly the declared background states as shown by no page', () => {
    for (const chart of charts) {
      for (const path of shotStatePaths(chart)) {
        const entry = manifest.machines[chart.id]?.[path];
        const reason = backgroundReason(chart.id, path);
        if (reason) expect(entry, `${chart.id}: ${path}`).toEqual({ noPage: reason });
        else expect(entry && 'noPage' in entry, `${chart.id}: ${path} has no picture but is not declared in background.ts`).toBeFalsy();
      }
    }
    // A background state that names no state of its machine is a leftover.
    const known = new Map(charts.map((c) => [c.id, new Set(shotStatePaths(c))]));
    const stale = Object.entries(BACKGROUND).flatMap(([machine, states]) => Object.keys(states).filter((p) => !known.get(machine)?.has(p)).map((p) => `${machine}: ${p}`));
    expect(stale, 'background.ts names states that do not exist').toEqual([]);
  });

  it('leaves no state without a picture (or a reason no page shows it)', () => {
    expect(todoShots(manifest), 'picture them: npm run flows:shots (scripts/shots/drivers.ts)').toEqual([]);
  });

  it('keeps every picture small (≤ 60 KB)', () => {
    const files = Object.values(manifest.machines).flatMap((e) => Object.values(e).flatMap((x) => ('picture' in x ? [x.picture] : [])));
    const big = [...new Set(files)].filter((f) => statSync(join(dir, f)).size > 60_000);
    expect(big).toEqual([]);
  });
});
