import { useState } from 'react';
import { shallowEqual, useActorRef, useSelector } from '@xstate/react';
import type { SnapshotFrom } from 'xstate';
import type { Failure } from '../../../contract/errors.ts';
import type { Voucher } from '../../../contract/voucher.ts';
import { REDEEM_SCREENS, type redeemMachine, type RedeemTag } from '../../../machines/redeem.ts';
import { screenOf } from '../../components/flow.ts';
import { useVoucherStore } from '../../components/vouchers.ts';
import { inspect } from '../../inspect.ts';
import { provideRedeem } from './redeem.ts';

type Snapshot = SnapshotFrom<typeof redeemMachine>;

/** What the till screen shows. */
export interface RedeemView {
  screen: RedeemTag;
  /** Why the last 'Lös in' was refused; the page words it by its code. */
  failure: Failure | null;
  voucher: Voucher | null;
}

const selectView = (s: Snapshot): RedeemView => ({
  screen: screenOf(s, REDEEM_SCREENS),
  failure: s.context.error,
  voucher: s.context.voucher,
});

/** Runs a redeem actor (src/pages/redeem/redeem.ts) for one voucher while the till screen is shown. */
export function useRedeem(voucherId: string): RedeemView & { submit: (merchantCode: string) => void } {
  const store = useVoucherStore();
  const [machine] = useState(() => provideRedeem(store));
  const actor = useActorRef(machine, { input: { voucherId }, inspect });
  const view = useSelector(actor, selectView, shallowEqual);
  const [submit] = useState(() => (merchantCode: string) => actor.send({ type: 'user.submit', merchantCode }));
  return { ...view, submit };
}
