import { useState } from 'react';
import { shallowEqual, useActorRef, useSelector } from '@xstate/react';
import type { SnapshotFrom } from 'xstate';
import type { Failure } from '../../../../contract/errors.ts';
import { GREETIE_VIEW_SCREENS, type greetieViewMachine, type GreetieView, type GreetieViewInput, type GreetieViewScreen } from '../../../../machines/greetieView.ts';
import { screenOf } from '../../../components/flow.ts';
import { inspect } from '../../../inspect.ts';
import { provideGreetieView, type Viewer } from './load.ts';

/**
 * The greetie view machine (machines/greetieView.ts) with its real load (load.ts), for
 * /greetie/view/:id. The page keys the component by the address and the person, so another
 * greetie, or someone else signing in, starts a new actor.
 */

type Snapshot = SnapshotFrom<typeof greetieViewMachine>;

export interface GreetieViewState {
  screen: GreetieViewScreen;
  view: GreetieView | null;
  failure: Failure | null;
}

const selectState = (s: Snapshot): GreetieViewState => ({
  screen: screenOf(s, GREETIE_VIEW_SCREENS),
  view: s.context.view,
  failure: s.context.error,
});

export function useGreetieView(input: GreetieViewInput, viewer: Viewer | null): GreetieViewState & { retry: () => void } {
  const [machine] = useState(() => provideGreetieView(viewer));
  const actor = useActorRef(machine, { input, inspect });
  const state = useSelector(actor, selectState, shallowEqual);
  const [retry] = useState(() => () => actor.send({ type: 'user.retry' }));
  return { ...state, retry };
}
