import { useState } from 'react';
import { shallowEqual, useActorRef, useSelector } from '@xstate/react';
import type { SnapshotFrom } from 'xstate';
import type { Failure } from '../../../contract/errors.ts';
import type { Refund } from '../../../contract/payment.ts';
import { REFUND_SCREENS, type refundMachine, type RefundTag } from '../../../machines/refund.ts';
import { screenOf } from '../../components/flow.ts';
import { inspect } from '../../inspect.ts';
import { refund } from './refund.ts';

type Snapshot = SnapshotFrom<typeof refundMachine>;

/** Where a cancelled greetie's money is, as its details page shows it. */
export interface RefundView {
  screen: RefundTag;
  /** The refund as last read (its amount and status); null before the first answer or when there is none. */
  refund: Refund | null;
  /** Why the last read failed; the page shows its message. */
  failure: Failure | null;
}

export interface RefundCommands {
  /** 'Kolla igen': read the refund again (after following it for a while, or when it failed). */
  check: () => void;
  /** 'Försök igen' after a read that failed. */
  retry: () => void;
}

const selectView = (s: Snapshot): RefundView => ({
  screen: screenOf(s, REFUND_SCREENS),
  refund: s.context.refund,
  failure: s.context.error,
});

/** Follows the refund of one cancelled greetie (src/pages/greetie/refund.ts) while its page is shown. */
export function useRefund(greetieId: string): RefundView & RefundCommands {
  const actor = useActorRef(refund, { input: { greetieId }, inspect });
  const view = useSelector(actor, selectView, shallowEqual);
  const [commands] = useState<RefundCommands>(() => ({
    check: () => actor.send({ type: 'user.check' }),
    retry: () => actor.send({ type: 'user.retry' }),
  }));
  return { ...view, ...commands };
}
