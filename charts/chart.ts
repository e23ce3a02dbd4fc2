import { and, not, or, stateIn, type AnyStateMachine, type AnyStateNode, type AnyTransitionDefinition } from 'xstate';

/**
 * A machine read as a chart: its states and every transition, each guarded branch, each
 * done/error of an invoked actor and each delay counted on its own. Pure (xstate only), shared
 * by the model-based test harness (tests/model), the report and flow scripts (scripts/) and the
 * /flows page, so a transition has the same key everywhere.
 */

export type TransitionKind = 'event' | 'done' | 'error' | 'after' | 'always' | 'state-done';

export interface ChartState {
  /** The state node id, e.g. `auth.signIn.verifying`. */
  id: string;
  key: string;
  parent: string | null;
  type: string;
  description: string | undefined;
  initial: string | null;
  children: string[];
  invokes: { id: string; src: string }[];
  tags: string[];
}

export interface ChartTransition {
  /** Unique within the machine: `source · event [guard] → targets`. */
  key: string;
  source: string;
  /** Target state ids; empty when the transition stays in its state (actions only). */
  targets: string[];
  eventType: string;
  kind: TransitionKind;
  guard: string | undefined;
  description: string | undefined;
  /** Short label for diagrams: event, guard. */
  label: string;
  /** Position among the transitions of the same source state and event (guarded branches). */
  index: number;
}

/** A chart as `npm run flows` writes it (docs/flows/charts/<machine>.json): plain data, what /flows draws from. */
export interface ChartData {
  id: string;
  title: string;
  description: string | undefined;
  root: string;
  states: ChartState[];
  transitions: ChartTransition[];
}

/** docs/flows/charts/index.json: the machines /flows lists, in order (their charts load one by one). */
export type ChartIndex = Pick<ChartData, 'id' | 'title' | 'root'>[];

/** A chart as the page and the docs read it. */
export interface Chart extends ChartData {
  /** Invoke id → actor name (the id xstate generates for an unnamed invoke means nothing to a reader). */
  actorNames: ReadonlyMap<string, string>;
}

/** A chart read from its machine: also the machine's transition definitions (for the model-based tests). */
export interface MachineChart extends Chart {
  /** The transition definition objects of this machine, mapped to their chart entry. */
  byDefinition: Map<AnyTransitionDefinition, ChartTransition>;
}

export interface DiscoveredMachine {
  /** The export name without `Machine`: `authMachine` → `auth`. */
  id: string;
  file: string;
  exportName: string;
  machine: AnyStateMachine;
}

export function isStateMachine(value: unknown): value is AnyStateMachine {
  return (
    typeof value === 'object' &&
    value !== null &&
    'root' in value &&
    'getStateNodeById' in value &&
    typeof (value as { transition?: unknown }).transition === 'function'
  );
}

/** Every machine exported as `<name>Machine` from the given modules (path → module). */
export function discoverMachines(modules: Record<string, unknown>): DiscoveredMachine[] {
  const found: DiscoveredMachine[] = [];
  for (const [file, mod] of Object.entries(modules)) {
    if (/\.test\.tsx?$/.test(file)) continue;
    for (const [exportName, value] of Object.entries(mod as Record<string, unknown>)) {
      if (!exportName.endsWith('Machine') || !isStateMachine(value)) continue;
      found.push({ id: exportName.slice(0, -'Machine'.length), file, exportName, machine: value });
    }
  }
  return found.sort((a, b) => a.id.localeCompare(b.id));
}

// XState's guard combinators, told apart by their `check` (shared by every guard each makes), not
// by their function names: a production build minifies those, and the page must read a chart
// exactly as `npm run flows` did (its layouts and approvals are keyed by these labels).
const checkOf = (g: unknown) => (g as { check?: unknown }).check;
const COMBINATORS = new Map<unknown, string>([
  [checkOf(not('x')), 'not'],
  [checkOf(and(['x'])), 'and'],
  [checkOf(or(['x'])), 'or'],
  [checkOf(stateIn('#x')), 'stateIn'],
]);

