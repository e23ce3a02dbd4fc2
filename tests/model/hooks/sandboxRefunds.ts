import type { Failure } from '../../../contract/errors.ts';
import type { SandboxRefund } from '../../../contract/payment.ts';
import { defineHooks } from '../harness/types.ts';

export const refund: SandboxRefund = {
  id: '6f1c2a3b-0000-4000-8000-000000000001',
  paymentId: '6f1c2a3b-0000-4000-8000-000000000002',
  greetieId: '6f1c2a3b-0000-4000-8000-000000000003',
  amount: 14950,
  status: 'pending',
  createdAt: '2026-11-21T08:03:00.000Z',
};

const failure: Failure = { status: 500, code: 'INTERNAL_ERROR', message: 'Något gick fel hos oss. Försök igen om en stund.', retryAt: null };

export default defineHooks({
  events: {
    'xstate.done.actor.readRefunds': [{ output: [refund] }],
    'xstate.error.actor.readRefunds': [{ error: failure }],
    'user.settle': [{ refund, outcome: 'paid' }],
    'xstate.done.actor.settleRefund': [{ output: { ...refund, status: 'paid' } }],
    'xstate.error.actor.settleRefund': [{ error: failure }],
  },
});
