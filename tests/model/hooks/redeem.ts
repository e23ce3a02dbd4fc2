import type { AnyMachineSnapshot } from 'xstate';
import type { Failure } from '../../../contract/errors.ts';
import type { RedeemContext } from '../../../machines/redeem.ts';
import { redeemedPart, undone, value } from '../../fixtures/vouchers.ts';
import { defineHooks } from '../harness/types.ts';

/** The value voucher at the till (349 kr): 149 kr taken, and the same voucher with the 149 kr back. */
export const taken = redeemedPart(value, 14900);
export const givenBack = undone(taken, taken.redemptions[0]!.id);

/** The server's refusals as the implementations hand them over (one Failure each), one per reason the till words itself. */
export const refusals = [
  { status: 400, code: 'MERCHANT_CODE_WRONG', message: 'Handlarkoden stämmer inte. Kontrollera den och försök igen.', retryAt: null },
  { status: 409, code: 'VOUCHER_BALANCE_TOO_LOW', message: 'Det finns inte så mycket kvar på presentkortet.', retryAt: null },
  { status: 409, code: 'VOUCHER_ALREADY_REDEEMED', message: 'Presentkortet är redan inlöst.', retryAt: null },
  { status: 410, code: 'VOUCHER_EXPIRED', message: 'Presentkortet har gått ut och kan inte längre lösas in.', retryAt: null },
  { status: 429, code: 'VOUCHER_LOCKED', message: 'För många felaktiga handlarkoder.', retryAt: '2026-11-23T10:30:00.000Z' },
] as const satisfies readonly Failure[];

/** The undo's refusals: a wrong code (asked again), too late and undone already (the end). */
export const undoRefusals = [
  { status: 400, code: 'MERCHANT_CODE_WRONG', message: 'Handlarkoden stämmer inte. Kontrollera den och försök igen.', retryAt: null },
  { status: 409, code: 'UNDO_TOO_LATE', message: 'Det går inte längre att ångra.', retryAt: null },
  { status: 409, code: 'ALREADY_UNDONE', message: 'Inlösen är redan ångrad.', retryAt: null },
] as const satisfies readonly Failure[];

/** The phone's own refusal of a code that cannot be a merchant code. */
const malformed: Failure = { status: 0, code: 'MERCHANT_CODE_MALFORMED', message: '', retryAt: null };

export default defineHooks({
  input: { voucher: value },
  events: {
    // An amount that can be taken, and one more than the balance.
    'user.amount': [{ text: '149' }, { text: '400' }],
    // The right code, and none at all (only spaces).
    'user.submit': [{ merchantCode: 'KANEL1' }, { merchantCode: '   ' }],
    'user.confirmUndo': [{ merchantCode: 'KANEL1' }, { merchantCode: '' }, { merchantCode: 'ab' }],
    'xstate.done.actor.checkCode': [{ output: 'KANEL1' }],
    'xstate.error.actor.checkCode': [{ error: malformed }],
    'xstate.done.actor.redeemVoucher': [{ output: taken }],
    'xstate.error.actor.redeemVoucher': refusals.map((error) => ({ error })),
    'xstate.done.actor.undoRedemption': [{ output: givenBack }],
    'xstate.error.actor.undoRedemption': undoRefusals.map((error) => ({ error })),
  },
  scenarios: {
    // What the till can produce: a code that cannot be a merchant code, refused by the phone's own check.
    'En kod som inte kan vara en handlarkod': [
      { type: 'user.amount', text: '149' },
      { type: 'user.submit', merchantCode: 'ab' },
      { type: 'xstate.error.actor.checkCode', error: malformed },
    ],
    // Each refusal of the server back to idle with its own message (the generated paths take one).
    ...Object.fromEntries(
      refusals.map((error) => [
        `Servern säger nej: ${error.code}`,
        [
          { type: 'user.amount', text: '149' },
          { type: 'user.submit', merchantCode: 'KANEL1' },
          { type: 'xstate.done.actor.checkCode', output: 'KANEL1' },
          { type: 'xstate.error.actor.redeemVoucher', error },
        ],
      ]),
    ),
  },
  // The code typed does not change what comes next; the amount's reading, the reason shown and the balance do.
  serializeState: (s: AnyMachineSnapshot) => {
    const c = s.context as RedeemContext;
    return JSON.stringify([s.value, c.error?.code ?? null, c.amount.kind, c.voucher.balance, c.redemption?.id ?? null]);
  },
});
