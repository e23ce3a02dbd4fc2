import {
  __unsafe_getAllOwnEventDescriptors as ownEventDescriptors,
  type AnyActorLogic,
  type AnyActorScope,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type AnyTransitionDefinition,
  type EventObject,
} from 'xstate';
import { getAdjacencyMap, getShortestPaths, type AdjacencyMap, type StatePath } from 'xstate/graph';
import {
  coverableStates,
  eventLabel,
  humanize,
  readChart,
  type Chart,
  type ChartTransition,
  type DiscoveredMachine,
  type MachineChart,
} from '../../../charts/chart.ts';
import { activeStateIds, activeStateNodes, inertActorScope } from '../../../charts/xstate.ts';
import type { EventSample, MachineHooks } from './types.ts';

/**
 * The bridge between our machines and `xstate/graph`.
 *
 * `createTestModel` refuses machines with `invoke` or `after`. We do not need it: a machine's pure
 * `transition()` with an inert actor scope never starts an invoked actor and never fires a delay,
 * so the events that would settle them (`xstate.done.actor.<id>`, `xstate.error.actor.<id>`,
 * `xstate.after.<delay>.<state>`) are ordinary, explicit events the graph traversal can send, with
 * payload samples from the machine's hooks. The "test logic" below wraps the very machine the app
 * runs and records, for each (state, event), which transition definitions the macrostep took
 * (from the `@xstate.microstep` inspection events), so coverage is counted per guarded branch,
 * per done/error, per delay, and eventless transitions are counted too.
 */

export interface PathStep {
  /** Plain-language step for testers. */
  text: string;
  /** The event's type (`xstate.init` for the start). */
  event: string;
  /** The event as sent (payload included). */
  payload: Record<string, unknown>;
  /** Active state ids after the step (every level). */
  states: string[];
  /** Keys of the transitions the step took (see chart.ts). */
  transitions: string[];
}

export interface ModelPath {
  description: string;
  steps: PathStep[];
  /** The events after the start, as sent. */
  events: EventObject[];
  /** The expected snapshot after each step (index 0: the initial snapshot). */
  snapshots: AnyMachineSnapshot[];
}

export interface CoverageCount {
  total: number;
  covered: number;
  uncovered: string[];
}

export interface MachineModel {
  id: string;
  file: string;
  machine: AnyStateMachine;
  chart: MachineChart;
  hooks: MachineHooks | undefined;
  serialize: (snapshot: AnyMachineSnapshot) => string;
  paths: ModelPath[];
  states: CoverageCount;
  transitions: CoverageCount;
  /** How many distinct (serialized) states the traversal explored. */
  explored: number;
  /** Things a maintainer should know: events that threw, fallbacks taken, invokes without onError. */
  notes: string[];
}

function defaultSerialize(snapshot: AnyMachineSnapshot): string {
  const s = snapshot as AnyMachineSnapshot & { status: string };
  return JSON.stringify({ value: s.value, context: s.context, status: s.status === 'active' ? undefined : s.status });
}

function valueOnly(snapshot: AnyMachineSnapshot): string {
  const s = snapshot as AnyMachineSnapshot & { status: string };
  return JSON.stringify({ value: s.value, status: s.status === 'active' ? undefined : s.status });
}

const serializeEvent = (e: EventObject) =>
  JSON.stringify(e, (_k, v: unknown) => (v instanceof Error ? { error: v.message } : v));

function samplesFor(type: string, hooks: MachineHooks | undefined): EventObject[] {
  const given = hooks?.events?.[type];
  const samples: EventSample[] = given?.length
    ? given
    : type.startsWith('xstate.done.actor.')
      ? [{ output: undefined }]
      : type.startsWith('xstate.error.actor.')
        ? [{ error: new Error('Simulated failure') }]
        : [{}];
  // A sample may name its own type: the way to send something a wildcard (`*`, `user.*`) catches.
  return samples.map((s) => ({ type, ...s }) as EventObject);
}

/** Events the traversal sends in a state: every event the active states handle, with samples. */
function eventsFor(snapshot: AnyMachineSnapshot, hooks: MachineHooks | undefined): EventObject[] {
  return ownEventDescriptors(snapshot)
    .filter((t) => t !== '' && t !== 'xstate.init' && !t.startsWith('xstate.done.state.'))
    .filter((t) => !t.includes('*') || !!hooks?.events?.[t]?.length)
    .flatMap((t) => samplesFor(t, hooks));
}

