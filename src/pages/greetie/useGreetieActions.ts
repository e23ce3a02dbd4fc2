import { useState } from 'react';
import { shallowEqual, useActorRef, useSelector } from '@xstate/react';
import type { SnapshotFrom } from 'xstate';
import type { Failure } from '../../../contract/errors.ts';
import type { Greetie } from '../../../contract/greetie.ts';
import {
  GREETIE_ACTIONS_SCREENS,
  type greetieActionsMachine,
  type GreetieActionKind,
  type GreetieActionsTag,
} from '../../../machines/greetieActions.ts';
import { screenOf } from '../../components/flow.ts';
import { inspect } from '../../inspect.ts';
import { greetieActions } from './actions.ts';

type Snapshot = SnapshotFrom<typeof greetieActionsMachine>;

/** What the sender's actions show on the details page. */
export interface GreetieActionsView {
  screen: GreetieActionsTag;
  /** The greetie as last answered (after an action, the server's answer). */
  greetie: Greetie;
  /** The action being confirmed, performed or just done. */
  action: GreetieActionKind | null;
  /** Why the last action was refused; the page words it by its code. */
  failure: Failure | null;
}

export interface GreetieActionsCommands {
  start: (action: GreetieActionKind) => void;
  /** Confirms the action; a correction gives the new number (and name). */
  confirm: (correction?: { mobileNumber: string; name?: string }) => void;
  close: () => void;
}

const selectView = (s: Snapshot): GreetieActionsView => ({
  screen: screenOf(s, GREETIE_ACTIONS_SCREENS),
  greetie: s.context.greetie,
  action: s.context.action,
  failure: s.context.error,
});

/** Runs the sender's actions (src/pages/greetie/actions.ts) on one greetie while its page is shown. */
export function useGreetieActions(greetie: Greetie): GreetieActionsView & GreetieActionsCommands {
  const actor = useActorRef(greetieActions, { input: { greetie }, inspect });
  const view = useSelector(actor, selectView, shallowEqual);
  const [commands] = useState<GreetieActionsCommands>(() => ({
    start: (action) => actor.send({ type: 'user.start', action }),
    confirm: (correction) => actor.send({ type: 'user.confirm', ...correction }),
    close: () => actor.send({ type: 'user.close' }),
  }));
  return { ...view, ...commands };
}
