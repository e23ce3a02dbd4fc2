import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { and, createMachine, not, setup, stateIn, type AnyStateMachine } from 'xstate';
import { describe, expect, it } from 'vitest';
import { guardLabel, readChart } from '../../charts/chart.ts';
import { approvalOf, diffCharts, diffDoc, removedAt, snapshot, type Approval } from '../../charts/diff.ts';
import { charts } from './machines.ts';
import { authMachine } from '../../machines/auth.ts';

/**
 * The chart difference behind "Visa ändringar" on /flows and docs/flows/<machine>.changes.md:
 * what a product owner approved against what the machine says now.
 */

const guards = { isValid: () => true, isKnown: () => true, isOther: () => true };
const door = (config: Record<string, unknown>) => setup({ guards }).createMachine({ id: 'door', ...config } as never) as unknown as AnyStateMachine;
const base = {
  initial: 'closed',
  states: {
    closed: { on: { 'user.open': { target: 'open', guard: 'isValid' }, 'user.lock': 'locked' } },
    locked: { on: { 'user.unlock': 'closed' } },
    open: {
      initial: 'swinging',
      states: { swinging: { on: { 'timer.stopped': 'still' } }, still: {} },
      on: { 'user.close': 'closed' },
    },
  },
};
const snap = (config: Record<string, unknown>) => snapshot(readChart(door(config), 'door'));
const approved = snap(base);
const diff = (config: Record<string, unknown>) => diffCharts(approved, snap(config));

describe('the chart difference', () => {
  it('finds nothing in the chart it was approved as', () => {
    const d = diff(base);
    expect(d.count).toBe(0);
    expect(d.states).toEqual({ added: [], removed: [], changed: [] });
    expect(d.transitions).toEqual({ added: [], removed: [], changed: [] });
  });

  it('finds an added state and the transition into it', () => {
    const d = diff({ ...base, states: { ...base.states, broken: {}, locked: { on: { 'user.unlock': 'closed', 'user.kick': 'broken' } } } });
    expect(d.states.added.map((s) => s.id)).toEqual(['door.broken']);
    expect(d.transitions.added.map((t) => [t.source, t.event, t.targets])).toEqual([['door.locked', 'user.kick', ['door.broken']]]);
    expect(d.transitions.added[0]!.key).toBe('door.locked · user.kick → door.broken');
    expect(d.count).toBe(2);
  });

  it('finds a removed state and the transitions into and out of it, placed at what is still there', () => {
    const { locked: _locked, ...rest } = base.states;
    const config = { ...base, states: { ...rest, closed: { on: { 'user.open': { target: 'open', guard: 'isValid' } } } } };
    const d = diff(config);
    expect(d.states.removed.map((s) => s.id)).toEqual(['door.locked']);
    expect(d.transitions.removed.map((t) => `${t.source} ${t.event}`).sort()).toEqual(['door.closed user.lock', 'door.locked user.unlock']);
    expect(d.count).toBe(3);
    // The state and its own way out are marked on its parent, the way in on the state it left.
    expect(Object.fromEntries(removedAt(d, approved, snap(config)))).toEqual({ door: 2, 'door.closed': 1 });
  });

  it('finds a transition whose guard changed, one whose target changed, and says which', () => {
    const d = diff({
      ...base,
      states: { ...base.states, closed: { on: { 'user.open': { target: 'open', guard: 'isKnown' }, 'user.lock': 'open' } } },
    });
    expect(d.transitions.added).toEqual([]);
    expect(d.transitions.removed).toEqual([]);
    expect(d.transitions.changed.map((c) => [c.after.event, c.changes])).toEqual([
      ['user.open', ['guard']],
      ['user.lock', ['targets']],
    ]);
    expect(d.transitions.changed[0]!.before.guard).toBe('isValid');
    expect(d.count).toBe(2);
  });

  it('finds a renamed event: the same transition under a new name', () => {
    const d = diff({ ...base, states: { ...base.states, locked: { on: { 'user.release': 'closed' } } } });
    expect(d.transitions.changed.map((c) => [c.before.event, c.after.event, c.changes])).toEqual([['user.unlock', 'user.release', ['event']]]);
    expect(d.renamedEvents).toEqual([{ from: 'user.unlock', to: 'user.release' }]);
    expect(d.count).toBe(1);
  });

  it('does not call an event renamed when the old one is still handled elsewhere', () => {
    const d = diff({ ...base, states: { ...base.states, locked: { on: { 'user.close': 'closed' } } } });
    expect(d.transitions.changed.map((c) => c.changes)).toEqual([['event']]);
    expect(d.renamedEvents).toEqual([]);
  });

  it('follows nested states: a child added, a child moved into a new parent, a parent’s start changed', () => {
    const { locked: _locked, ...rest } = base.states;
    const d = diff({
      ...base,
      states: {
        ...rest,
        open: {
          initial: 'still',
          states: { swinging: { on: { 'timer.stopped': 'still' } }, still: {}, wide: { initial: 'locked', states: { locked: { on: { 'user.unlock': '#door.closed' } } } } },
          on: { 'user.close': 'closed' },
        },
        closed: { on: { 'user.open': { target: 'open', guard: 'isValid' }, 'user.lock': 'open.wide.locked' } },
      },
    } as never);
    // door.locked moved to door.open.wide.locked: one changed state, not one removed and one added.
    expect(d.states.added.map((s) => s.id)).toEqual(['door.open.wide']);
    expect(d.states.removed).toEqual([]);
    expect(d.states.changed.map((c) => [c.after.id, c.changes]).sort()).toEqual([
      ['door.open', ['initial']],
      ['door.open.wide.locked', ['moved']],
    ]);
    // Its transitions moved with it: unchanged.
    expect(d.transitions).toEqual({ added: [], removed: [], changed: [] });
    expect(d.count).toBe(3);
  });

  it('tells a changed state type (a state made final)', () => {
    const d = diff({ ...base, states: { ...base.states, open: { ...base.states.open, states: { ...base.states.open.states, still: { type: 'final' } } } } });
    expect(d.states.changed.map((c) => [c.after.id, c.changes, c.before.type, c.after.type])).toEqual([['door.open.still', ['type'], 'atomic', 'final']]);
  });

  it('writes the difference as text for a code review', () => {
    const config = { ...base, states: { ...base.states, locked: { on: { 'user.release': 'closed' } }, broken: {} } };
    const approval: Approval = { ...approvalOf(readChart(door(base), 'door'), '2026-12-01', { id: 'abc1234567890', dirty: false }) };
    const text = diffDoc('door', approval, snap(config));
    expect(text).toContain('Godkänd 2026-12-01 (commit abc1234567)');
    expect(text).toContain('**2 ändringar** sedan godkännandet.');
    expect(text).toContain('## Tillagda tillstånd\n\n- `door.broken`');
    expect(text).toContain('## Ändrade övergångar\n\n- `door.locked` vid `user.release` → `door.closed` (förut `user.unlock` → `door.closed`)');
    expect(text).toContain('## Bytta händelsenamn\n\n- `user.unlock` → `user.release`');
    expect(diffDoc('door', undefined, snap(base))).toContain('Inte godkänd än');
  });
});