export function guardLabel(guard: unknown): string | undefined {
  if (guard === undefined || guard === null) return undefined;
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'function') {
    const g = guard as { guards?: unknown[]; name?: string; check?: unknown };
    const combinator = COMBINATORS.get(g.check);
    if (Array.isArray(g.guards)) {
      const inner = g.guards.map((x) => guardLabel(x) ?? '?');
      const op = combinator ?? 'guard';
      return op === 'not' ? `not ${inner.join(', ')}` : inner.join(` ${op} `);
    }
    if (combinator) return combinator;
    return g.name && g.name !== 'guard' ? g.name : 'inline guard';
  }
  if (typeof guard === 'object' && 'type' in (guard as object)) return String((guard as { type: unknown }).type);
  return 'guard';
}

export function kindOf(eventType: string): TransitionKind {
  if (eventType === '') return 'always';
  if (eventType.startsWith('xstate.done.actor.')) return 'done';
  if (eventType.startsWith('xstate.error.actor.')) return 'error';
  if (eventType.startsWith('xstate.after.')) return 'after';
  if (eventType.startsWith('xstate.done.state.')) return 'state-done';
  return 'event';
}

/** `xstate.after.<delay>.<state id>` → `<delay>`. */
export function afterDelay(eventType: string): string {
  return eventType.slice('xstate.after.'.length).split('.')[0] ?? '';
}

/** A short human label for an event type: `user.submit`, `loadSession finished`, `after 3000 ms`. */
export function eventLabel(eventType: string, actorNames?: ReadonlyMap<string, string>): string {
  // An invoke without an id of its own gets one like `0.loader.loading`: show its actor's name.
  const actor = (id: string) => (/^\d+\./.test(id) ? (actorNames?.get(id) ?? id) : id);
  switch (kindOf(eventType)) {
    case 'always':
      return 'direkt';
    case 'done':
      return `${actor(eventType.slice('xstate.done.actor.'.length))} klar`;
    case 'error':
      return `${actor(eventType.slice('xstate.error.actor.'.length))} misslyckades`;
    case 'after': {
      const d = afterDelay(eventType);
      return /^\d+$/.test(d) ? `efter ${d} ms` : `efter ${d}`;
    }
    case 'state-done':
      return 'när klart';
    default:
      return eventType;
  }
}

function allNodes(node: AnyStateNode): AnyStateNode[] {
  return [node, ...Object.values(node.states as Record<string, AnyStateNode>).flatMap(allNodes)];
}

function srcName(src: unknown): string {
  if (typeof src === 'string') return src;
  const s = src as { id?: string; config?: { id?: string } } | undefined;
  return s?.config?.id ?? s?.id ?? 'inline actor';
}

