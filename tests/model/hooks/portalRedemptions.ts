import type { Failure } from '../../../contract/errors.ts';
import type { PortalRedemption } from '../../../contract/portal.ts';
import { defineHooks } from '../harness/types.ts';

/** Café Kanelbullen's redemptions as its portal page reads them: a page with more to come, the last page, a refusal. */
export const MERCHANT_ID = '4d0e1a2b-0000-4000-8000-000000000001';
const redemption = (n: number, productName: string, amount: number, redeemedAt: string, extra: Partial<PortalRedemption> = {}): PortalRedemption => ({
  id: `7a1b2c3d-0000-4000-8000-00000000000${n}`,
  voucherId: `8b2c3d4e-0000-4000-8000-00000000000${n}`,
  productName,
  amount,
  redeemedAt,
  via: 'code',
  undone: false,
  ...extra,
});
export const firstPage: PortalRedemption[] = [
  redemption(1, 'Fika för två', 14900, '2026-11-27T13:05:00.000Z', { via: 'qr' }),
  redemption(2, 'Presentkort', 20000, '2026-11-26T09:30:00.000Z', { undone: true }),
];
export const secondPage: PortalRedemption[] = [redemption(3, 'Kanelbulle', 4500, '2026-11-20T08:00:00.000Z')];
const failure: { error: Failure } = { error: { status: 500, code: 'INTERNAL_ERROR', message: 'Något gick fel hos oss. Försök igen om en stund.', retryAt: null } };

export default defineHooks({
  input: { merchantId: MERCHANT_ID, period: { from: null, to: null } },
  events: {
    'user.period': [{ period: { from: '2026-11-01', to: '2026-12-01' } }],
    'xstate.done.actor.loadPage': [{ output: { items: firstPage, nextCursor: 'c1' } }, { output: { items: [], nextCursor: null } }],
    'xstate.error.actor.loadPage': [failure],
    'xstate.done.actor.loadMore': [{ output: { items: secondPage, nextCursor: null } }],
    'xstate.error.actor.loadMore': [failure],
  },
});
