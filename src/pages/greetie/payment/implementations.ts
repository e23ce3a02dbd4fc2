import { fromCallback, fromPromise, type EventObject } from 'xstate';
import type { Payment } from '../../../../contract/payment.ts';
import { paymentMachine, type PaymentStreamEvent, type StartPaymentInput } from '../../../../machines/payment.ts';
import { toFailure } from '../../../api/errors.ts';
import { followPayment, getPayment, startPayment } from '../../../api/payment.ts';
import { isApiError } from '../../../api/client.ts';

const FINAL = new Set<Payment['status']>(['paid', 'declined', 'error', 'cancelled', 'expired']);
/** The wait before opening the stream again after a break (the server's `retry`). */
export const STREAM_RETRY_MS = 2000;

/**
 * The server's stream of the payment, kept open while the machine waits: each payment it tells
 * of goes to the machine; after a break it opens again and says so (`stream.reconnected`, the
 * machine then reads at once). A refusal (401, 404) ends it: the machine's reading goes on alone.
 */
export const followPaymentStream = fromCallback<EventObject, { greetieId: string }>(({ input, sendBack }) => {
  const send = (e: PaymentStreamEvent) => sendBack(e);
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let opened = 0;
  const open = () => {
    if (opened++ > 0) send({ type: 'stream.reconnected' });
    let final = false;
    followPayment(input.greetieId, (payment) => {
      final ||= FINAL.has(payment.status);
      send({ type: 'stream.payment', payment });
    }, controller.signal)
      .then(() => !final && !controller.signal.aborted)
      .catch((err: unknown) => !controller.signal.aborted && !(isApiError(err) && err.status >= 400 && err.status < 500 && err.status !== 429))
      .then((again) => {
        if (again) timer = setTimeout(open, STREAM_RETRY_MS);
      });
  };
  open();
  return () => {
    controller.abort();
    if (timer) clearTimeout(timer);
  };
});

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
    paymentEvents: followPaymentStream,
  },
};

/** The payment machine with its server calls, for the details page, which runs it on its own. */
export function paymentWithServer() {
  return paymentMachine.provide(paymentImplementations);
}
