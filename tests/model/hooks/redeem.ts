import type { AnyMachineSnapshot } from 'xstate';
import type { Failure } from '../../../contract/errors.ts';
import type { RedeemContext } from '../../../machines/redeem.ts';
import { instore, redeemedNow } from '../../fixtures/vouchers.ts';
import { defineHooks } from '../harness/types.ts';

/** The server's refusals as the implementations hand them over (one Failure each), one per reason the till words itself. */
export const refusals = [
  { status: 400, code: 'MERCHANT_CODE_WRONG', message: 'Handlarkoden stämmer inte. Kontrollera den och försök igen.', retryAt: null },
  { status: 409, code: 'VOUCHER_ALREADY_REDEEMED', message: 'Presentkortet är redan inlöst.', retryAt: null },
  { status: 410, code: 'VOUCHER_EXPIRED', message: 'Presentkortet har gått ut och kan inte längre lösas in.', retryAt: null },
  { status: 429, code: 'VOUCHER_LOCKED', message: 'För många felaktiga handlarkoder.', retryAt: '2026-11-23T10:30:00.000Z' },
] as const satisfies readonly Failure[];

/** The phone's own refusal of a code that cannot be a merchant code. */
const malformed: Failure = { status: 0, code: 'MERCHANT_CODE_MALFORMED', message: '', retryAt: null };

export default defineHooks({
  input: { voucherId: instore.id },
  events: {
    // The right code, one that cannot be a merchant code, and none at all (only spaces).
    'user.submit': [{ merchantCode: 'KANEL1' }, { merchantCode: '   ' }],
    'xstate.done.actor.checkCode': [{ output: 'KANEL1' }],
    'xstate.error.actor.checkCode': [{ error: malformed }],
    'xstate.done.actor.redeemVoucher': [{ output: redeemedNow(instore) }],
    'xstate.error.actor.redeemVoucher': refusals.map((error) => ({ error })),
  },
  // What the till can produce: a code that cannot be a merchant code, refused by the phone's own check.
  scenarios: {
    'En kod som inte kan vara en handlarkod': [
      { type: 'user.submit', merchantCode: 'ab' },
      { type: 'xstate.error.actor.checkCode', error: malformed },
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
    return JSON.stringify([s.value, c.error?.code ?? null, c.voucher?.isRedeemed ?? null]);
  },
});
