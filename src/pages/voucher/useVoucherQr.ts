import { useEffect, useState } from 'react';
import { shallowEqual, useActorRef, useSelector } from '@xstate/react';
import type { SnapshotFrom } from 'xstate';
import type { Failure } from '../../../contract/errors.ts';
import type { VoucherQr } from '../../../contract/voucher.ts';
import { VOUCHER_QR_SCREENS, type voucherQrMachine, type VoucherQrTag } from '../../../machines/voucherQr.ts';
import { screenOf } from '../../components/flow.ts';
import { inspect } from '../../inspect.ts';
import { voucherQr } from './voucherQr.ts';

type Snapshot = SnapshotFrom<typeof voucherQrMachine>;

/** The voucher's QR as its page shows it. */
export interface VoucherQrView {
  screen: VoucherQrTag;
  /** The token shown (kept while a new one is on its way); null before the first or after a failure. */
  qr: VoucherQr | null;
  /** Why the last request failed; the page words it. */
  failure: Failure | null;
}

export interface VoucherQrCommands {
  /** 'Försök igen' after a request that failed. */
  retry: () => void;
}

const selectView = (s: Snapshot): VoucherQrView => ({
  screen: screenOf(s, VOUCHER_QR_SCREENS),
  qr: s.context.qr,
  failure: s.context.error,
});

/** A fresh QR token for one voucher while its page is shown; a new one when the page becomes visible again. */
export function useVoucherQr(voucherId: string): VoucherQrView & VoucherQrCommands {
  const actor = useActorRef(voucherQr, { input: { voucherId }, inspect });
  const view = useSelector(actor, selectView, shallowEqual);
  useEffect(() => {
    const onVisibility = () => {
      if (document.visibilityState === 'visible') actor.send({ type: 'page.visible' });
    };
    document.addEventListener('visibilitychange', onVisibility);
    return () => document.removeEventListener('visibilitychange', onVisibility);
  }, [actor]);
  const [commands] = useState<VoucherQrCommands>(() => ({ retry: () => actor.send({ type: 'user.retry' }) }));
  return { ...view, ...commands };
}
