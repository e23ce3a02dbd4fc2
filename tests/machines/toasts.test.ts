import { describe, expect, it } from 'vitest';
import { createActor, SimulatedClock } from 'xstate';
import { MAX_VISIBLE_TOASTS, TOAST_DURATION_MS, toastsMachine } from '../../machines/toasts.ts';
import { appMachine } from '../../machines/app.ts';

function start() {
  const clock = new SimulatedClock();
  const actor = createActor(toastsMachine, { clock }).start();
  const show = (message: string, variant?: 'info' | 'success' | 'error') =>
    actor.send({ type: 'toast.show', message, ...(variant ? { variant } : {}) });
  const visible = () => actor.getSnapshot().context.visible.map((t) => t.message);
  const queued = () => actor.getSnapshot().context.queued.map((t) => t.message);
  return { actor, clock, show, visible, queued };
}

describe('toasts machine', () => {
  it('shows a toast with its variant (info by default)', () => {
    const { actor, show } = start();
    show('Sparat', 'success');
    show('Hej');
    expect(actor.getSnapshot().context.visible).toEqual([
      expect.objectContaining({ message: 'Sparat', variant: 'success' }),
      expect.objectContaining({ message: 'Hej', variant: 'info' }),
    ]);
  });

  it('shows at most 5 at once and lets a waiting one in when one leaves', () => {
    const { actor, show, visible, queued } = start();
    for (let i = 1; i <= 7; i++) show(`m${i}`);
    expect(MAX_VISIBLE_TOASTS).toBe(5);
    expect(visible()).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']);
    expect(queued()).toEqual(['m6', 'm7']);
    const first = actor.getSnapshot().context.visible[0]!;
    actor.send({ type: 'user.dismiss', id: first.id });
    expect(visible()).toEqual(['m2', 'm3', 'm4', 'm5', 'm6']);
    expect(queued()).toEqual(['m7']);
  });

  it('suppresses a duplicate while the same message is shown or waiting', () => {
    const { show, visible, queued } = start();
    show('Fel nummer');
    show('Fel nummer');
    expect(visible()).toEqual(['Fel nummer']);
    for (let i = 1; i <= 5; i++) show(`m${i}`);
    show('m5');
    expect(queued()).toEqual(['m5']);
  });

  it('shows the same message again once the first has gone', () => {
    const { actor, show, visible } = start();
    show('Hej');
    actor.send({ type: 'user.dismiss', id: actor.getSnapshot().context.visible[0]!.id });
    show('Hej');
    expect(visible()).toEqual(['Hej']);
  });

  it('ignores an empty message', () => {
    const { show, visible } = start();
    show('   ');
    expect(visible()).toEqual([]);
  });

  it('hides each toast 3000 ms after it became visible', () => {
    const { clock, show, visible } = start();
    expect(TOAST_DURATION_MS).toBe(3000);
    show('a');
    clock.increment(1000);
    show('b');
    clock.increment(1999);
    expect(visible()).toEqual(['a', 'b']);
    clock.increment(1);
    expect(visible()).toEqual(['b']);
    clock.increment(999);
    expect(visible()).toEqual(['b']);
    clock.increment(1);
    expect(visible()).toEqual([]);
  });

  it('starts the timer of a queued toast only when it becomes visible', () => {
    const { clock, show, visible } = start();
    for (let i = 1; i <= 6; i++) show(`m${i}`);
    clock.increment(3000);
    expect(visible()).toEqual(['m6']);
    clock.increment(2999);
    expect(visible()).toEqual(['m6']);
    clock.increment(1);
    expect(visible()).toEqual([]);
  });

  it('stops the timer of a dismissed toast', () => {
    const { actor, clock, show, visible } = start();
    show('a');
    const id = actor.getSnapshot().context.visible[0]!.id;
    actor.send({ type: 'user.dismiss', id });
    expect(actor.getSnapshot().children[id]).toBeUndefined();
    show('b');
    clock.increment(3000);
    expect(visible()).toEqual([]);
  });

  it('uses a named delay for the duration (so the chart reads it by name)', () => {
    const timer = toastsMachine.implementations.actors.toastTimer as unknown as {
      implementations: { delays: Record<string, unknown> };
    };
    expect(timer.implementations.delays.toastDuration).toBe(3000);
  });
});

describe('app machine (the root actor)', () => {
  it("spawns the toast queue as the system's 'toasts' actor", () => {
    const app = createActor(appMachine).start();
    const toasts = app.system.get('toasts');
    expect(toasts).toBeDefined();
    toasts!.send({ type: 'toast.show', message: 'Hej' });
    expect(toasts!.getSnapshot().context.visible).toHaveLength(1);
    app.stop();
  });
});
