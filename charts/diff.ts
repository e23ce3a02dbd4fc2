import type { Chart } from './chart.ts';

/**
 * A chart as a product owner approves it, and what changed since: pure, shared by
 * `npm run flows:approve` (writes the approval), `npm run flows` (writes the difference next to
 * the Mermaid docs) and /flows ("Visa ändringar").
 */

export interface SnapState {
  id: string;
  parent: string | null;
  type: string;
  /** Where a compound state starts. */
  initial?: string;
}

export interface SnapTransition {
  source: string;
  /** The event type as xstate names it ('' for an eventless transition). */
  event: string;
  targets: string[];
  guard?: string;
  /** The chart's transition key (current charts only: approvals do not store it). */
  key?: string;
}

export interface ChartSnapshot {
  states: SnapState[];
  transitions: SnapTransition[];
}

/** docs/flows/approved/<machine>.json */
export interface Approval extends ChartSnapshot {
  machine: string;
  /** YYYY-MM-DD */
  approvedAt: string;
  /** The git commit the chart was read at, when known; `dirty` when machines/ had uncommitted changes. */
  commit?: string;
  dirty?: boolean;
}

export function snapshot(chart: Chart): ChartSnapshot {
  return {
    states: chart.states.map((s) => ({ id: s.id, parent: s.parent, type: s.type, ...(s.initial ? { initial: s.initial } : {}) })),
    transitions: chart.transitions.map((t) => ({
      source: t.source,
      event: t.eventType,
      targets: [...t.targets],
      ...(t.guard ? { guard: t.guard } : {}),
      key: t.key,
    })),
  };
}

/** The approval file's content for a chart as it is now (no transition keys: they are derived). */
export function approvalOf(chart: Chart, approvedAt: string, commit?: { id: string; dirty: boolean }): Approval {
  const snap = snapshot(chart);
  return {
    machine: chart.id,
    approvedAt,
    ...(commit ? { commit: commit.id, ...(commit.dirty ? { dirty: true } : {}) } : {}),
    states: snap.states,
    transitions: snap.transitions.map(({ key: _key, ...t }) => t),
  };
}

export type StateChangeKind = 'moved' | 'type' | 'initial';
export type TransitionChangeKind = 'event' | 'guard' | 'targets';

export interface StateChange {
  before: SnapState;
  after: SnapState;
  changes: StateChangeKind[];
}

export interface TransitionChange {
  before: SnapTransition;
  after: SnapTransition;
  changes: TransitionChangeKind[];
}

export interface ChartDiff {
  states: { added: SnapState[]; removed: SnapState[]; changed: StateChange[] };
  transitions: { added: SnapTransition[]; removed: SnapTransition[]; changed: TransitionChange[] };
  /** An event no longer handled anywhere whose transitions now answer a new event. */
  renamedEvents: { from: string; to: string }[];
  /** Added, removed and changed states and transitions, each counted once. */
  count: number;
}

const keyOf = (id: string) => id.slice(id.lastIndexOf('.') + 1);

/**
 * What changed from `approved` to `current`. A state is matched by its id, or, moved into another
 * parent (its id changes with it), by its own name where that is unique on both sides. A
 * transition is matched, in order: unchanged (same source, event, guard and targets); changed in
 * guard or targets (same source and event); changed in event (same source, guard and targets).
 * What is left is removed or added.
 */
