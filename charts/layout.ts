import type { ElkExtendedEdge, ElkNode } from 'elkjs/lib/elk-api';
import type { Chart, ChartState } from './chart.ts';

/**
 * Lays a chart out with ELK (layered, nested states inside their parents) as plain data: absolute
 * geometry for an SVG, states named by id. `npm run flows` runs it in node and writes
 * docs/flows/layouts/<machine>.json, which /flows draws; the page imports this module (and so
 * ELK) only for a machine whose layout is missing or does not match it (decision 121).
 */

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface StoredState extends Box {
  id: string;
  compound: boolean;
  depth: number;
}

export interface StoredEdge {
  key: string;
  points: { x: number; y: number }[];
  label: Box & { text: string };
}

export interface StoredLayout {
  width: number;
  height: number;
  states: StoredState[];
  edges: StoredEdge[];
}

/** ELK's layer direction: left to right for a wide frame, top to bottom for a narrow or tall one. */
export type Direction = 'RIGHT' | 'DOWN';
export const DIRECTIONS: Direction[] = ['RIGHT', 'DOWN'];

/** What docs/flows/layouts/<machine>.json holds: both layouts and a hash of what they were laid out from. */
export interface StoredLayouts {
  /** FNV-1a of ELK's input (states, their box sizes, transitions): a change of any means a stale layout. */
  input: string;
  RIGHT: StoredLayout;
  DOWN: StoredLayout;
}

/** The texts a state's box must hold (its label in every language, its code name); the widest sets its width. */
export type StateTexts = (state: ChartState) => string[];

const CHAR = 7.2;
const LABEL_CHAR = 6.4;

export const nodeId = (stateId: string) => `n:${stateId}`;

const byKey: StateTexts = (s) => [s.key];

/** ELK's input for a chart: the graph of its states (sized for their texts) and transitions. */
export function elkGraph(chart: Chart, direction: Direction, texts: StateTexts = byKey): ElkNode {
  const byId = new Map(chart.states.map((s) => [s.id, s]));
  const toNode = (s: ChartState): ElkNode => {
    const kids = s.children.map((c) => byId.get(c)!);
    const longest = Math.max(s.key.length, ...texts(s).map((x) => x.length));
    const labelWidth = Math.round(longest * CHAR + 32);
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
        labels: [{ text: t.label, width: Math.round(t.label.length * LABEL_CHAR + 10), height: 18 }],
      })),
    );
  return {
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
}

/** 32-bit FNV-1a of a string, as hex: a fingerprint, not a secret. */
function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

/** The fingerprint of what a chart is laid out from (both directions share it). */
export function layoutInput(chart: Chart, texts: StateTexts = byKey): string {
  return fnv1a(JSON.stringify(elkGraph(chart, 'RIGHT', texts)));
}

const round = (n: number | undefined) => Math.round((n ?? 0) * 10) / 10;

/** Lays one direction out (ELK, loaded on first use). */
export async function layoutChart(chart: Chart, direction: Direction = 'RIGHT', texts: StateTexts = byKey): Promise<StoredLayout> {
  const { default: ELK } = await import('elkjs/lib/elk.bundled.js');
  const out = await new ELK().layout(elkGraph(chart, direction, texts));

  const states: StoredState[] = [];
  const offsets = new Map<string, { x: number; y: number }>([['root', { x: 0, y: 0 }]]);
  const walk = (n: ElkNode, ox: number, oy: number, depth: number) => {
    for (const c of n.children ?? []) {
      const x = ox + (c.x ?? 0);
      const y = oy + (c.y ?? 0);
      offsets.set(c.id, { x, y });
      states.push({ id: c.id.slice(2), x: round(x), y: round(y), width: round(c.width), height: round(c.height), compound: !!c.children?.length, depth });
      walk(c, x, y, depth + 1);
    }
  };
  walk(out, 0, 0, 0);

  const edges: StoredEdge[] = [];
  const collect = (n: ElkNode) => {
    for (const e of (n.edges ?? []) as ElkExtendedEdge[]) {
      const container = offsets.get(e.container ?? n.id) ?? { x: 0, y: 0 };
      const section = e.sections?.[0];
      if (!section) continue;
      const points = [section.startPoint, ...(section.bendPoints ?? []), section.endPoint].map((p) => ({ x: round(p.x + container.x), y: round(p.y + container.y) }));
      const l = e.labels?.[0];
      edges.push({
        key: e.id.split('@@')[0]!,
        points,
        label: { text: l?.text ?? '', x: round((l?.x ?? 0) + container.x), y: round((l?.y ?? 0) + container.y), width: round(l?.width), height: round(l?.height) },
      });
    }
    for (const c of n.children ?? []) collect(c);
  };
  collect(out);
  return { width: round(out.width), height: round(out.height), states, edges };
}

/** Both directions and the fingerprint: what `npm run flows` writes for a machine. */
export async function layoutBoth(chart: Chart, texts: StateTexts = byKey): Promise<StoredLayouts> {
  const [RIGHT, DOWN] = await Promise.all(DIRECTIONS.map((d) => layoutChart(chart, d, texts)));
  return { input: layoutInput(chart, texts), RIGHT: RIGHT!, DOWN: DOWN! };
}
