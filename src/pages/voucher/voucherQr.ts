import type { VoucherQr } from '../../../contract/voucher.ts';
import { voucherQrMachine } from '../../../machines/voucherQr.ts';
import { getVoucherQr } from '../../api/voucher.ts';
import { fromCall } from '../../components/flow.ts';

/** The voucher QR's real implementation (machines/voucherQr.ts): GET /voucher/{id}/qr, a refusal reaching the machine as one Failure. */
export const voucherQr = voucherQrMachine.provide({
  actors: {
    fetchQr: fromCall<VoucherQr, { voucherId: string }>(({ input, signal }) => getVoucherQr(input.voucherId, signal)),
  },
});