export function diffCharts(approved: ChartSnapshot, current: ChartSnapshot): ChartDiff {
  const nowIds = new Set(current.states.map((s) => s.id));
  const thenIds = new Set(approved.states.map((s) => s.id));
  const gone = approved.states.filter((s) => !nowIds.has(s.id));
  const fresh = current.states.filter((s) => !thenIds.has(s.id));
  const moved = new Map<string, string>();
  for (const g of gone) {
    const there = fresh.filter((n) => keyOf(n.id) === keyOf(g.id));
    if (there.length === 1 && gone.filter((x) => keyOf(x.id) === keyOf(g.id)).length === 1) moved.set(g.id, there[0]!.id);
  }
  const mapId = (id: string) => moved.get(id) ?? id;
  // Delays, invoked actors and done states name their state in the event type.
  const mapEvent = (event: string) => {
    for (const [from, to] of moved) if (event.endsWith(`.${from}`)) return `${event.slice(0, -from.length)}${to}`;
    return event;
  };

  const nowById = new Map(current.states.map((s) => [s.id, s]));
  const states: ChartDiff['states'] = { added: [], removed: [], changed: [] };
  for (const before of approved.states) {
    const after = nowById.get(mapId(before.id));
    if (!after) {
      states.removed.push(before);
      continue;
    }
    const changes: StateChangeKind[] = [];
    if (after.id !== before.id) changes.push('moved');
    if (after.type !== before.type) changes.push('type');
    if ((before.initial ? mapId(before.initial) : undefined) !== after.initial) changes.push('initial');
    if (changes.length) states.changed.push({ before, after, changes });
  }
  const matched = new Set(approved.states.map((s) => mapId(s.id)));
  states.added = current.states.filter((s) => !matched.has(s.id));

  type Side = { t: SnapTransition; source: string; event: string; guard: string; targets: string };
  const norm = (t: SnapTransition, map: boolean): Side => ({
    t,
    source: map ? mapId(t.source) : t.source,
    event: map ? mapEvent(t.event) : t.event,
    guard: t.guard ?? '',
    targets: (map ? t.targets.map(mapId) : t.targets).slice().sort().join('\n'),
  });
  let then = approved.transitions.map((t) => norm(t, true));
  let now = current.transitions.map((t) => norm(t, false));
  const changed: TransitionChange[] = [];
  const pair = (same: (a: Side, b: Side) => boolean, onPair?: (a: Side, b: Side) => void) => {
    const left: Side[] = [];
    for (const a of then) {
      const i = now.findIndex((b) => same(a, b));
      if (i < 0) {
        left.push(a);
        continue;
      }
      onPair?.(a, now[i]!);
      now = now.filter((_, j) => j !== i);
    }
    then = left;
  };
  const what = (a: Side, b: Side): TransitionChangeKind[] => [
    ...(a.event !== b.event ? (['event'] as const) : []),
    ...(a.guard !== b.guard ? (['guard'] as const) : []),
    ...(a.targets !== b.targets ? (['targets'] as const) : []),
  ];
  const record = (a: Side, b: Side) => changed.push({ before: a.t, after: b.t, changes: what(a, b) });
  pair((a, b) => a.source === b.source && a.event === b.event && a.guard === b.guard && a.targets === b.targets);
  pair((a, b) => a.source === b.source && a.event === b.event, record);
  pair((a, b) => a.source === b.source && a.guard === b.guard && a.targets === b.targets, record);

  const eventsThen = new Set(approved.transitions.map((t) => mapEvent(t.event)));
  const eventsNow = new Set(current.transitions.map((t) => t.event));
  const renamed = new Map<string, { from: string; to: string }>();
  for (const c of changed) {
    if (!c.changes.includes('event')) continue;
    const from = mapEvent(c.before.event);
    const to = c.after.event;
    if (!eventsNow.has(from) && !eventsThen.has(to)) renamed.set(`${from}\n${to}`, { from: c.before.event, to });
  }

  const transitions = { added: now.map((s) => s.t), removed: then.map((s) => s.t), changed };
  const count =
    states.added.length + states.removed.length + states.changed.length + transitions.added.length + transitions.removed.length + transitions.changed.length;
  return { states, transitions, renamedEvents: [...renamed.values()], count };
}

