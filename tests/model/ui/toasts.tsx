import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AnyActorRef, AnyMachineSnapshot, EventObject } from 'xstate';
import { expect } from 'vitest';
import { TOAST_DURATION_MS, type ToastsContext } from '../../../machines/toasts.ts';
import { defineUi, type UiEnv } from '../harness/types.ts';
import { renderAppShell, visibleToasts } from '../support/app-shell.tsx';

// When each toast became visible on the simulated clock: a toast's time is up TOAST_DURATION_MS
// later. Every toast.show moves the clock 1 ms so timers can be told apart.
let visibleSince = new Map<string, number>();
const ctx = (env: UiEnv) => (env.actor!.getSnapshot() as AnyMachineSnapshot).context as ToastsContext;

export default defineUi({
  render(env) {
    visibleSince = new Map();
    const root = renderAppShell({ toasts: env.machine }, env.clock);
    env.root = root;
    const toasts = root.system.get('toasts') as AnyActorRef;
    env.actor = toasts;
    toasts.subscribe((s: AnyMachineSnapshot) => {
      for (const t of (s.context as ToastsContext).visible) if (!visibleSince.has(t.id)) visibleSince.set(t.id, env.clock.now());
    });
  },
  events: {
    // Any component shows a toast through the toasts actor (useShowToast).
    'toast.show': (env, event) => {
      env.clock.increment(1);
      env.actor!.send(event);
    },
    // The user closes it with its close button; a dismiss for a toast no longer shown (a late
    // second click) reaches the actor directly.
    'user.dismiss': async (env, event: EventObject) => {
      const { id } = event as EventObject & { id: string };
      const toast = ctx(env).visible.find((t) => t.id === id);
      if (!toast) return void env.actor!.send(event);
      const item = within(screen.getByRole('region', { name: /Aviseringar/ }))
        .getAllByRole('listitem')
        .find((li) => li.textContent?.includes(toast.message))!;
      await userEvent.setup().click(within(item).getByRole('button', { name: /Stäng/ }));
    },
    // Time passes until that toast's time is up; an expiry for a toast no longer shown (its timer
    // raced a dismiss) reaches the actor directly.
    'timer.expired': (env, event: EventObject) => {
      const { id } = event as EventObject & { id: string };
      const since = visibleSince.get(id);
      if (since === undefined || !ctx(env).visible.some((t) => t.id === id)) return void env.actor!.send(event);
      act(() => env.clock.set(since + TOAST_DURATION_MS));
    },
  },
  states: {
    // The toast list loads with the first toast, so wait for it to draw.
    active: async (_env, expected) => {
      const messages = (expected.context as ToastsContext).visible.map((t) => t.message);
      await waitFor(() => expect(visibleToasts()).toEqual(messages));
    },
  },
});
