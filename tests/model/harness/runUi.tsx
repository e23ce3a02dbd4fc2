import { act, cleanup } from '@testing-library/react';
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { kindOf } from '../../../charts/chart.ts';
import { parentOf } from '../../../charts/xstate.ts';
import type { MachineModel, ModelPath } from './model.ts';
import { delayOf, flush, matchesKey, prepare } from './run.ts';
import type { UiBinding, UiEnv } from './types.ts';

async function perform(model: MachineModel, binding: UiBinding, env: UiEnv, event: EventObject): Promise<void> {
  const own = binding.events?.[event.type];
  if (own) {
    await act(async () => {
      await own(env, event);
      await flush();
    });
    return;
  }
  const kind = kindOf(event.type);
  const e = event as EventObject & { output?: unknown; error?: unknown };
  if (kind === 'done' || kind === 'error') {
    const id = event.type.split('.').slice(3).join('.');
    await act(async () => {
      const ok = kind === 'done' ? env.fakes.resolve(id, e.output) : env.fakes.reject(id, e.error);
      if (!ok) throw new Error(`No pending call of actor "${id}" to settle: did the UI start the machine with env.machine?`);
      await flush();
    });
    return;
  }
  if (kind === 'after') {
    const snapshot = (env.actor?.getSnapshot() ?? undefined) as AnyMachineSnapshot | undefined;
    await act(async () => {
      env.clock.increment(delayOf(env.machine, event.type, snapshot ?? ({ context: undefined } as never)));
      await flush();
    });
    return;
  }
  throw new Error(
    `The UI binding of "${model.id}" cannot perform "${event.type}": add events['${event.type}'] to tests/model/ui/${model.id}.tsx`,
  );
}

/**
 * Runs a path against the UI: the binding renders the route or component with the machine whose
 * actors are fakes, performs each event as a user (or the server) would, and checks each state by
 * what the user sees.
 */
export async function runOnUi(model: MachineModel, binding: UiBinding, path: ModelPath): Promise<void> {
  const h = prepare(model);
  const env: UiEnv = { machine: h.machine, fakes: h.fakes, clock: h.clock, path };
  try {
    await act(async () => {
      await binding.render(env);
      await flush();
    });
    for (let i = 0; i < path.snapshots.length; i++) {
      const step = path.steps[i]!;
      const expected = path.snapshots[i]!;
      try {
        if (i > 0) await perform(model, binding, env, path.events[i - 1]!);
        if (env.actor) {
          const actual = env.actor.getSnapshot() as AnyMachineSnapshot;
          if (JSON.stringify(actual.value) !== JSON.stringify(expected.value)) {
            throw new Error(`the actor is in ${JSON.stringify(actual.value)}, expected ${JSON.stringify(expected.value)}`);
          }
        }
        const checks = Object.entries(binding.states).filter(([key]) => matchesKey(expected, key));
        if (!checks.length) {
          throw new Error(`tests/model/ui/${model.id}.tsx has no check for state ${JSON.stringify(expected.value)}`);
        }
        for (const [, check] of checks) await check(env, expected);
      } catch (err) {
        const e = err as Error;
        e.message = `UI step ${i + 1} of "${path.description}" (${step.text}): ${e.message}`;
        throw e;
      }
    }
  } finally {
    binding.cleanup?.();
    cleanup();
    const top = env.root ?? (env.actor && !parentOf(env.actor) ? env.actor : undefined);
    top?.stop();
  }
}
