import { fromPromise } from 'xstate';
import type { Payment } from '../../../../contract/payment.ts';
import { paymentMachine, type StartPaymentInput } from '../../../../machines/payment.ts';
import { toFailure } from '../../../api/errors.ts';
import { getPayment, startPayment } from '../../../api/payment.ts';

/** A call's rejection as the one Failure the machine reads (contract/errors.ts). */
const fail = (error: unknown): never => {
  throw toFailure(error);
};

/** The payment machine's real implementations: its server calls (src/api/payment.ts). */
export const paymentImplementations = {
  actors: {
    startPayment: fromPromise<Payment, StartPaymentInput>(({ input, signal }) =>
      startPayment(input.greetieId, input.payerAlias, input.withdrawalConsent, signal).catch(fail),
    ),
    readPayment: fromPromise<Payment, { greetieId: string }>(({ input, signal }) => getPayment(input.greetieId, signal).catch(fail)),
  },
};

/** The payment machine with its server calls, for the details page, which runs it on its own. */
export function paymentWithServer() {
  return paymentMachine.provide(paymentImplementations);
}
