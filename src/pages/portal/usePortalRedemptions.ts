import { useState } from 'react';
import { shallowEqual, useActorRef, useSelector } from '@xstate/react';
import type { SnapshotFrom } from 'xstate';
import type { Failure } from '../../../contract/errors.ts';
import type { PortalRedemption } from '../../../contract/portal.ts';
import {
  PORTAL_REDEMPTIONS_SCREENS,
  type PortalPeriodFilter,
  type portalRedemptionsMachine,
  type PortalRedemptionsTag,
} from '../../../machines/portalRedemptions.ts';
import { screenOf } from '../../components/flow.ts';
import { inspect } from '../../inspect.ts';
import { portalRedemptions } from './portal.ts';

type Snapshot = SnapshotFrom<typeof portalRedemptionsMachine>;

export interface PortalRedemptionsView {
  screen: PortalRedemptionsTag;
  items: PortalRedemption[];
  hasMore: boolean;
  period: PortalPeriodFilter;
  failure: Failure | null;
}

export interface PortalRedemptionsCommands {
  choosePeriod: (period: PortalPeriodFilter) => void;
  showMore: () => void;
  retry: () => void;
}

const selectView = (s: Snapshot): PortalRedemptionsView => ({
  screen: screenOf(s, PORTAL_REDEMPTIONS_SCREENS),
  items: s.context.items,
  hasMore: s.context.nextCursor !== null,
  period: s.context.period,
  failure: s.context.error,
});

/** The merchant's redemptions for a period, a page at a time. */
export function usePortalRedemptions(merchantId: string): PortalRedemptionsView & PortalRedemptionsCommands {
  const actor = useActorRef(portalRedemptions, { input: { merchantId, period: { from: null, to: null } }, inspect });
  const view = useSelector(actor, selectView, shallowEqual);
  const [commands] = useState<PortalRedemptionsCommands>(() => ({
    choosePeriod: (period) => actor.send({ type: 'user.period', period }),
    showMore: () => actor.send({ type: 'user.showMore' }),
    retry: () => actor.send({ type: 'user.retry' }),
  }));
  return { ...view, ...commands };
}
