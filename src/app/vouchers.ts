import type { Voucher } from '../../contract/voucher.ts';
import { vouchersMachine } from '../../machines/vouchers.ts';
import { getGreetieVouchers, getVoucher, listVouchers, markVoucherUsed } from '../api/voucher.ts';
import { fromCall } from '../components/flow.ts';

/**
 * The voucher store (machines/vouchers.ts) with its real implementations: the calls of
 * src/api/voucher.ts (the API client carries the session's bearer token), each failure a Failure. The app spawns it once
 * (src/app/AppActors.tsx); tests give it the same implementations over a stubbed fetch.
 *
 * This module is a lazy chunk: the pages that show gifts load it (src/app/routes.tsx).
 */
export function provideVoucherStore(machine: typeof vouchersMachine) {
  return machine.provide({
    actors: {
      loadVouchers: fromCall<Voucher[]>(({ signal }) => listVouchers(signal)),
      loadVoucher: fromCall<Voucher, { id: string }>(({ input, signal }) => getVoucher(input.id, signal)),
      loadGreetieVouchers: fromCall<Voucher[], { greetieId: string }>(({ input, signal }) => getGreetieVouchers(input.greetieId, signal)),
      markUsed: fromCall<Voucher, { id: string }>(({ input, signal }) => markVoucherUsed(input.id, signal)),
    },
  });
}

/** The store the app runs. */
export const voucherStore = provideVoucherStore(vouchersMachine);
