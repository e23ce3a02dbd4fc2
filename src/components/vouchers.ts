import { useEffect } from 'react';
import { shallowEqual, useSelector } from '@xstate/react';
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { Voucher } from '../../contract/voucher.ts';
import type { Failure } from '../../contract/errors.ts';
import type { vouchersMachine } from '../../machines/vouchers.ts';
import { useAuthActor, useSessionUser } from './session.ts';

/**
 * The voucher store (machines/vouchers.ts, the app's long-lived actor with systemId 'vouchers') as
 * the voucher and redeem pages see it: each hook opens what its page shows on every visit and
 * selects it from the store's tags and context, never from state names. What the store kept for
 * another user is never shown. Plus the pure rules both groups share: the order of "Mina gåvor"
 * and which vouchers a till can redeem.
 */

export type VoucherStoreRef = ActorRefFrom<typeof vouchersMachine>;
type Snapshot = SnapshotFrom<typeof vouchersMachine>;

/** The app's voucher store; it lives in the same actor system as the session's auth actor. */
export function useVoucherStore(): VoucherStoreRef {
  const auth = useAuthActor();
  const store = auth.system.get('vouchers') as VoucherStoreRef | undefined;
  if (!store) throw new Error("No actor with systemId 'vouchers' in the app system (machines/app.ts spawns it)");
  return store;
}

export type LoadStatus = 'loading' | 'ready' | 'failed';

export interface Kept<T> {
  /** 'loading' only while nothing is kept to show. */
  status: LoadStatus;
  data: T | null;
  /** A fresh copy is on its way while `data` (kept) is shown. */
  refreshing: boolean;
  error: Failure | null;
}

function kept<T>(s: Snapshot, userId: string | null, part: 'list' | 'voucher' | 'greetie', data: T | null, error: Failure | null): Kept<T> {
  const mine = userId !== null && s.context.userId === userId;
  const shown = mine ? data : null;
  const loading = s.hasTag(`${part}:loading`) || !(s.hasTag(`${part}:ready`) || s.hasTag(`${part}:failed`));
  if (s.hasTag(`${part}:failed`) && mine) return { status: 'failed', data: null, refreshing: false, error };
  if (shown !== null) return { status: 'ready', data: shown, refreshing: loading, error: null };
  return { status: loading || !mine ? 'loading' : 'ready', data: null, refreshing: false, error: null };
}

/** "Mina gåvor": the user's vouchers, loaded on every visit (the kept list shown meanwhile). */
export function useVoucherList(): Kept<Voucher[]> & { retry: () => void } {
  const store = useVoucherStore();
  const userId = useSessionUser()?.id ?? null;
  useEffect(() => {
    if (userId) store.send({ type: 'user.openList', userId });
  }, [store, userId]);
  const view = useSelector(store, (s) => kept(s, userId, 'list', s.context.list, s.context.listError), shallowEqual);
  return {
    ...view,
    retry: () => {
      if (userId) store.send({ type: 'user.openList', userId });
    },
  };
}

export interface SelectedVoucherView extends Kept<Voucher> {
  marking: boolean;
  markError: Failure | null;
}

/** One voucher (its page, the till screen). The voucher already shown is not loaded again. */
export function useSelectedVoucher(id: string): SelectedVoucherView & { retry: () => void; markUsed: () => void } {
  const store = useVoucherStore();
  const userId = useSessionUser()?.id ?? null;
  useEffect(() => {
    if (userId) store.send({ type: 'user.openVoucher', userId, id });
  }, [store, userId, id]);
  const view = useSelector(
    store,
    (s): SelectedVoucherView => {
      const same = s.context.selectedId === id;
      const base = kept(s, userId, 'voucher', same ? s.context.selected : null, same ? s.context.selectedError : null);
      return { ...base, marking: same && s.hasTag('voucher:marking'), markError: same ? s.context.markError : null };
    },
    shallowEqual,
  );
  return {
    ...view,
    retry: () => {
      if (userId) store.send({ type: 'user.openVoucher', userId, id });
    },
    markUsed: () => store.send({ type: 'user.markUsed' }),
  };
}

/**
 * Opens a received greetie's vouchers in the store (loads them) once `greetieId` is known; null
 * opens nothing. The greetie view opens them as soon as it knows the person is its recipient, so
 * they load while the greetie plays, not after.
 */
export function useOpenGreetieVouchers(greetieId: string | null): void {
  const store = useVoucherStore();
  const userId = useSessionUser()?.id ?? null;
  useEffect(() => {
    if (userId && greetieId) store.send({ type: 'user.openGreetie', userId, greetieId });
  }, [store, userId, greetieId]);
}

/**
 * The vouchers of a received greetie (redeeming from it). `open: false` only reads what the store
 * keeps (a page that opened them already with useOpenGreetieVouchers); retry loads them again.
 */
export function useGreetieVouchers(greetieId: string, { open = true }: { open?: boolean } = {}): Kept<Voucher[]> & { retry: () => void } {
  const store = useVoucherStore();
  const userId = useSessionUser()?.id ?? null;
  useOpenGreetieVouchers(open ? greetieId : null);
  const view = useSelector(
    store,
    (s) => {
      const same = s.context.greetieId === greetieId;
      return kept(s, userId, 'greetie', same ? s.context.greetieVouchers : null, same ? s.context.greetieError : null);
    },
    shallowEqual,
  );
  return {
    ...view,
    retry: () => {
      if (userId) store.send({ type: 'user.openGreetie', userId, greetieId });
    },
  };
}

/** The expiry as a time; a voucher without one (not delivered yet, only its sender sees it) never counts as expired. */
const expiry = (v: Voucher): number => (v.expiresAt === null ? Number.POSITIVE_INFINITY : Date.parse(v.expiresAt));

/** Not redeemed and not past its expiry. */
export function isActive(v: Voucher, now: Date): boolean {
  return !v.isRedeemed && expiry(v) > now.getTime();
}

export function isExpired(v: Voucher, now: Date): boolean {
  return !v.isRedeemed && expiry(v) <= now.getTime();
}

/** What a till can redeem: an active InStore voucher. */
export function isRedeemableAtTill(v: Voucher, now: Date): boolean {
  return v.source === 'InStore' && isActive(v, now);
}

/**
 * "Mina gåvor"'s order: active first (the one expiring soonest on top), then expired, then the
 * redeemed ones, most recently redeemed first.
 */
export function sortVouchers(vouchers: readonly Voucher[], now: Date): Voucher[] {
  const rank = (v: Voucher) => (isActive(v, now) ? 0 : v.isRedeemed ? 2 : 1);
  return [...vouchers].sort((a, b) => {
    const r = rank(a) - rank(b);
    if (r !== 0) return r;
    if (a.isRedeemed && b.isRedeemed) return Date.parse(b.redeemedAt ?? '') - Date.parse(a.redeemedAt ?? '') || a.id.localeCompare(b.id);
    return expiry(a) - expiry(b) || a.id.localeCompare(b.id);
  });
}