/** Where on the current chart a removed part was: its nearest state that is still there. */
export function removedAt(diff: ChartDiff, approved: ChartSnapshot, current: ChartSnapshot): Map<string, number> {
  const now = new Set(current.states.map((s) => s.id));
  const parentThen = new Map(approved.states.map((s) => [s.id, s.parent]));
  const moved = new Map(diff.states.changed.filter((c) => c.changes.includes('moved')).map((c) => [c.before.id, c.after.id]));
  const near = (id: string | null): string | undefined => {
    for (let at = id; at; at = parentThen.get(at) ?? null) {
      const here = moved.get(at) ?? at;
      if (now.has(here)) return here;
    }
    return current.states.find((s) => s.parent === null)?.id;
  };
  const out = new Map<string, number>();
  const add = (id: string | undefined) => id && out.set(id, (out.get(id) ?? 0) + 1);
  for (const s of diff.states.removed) add(near(s.parent));
  for (const t of diff.transitions.removed) add(near(t.source));
  return out;
}

const code = (s: string) => `\`${s}\``;
const eventText = (e: string) => code(e || '(direkt)');
const targetText = (t: SnapTransition) => (t.targets.length ? t.targets.map(code).join(', ') : '(stannar)');
const transitionText = (t: SnapTransition) => `${code(t.source)} vid ${eventText(t.event)}${t.guard ? ` [${t.guard}]` : ''} → ${targetText(t)}`;
const STATE_CHANGE: Record<StateChangeKind, string> = { moved: 'flyttat', type: 'typ', initial: 'starttillstånd' };

/**
 * docs/flows/<machine>.changes.md (written by `npm run flows`): the difference as text, so a
 * change to a chart shows in a code review. Swedish, like the rest of docs/flows.
 */
export function diffDoc(machine: string, approval: Approval | undefined, current: ChartSnapshot): string {
  const out = [`# ${machine}: ändringar sedan godkännandet`, '', `Skapad av \`npm run flows\`: diagrammet nu jämfört med \`docs/flows/approved/${machine}.json\` (ändra inte för hand).`, ''];
  if (!approval) {
    out.push('Inte godkänd än: `npm run flows:approve ' + machine + '` när flödet är granskat.', '');
    return out.join('\n');
  }
  const d = diffCharts(approval, current);
  out.push(`Godkänd ${approval.approvedAt}${approval.commit ? ` (commit ${approval.commit.slice(0, 10)}${approval.dirty ? ', med ändringar som inte var incheckade' : ''})` : ''}.`, '');
  if (d.count === 0) {
    out.push('Inga ändringar sedan godkännandet.', '');
    return out.join('\n');
  }
  out.push(`**${d.count} ${d.count === 1 ? 'ändring' : 'ändringar'}** sedan godkännandet.`, '');
  const section = (title: string, lines: string[]) => {
    if (lines.length) out.push(`## ${title}`, '', ...lines.map((l) => `- ${l}`), '');
  };
  section('Tillagda tillstånd', d.states.added.map((s) => code(s.id)));
  section('Borttagna tillstånd', d.states.removed.map((s) => code(s.id)));
  section(
    'Ändrade tillstånd',
    d.states.changed.map(
      (c) =>
        `${code(c.after.id)}: ${c.changes
          .map((k) =>
            k === 'moved' ? `${STATE_CHANGE[k]} från ${code(c.before.id)}` : k === 'type' ? `${STATE_CHANGE[k]} ${c.before.type} → ${c.after.type}` : `${STATE_CHANGE[k]} ${code(c.before.initial ?? '—')} → ${code(c.after.initial ?? '—')}`,
          )
          .join(', ')}`,
    ),
  );
  section('Tillagda övergångar', d.transitions.added.map(transitionText));
  section('Borttagna övergångar', d.transitions.removed.map(transitionText));
  section(
    'Ändrade övergångar',
    d.transitions.changed.map((c) => `${transitionText(c.after)} (förut ${eventText(c.before.event)}${c.before.guard ? ` [${c.before.guard}]` : ''} → ${targetText(c.before)})`),
  );
  section('Bytta händelsenamn', d.renamedEvents.map((r) => `${code(r.from)} → ${code(r.to)}`));
  return out.join('\n');
}
