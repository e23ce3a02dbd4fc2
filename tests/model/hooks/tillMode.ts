import type { AnyMachineSnapshot } from 'xstate';
import type { Failure } from '../../../contract/errors.ts';
import { readToken, type TillModeContext } from '../../../machines/tillMode.ts';
import { redeemed, redeemedPart, undone, value } from '../../fixtures/vouchers.ts';
import { defineHooks } from '../harness/types.ts';

export const MERCHANT = value.merchant.id;
export const TOKEN = 'ABCD2345EF';

/** The value voucher at the till (349 kr): 149 kr taken by QR, and the same with the 149 kr back. */
export const taken = redeemedPart(value, 14900);
export const givenBack = undone(taken, taken.redemptions[0]!.id);

export const expiredToken: Failure = { status: 410, code: 'TOKEN_EXPIRED', message: 'QR-koden har redan använts eller gått ut.', retryAt: null };
export const tooLow: Failure = { status: 409, code: 'VOUCHER_BALANCE_TOO_LOW', message: 'Det finns inte så mycket kvar på presentkortet.', retryAt: null };
export const tooLate: Failure = { status: 409, code: 'UNDO_TOO_LATE', message: 'Det går inte längre att ångra.', retryAt: null };
export const noRedemption: Failure = { status: 404, code: 'REDEMPTION_NOT_FOUND', message: 'Inlösen finns inte.', retryAt: null };

export default defineHooks({
  input: { merchantId: MERCHANT },
  events: {
    // A token, and something that cannot be one.
    'user.token': [{ text: TOKEN.toLowerCase() }, { text: 'abc' }],
    // A voucher's QR code, and another shop's.
    'camera.found': [{ text: TOKEN }, { text: 'https://example.com/meny' }],
    'camera.failed': [{ reason: 'denied' }],
    'user.amount': [{ text: '149' }, { text: '400' }],
    'xstate.done.actor.scanToken': [{ output: value }, { output: redeemed }],
    'xstate.error.actor.scanToken': [{ error: expiredToken }],
    'xstate.done.actor.redeemToken': [{ output: taken }],
    'xstate.error.actor.redeemToken': [{ error: expiredToken }, { error: tooLow }],
    'xstate.done.actor.undoRedemption': [{ output: givenBack }],
    'xstate.error.actor.undoRedemption': [{ error: tooLate }, { error: noRedemption }],
  },
  serializeState: (s: AnyMachineSnapshot) => {
    const c = s.context as TillModeContext;
    const token = readToken(c.tokenText);
    return JSON.stringify([s.value, c.error?.code ?? null, token === '' ? 'empty' : token ? 'ok' : 'bad', c.camera, c.amount.kind, c.voucher?.balance ?? null]);
  },
});
