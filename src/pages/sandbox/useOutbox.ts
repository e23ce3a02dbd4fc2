import { useState } from 'react';
import { shallowEqual, useActorRef, useSelector } from '@xstate/react';
import type { SnapshotFrom } from 'xstate';
import type { SandboxSms } from '../../../contract/sandbox.ts';
import { SMS_OUTBOX_TAGS, type SmsOutboxTag } from '../../../machines/smsOutbox.ts';
import { screenOf } from '../../components/flow.ts';
import { inspect } from '../../inspect.ts';
import type { smsOutbox } from './loaders.ts';

/** An outbox machine with its reader (loaders.ts: the SMS one or the push one). */
export type OutboxMachine = typeof smsOutbox;

export interface OutboxView {
  screen: SmsOutboxTag;
  messages: SandboxSms[];
}

const selectView = (s: SnapshotFrom<OutboxMachine>): OutboxView => ({ screen: screenOf(s, SMS_OUTBOX_TAGS), messages: s.context.messages });

/** Runs an outbox (machines/smsOutbox.ts) while the section is shown: what to show, and "read it now". */
export function useOutbox(machine: OutboxMachine): OutboxView & { refresh: () => void } {
  const actor = useActorRef(machine, { inspect });
  const view = useSelector(actor, selectView, shallowEqual);
  const [refresh] = useState(() => () => actor.send({ type: 'user.refresh' }));
  return { ...view, refresh };
}