function stateText(chart: Chart, snapshot: AnyMachineSnapshot): string {
  const leaves = activeStateNodes(snapshot).filter((n) => n.type === 'atomic' || n.type === 'final');
  const text = leaves.map((n) => n.description ?? humanize(n.key)).join(' Och: ');
  if (snapshot.status === 'error') return `${text} (maskinen stannade med ett fel)`;
  return text || (chart.description ?? humanize(chart.id));
}

function payloadText(event: EventObject): string {
  const rest = { ...(event as unknown as Record<string, unknown>) };
  delete rest.type;
  const keys = Object.keys(rest).filter((k) => rest[k] !== undefined);
  if (!keys.length) return '';
  const text = JSON.stringify(rest, (_k, v: unknown) => (v instanceof Error ? v.message : v));
  return ` med ${text.length > 90 ? `${text.slice(0, 87)}…` : text}`;
}

/** The event as a tester reads it; a named delay shows its length when it is a fixed number. */
function eventText(machine: AnyStateMachine, chart: Chart, type: string): string {
  if (type.startsWith('xstate.after.')) {
    const ref = type.slice('xstate.after.'.length).split('.')[0] ?? '';
    const d = (machine.implementations.delays as Record<string, unknown>)[ref];
    if (typeof d === 'number') return `efter ${d} ms (${ref})`;
  }
  return eventLabel(type, chart.actorNames);
}

function stepText(chart: Chart, event: EventObject, taken: ChartTransition[], after: AnyMachineSnapshot, machine: AnyStateMachine): string {
  const what = taken.length
    ? taken.map((t) => t.description ?? `${eventLabel(t.eventType, chart.actorNames)}${t.guard ? ` (när ${t.guard})` : ''}`).join(' Sedan: ')
    : 'Inget händer: ingen övergång gäller.';
  return `${eventText(machine, chart, event.type)}${payloadText(event)}: ${what.replace(/[.:]?$/, '.')} Nu: ${stateText(chart, after)}`;
}

