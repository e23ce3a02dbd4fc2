import type { AnyMachineSnapshot } from 'xstate';
import type { RedeemContext } from '../../../machines/redeem.ts';
import { instore, redeemedNow } from '../../fixtures/vouchers.ts';
import { defineHooks } from '../harness/types.ts';

/** The server's refusals, one per reason the till shows its own message for. */
export const refusals = [
  { status: 400, code: 'MERCHANT_CODE_WRONG', message: 'Handlarkoden stämmer inte. Kontrollera den och försök igen.' },
  { status: 409, code: 'VOUCHER_ALREADY_REDEEMED', message: 'Presentkortet är redan inlöst.' },
  { status: 410, code: 'VOUCHER_EXPIRED', message: 'Presentkortet har gått ut och kan inte längre lösas in.' },
  { status: 429, code: 'VOUCHER_LOCKED', message: 'För många felaktiga handlarkoder.', retryAt: '2026-11-23T10:30:00.000Z' },
] as const;

export default defineHooks({
  input: { voucherId: instore.id },
  events: {
    // The right code, one that cannot be a merchant code, and none at all (only spaces).
    'user.submit': [{ merchantCode: 'KANEL1' }, { merchantCode: '   ' }],
    'xstate.done.actor.checkCode': [{ output: 'KANEL1' }],
    'xstate.error.actor.checkCode': [{ error: { reason: 'malformedCode' } }],
    'xstate.done.actor.redeemVoucher': [{ output: redeemedNow(instore) }],
    'xstate.error.actor.redeemVoucher': refusals.map((error) => ({ error })),
  },
  // What the till can produce: a code that cannot be a merchant code, refused by the phone's own check.
  scenarios: {
    'En kod som inte kan vara en handlarkod': [
      { type: 'user.submit', merchantCode: 'ab' },
      { type: 'xstate.error.actor.checkCode', error: { reason: 'malformedCode' } },
    ],
    // Each refusal of the server back to idle with its own message (the generated paths take one).
    ...Object.fromEntries(
      refusals.map((error) => [
        `Servern säger nej: ${error.code}`,
        [
          { type: 'user.submit', merchantCode: 'KANEL1' },
          { type: 'xstate.done.actor.checkCode', output: 'KANEL1' },
          { type: 'xstate.error.actor.redeemVoucher', error },
        ],
      ]),
    ),
  },
  // The code typed does not change what comes next; the reason shown does.
  serializeState: (s: AnyMachineSnapshot) => {
    const c = s.context as RedeemContext;
    return JSON.stringify([s.value, c.error?.reason ?? null, c.voucher?.isRedeemed ?? null]);
  },
});
