import { createActor, createMachine, SimulatedClock, type AnyActorRef, type AnyMachineSnapshot, type AnyStateMachine, type EventObject } from 'xstate';
import { afterDelay, kindOf } from '../../../charts/chart.ts';
import { FakeActors } from './fakes.ts';
import type { MachineModel, ModelPath } from './model.ts';

/** Lets promise callbacks (settled fakes → done/error events) run. */
export async function flush(): Promise<void> {
  for (let i = 0; i < 5; i++) await Promise.resolve();
  await new Promise((r) => setTimeout(r, 0));
}

/** How long `xstate.after.<delay>.<state>` waits, from the machine's named delays. */
export function delayOf(machine: AnyStateMachine, eventType: string, snapshot: AnyMachineSnapshot): number {
  const ref = afterDelay(eventType);
  if (/^\d+$/.test(ref)) return Number(ref);
  const d = (machine.implementations.delays as Record<string, unknown>)[ref];
  if (typeof d === 'number') return d;
  if (typeof d === 'function') return Number((d as (a: unknown) => number)({ context: snapshot.context, event: { type: eventType } }));
  throw new Error(`Unknown delay "${ref}" in ${eventType}`);
}

export interface Harness {
  machine: AnyStateMachine;
  fakes: FakeActors;
  clock: SimulatedClock;
}

/** The machine under test with every named actor replaced by a fake (or the hook's real logic). */
export function prepare(model: MachineModel): Harness {
  const fakes = new FakeActors();
  const clock = new SimulatedClock();
  const machine = model.machine.provide({
    actors: { ...fakes.forMachine(model.machine), ...(model.hooks?.actors ?? {}) },
  } as never) as AnyStateMachine;
  return { machine, fakes, clock };
}

/**
 * Performs an event as the world around the actor would: done/error settle the fake actor,
 * a delay advances the clock, anything else is sent.
 */
export async function performOnActor(h: Harness, actor: AnyActorRef, event: EventObject): Promise<void> {
  const kind = kindOf(event.type);
  const e = event as EventObject & { output?: unknown; error?: unknown };
  if (kind === 'done' && h.fakes.resolve(event.type.slice('xstate.done.actor.'.length), e.output)) return flush();
  if (kind === 'error' && h.fakes.reject(event.type.slice('xstate.error.actor.'.length), e.error)) return flush();
  if (kind === 'after') {
    h.clock.increment(delayOf(h.machine, event.type, actor.getSnapshot() as AnyMachineSnapshot));
    return flush();
  }
  actor.send(event);
  await flush();
}

function matchesKey(snapshot: AnyMachineSnapshot, key: string): boolean {
  return key === '*' || snapshot.matches(key as never);
}

/** Runs a path against the machine alone: a real actor, fake actors, a simulated clock. */
export async function runOnMachine(model: MachineModel, path: ModelPath): Promise<void> {
  const h = prepare(model);
  const errors: unknown[] = [];
  // The machine runs as the child of a host, as in the app: `sendParent` has somewhere to go.
  const host = createActor(
    createMachine({ invoke: { id: 'subject', src: h.machine, input: model.hooks?.input as never } }),
    { clock: h.clock },
  );
  host.subscribe({ error: (err) => errors.push(err) });
  host.start();
  const actor = host.getSnapshot().children.subject as AnyActorRef;
  try {
    for (let i = 0; i < path.snapshots.length; i++) {
      if (i > 0) await performOnActor(h, actor, path.events[i - 1]!);
      const expected = path.snapshots[i]!;
      const actual = actor.getSnapshot() as AnyMachineSnapshot;
      const where = `step ${i + 1} (${path.steps[i]!.text})`;
      if (JSON.stringify(actual.value) !== JSON.stringify(expected.value)) {
        throw new Error(`${where}: expected state ${JSON.stringify(expected.value)}, the actor is in ${JSON.stringify(actual.value)}`);
      }
      if (model.serialize(actual) !== model.serialize(expected)) {
        throw new Error(`${where}: expected ${model.serialize(expected)}, the actor has ${model.serialize(actual)}`);
      }
      for (const [key, check] of Object.entries(model.hooks?.states ?? {})) if (matchesKey(actual, key)) check(actual);
    }
    if (errors.length) throw errors[0];
  } finally {
    host.stop();
  }
}

export { matchesKey };
