import type { Failure } from '../../../contract/errors.ts';
import type { VoucherQr } from '../../../contract/voucher.ts';
import { instore } from '../../fixtures/vouchers.ts';
import { defineHooks } from '../harness/types.ts';

/** The in-store fixture voucher's QR: a first token, a renewed one, and a request that fails. */
export const firstQr: VoucherQr = { token: 'ABCDE23456', expiresAt: '2026-11-23T10:02:00.000Z' };
export const nextQr: VoucherQr = { token: 'FGHJK78923', expiresAt: '2026-11-23T10:03:40.000Z' };

const failure = (error: Failure) => ({ error });
const unavailable = failure({ status: 503, code: 'DB_UNAVAILABLE', message: 'Databasen svarar inte.', retryAt: null });

export default defineHooks({
  input: { voucherId: instore.id },
  events: {
    'xstate.done.actor.fetchQr': [{ output: firstQr }],
    'xstate.error.actor.fetchQr': [unavailable],
    'xstate.done.actor.refreshQr': [{ output: nextQr }],
    'xstate.error.actor.refreshQr': [unavailable],
  },
});
