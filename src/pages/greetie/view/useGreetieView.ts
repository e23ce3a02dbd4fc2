import { useState } from 'react';
import { shallowEqual, useActorRef, useSelector } from '@xstate/react';
import { fromPromise, type SnapshotFrom } from 'xstate';
import { greetieViewMachine, type GreetieView, type GreetieViewError, type GreetieViewInput } from '../../../../machines/greetieView.ts';
import { inspect } from '../../../inspect.ts';
import { loadGreetieView, type Viewer } from './load.ts';

/**
 * The greetie view machine (machines/greetieView.ts) with its real load (load.ts), for
 * /greetie/view/:id. The page keys the component by the address and the person, so another
 * greetie, or someone else signing in, starts a new actor.
 */

type Snapshot = SnapshotFrom<typeof greetieViewMachine>;

export interface GreetieViewState {
  status: 'loading' | 'notFound' | 'error' | 'showing' | 'viewed';
  view: GreetieView | null;
  error: GreetieViewError | null;
}

const selectState = (s: Snapshot): GreetieViewState => ({
  status: s.hasTag('loading')
    ? 'loading'
    : s.hasTag('notFound')
      ? 'notFound'
      : s.hasTag('error')
        ? 'error'
        : s.hasTag('revealed')
          ? 'viewed'
          : 'showing',
  view: s.context.view,
  error: s.context.error,
});

export function useGreetieView(input: GreetieViewInput, viewer: Viewer | null) {
  const [machine] = useState(() =>
    greetieViewMachine.provide({
      actors: {
        loadGreetie: fromPromise<GreetieView, { key: string; byId: boolean }>(({ input: i, signal }) => loadGreetieView(i, viewer, signal)),
      },
    }),
  );
  const actor = useActorRef(machine, { input, inspect });
  const state = useSelector(actor, selectState, shallowEqual);
  const [retry] = useState(() => () => actor.send({ type: 'user.retry' }));
  return { ...state, retry };
}
