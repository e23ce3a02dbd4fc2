import { screen } from '@testing-library/react';
import type { AnyActorRef } from 'xstate';
import { expect } from 'vitest';
import { defineUi } from '../harness/types.ts';
import { renderAppShell } from '../support/app-shell.tsx';

// The root actor: the app renders inside it, and its long-lived actors are reachable.
export default defineUi({
  render(env) {
    const root = renderAppShell({}, env.clock, env.machine);
    env.root = root;
    env.actor = root as unknown as AnyActorRef;
  },
  states: {
    running: (env) => {
      expect(screen.getByText('Greetie')).toBeInTheDocument();
      expect((env.actor as AnyActorRef).getSnapshot().status).toBe('active');
    },
  },
});

