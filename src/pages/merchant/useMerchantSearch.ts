import { useMemo } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import type { SnapshotFrom } from 'xstate';
import { MERCHANT_SEARCH_TAGS, type MerchantFilters, type MerchantSearchTag } from '../../../machines/merchantSearch.ts';
import { screenOf } from '../../components/flow.ts';
import { inspect } from '../../inspect.ts';
import { merchantSearch } from './loaders.ts';

type Snapshot = SnapshotFrom<typeof merchantSearch>;
export type MerchantSearchStatus = MerchantSearchTag;

const selectStatus = (s: Snapshot): MerchantSearchStatus => screenOf(s, MERCHANT_SEARCH_TAGS);
const selectFilters = (s: Snapshot) => s.context.filters;
const selectItems = (s: Snapshot) => s.context.items;
const selectHasMore = (s: Snapshot) => s.context.nextCursor !== null;
const selectError = (s: Snapshot) => s.context.error;

/**
 * The merchant search (machines/merchantSearch.ts) for the list page, started with the filters from
 * the address: what to show, and the events a person can send.
 */
export function useMerchantSearch(initial: MerchantFilters) {
  const actor = useActorRef(merchantSearch, { input: initial, inspect });
  const status = useSelector(actor, selectStatus);
  const filters = useSelector(actor, selectFilters);
  const items = useSelector(actor, selectItems);
  const hasMore = useSelector(actor, selectHasMore);
  const error = useSelector(actor, selectError);
  const send = useMemo(
    () => ({
      type: (q: string) => actor.send({ type: 'user.typed', q }),
      filter: (f: Partial<MerchantFilters>) => actor.send({ type: 'user.filtered', filters: f }),
      submit: () => actor.send({ type: 'user.submitted' }),
      showMore: () => actor.send({ type: 'user.showMore' }),
      retry: () => actor.send({ type: 'user.retry' }),
    }),
    [actor],
  );
  return { status, filters, items, hasMore, error, ...send };
}
