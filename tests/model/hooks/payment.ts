import type { AnyMachineSnapshot } from 'xstate';
import type { Failure } from '../../../contract/errors.ts';
import type { Payment } from '../../../contract/payment.ts';
import type { PaymentContext } from '../../../machines/payment.ts';
import { defineHooks } from '../harness/types.ts';

export const GREETIE_ID = '11111111-1111-4111-8111-111111111111';

/** A payment as the server answers it: open m-commerce unless told otherwise. */
export const payment = (over: Partial<Payment> = {}): Payment => ({
  id: '22222222-2222-4222-8222-222222222222',
  greetieId: GREETIE_ID,
  provider: 'sandbox',
  status: 'pending',
  amount: 14900,
  redirectUrl: null,
  appUrl: `swish://paymentrequest?token=c28a4061470f4af48973bd2a4642b4fa&callbackurl=${encodeURIComponent(`https://greetie.se/greetie/details/${GREETIE_ID}`)}`,
  qrCode: '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10"/></svg>',
  token: 'c28a4061470f4af48973bd2a4642b4fa',
  payerAlias: null,
  errorCode: null,
  createdAt: '2026-11-23T08:00:00.000Z',
  updatedAt: '2026-11-23T08:00:00.000Z',
  refund: null,
  consentedAt: '2026-11-23T07:59:00.000Z',
  orderNumber: 'G-100123',
  ...over,
});

const settled = (status: Payment['status'], errorCode: string | null = null) =>
  payment({ status, errorCode, appUrl: null, qrCode: null, token: null, updatedAt: '2026-11-23T08:01:00.000Z' });
const ecommerce = payment({ payerAlias: '+46701234567', appUrl: null, qrCode: null, token: null });
/** What the implementations reject with: the one Failure (contract/errors.ts). */
const failure = (status: number, code: Failure['code'], message: string) => ({ error: { status, code, message, retryAt: null } satisfies Failure });

export default defineHooks({
  // The details page's payment: no consent handed over (the review's is the compose model's).
  input: { greetieId: GREETIE_ID, device: 'desktop' },
  events: {
    'user.consented': [{ consented: true }, { consented: false }],
    'user.opened': [{ mode: 'start' }, { mode: 'resume' }],
    'user.submitPayer': [{ payerAlias: '070-123 45 67' }, { payerAlias: '08-123 45' }],
    'xstate.done.actor.startPayment': [{ output: payment() }, { output: ecommerce }],
    'xstate.error.actor.startPayment': [failure(409, 'GIFT_CODE_POOL_EMPTY', 'En av gåvorna är slut just nu. Välj en annan gåva.')],
    'xstate.done.actor.readPayment': [
      { output: payment() },
      { output: settled('paid') },
      { output: settled('declined', 'RF07') },
      { output: settled('cancelled', 'BANKIDCL') },
      { output: settled('expired', 'TM01') },
      { output: settled('error', 'FF08') },
    ],
    'xstate.error.actor.readPayment': [
      failure(404, 'PAYMENT_NOT_FOUND', 'Det finns ingen betalning.'),
      failure(503, 'SERVICE_UNAVAILABLE', 'Tjänsten är inte tillgänglig just nu. Försök igen om en stund.'),
    ],
    'xstate.done.actor.pollPayment': [
      { output: payment() },
      { output: settled('paid') },
      { output: settled('declined', 'RF07') },
      { output: settled('cancelled', 'BANKIDCL') },
      { output: settled('expired', 'TM01') },
      { output: settled('error', 'FF08') },
    ],
    // The server's stream (GET …/payment/events): an open payment (nothing changes) and each final one.
    'stream.payment': [
      { payment: settled('pending') },
      { payment: settled('paid') },
      { payment: settled('declined', 'RF07') },
      { payment: settled('cancelled', 'BANKIDCL') },
      { payment: settled('expired', 'TM01') },
      { payment: settled('error', 'FF08') },
    ],
    'xstate.error.actor.pollPayment': [failure(503, 'SERVICE_UNAVAILABLE', 'Tjänsten är inte tillgänglig just nu. Försök igen om en stund.')],
  },
  // The number of reads only sets the next wait; the payment counts by what the page shows of it.
  serializeState: (s: AnyMachineSnapshot) => {
    const c = s.context as PaymentContext;
    const p = c.payment;
    return JSON.stringify({
      value: s.value,
      device: c.device,
      payment: p && { status: p.status, payer: p.payerAlias !== null, app: p.token !== null },
      payerAlias: c.payerAlias,
      payerInvalid: c.payerInvalid,
      readFailed: c.readFailed,
      error: c.error?.code ?? null,
      consented: c.consented,
      consentMissing: c.consentMissing,
    });
  },
});
