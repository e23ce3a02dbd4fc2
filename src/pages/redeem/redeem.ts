import { sendTo } from 'xstate';
import type { Voucher } from '../../../contract/voucher.ts';
import { redeemMachine } from '../../../machines/redeem.ts';
import { redeemVoucher } from '../../api/voucher.ts';
import { fromCall } from '../../components/flow.ts';
import type { VoucherStoreRef } from '../../components/vouchers.ts';

/**
 * The redeem machine's real implementations (machines/redeem.ts), for the till screen: POST
 * /voucher/redeem, whose refusal reaches the machine as one Failure (a 429's Retry-After becomes
 * the moment to try again), and a redeem told to the app's voucher store so every list shows it.
 */
export function provideRedeem(store: VoucherStoreRef) {
  return redeemMachine.provide({
    actors: {
      redeemVoucher: fromCall<Voucher, { voucherId: string; merchantCode: string }>(({ input, signal }) =>
        redeemVoucher(input.voucherId, input.merchantCode, signal),
      ),
    },
    actions: {
      announceRedeemed: sendTo(
        () => store,
        (_, p: { voucher: Voucher }) => ({ type: 'redeem.succeeded' as const, voucher: p.voucher }),
      ),
    },
  });
}