export function buildModel(found: DiscoveredMachine, hooks: MachineHooks | undefined): MachineModel {
  const { machine, id } = found;
  const chart = readChart(machine, id);
  const notes: string[] = [];
  let current: AnyTransitionDefinition[] = [];
  // A fresh inert scope per call: spawned children register their systemId in its own system.
  const scope = () => inertActorScope((ts) => current.push(...ts));
  let serialize = hooks?.serializeState ?? defaultSerialize;
  const edges = new Map<string, { taken: AnyTransitionDefinition[]; threw: boolean }>();
  let initialTaken: AnyTransitionDefinition[] = [];
  const problems = new Set<string>();

  const testLogic = {
    config: machine.config,
    transition: (snapshot: AnyMachineSnapshot, event: EventObject) => {
      current = [];
      const key = `${serialize(snapshot)}|${serializeEvent(event)}`;
      try {
        const next = machine.transition(snapshot, event, scope()) as AnyMachineSnapshot;
        edges.set(key, { taken: current, threw: false });
        return next;
      } catch (err) {
        problems.add(`Event ${event.type} threw "${(err as Error).message.replace(/\s+/g, ' ')}" in ${JSON.stringify(snapshot.value)}: give it a payload sample in tests/model/hooks/${id}.ts.`);
        edges.set(key, { taken: [], threw: true });
        return snapshot;
      }
    },
    getInitialSnapshot: (_scope: AnyActorScope, input: unknown) => {
      current = [];
      const s = machine.getInitialSnapshot(scope(), input) as AnyMachineSnapshot;
      initialTaken = current;
      return s;
    },
    getPersistedSnapshot: (s: AnyMachineSnapshot) => s,
  } as unknown as AnyActorLogic;

  const options = () => ({
    input: hooks?.input,
    events: (s: AnyMachineSnapshot) => eventsFor(s, hooks),
    serializeState: (s: AnyMachineSnapshot) => serialize(s),
    serializeEvent,
    limit: hooks?.limit ?? 2000,
  });

  let shortest: StatePath<AnyMachineSnapshot, EventObject>[];
  let adjacency: AdjacencyMap<AnyMachineSnapshot, EventObject>;
  try {
    shortest = getShortestPaths(testLogic, options() as never) as never;
    adjacency = getAdjacencyMap(testLogic, options() as never) as never;
  } catch (err) {
    if (!/Traversal limit exceeded/.test((err as Error).message)) throw err;
    notes.push(
      `More than ${hooks?.limit ?? 2000} distinct states (value + context): paths were generated from state values only. Give tests/model/hooks/${id}.ts a serializeState that keeps the states finite.`,
    );
    serialize = valueOnly;
    edges.clear();
    shortest = getShortestPaths(testLogic, options() as never) as never;
    adjacency = getAdjacencyMap(testLogic, options() as never) as never;
  }

  const start = shortest[0]?.steps[0]?.state as (AnyMachineSnapshot & { status: string; error?: unknown }) | undefined;
  if (start && start.status === 'error') {
    notes.push(
      `The machine cannot start (${String((start.error as Error | undefined)?.message ?? start.error)}): give tests/model/hooks/${id}.ts an input.`,
    );
  }

  // Candidate paths: the shortest path to every distinct state, and each of those extended by
  // every edge leaving that state (so transitions back to known states are covered too).
  type Candidate = { events: EventObject[]; snapshots: AnyMachineSnapshot[] };
  const byState = new Map<string, Candidate>();
  for (const p of shortest) {
    byState.set(serialize(p.state), { events: p.steps.slice(1).map((s) => s.event), snapshots: p.steps.map((s) => s.state) });
  }
  const candidates: Candidate[] = [...byState.values()];
  for (const [stateKey, adj] of Object.entries(adjacency)) {
    const head = byState.get(stateKey);
    if (!head) continue;
    for (const [eventKey, { event, state }] of Object.entries(adj.transitions) as [string, { event: EventObject; state: AnyMachineSnapshot }][]) {
      if (edges.get(`${stateKey}|${eventKey}`)?.threw) continue;
      candidates.push({ events: [...head.events, event], snapshots: [...head.snapshots, state] });
    }
  }

  const keysOf = (defs: AnyTransitionDefinition[]) => [
    ...new Set(defs.map((d) => chart.byDefinition.get(d)?.key).filter((k): k is string => !!k)),
  ];
  const describe = (c: Candidate): ModelPath => {
    const steps: PathStep[] = [];
    const first = c.snapshots[0]!;
    steps.push({
      text: `Start: ${stateText(chart, first)}`,
      event: 'xstate.init',
      payload: {},
      states: activeStateIds(first),
      transitions: keysOf(initialTaken),
    });
    c.events.forEach((event, i) => {
      const before = c.snapshots[i]!;
      const after = c.snapshots[i + 1]!;
      const taken = edges.get(`${serialize(before)}|${serializeEvent(event)}`)?.taken ?? [];
      const keys = keysOf(taken);
      steps.push({
        text: stepText(chart, event, keys.map((k) => chart.transitions.find((t) => t.key === k)!), after, machine),
        event: event.type,
        payload: JSON.parse(serializeEvent(event)) as Record<string, unknown>,
        states: activeStateIds(after),
        transitions: keys,
      });
    });
    // The path in a line: what happens at each step (repeats folded), then where it ends.
    const parts: { label: string; count: number }[] = [];
    c.events.forEach((event, i) => {
      const key = steps[i + 1]!.transitions[0];
      const t = key ? chart.transitions.find((x) => x.key === key) : undefined;
      const label = (t?.description ?? `${eventLabel(event.type, chart.actorNames)}${key ? '' : ' (ignoreras)'}`).replace(/[.:]$/, '');
      const prev = parts[parts.length - 1];
      if (prev && prev.label === label) prev.count++;
      else parts.push({ label, count: 1 });
    });
    const end = stateText(chart, c.snapshots[c.snapshots.length - 1]!).replace(/[.:]$/, '');
    const description = parts.length
      ? `${parts.map((p) => (p.count > 1 ? `${p.label} (×${p.count})` : p.label)).join(' → ')}. Slutar: ${end}.`
      : `Startar i: ${end}.`;
    return { description, steps, events: c.events, snapshots: c.snapshots };
  };

  // Greedy cover: shortest candidates first, keep one only if it covers something new; then drop
  // kept paths that are a prefix of a longer kept path.
  candidates.sort((a, b) => a.events.length - b.events.length);
  const coveredStates = new Set<string>();
  const coveredTransitions = new Set<string>();
  let kept: ModelPath[] = [];
  for (const c of candidates) {
    const p = describe(c);
    const states = p.steps.flatMap((s) => s.states);
    const transitions = p.steps.flatMap((s) => s.transitions);
    const adds = states.some((s) => !coveredStates.has(s)) || transitions.some((t) => !coveredTransitions.has(t));
    if (!adds && kept.length > 0) continue;
    states.forEach((s) => coveredStates.add(s));
    transitions.forEach((t) => coveredTransitions.add(t));
    kept.push(p);
  }
  // Named scenarios from the hooks (e.g. "six messages: one waits"), run like generated paths.
  // (From a fresh initial snapshot: the traversal keeps one representative per serialized state.)
  for (const [name, events] of Object.entries(hooks?.scenarios ?? {})) {
    const initial = (testLogic.getInitialSnapshot as (s: unknown, i: unknown) => AnyMachineSnapshot)(undefined, hooks?.input);
    const snapshots = [initial];
    for (const e of events) snapshots.push((testLogic.transition as (s: AnyMachineSnapshot, e: EventObject) => AnyMachineSnapshot)(snapshots[snapshots.length - 1]!, e));
    const p = describe({ events, snapshots });
    p.description = `${name} (scenario)`;
    p.steps.flatMap((st) => st.states).forEach((x) => coveredStates.add(x));
    p.steps.flatMap((st) => st.transitions).forEach((x) => coveredTransitions.add(x));
    kept.push(p);
  }
  const sig = (p: ModelPath) => p.events.map(serializeEvent);
  kept = kept.filter(
    (p) => !kept.some((q) => q !== p && q.events.length > p.events.length && sig(p).every((e, i) => sig(q)[i] === e)),
  );

  const allStates = coverableStates(chart).map((s) => s.id);
  const allTransitions = chart.transitions.map((t) => t.key);
  for (const s of chart.states) {
    for (const inv of s.invokes) {
      if (!chart.transitions.some((t) => t.source === s.id && t.eventType === `xstate.error.actor.${inv.id}`)) {
        notes.push(`State ${s.id} invokes ${inv.src} (id ${inv.id}) without onError: a failure would stop the machine.`);
      }
    }
  }
  notes.push(...problems);
  const known = new Set(chart.transitions.map((t) => t.eventType));
  for (const type of Object.keys(hooks?.events ?? {})) {
    if (!known.has(type)) notes.push(`tests/model/hooks/${id}.ts gives samples for "${type}", which no state of the machine handles.`);
  }
  return {
    id,
    file: found.file,
    machine,
    chart,
    hooks,
    serialize,
    paths: kept,
    states: {
      total: allStates.length,
      covered: allStates.filter((s) => coveredStates.has(s)).length,
      uncovered: allStates.filter((s) => !coveredStates.has(s)),
    },
    transitions: {
      total: allTransitions.length,
      covered: allTransitions.filter((t) => coveredTransitions.has(t)).length,
      uncovered: allTransitions.filter((t) => !coveredTransitions.has(t)),
    },
    notes,
    explored: Object.keys(adjacency).length,
  };
}

/** The gate: one line per machine with anything uncovered, naming what is missing. */
export function coverageGaps(models: MachineModel[]): string[] {
  return models
    .filter((m) => m.states.uncovered.length || m.transitions.uncovered.length)
    .map((m) => {
      const parts = [];
      if (m.states.uncovered.length) parts.push(`states never reached: ${m.states.uncovered.join('; ')}`);
      if (m.transitions.uncovered.length) parts.push(`transitions never taken: ${m.transitions.uncovered.join('; ')}`);
      const hint = m.hooks ? '' : ` (no tests/model/hooks/${m.id}.ts: add payload samples for its guarded events)`;
      return `Machine "${m.id}" (${m.file}): ${parts.join(' | ')}${hint}`;
    });
}
