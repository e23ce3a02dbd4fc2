import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { Failure } from '../../contract/errors.ts';
import {
  PORTAL_REDEMPTIONS_SCREENS,
  portalRedemptionsMachine,
  type PortalPeriodFilter,
  type PortalRedemptionsPage,
} from '../../machines/portalRedemptions.ts';
import { screenOf } from '../../src/components/flow.ts';
import { firstPage, secondPage } from '../model/hooks/portalRedemptions.ts';

const MERCHANT = '4d0e1a2b-0000-4000-8000-000000000001';
const open: PortalPeriodFilter = { from: null, to: null };
const down: Failure = { status: 503, code: 'DB_UNAVAILABLE', message: 'Databasen svarar inte.', retryAt: null };

type Input = { merchantId: string; period: PortalPeriodFilter; cursor: string | null };

function start() {
  const calls: { input: Input; resolve: (v: PortalRedemptionsPage) => void; reject: (e: Failure) => void }[] = [];
  const machine = portalRedemptionsMachine.provide({
    actors: {
      loadPage: fromPromise<PortalRedemptionsPage, Input>(({ input }) => new Promise((resolve, reject) => calls.push({ input, resolve, reject }))),
    },
  });
  const actor = createActor(machine, { input: { merchantId: MERCHANT, period: open } }).start();
  const screen = () => screenOf(actor.getSnapshot(), PORTAL_REDEMPTIONS_SCREENS);
  return { actor, calls, screen };
}

describe('portalRedemptions machine', () => {
  it('every state carries exactly one screen tag', () => {
    const leaves = [...Object.entries(portalRedemptionsMachine.states)];
    for (const [id, node] of leaves) {
      expect([...node.tags].filter((t) => (PORTAL_REDEMPTIONS_SCREENS as readonly string[]).includes(t)), id).toHaveLength(1);
    }
  });

  it('loads the first page of the period, then the next after its cursor, appended', async () => {
    const { actor, calls, screen } = start();
    expect(screen()).toBe('loading');
    expect(calls[0]!.input).toEqual({ merchantId: MERCHANT, period: open, cursor: null });
    calls[0]!.resolve({ items: firstPage, nextCursor: 'c1' });
    await waitFor(actor, (s) => s.hasTag('showing'));
    actor.send({ type: 'user.showMore' });
    expect(screen()).toBe('loadingMore');
    expect(calls[1]!.input.cursor).toBe('c1');
    calls[1]!.resolve({ items: secondPage, nextCursor: null });
    await waitFor(actor, (s) => s.hasTag('showing'));
    expect(actor.getSnapshot().context.items).toEqual([...firstPage, ...secondPage]);
    // At the end, 'Visa fler' asks for nothing.
    actor.send({ type: 'user.showMore' });
    expect(screen()).toBe('showing');
    expect(calls).toHaveLength(2);
  });

  it('a new period starts over from its first page', async () => {
    const { actor, calls } = start();
    calls[0]!.resolve({ items: firstPage, nextCursor: 'c1' });
    await waitFor(actor, (s) => s.hasTag('showing'));
    const period = { from: '2026-11-01', to: '2026-11-27' };
    actor.send({ type: 'user.period', period });
    expect(actor.getSnapshot().context.items).toEqual([]);
    expect(calls[1]!.input).toEqual({ merchantId: MERCHANT, period, cursor: null });
    calls[1]!.resolve({ items: [], nextCursor: null });
    await waitFor(actor, (s) => s.hasTag('showing'));
    expect(actor.getSnapshot().context.items).toEqual([]);
  });

  it('a failed first page is retried as the first page; a failed next page as that page, the list kept', async () => {
    const { actor, calls } = start();
    calls[0]!.reject(down);
    await waitFor(actor, (s) => s.hasTag('failed'));
    expect(actor.getSnapshot().context.error).toEqual(down);
    actor.send({ type: 'user.retry' });
    expect(calls[1]!.input.cursor).toBeNull();
    calls[1]!.resolve({ items: firstPage, nextCursor: 'c1' });
    await waitFor(actor, (s) => s.hasTag('showing'));
    actor.send({ type: 'user.showMore' });
    calls[2]!.reject(down);
    await waitFor(actor, (s) => s.hasTag('failed'));
    expect(actor.getSnapshot().context.items).toEqual(firstPage);
    actor.send({ type: 'user.retry' });
    expect(calls[3]!.input.cursor).toBe('c1');
  });
});
