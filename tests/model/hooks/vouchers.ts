import type { Failure } from '../../../contract/errors.ts';
import type { AnyMachineSnapshot } from 'xstate';
import type { Voucher } from '../../../contract/voucher.ts';
import type { VouchersContext } from '../../../machines/vouchers.ts';
import { charity, code, ids, instore, redeemedNow } from '../../fixtures/vouchers.ts';
import { defineHooks } from '../harness/types.ts';

/**
 * The voucher store, with one user, one voucher page (the InStore voucher, which the till can
 * redeem) and one greetie. Marking used is the Code voucher's, opened in its own scenario.
 */
export const listed: Voucher[] = [instore, code, charity];
const failure = (status: number, code: Failure['code'], message: string): { error: Failure } => ({ error: { status, code, message, retryAt: null } });

const flags = (vs: Voucher[] | null) => (vs ? vs.map((v) => (v.isRedeemed ? 'r' : '-')).join('') : null);

export default defineHooks({
  events: {
    'user.openList': [{ userId: 'u1' }],
    'user.openVoucher': [{ userId: 'u1', id: ids.instore }],
    'user.openGreetie': [{ userId: 'u1', greetieId: ids.greetie }],
    'user.markUsed': [{}],
    'redeem.succeeded': [{ voucher: redeemedNow(instore) }],
    'xstate.done.actor.loadVouchers': [{ output: listed }],
    'xstate.error.actor.loadVouchers': [failure(503, 'DB_UNAVAILABLE', 'Databasen svarar inte.')],
    'xstate.done.actor.loadVoucher': [{ output: instore }],
    'xstate.error.actor.loadVoucher': [failure(404, 'VOUCHER_NOT_FOUND', 'Presentkortet finns inte.')],
    'xstate.done.actor.loadGreetieVouchers': [{ output: listed }],
    'xstate.error.actor.loadGreetieVouchers': [failure(503, 'DB_UNAVAILABLE', 'Databasen svarar inte.')],
    'xstate.done.actor.markUsed': [{ output: redeemedNow(code) }],
    'xstate.error.actor.markUsed': [failure(503, 'DB_UNAVAILABLE', 'Databasen svarar inte.')],
  },
  scenarios: {
    // The Code voucher's page: marked used, and a mark that fails.
    'En kodgåva markeras som använd': [
      { type: 'user.openVoucher', userId: 'u1', id: ids.code },
      { type: 'xstate.done.actor.loadVoucher', output: code },
      { type: 'user.markUsed' },
      { type: 'xstate.done.actor.markUsed', output: redeemedNow(code) },
    ],
    'En markering som misslyckas': [
      { type: 'user.openVoucher', userId: 'u1', id: ids.code },
      { type: 'xstate.done.actor.loadVoucher', output: code },
      { type: 'user.markUsed' },
      { type: 'xstate.error.actor.markUsed', ...failure(503, 'DB_UNAVAILABLE', 'Databasen svarar inte.') },
    ],
    // The spec's rule: one redeem at the till shows in the list, the voucher and the greetie's vouchers.
    'Inlöst i kassan, visas överallt': [
      { type: 'user.openList', userId: 'u1' },
      { type: 'xstate.done.actor.loadVouchers', output: listed },
      { type: 'user.openGreetie', userId: 'u1', greetieId: ids.greetie },
      { type: 'xstate.done.actor.loadGreetieVouchers', output: listed },
      { type: 'user.openVoucher', userId: 'u1', id: ids.instore },
      { type: 'xstate.done.actor.loadVoucher', output: instore },
      { type: 'redeem.succeeded', voucher: redeemedNow(instore) },
      { type: 'user.openList', userId: 'u1' },
      { type: 'xstate.done.actor.loadVouchers', output: listed.map((v) => (v.id === ids.instore ? redeemedNow(instore) : v)) },
    ],
  },
  // The traversal counts visits, not states: 513 states take more than the default 2000.
  limit: 6000,
  // Finite across three regions: each region's state, and what it holds only as far as it shows
  // (kept or not, which vouchers are redeemed); a failure's reason follows from its state.
  serializeState: (s: AnyMachineSnapshot) => {
    const c = s.context as VouchersContext;
    return JSON.stringify([
      s.value,
      flags(c.list),
      c.selected ? `${c.selected.source}${c.selected.isRedeemed ? 'r' : ''}` : null,
      flags(c.greetieVouchers),
      c.markError !== null,
    ]);
  },
});
