import type { MerchantCodeAnswer, PortalMerchant, PortalSummary } from '../../../contract/portal.ts';
import { codeRotationMachine } from '../../../machines/codeRotation.ts';
import { createLoader } from '../../../machines/loader.ts';
import { portalRedemptionsMachine, type PortalPeriodFilter, type PortalRedemptionsPage } from '../../../machines/portalRedemptions.ts';
import { getPortalSummary, listPortalMerchants, listPortalRedemptions, rotateMerchantCode } from '../../api/portal.ts';
import { fromCall } from '../../components/flow.ts';
import type { DayPeriod } from './period.ts';

/** The portal pages' machines with their real server calls (machine.provide). */

/** The merchants the signed-in person works for (GET /portal/merchants). */
export const portalMerchantsLoader = createLoader<undefined, PortalMerchant[]>().provide({
  actors: {
    load: fromCall<PortalMerchant[], { params: undefined }>(({ signal }) => listPortalMerchants(signal)),
  },
});

export interface PortalFigures {
  today: PortalSummary;
  month: PortalSummary;
}

/** Today's and this month's summary (two calls side by side); outstanding and expired are "now" in both. */
export const portalSummaryLoader = createLoader<{ merchantId: string; today: DayPeriod; month: DayPeriod }, PortalFigures>().provide({
  actors: {
    load: fromCall<PortalFigures, { params: { merchantId: string; today: DayPeriod; month: DayPeriod } }>(async ({ input, signal }) => {
      const { merchantId, today, month } = input.params;
      const [t, m] = await Promise.all([getPortalSummary(merchantId, today, signal), getPortalSummary(merchantId, month, signal)]);
      return { today: t, month: m };
    }),
  },
});

export const portalRedemptions = portalRedemptionsMachine.provide({
  actors: {
    loadPage: fromCall<PortalRedemptionsPage, { merchantId: string; period: PortalPeriodFilter; cursor: string | null }>(({ input, signal }) =>
      listPortalRedemptions(input.merchantId, { from: input.period.from ?? undefined, to: input.period.to ?? undefined, cursor: input.cursor }, signal),
    ),
  },
});

export const codeRotation = codeRotationMachine.provide({
  actors: {
    rotateCode: fromCall<MerchantCodeAnswer, { merchantId: string }>(({ input, signal }) => rotateMerchantCode(input.merchantId, signal)),
  },
});
