import type { Chart, ChartState } from '../../../charts/chart.ts';
import type { Box, Direction, StateTexts, StoredLayout, StoredLayouts } from '../../../charts/layout.ts';
import { fitsChart } from '../../../charts/layoutFit.ts';

/**
 * A chart's layouts for the page: the ones `npm run flows` computed (docs/flows/layouts/<machine>.json,
 * one small lazy chunk each), drawn as they are. Only for a machine without one, or whose layout
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

const stored = import.meta.glob<{ default: StoredLayouts }>('../../../docs/flows/layouts/*.json');

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

async function load(chart: Chart, texts?: StateTexts): Promise<Layouts> {
  const file = stored[`../../../docs/flows/layouts/${chart.id}.json`];
  if (file) {
    const data = (await file()).default;
    if (fitsChart(data.RIGHT, chart) && fitsChart(data.DOWN, chart)) {
      return { RIGHT: hydrate(data.RIGHT, chart), DOWN: hydrate(data.DOWN, chart), source: 'generated' };
    }
  }
  const { layoutChart } = await import('../../../charts/layout.ts');
  const [RIGHT, DOWN] = await Promise.all([layoutChart(chart, 'RIGHT', texts), layoutChart(chart, 'DOWN', texts)]);
  return { RIGHT: hydrate(RIGHT, chart), DOWN: hydrate(DOWN, chart), source: 'browser' };
}

const cache = new Map<string, Promise<Layouts>>();

/** Both layouts of a chart, loaded (or, failing that, computed) once per page load. */
export function cachedLayouts(chart: Chart, texts?: StateTexts): Promise<Layouts> {
  let p = cache.get(chart.id);
  if (!p) {
    p = load(chart, texts);
    p.catch(() => cache.delete(chart.id));
    cache.set(chart.id, p);
  }
  return p;
}
