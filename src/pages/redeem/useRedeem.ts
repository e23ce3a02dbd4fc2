import { useState } from 'react';
import { shallowEqual, useActorRef, useSelector } from '@xstate/react';
import { fromPromise, sendTo, type SnapshotFrom } from 'xstate';
import type { Voucher } from '../../../contract/voucher.ts';
import { redeemMachine, type RedeemError, type RedeemFailure } from '../../../machines/redeem.ts';
import { isApiError } from '../../api/client.ts';
import { redeemVoucher } from '../../api/voucher.ts';
import { useVoucherStore } from '../../components/vouchers.ts';
import { inspect } from '../../inspect.ts';

/**
 * The redeem machine (machines/redeem.ts) with its real implementations, for the till screen:
 * POST /voucher/redeem, a refusal turned into a RedeemFailure (a 429's Retry-After becomes the
 * moment to try again), and a redeem told to the app's voucher store so every list shows it.
 */

/** What the server's refusal means for the till; `now` is when the answer came. */
export function toRedeemFailure(error: unknown, now: number = Date.now()): RedeemFailure {
  if (!isApiError(error)) return { status: 0, message: error instanceof Error ? error.message : String(error) };
  return {
    status: error.status,
    ...(error.code ? { code: error.code } : {}),
    message: error.userMessage,
    ...(error.retryAfter !== undefined ? { retryAt: new Date(now + error.retryAfter * 1000).toISOString() } : {}),
  };
}

type Snapshot = SnapshotFrom<typeof redeemMachine>;

export interface RedeemView {
  status: 'ready' | 'busy' | 'redeemed';
  error: RedeemError | null;
  voucher: Voucher | null;
}

const selectView = (s: Snapshot): RedeemView => ({
  status: s.hasTag('redeemed') ? 'redeemed' : s.hasTag('busy') ? 'busy' : 'ready',
  error: s.context.error,
  voucher: s.context.voucher,
});

/** Runs a redeem actor for one voucher while the till screen is shown. */
export function useRedeem(voucherId: string) {
  const store = useVoucherStore();
  const [machine] = useState(() =>
    redeemMachine.provide({
      actors: {
        redeemVoucher: fromPromise<Voucher, { voucherId: string; merchantCode: string }>(async ({ input, signal }) => {
          try {
            return await redeemVoucher(input.voucherId, input.merchantCode, signal);
          } catch (e) {
            throw toRedeemFailure(e);
          }
        }),
      },
      actions: {
        announceRedeemed: sendTo(
          () => store,
          (_, p: { voucher: Voucher }) => ({ type: 'redeem.succeeded' as const, voucher: p.voucher }),
        ),
      },
    }),
  );
  const actor = useActorRef(machine, { input: { voucherId }, inspect });
  const view = useSelector(actor, selectView, shallowEqual);
  const [submit] = useState(() => (merchantCode: string) => actor.send({ type: 'user.submit', merchantCode }));
  return { ...view, submit };
}
