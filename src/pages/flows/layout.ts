import type { Chart, ChartState } from '../../../charts/chart.ts';
import type { Box, Direction, StateTexts, StoredLayout, StoredLayouts } from '../../../charts/layout.ts';
import { fitsChart } from '../../../charts/layoutFit.ts';
import { layoutFile, layoutFileNow } from './early.ts';
import { forgetOnNewPage } from '../../pageMemory.ts';

/**
 * A chart's layouts for the page: the ones `npm run flows` computed (docs/flows/layouts/<machine>.json,
 * one small lazy chunk each, started by the route beside the page's chunk: early.ts), drawn as they are. Only for a machine without one, or whose layout
 * no longer matches it (added or changed since the docs were generated), does the page load ELK
 * (charts/layout.ts, a chunk of its own) and lay it out itself (decision 121).
 */

export type { Box, Direction };

export interface LaidOutState extends Box {
  state: ChartState;
  compound: boolean;
  depth: number;
}

export interface LaidOutEdge {
  key: string;
  points: { x: number; y: number }[];
  label: Box & { text: string };
}

export interface ChartLayout {
  width: number;
  height: number;
  states: LaidOutState[];
  edges: LaidOutEdge[];
}

/** A stored layout with each state's chart entry in place of its id. */
export function hydrate(layout: StoredLayout, chart: Chart): ChartLayout {
  const byId = new Map(chart.states.map((s) => [s.id, s]));
  return {
    width: layout.width,
    height: layout.height,
    states: layout.states.flatMap(({ id, ...box }) => {
      const state = byId.get(id);
      return state ? [{ ...box, state }] : [];
    }),
    edges: layout.edges,
  };
}

export type Layouts = Record<Direction, ChartLayout> & { source: 'generated' | 'browser' };

/** The generated layouts if they draw this chart as it is now. */
function generated(data: StoredLayouts | undefined, chart: Chart): Layouts | undefined {
  if (!data || !fitsChart(data.RIGHT, chart) || !fitsChart(data.DOWN, chart)) return undefined;
  return { RIGHT: hydrate(data.RIGHT, chart), DOWN: hydrate(data.DOWN, chart), source: 'generated' };
}

async function load(chart: Chart, texts?: StateTexts): Promise<Layouts> {
  const ready = generated(await layoutFile(chart.id), chart);
  if (ready) return ready;
  const { layoutChart } = await import('../../../charts/layout.ts');
  const [RIGHT, DOWN] = await Promise.all([layoutChart(chart, 'RIGHT', texts), layoutChart(chart, 'DOWN', texts)]);
  return { RIGHT: hydrate(RIGHT, chart), DOWN: hydrate(DOWN, chart), source: 'browser' };
}

const cache = new Map<string, Promise<Layouts>>();
const done = new Map<string, Layouts>();
forgetOnNewPage(() => {
  cache.clear();
  done.clear();
});

/**
 * Both layouts at once when they are at hand (the generated file has arrived, or they were laid
 * out before), so the frame draws in its first render; undefined when they must still be awaited.
 */
export function layoutsNow(chart: Chart): Layouts | undefined {
  const known = done.get(chart.id);
  if (known) return known;
  const file = layoutFileNow(chart.id);
  const ready = file === 'pending' ? undefined : generated(file, chart);
  if (ready) {
    done.set(chart.id, ready);
    cache.set(chart.id, Promise.resolve(ready));
  }
  return ready;
}

/** Both layouts of a chart, loaded (or, failing that, computed) once per page load. */
export function cachedLayouts(chart: Chart, texts?: StateTexts): Promise<Layouts> {
  let p = cache.get(chart.id);
  if (!p) {
    p = load(chart, texts);
    p.then(
      (l) => done.set(chart.id, l),
      () => cache.delete(chart.id),
    );
    cache.set(chart.id, p);
  }
  return p;
}
