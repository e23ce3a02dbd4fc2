import { sendTo } from 'xstate';
import type { Voucher } from '../../../contract/voucher.ts';
import { redeemMachine } from '../../../machines/redeem.ts';
import { redeemVoucher, undoRedemption } from '../../api/voucher.ts';
import { fromCall } from '../../components/flow.ts';
import type { VoucherStoreRef } from '../../components/vouchers.ts';

/**
 * The redeem machine's real implementations (machines/redeem.ts), for the till screen: POST
 * /voucher/redeem with the attempt's Idempotency-Key and POST …/redemptions/{id}/undo, whose
 * refusals reach the machine as one Failure (a 429's Retry-After becomes the moment to try again),
 * and the voucher as the till left it told to the app's voucher store so every list shows it.
 */
export function provideRedeem(store: VoucherStoreRef) {
  return redeemMachine.provide({
    actors: {
      redeemVoucher: fromCall<Voucher, { voucherId: string; merchantCode: string; amount: number | null; idempotencyKey: string }>(({ input, signal }) =>
        redeemVoucher(input, signal),
      ),
      undoRedemption: fromCall<Voucher, { voucherId: string; redemptionId: string; merchantCode: string }>(({ input, signal }) =>
        undoRedemption(input.voucherId, input.redemptionId, input.merchantCode, signal),
      ),
    },
    actions: {
      announceVoucher: sendTo(
        () => store,
        (_, p: { voucher: Voucher }) => ({ type: 'redeem.succeeded' as const, voucher: p.voucher }),
      ),
    },
  });
}
