import type { Failure } from '../../../contract/errors.ts';
import type { Greetie } from '../../../contract/greetie.ts';
import type { Payment, Refund } from '../../../contract/payment.ts';
import { defineHooks } from '../harness/types.ts';
import { gift, greetie } from './compose.ts';

/** A paid greetie its sender cancelled before it was opened: its payment has a refund. */
export const cancelled: Greetie = greetie({
  status: 'cancelled',
  sender: { id: 'u1', name: 'Anna' },
  recipient: { name: 'Mormor', mobileNumber: '+46701234567' },
  gifts: [gift],
  total: 34900,
  deliveredAt: '2026-11-20T08:00:00.000Z',
  cancelledAt: '2026-11-21T08:00:00.000Z',
});

const refund = (status: Refund['status']): Refund => ({
  id: '33333333-3333-4333-8333-333333333333',
  status,
  amount: 34900,
  createdAt: '2026-11-21T08:00:00.000Z',
  updatedAt: '2026-11-21T08:00:00.000Z',
});

/** The cancelled greetie's payment as GET …/payment answers it, with its refund (or none). */
export const payment = (status: Refund['status'] | null): Payment => ({
  id: '22222222-2222-4222-8222-222222222222',
  greetieId: cancelled.id,
  provider: 'sandbox',
  status: 'paid',
  amount: 34900,
  redirectUrl: null,
  appUrl: null,
  qrCode: null,
  token: null,
  payerAlias: null,
  errorCode: null,
  createdAt: '2026-11-20T07:00:00.000Z',
  updatedAt: '2026-11-20T07:01:00.000Z',
  refund: status === null ? null : refund(status),
  consentedAt: '2026-11-20T06:59:00.000Z',
  orderNumber: 'G-100123',
});

const failure = (status: number, code: Failure['code'], message: string) => ({ error: { status, code, message, retryAt: null } satisfies Failure });
const unavailable = failure(503, 'SERVICE_UNAVAILABLE', 'Tjänsten är inte tillgänglig just nu.');

export default defineHooks({
  input: { greetieId: cancelled.id },
  events: {
    'xstate.done.actor.readRefund': [{ output: payment(null) }, { output: payment('pending') }, { output: payment('paid') }, { output: payment('error') }],
    'xstate.error.actor.readRefund': [failure(404, 'PAYMENT_NOT_FOUND', 'Det finns ingen betalning.'), unavailable],
    'xstate.done.actor.pollRefund': [{ output: payment('pending') }, { output: payment('paid') }, { output: payment('error') }],
    'xstate.error.actor.pollRefund': [unavailable],
  },
});
