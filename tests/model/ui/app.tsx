import { act, screen } from '@testing-library/react';
import type { AnyActorRef } from 'xstate';
import { expect } from 'vitest';
import { forgetLateActors, loadSession, loadVoucherStore } from '../../../src/app/AppActors.tsx';
import { defineUi } from '../harness/types.ts';
import { renderAppShell } from '../support/app-shell.tsx';

// The root actor: the app renders inside it, and its long-lived actors are reachable.
export default defineUi({
  render(env) {
    // Each path is a new page: no code loaded by an earlier one.
    forgetLateActors();
    const root = renderAppShell({}, env.clock, env.machine);
    env.root = root;
    env.actor = root as unknown as AnyActorRef;
  },
  events: {
    // What main.tsx does beside the first render, and a route that needs the session before its page.
    'app.sessionLoaded': async () => {
      await act(() => loadSession());
    },
    // What a route that shows gifts does before its page renders (src/app/routes.tsx).
    'app.voucherStoreLoaded': async () => {
      await act(() => loadVoucherStore());
    },
  },
  states: {
    'running.session.withoutSession': (env) => {
      expect(screen.getByText('Greetie')).toBeInTheDocument();
      expect((env.actor as AnyActorRef).system.get('auth')).toBeUndefined();
    },
    'running.session.withSession': (env) => {
      expect(screen.getByText('Greetie')).toBeInTheDocument();
      const auth = (env.actor as AnyActorRef).system.get('auth') as AnyActorRef | undefined;
      expect(auth?.getSnapshot().status).toBe('active');
    },
    'running.gifts.withoutVoucherStore': (env) => {
      expect(screen.getByText('Greetie')).toBeInTheDocument();
      expect((env.actor as AnyActorRef).getSnapshot().status).toBe('active');
      expect((env.actor as AnyActorRef).system.get('vouchers')).toBeUndefined();
    },
    'running.gifts.withVoucherStore': (env) => {
      expect(screen.getByText('Greetie')).toBeInTheDocument();
      const store = (env.actor as AnyActorRef).system.get('vouchers') as AnyActorRef | undefined;
      expect(store?.getSnapshot().status).toBe('active');
    },
  },
});
