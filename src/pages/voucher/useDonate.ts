import { useState } from 'react';
import { shallowEqual, useActorRef, useSelector } from '@xstate/react';
import type { SnapshotFrom } from 'xstate';
import type { Failure } from '../../../contract/errors.ts';
import type { Voucher } from '../../../contract/voucher.ts';
import { DONATE_SCREENS, type CharityOption, type donateMachine, type DonateTag } from '../../../machines/donate.ts';
import { screenOf } from '../../components/flow.ts';
import { inspect } from '../../inspect.ts';
import { donateFlow } from './donate.ts';

type Snapshot = SnapshotFrom<typeof donateMachine>;

/** What "Skänk värdet i stället" shows on a voucher's page. */
export interface DonateView {
  screen: DonateTag;
  /** The charities that can take the voucher's amount, once read. */
  options: CharityOption[] | null;
  /** The charity picked. */
  choice: CharityOption | null;
  /** The Charity voucher that replaced the voucher. */
  donated: Voucher | null;
  /** Why reading the charities or the donation failed; the page words it by its code. */
  failure: Failure | null;
}

export interface DonateCommands {
  start: () => void;
  choose: (productId: string) => void;
  confirm: () => void;
  back: () => void;
  retry: () => void;
  close: () => void;
}

const selectView = (s: Snapshot): DonateView => ({
  screen: screenOf(s, DONATE_SCREENS),
  options: s.context.options,
  choice: s.context.choice,
  donated: s.context.donated,
  failure: s.context.error,
});

/** Runs the donate flow (src/pages/voucher/donate.ts) for one voucher while its page is shown. */
export function useDonate(voucher: Voucher): DonateView & DonateCommands {
  const actor = useActorRef(donateFlow, { input: { voucher }, inspect });
  const view = useSelector(actor, selectView, shallowEqual);
  const [commands] = useState<DonateCommands>(() => ({
    start: () => actor.send({ type: 'user.start' }),
    choose: (productId) => actor.send({ type: 'user.choose', productId }),
    confirm: () => actor.send({ type: 'user.confirm' }),
    back: () => actor.send({ type: 'user.back' }),
    retry: () => actor.send({ type: 'user.retry' }),
    close: () => actor.send({ type: 'user.close' }),
  }));
  return { ...view, ...commands };
}
