import { createActor, createMachine, fromPromise, sendParent, setup, spawnChild, type InspectionEvent } from 'xstate';
import { describe, expect, it } from 'vitest';
import {
  activeStateIds,
  activeStateNodes,
  inertActorScope,
  isMachineSnapshot,
  microstepTransitions,
  parentOf,
  systemIdOf,
} from '../../charts/xstate.ts';

/**
 * charts/xstate.ts reads fields XState keeps private. These tests pin what the live /flows bridge
 * and the model-based tests rely on, so an xstate upgrade that renames one fails here, by name,
 * instead of quietly emptying the /flows live view or the path coverage.
 */

const door = createMachine({
  id: 'door',
  initial: 'closed',
  states: {
    closed: { on: { 'user.open': { target: 'open', description: 'Opens the door' } } },
    open: {
      initial: 'swinging',
      states: { swinging: { on: { 'timer.stopped': 'still' } }, still: {} },
      on: { 'user.close': 'closed' },
    },
  },
});

describe("XState's private fields, read in one place (charts/xstate.ts)", () => {
  it('reads the active state nodes of a snapshot, every level, root first', () => {
    const actor = createActor(door).start();
    actor.send({ type: 'user.open' });
    expect(activeStateIds(actor.getSnapshot())).toEqual(['door', 'door.open', 'door.open.swinging']);
    expect(activeStateNodes(actor.getSnapshot()).map((n) => n.type)).toEqual(['compound', 'compound', 'atomic']);
    actor.stop();
  });

  it("tells a machine's snapshot from another actor's", async () => {
    expect(isMachineSnapshot(createActor(door).getSnapshot())).toBe(true);
    const promise = createActor(fromPromise(async () => 1)).start();
    expect(isMachineSnapshot(promise.getSnapshot())).toBe(false);
    expect(isMachineSnapshot(null)).toBe(false);
  });

  it('reads the systemId a spawned actor was given, and its parent', () => {
    const root = createActor(
      setup({ actors: { door } }).createMachine({ id: 'root', entry: spawnChild('door', { id: 'front', systemId: 'frontDoor' }) }),
    ).start();
    const child = root.system.get('frontDoor');
    expect(child).toBeDefined();
    expect(systemIdOf(child)).toBe('frontDoor');
    expect(systemIdOf(root)).toBeUndefined();
    expect(parentOf(child)).toBe(root);
    expect(parentOf(root)).toBeUndefined();
    root.stop();
  });

  it('reads the transitions each microstep took from the inspection events', () => {
    const events: InspectionEvent[] = [];
    const actor = createActor(door, { inspect: (e) => events.push(e) }).start();
    actor.send({ type: 'user.open' });
    const taken = events.flatMap(microstepTransitions);
    expect(taken).toHaveLength(1);
    expect(taken[0]).toMatchObject({ eventType: 'user.open', description: 'Opens the door' });
    expect(taken[0]!.source.id).toBe('door.closed');
    expect(taken[0]!.target?.map((n) => n.id)).toEqual(['door.open']);
    expect(microstepTransitions(events.find((e) => e.type === '@xstate.snapshot')!)).toEqual([]);
    actor.stop();
  });

  it('runs a pure transition with an inert scope: nothing starts, sendParent resolves, microsteps are recorded', () => {
    let started = 0;
    const machine = setup({
      actors: { work: fromPromise(async () => void started++) },
    }).createMachine({
      id: 'job',
      initial: 'idle',
      states: {
        idle: { on: { 'user.start': { target: 'working', actions: sendParent({ type: 'job.started' }) } } },
        working: { invoke: { src: 'work' }, after: { 10: 'idle' } },
      },
    });
    const recorded: string[] = [];
    const scope = inertActorScope((ts) => recorded.push(...ts.map((t) => `${t.source.id} ${t.eventType}`)));
    const first = machine.getInitialSnapshot(scope);
    const next = machine.transition(first, { type: 'user.start' }, scope);
    expect(next.value).toBe('working');
    expect(recorded).toEqual(['job.idle user.start']);
    expect(started).toBe(0);
  });
});
