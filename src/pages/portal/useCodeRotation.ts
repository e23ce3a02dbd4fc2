import { useState } from 'react';
import { shallowEqual, useActorRef, useSelector } from '@xstate/react';
import type { SnapshotFrom } from 'xstate';
import type { Failure } from '../../../contract/errors.ts';
import { CODE_ROTATION_SCREENS, type codeRotationMachine, type CodeRotationTag } from '../../../machines/codeRotation.ts';
import { screenOf } from '../../components/flow.ts';
import { inspect } from '../../inspect.ts';
import { codeRotation } from './portal.ts';

type Snapshot = SnapshotFrom<typeof codeRotationMachine>;

/** "Byt handlarkod" as the owner's page shows it. */
export interface CodeRotationView {
  screen: CodeRotationTag;
  /** The new code, only while it is shown. */
  merchantCode: string | null;
  failure: Failure | null;
}

export interface CodeRotationCommands {
  start: () => void;
  confirm: () => void;
  cancel: () => void;
  /** 'Jag har sparat koden': the code is forgotten. */
  saved: () => void;
  close: () => void;
}

const selectView = (s: Snapshot): CodeRotationView => ({
  screen: screenOf(s, CODE_ROTATION_SCREENS),
  merchantCode: s.context.merchantCode,
  failure: s.context.error,
});

export function useCodeRotation(merchantId: string): CodeRotationView & CodeRotationCommands {
  const actor = useActorRef(codeRotation, { input: { merchantId }, inspect });
  const view = useSelector(actor, selectView, shallowEqual);
  const [commands] = useState<CodeRotationCommands>(() => ({
    start: () => actor.send({ type: 'user.start' }),
    confirm: () => actor.send({ type: 'user.confirm' }),
    cancel: () => actor.send({ type: 'user.cancel' }),
    saved: () => actor.send({ type: 'user.saved' }),
    close: () => actor.send({ type: 'user.close' }),
  }));
  return { ...view, ...commands };
}
