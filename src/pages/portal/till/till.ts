import type { Voucher } from '../../../../contract/voucher.ts';
import { tillModeMachine } from '../../../../machines/tillMode.ts';
import { redeemToken, scanToken, undoTillRedemption } from '../../../api/till.ts';
import { fromCall } from '../../../components/flow.ts';

/**
 * The till mode machine's real implementations (machines/tillMode.ts): POST …/scan, POST
 * …/redeem with the attempt's Idempotency-Key and POST …/redemptions/{id}/undo in the merchant
 * portal, whose refusals reach the machine as one Failure.
 */
export function provideTillMode() {
  return tillModeMachine.provide({
    actors: {
      scanToken: fromCall<Voucher, { merchantId: string; token: string }>(({ input, signal }) => scanToken(input.merchantId, input.token, signal)),
      redeemToken: fromCall<Voucher, { merchantId: string; token: string; amount: number | null; idempotencyKey: string }>(({ input, signal }) =>
        redeemToken(input, signal),
      ),
      undoRedemption: fromCall<Voucher, { merchantId: string; redemptionId: string }>(({ input, signal }) =>
        undoTillRedemption(input.merchantId, input.redemptionId, signal),
      ),
    },
  });
}
