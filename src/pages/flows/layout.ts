import type { ElkExtendedEdge, ElkNode } from 'elkjs/lib/elk-api';
import type { Chart, ChartState } from '../../../charts/chart.ts';

/**
 * Lays a chart out with ELK (layered, nested states inside their parents) and returns absolute
 * geometry for an SVG. elkjs is imported here only, so it stays in the /flows chunk.
 */

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

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

const CHAR = 7.2;
const LABEL_CHAR = 6.4;

export const nodeId = (stateId: string) => `n:${stateId}`;

/** ELK's layer direction: left to right for a wide frame, top to bottom for a narrow or tall one. */
export type Direction = 'RIGHT' | 'DOWN';

export async function layoutChart(chart: Chart, direction: Direction = 'RIGHT'): Promise<ChartLayout> {
  const { default: ELK } = await import('elkjs/lib/elk.bundled.js');
  const elk = new ELK();
  const byId = new Map(chart.states.map((s) => [s.id, s]));

  const toNode = (s: ChartState): ElkNode => {
    const kids = s.children.map((c) => byId.get(c)!);
    const labelWidth = s.key.length * CHAR + 32;
    if (s.type === 'history') return { id: nodeId(s.id), width: 32, height: 32 };
    if (!kids.length) return { id: nodeId(s.id), width: Math.max(90, labelWidth), height: 40 };
    return {
      id: nodeId(s.id),
      layoutOptions: {
        'elk.direction': direction,
        'elk.padding': '[top=36,left=16,bottom=16,right=16]',
        'elk.nodeSize.minimum': `(${Math.max(120, labelWidth)}, 60)`,
        'elk.nodeSize.constraints': 'MINIMUM_SIZE',
      },
      children: kids.map(toNode),
    };
  };

  const root = byId.get(chart.root)!;
  const edges: ElkExtendedEdge[] = chart.transitions
    .filter((t) => t.source !== chart.root)
    .flatMap((t) =>
      (t.targets.length ? t.targets : [t.source]).map((target, i) => ({
        id: `${t.key}@@${i}`,
        sources: [nodeId(t.source)],
        targets: [nodeId(target)],
        labels: [{ text: t.label, width: t.label.length * LABEL_CHAR + 10, height: 18 }],
      })),
    );

  const graph: ElkNode = {
    id: 'root',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': direction,
      'elk.hierarchyHandling': 'INCLUDE_CHILDREN',
      'elk.layered.spacing.nodeNodeBetweenLayers': '70',
      'elk.spacing.nodeNode': '36',
      'elk.spacing.edgeLabel': '4',
      'elk.edgeLabels.placement': 'CENTER',
      'elk.layered.edgeLabels.sideSelection': 'ALWAYS_UP',
      'elk.padding': '[top=24,left=24,bottom=24,right=24]',
    },
    children: root.children.map((c) => byId.get(c)!).map(toNode),
    edges,
  };
  const out = await elk.layout(graph);

  const states: LaidOutState[] = [];
  const offsets = new Map<string, { x: number; y: number }>([['root', { x: 0, y: 0 }]]);
  const walk = (n: ElkNode, ox: number, oy: number, depth: number) => {
    for (const c of n.children ?? []) {
      const x = ox + (c.x ?? 0);
      const y = oy + (c.y ?? 0);
      offsets.set(c.id, { x, y });
      const state = byId.get(c.id.slice(2))!;
      states.push({ state, x, y, width: c.width ?? 0, height: c.height ?? 0, compound: !!c.children?.length, depth });
      walk(c, x, y, depth + 1);
    }
  };
  walk(out, 0, 0, 0);

  const laidEdges: LaidOutEdge[] = [];
  const collect = (n: ElkNode) => {
    for (const e of (n.edges ?? []) as ElkExtendedEdge[]) {
      const container = offsets.get(e.container ?? n.id) ?? { x: 0, y: 0 };
      const section = e.sections?.[0];
      if (!section) continue;
      const pts = [section.startPoint, ...(section.bendPoints ?? []), section.endPoint].map((p) => ({ x: p.x + container.x, y: p.y + container.y }));
      const l = e.labels?.[0];
      laidEdges.push({
        key: e.id.split('@@')[0]!,
        points: pts,
        label: {
          text: l?.text ?? '',
          x: (l?.x ?? 0) + container.x,
          y: (l?.y ?? 0) + container.y,
          width: l?.width ?? 0,
          height: l?.height ?? 0,
        },
      });
    }
    for (const c of n.children ?? []) collect(c);
  };
  collect(out);
  return { width: out.width ?? 0, height: out.height ?? 0, states, edges: laidEdges };
}

const cache = new Map<string, Promise<ChartLayout>>();

/** The layout of a chart in one direction, computed once per page load (compose takes ~0.5 s). */
export function cachedLayout(chart: Chart, direction: Direction): Promise<ChartLayout> {
  const key = `${chart.id}:${direction}`;
  let p = cache.get(key);
  if (!p) {
    p = layoutChart(chart, direction);
    p.catch(() => cache.delete(key));
    cache.set(key, p);
  }
  return p;
}
