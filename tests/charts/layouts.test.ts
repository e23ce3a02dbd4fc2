import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chartFile, chartIndexFile } from '../../charts/chart.ts';
import { layoutInput, type StoredLayouts } from '../../charts/layout.ts';
import { fitsChart } from '../../charts/layoutFit.ts';
import { labelTexts, type ChartLabels } from '../../charts/labels.ts';
import { charts } from './machines.ts';

/**
 * The layouts /flows draws are computed by `npm run flows` (decision 121): each machine has one,
 * laid out from what the machine and its labels say now. A machine added or changed since is
 * still drawn (the page lays it out itself), but this fails until the docs are regenerated.
 */
const labels = (lang: string) => (JSON.parse(readFileSync(join(process.cwd(), 'locales', lang, 'flows.json'), 'utf8')) as { charts?: ChartLabels }).charts;
const sv = labels('sv');
const en = labels('en');

describe('docs/flows/layouts', () => {
  it.each(charts.map((c) => [c.id, c] as const))('%s.json is up to date (npm run flows writes it)', (id, chart) => {
    const file = join(process.cwd(), 'docs/flows/layouts', `${id}.json`);
    expect(existsSync(file), `docs/flows/layouts/${id}.json is missing: run npm run flows`).toBe(true);
    const stored = JSON.parse(readFileSync(file, 'utf8')) as StoredLayouts;
    expect(stored.input, `docs/flows/layouts/${id}.json is stale: run npm run flows`).toBe(layoutInput(chart, labelTexts(chart, sv, en)));
    expect(fitsChart(stored.RIGHT, chart) && fitsChart(stored.DOWN, chart), `docs/flows/layouts/${id}.json misses states or transitions`).toBe(true);
  });
});

/**
 * /flows draws a machine from its generated chart (docs/flows/charts/<machine>.json, decision 142),
 * not from the machine's code: each must say what the machine says now.
 */
describe('docs/flows/charts', () => {
  const dir = join(process.cwd(), 'docs/flows/charts');
  it.each(charts.map((c) => [c.id, c] as const))('%s.json is up to date (npm run flows writes it)', (id, chart) => {
    const file = join(dir, `${id}.json`);
    expect(existsSync(file), `docs/flows/charts/${id}.json is missing: run npm run flows`).toBe(true);
    expect(readFileSync(file, 'utf8'), `docs/flows/charts/${id}.json is stale: run npm run flows`).toBe(chartFile(chart));
  });

  it('index.json lists every machine and no other (npm run flows writes it)', () => {
    const file = join(dir, 'index.json');
    expect(existsSync(file), 'docs/flows/charts/index.json is missing: run npm run flows').toBe(true);
    expect(readFileSync(file, 'utf8'), 'docs/flows/charts/index.json is stale: run npm run flows').toBe(
      chartIndexFile(charts.map((c) => ({ id: c.id, title: c.title, root: c.root }))),
    );
    const extra = readdirSync(dir).filter((f) => f !== 'index.json' && !charts.some((c) => `${c.id}.json` === f));
    expect(extra, 'docs/flows/charts/ holds charts of machines that are gone: run npm run flows').toEqual([]);
  });
});

describe('the page’s layouts', () => {
  it('draws a generated layout as it is, and lays out a machine without one itself (ELK, lazily)', async () => {
    const { cachedLayouts } = await import('../../src/pages/flows/layout.ts');
    const auth = charts.find((c) => c.id === 'auth')!;
    const generated = await cachedLayouts(auth);
    expect(generated.source).toBe('generated');
    const stored = JSON.parse(readFileSync(join(process.cwd(), 'docs/flows/layouts/auth.json'), 'utf8')) as StoredLayouts;
    expect(generated.RIGHT.width).toBe(stored.RIGHT.width);
    expect(generated.DOWN.states.map((s) => s.state.id)).toEqual(stored.DOWN.states.map((s) => s.id));
    // A machine that landed after the docs were generated: same chart under a new id.
    const added = await cachedLayouts({ ...auth, id: 'justAdded' });
    expect(added.source).toBe('browser');
    expect(added.RIGHT.states).toHaveLength(stored.RIGHT.states.length);
  }, 30_000);
});
