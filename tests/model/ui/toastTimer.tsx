import { waitFor } from '@testing-library/react';
import type { AnyActorRef, AnyStateMachine } from 'xstate';
import { expect } from 'vitest';
import { toastsMachine } from '../../../machines/toasts.ts';
import { defineUi } from '../harness/types.ts';
import { renderAppShell, visibleToasts } from '../support/app-shell.tsx';

// One toast's timer, seen by the user: the toast is shown, and gone when its time is up.
export default defineUi({
  render(env) {
    const toasts = toastsMachine.provide({ actors: { toastTimer: env.machine as never } }) as unknown as AnyStateMachine;
    const root = renderAppShell({ toasts }, env.clock);
    env.root = root;
    const queue = root.system.get('toasts') as AnyActorRef;
    queue.send({ type: 'toast.show', message: 'Sparat', variant: 'success' });
    env.actor = queue.getSnapshot().children['toast-1'] as AnyActorRef;
  },
  states: {
    counting: () => waitFor(() => expect(visibleToasts()).toEqual(['Sparat'])),
    expired: () => waitFor(() => expect(visibleToasts()).toEqual([])),
  },
});
