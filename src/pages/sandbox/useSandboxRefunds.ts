import { useState } from 'react';
import { shallowEqual, useActorRef, useSelector } from '@xstate/react';
import type { SnapshotFrom } from 'xstate';
import type { SandboxRefund } from '../../../contract/payment.ts';
import { SANDBOX_REFUNDS_TAGS, type RefundNotice, type RefundOutcome, type SandboxRefundsTag } from '../../../machines/sandboxRefunds.ts';
import { screenOf } from '../../components/flow.ts';
import { inspect } from '../../inspect.ts';
import { sandboxRefunds } from './loaders.ts';

export interface SandboxRefundsView {
  screen: SandboxRefundsTag;
  refunds: SandboxRefund[];
  /** What the last settle came to: shown in the section's status line. */
  notice: RefundNotice | null;
}

export interface SandboxRefundsCommands {
  refresh: () => void;
  settle: (refund: SandboxRefund, outcome: RefundOutcome) => void;
}

const selectView = (s: SnapshotFrom<typeof sandboxRefunds>): SandboxRefundsView => ({
  screen: screenOf(s, SANDBOX_REFUNDS_TAGS),
  refunds: s.context.refunds,
  notice: s.context.notice,
});

/** Runs the pending refunds (machines/sandboxRefunds.ts) while the section is shown. */
export function useSandboxRefunds(): SandboxRefundsView & SandboxRefundsCommands {
  const actor = useActorRef(sandboxRefunds, { inspect });
  const view = useSelector(actor, selectView, shallowEqual);
  const [commands] = useState<SandboxRefundsCommands>(() => ({
    refresh: () => actor.send({ type: 'user.refresh' }),
    settle: (refund, outcome) => actor.send({ type: 'user.settle', refund, outcome }),
  }));
  return { ...view, ...commands };
}
