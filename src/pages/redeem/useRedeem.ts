import { useState } from 'react';
import { shallowEqual, useActorRef, useSelector } from '@xstate/react';
import type { SnapshotFrom } from 'xstate';
import type { Failure } from '../../../contract/errors.ts';
import type { Voucher, VoucherRedemption } from '../../../contract/voucher.ts';
import { REDEEM_SCREENS, type AmountReading, type redeemMachine, type RedeemTag } from '../../../machines/redeem.ts';
import { screenOf } from '../../components/flow.ts';
import { useVoucherStore } from '../../components/vouchers.ts';
import { inspect } from '../../inspect.ts';
import { provideRedeem } from './redeem.ts';

type Snapshot = SnapshotFrom<typeof redeemMachine>;

/** What the till screen shows. */
export interface RedeemView {
  screen: RedeemTag;
  /** Why the last 'Lös in' or 'Ångra' was refused, or why 'Ångra' is over; the page words it by its code. */
  failure: Failure | null;
  /** The voucher as last known (loaded, then as the server answered). */
  voucher: Voucher;
  /** The amount field as typed, and what it says (a value voucher). */
  amountText: string;
  amount: AmountReading;
  /** What stays on the voucher after the amount typed, while it is one that can be used. */
  remaining: number | null;
  /** The redemption this till made, once redeemed. */
  redemption: VoucherRedemption | null;
  /** Until when 'Ångra' is offered (ISO-8601). */
  undoUntil: string | null;
}

export interface RedeemCommands {
  setAmount: (text: string) => void;
  submit: (merchantCode: string) => void;
  undo: () => void;
  cancelUndo: () => void;
  confirmUndo: (merchantCode: string) => void;
  again: () => void;
}

const selectView = (s: Snapshot): RedeemView => ({
  screen: screenOf(s, REDEEM_SCREENS),
  failure: s.context.error,
  voucher: s.context.voucher,
  amountText: s.context.amountText,
  amount: s.context.amount,
  remaining: s.context.amount.kind === 'ok' ? s.context.voucher.balance - s.context.amount.ore : null,
  redemption: s.context.redemption,
  undoUntil: s.context.undoUntil,
});

/** Runs a redeem actor (src/pages/redeem/redeem.ts) for one loaded voucher while the till screen is shown. */
export function useRedeem(voucher: Voucher): RedeemView & RedeemCommands {
  const store = useVoucherStore();
  const [machine] = useState(() => provideRedeem(store));
  const actor = useActorRef(machine, { input: { voucher }, inspect });
  const view = useSelector(actor, selectView, shallowEqual);
  const [commands] = useState<RedeemCommands>(() => ({
    setAmount: (text) => actor.send({ type: 'user.amount', text }),
    submit: (merchantCode) => actor.send({ type: 'user.submit', merchantCode }),
    undo: () => actor.send({ type: 'user.undo' }),
    cancelUndo: () => actor.send({ type: 'user.cancelUndo' }),
    confirmUndo: (merchantCode) => actor.send({ type: 'user.confirmUndo', merchantCode }),
    again: () => actor.send({ type: 'user.again' }),
  }));
  return { ...view, ...commands };
}
