import type { Payment } from '../../../contract/payment.ts';
import { refundMachine } from '../../../machines/refund.ts';
import { getPayment } from '../../api/payment.ts';
import { fromCall } from '../../components/flow.ts';

/**
 * The refund's real implementation (machines/refund.ts): GET /greetie/{id}/payment, whose refusal
 * reaches the machine as one Failure.
 */
export const refund = refundMachine.provide({
  actors: {
    readRefund: fromCall<Payment, { greetieId: string }>(({ input, signal }) => getPayment(input.greetieId, signal)),
  },
});