describe('guard labels in a production build', () => {
  it('reads not/and/stateIn guards the same when the bundler has renamed their functions', () => {
    const minified = <T extends object>(g: T) => Object.defineProperty(g, 'name', { value: 'n' });
    expect(guardLabel(minified(not('hasDraft')))).toBe('not hasDraft');
    expect(guardLabel(minified(and(['isA', minified(not('isB'))])))).toBe('isA and not isB');
    expect(guardLabel(minified(stateIn('#door.open')))).toBe('stateIn');
  });
});

describe('the approvals in docs/flows/approved', () => {
  const read = (id: string) => {
    const file = join(process.cwd(), 'docs/flows/approved', `${id}.json`);
    return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Approval) : undefined;
  };

  it.each(charts.map((c) => [c.id, c] as const))('docs/flows/%s.changes.md is up to date (npm run flows writes it)', (id, chart) => {
    const file = join(process.cwd(), 'docs/flows', `${id}.changes.md`);
    expect(existsSync(file), `docs/flows/${id}.changes.md is missing: run npm run flows`).toBe(true);
    expect(readFileSync(file, 'utf8'), `docs/flows/${id}.changes.md is stale: run npm run flows`).toBe(diffDoc(id, read(id), snapshot(chart)));
  });

  it('shows a real machine changed after its approval: auth’s config without the restoring step', () => {
    const approval = read('auth');
    expect(approval, 'auth is approved').toBeDefined();
    expect(diffCharts(approval!, snapshot(readChart(authMachine, 'auth'))).count, 'auth as committed matches its approval').toBe(0);
    // A developer drops the cookie restore: no sessionless tab asks the browser any more.
    const config = authMachine.config as { states: Record<string, { invoke?: { onDone?: unknown[] } }> };
    const { restoring: _restoring, ...states } = config.states;
    const loading = config.states.loading!;
    const onDone = [loading.invoke!.onDone![0], { target: 'unauthenticated' }];
    const changed = createMachine({ ...authMachine.config, states: { ...states, loading: { ...loading, invoke: { ...loading.invoke, onDone } } } } as never);
    const now = snapshot(readChart(changed, 'auth'));
    const d = diffCharts(approval!, now);
    expect(d.states.removed.map((s) => s.id)).toEqual(['auth.restoring']);
    expect(d.transitions.changed.map((c) => [c.after.source, c.after.targets, c.changes])).toEqual([['auth.loading', ['auth.unauthenticated'], ['targets']]]);
    expect(d.transitions.removed.every((t) => t.source === 'auth.restoring')).toBe(true);
    expect(d.count).toBe(1 + 1 + d.transitions.removed.length);
    const text = diffDoc('auth', approval, now);
    expect(text).toContain('## Borttagna tillstånd\n\n- `auth.restoring`');
  });
});