export function humanize(id: string): string {
  const words = id.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[._-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function readChart(machine: AnyStateMachine, id: string = machine.id): MachineChart {
  const nodes = allNodes(machine.root);
  const states: ChartState[] = nodes.map((n) => ({
    id: n.id,
    key: n.key,
    parent: n.parent ? n.parent.id : null,
    type: n.type,
    description: n.description,
    initial: n.type === 'compound' && n.initial?.target?.[0] ? n.initial.target[0].id : null,
    children: Object.values(n.states as Record<string, AnyStateNode>).map((c) => c.id),
    invokes: n.invoke.map((inv) => ({ id: inv.id, src: srcName(inv.src) })),
    tags: [...n.tags],
  }));
  const actorNames = actorNamesOf(states);
  const transitions: ChartTransition[] = [];
  const byDefinition = new Map<AnyTransitionDefinition, ChartTransition>();
  const seen = new Map<string, number>();
  for (const n of nodes) {
    const groups: AnyTransitionDefinition[][] = [...(n.transitions as Map<string, AnyTransitionDefinition[]>).values()];
    groups.push((n.always as AnyTransitionDefinition[] | undefined) ?? []);
    for (const [index, t] of groups.flatMap((g) => g.map((t, i) => [i, t] as const))) {
      const eventType = String(t.eventType);
      const guard = guardLabel(t.guard);
      const targets = (t.target ?? []).map((s) => s.id);
      let key = `${n.id} · ${eventType || '(always)'}${guard ? ` [${guard}]` : ''} → ${targets.length ? targets.join(', ') : '(stays)'}`;
      const count = (seen.get(key) ?? 0) + 1;
      seen.set(key, count);
      if (count > 1) key += ` #${count}`;
      const entry: ChartTransition = {
        key,
        source: n.id,
        targets,
        eventType,
        kind: kindOf(eventType),
        guard,
        description: (t as { description?: string }).description,
        label: `${eventLabel(eventType, actorNames)}${guard ? ` [${guard}]` : ''}`,
        index,
      };
      transitions.push(entry);
      byDefinition.set(t, entry);
    }
  }
  const rootDescription = machine.root.description;
  return {
    id,
    title: humanize(id),
    description: rootDescription,
    root: machine.root.id,
    states,
    transitions,
    byDefinition,
    actorNames,
  };
}

function actorNamesOf(states: readonly ChartState[]): Map<string, string> {
  return new Map(states.flatMap((st) => st.invokes.map((i) => [i.id, i.src] as const)));
}

/** What `npm run flows` writes of a chart (docs/flows/charts/<machine>.json): exactly this text, so a test can tell a stale file. */
export function chartFile(chart: ChartData): string {
  const { id, title, description, root, states, transitions } = chart;
  return `${JSON.stringify({ id, title, description, root, states, transitions }, null, 2)}\n`;
}

/** docs/flows/charts/index.json's text. */
export function chartIndexFile(index: ChartIndex): string {
  return `${JSON.stringify(index, null, 2)}\n`;
}

/** A written chart back as the page reads it. */
export function fromChartData(data: ChartData): Chart {
  return { ...data, actorNames: actorNamesOf(data.states) };
}

/**
 * The path-coverage report of one machine (written by `npm run test:paths`: docs/coverage/paths/<machine>.json,
 * read by /flows and other tools), and its figures in docs/coverage/paths/index.json.
 */
export interface CoverageStep {
  text: string;
  event: string;
  states: string[];
  transitions: string[];
}

export interface MachineCoverage {
  id: string;
  title: string;
  states: { total: number; covered: number; uncovered: string[] };
  transitions: { total: number; covered: number; uncovered: string[] };
  paths: { description: string; steps: CoverageStep[] }[];
}

/** Transition key → the generated paths (numbered from 1) that take it: the chart's tooltips on /flows. */
export function pathsByTransition(paths: { steps: { transitions: string[] }[] }[]): Map<string, number[]> {
  const out = new Map<string, number[]>();
  paths.forEach((p, i) => {
    for (const key of new Set(p.steps.flatMap((s) => s.transitions))) out.set(key, [...(out.get(key) ?? []), i + 1]);
  });
  return out;
}

export interface CoverageReport {
  machines: MachineCoverage[];
}

/** A machine's line in docs/coverage/paths/index.json: what the /flows list shows of its coverage. */
export interface CoverageFigures {
  id: string;
  title: string;
  states: { total: number; covered: number };
  transitions: { total: number; covered: number };
  paths: number;
}

export function coverageFigures(m: MachineCoverage): CoverageFigures {
  return {
    id: m.id,
    title: m.title,
    states: { total: m.states.total, covered: m.states.covered },
    transitions: { total: m.transitions.total, covered: m.transitions.covered },
    paths: m.paths.length,
  };
}

/** The states counted for coverage: every state node but the root. */
export function coverableStates(chart: Chart): ChartState[] {
  return chart.states.filter((s) => s.id !== chart.root && s.type !== 'history');
}
