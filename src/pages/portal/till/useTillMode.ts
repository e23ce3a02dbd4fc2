import { useState } from 'react';
import { shallowEqual, useActorRef, useSelector } from '@xstate/react';
import type { SnapshotFrom } from 'xstate';
import type { Failure } from '../../../../contract/errors.ts';
import type { Voucher, VoucherRedemption } from '../../../../contract/voucher.ts';
import type { AmountReading } from '../../../../machines/redeem.ts';
import { TILL_MODE_SCREENS, type CameraProblem, type tillModeMachine, type TillModeTag } from '../../../../machines/tillMode.ts';
import { screenOf } from '../../../components/flow.ts';
import { inspect } from '../../../inspect.ts';
import { provideTillMode } from './till.ts';

type Snapshot = SnapshotFrom<typeof tillModeMachine>;

/** What till mode shows. */
export interface TillModeView {
  screen: TillModeTag;
  /** Why the last lookup, 'Lös in' or 'Ångra' was refused; the page words it by its code. */
  failure: Failure | null;
  /** Why the camera is not used, once it failed. */
  camera: CameraProblem | null;
  tokenText: string;
  /** The voucher found (null until a lookup answered). */
  voucher: Voucher | null;
  amountText: string;
  amount: AmountReading;
  redemption: VoucherRedemption | null;
  undoUntil: string | null;
}

export interface TillModeCommands {
  setToken: (text: string) => void;
  lookup: () => void;
  scan: () => void;
  stopScan: () => void;
  /** What the camera read from a QR code. */
  scanned: (text: string) => void;
  cameraFailed: (reason: CameraProblem) => void;
  setAmount: (text: string) => void;
  redeem: () => void;
  cancel: () => void;
  undo: () => void;
  cancelUndo: () => void;
  confirmUndo: () => void;
  next: () => void;
}

const selectView = (s: Snapshot): TillModeView => ({
  screen: screenOf(s, TILL_MODE_SCREENS),
  failure: s.context.error,
  camera: s.context.camera,
  tokenText: s.context.tokenText,
  voucher: s.context.voucher,
  amountText: s.context.amountText,
  amount: s.context.amount,
  redemption: s.context.redemption,
  undoUntil: s.context.undoUntil,
});

/** Runs a till mode actor (src/pages/portal/till/till.ts) for one merchant while the page is shown. */
export function useTillMode(merchantId: string): TillModeView & TillModeCommands {
  const [machine] = useState(() => provideTillMode());
  const actor = useActorRef(machine, { input: { merchantId }, inspect });
  const view = useSelector(actor, selectView, shallowEqual);
  const [commands] = useState<TillModeCommands>(() => ({
    setToken: (text) => actor.send({ type: 'user.token', text }),
    lookup: () => actor.send({ type: 'user.lookup' }),
    scan: () => actor.send({ type: 'user.scan' }),
    stopScan: () => actor.send({ type: 'user.stopScan' }),
    scanned: (text) => actor.send({ type: 'camera.found', text }),
    cameraFailed: (reason) => actor.send({ type: 'camera.failed', reason }),
    setAmount: (text) => actor.send({ type: 'user.amount', text }),
    redeem: () => actor.send({ type: 'user.redeem' }),
    cancel: () => actor.send({ type: 'user.cancel' }),
    undo: () => actor.send({ type: 'user.undo' }),
    cancelUndo: () => actor.send({ type: 'user.cancelUndo' }),
    confirmUndo: () => actor.send({ type: 'user.confirmUndo' }),
    next: () => actor.send({ type: 'user.next' }),
  }));
  return { ...view, ...commands };
}
