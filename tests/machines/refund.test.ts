import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { Failure } from '../../contract/errors.ts';
import type { Payment, Refund } from '../../contract/payment.ts';
import { REFUND_PATIENCE_MS, REFUND_POLL_MS, REFUND_SCREENS, refundMachine } from '../../machines/refund.ts';
import { screenOf } from '../../src/components/flow.ts';

const GREETIE = '8d3c1f2e-6a4b-4c5d-9e8f-0a1b2c3d4e5f';

const refund = (status: Refund['status']): Refund => ({
  id: '33333333-3333-4333-8333-333333333333',
  status,
  amount: 34900,
  createdAt: '2026-11-21T08:00:00.000Z',
  updatedAt: '2026-11-21T08:00:00.000Z',
});
const payment = (r: Refund | null): Payment => ({
  id: '22222222-2222-4222-8222-222222222222',
  greetieId: GREETIE,
  provider: 'sandbox',
  status: 'paid',
  amount: 34900,
  redirectUrl: null,
  appUrl: null,
  qrCode: null,
  token: null,
  payerAlias: null,
  errorCode: null,
  createdAt: '2026-11-20T07:00:00.000Z',
  updatedAt: '2026-11-20T07:01:00.000Z',
  refund: r,
  consentedAt: '2026-11-20T06:59:00.000Z',
  orderNumber: 'G-100123',
});
const failure = (status: number, code: Failure['code']): Failure => ({ status, code, message: 'Nej.', retryAt: null });

/** A refund actor whose reads the test settles by hand; the delays run on fake timers. */
function start() {
  const calls: { input: { greetieId: string }; resolve: (v: Payment) => void; reject: (e: Failure) => void }[] = [];
  const machine = refundMachine.provide({
    actors: {
      readRefund: fromPromise<Payment, { greetieId: string }>(({ input }) => new Promise((resolve, reject) => calls.push({ input, resolve, reject }))),
    },
  });
  const actor = createActor(machine, { input: { greetieId: GREETIE } }).start();
  const screen = () => screenOf(actor.getSnapshot(), REFUND_SCREENS);
  const ctx = () => actor.getSnapshot().context;
  const last = () => calls.at(-1)!;
  return { actor, calls, screen, ctx, last };
}
const flush = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('refund machine', () => {
  it('every state carries exactly one screen tag (the pending one on its parent)', () => {
    for (const [id, node] of Object.entries(refundMachine.states)) {
      expect([...node.tags].filter((t) => (REFUND_SCREENS as readonly string[]).includes(t)), id).toHaveLength(1);
    }
  });

  it('reads the payment of its greetie; no refund, or no payment at all, is none', async () => {
    for (const answer of ['no refund', 'no payment'] as const) {
      const { calls, screen, last } = start();
      expect(screen()).toBe('loading');
      expect(calls[0]!.input).toEqual({ greetieId: GREETIE });
      if (answer === 'no refund') last().resolve(payment(null));
      else last().reject(failure(404, 'PAYMENT_NOT_FOUND'));
      await flush();
      expect(screen(), answer).toBe('none');
    }
  });

  it('pending: reads again every 5 s (never two reads at once) and ends paid when Swish has paid', async () => {
    const { calls, screen, ctx, last } = start();
    last().resolve(payment(refund('pending')));
    await flush();
    expect(screen()).toBe('pending');
    expect(ctx().refund?.status).toBe('pending');
    await vi.advanceTimersByTimeAsync(REFUND_POLL_MS - 1);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
    // While a read is out, no other read starts.
    await vi.advanceTimersByTimeAsync(REFUND_POLL_MS * 3);
    expect(calls).toHaveLength(2);
    last().resolve(payment(refund('pending')));
    await flush();
    expect(screen()).toBe('pending');
    await vi.advanceTimersByTimeAsync(REFUND_POLL_MS);
    expect(calls).toHaveLength(3);
    last().resolve(payment(refund('paid')));
    await flush();
    expect(screen()).toBe('paid');
    expect(ctx().refund?.status).toBe('paid');
    await vi.advanceTimersByTimeAsync(REFUND_PATIENCE_MS);
    expect(calls).toHaveLength(3);
  });

  it('a read that fails while pending keeps the refund and reads again later', async () => {
    const { calls, screen, ctx, last } = start();
    last().resolve(payment(refund('pending')));
    await flush();
    await vi.advanceTimersByTimeAsync(REFUND_POLL_MS);
    last().reject(failure(503, 'SERVICE_UNAVAILABLE'));
    await flush();
    expect(screen()).toBe('pending');
    expect(ctx().refund?.status).toBe('pending');
    await vi.advanceTimersByTimeAsync(REFUND_POLL_MS);
    expect(calls).toHaveLength(3);
  });

  it('a refund that fails is shown as failed (retried by the reconciliation); Kolla igen reads it again', async () => {
    const { calls, screen, last } = start();
    last().resolve(payment(refund('pending')));
    await flush();
    await vi.advanceTimersByTimeAsync(REFUND_POLL_MS);
    last().resolve(payment(refund('error')));
    await flush();
    expect(screen()).toBe('failed');
    // Not polled: the sender asks.
    await vi.advanceTimersByTimeAsync(REFUND_PATIENCE_MS);
    expect(calls).toHaveLength(2);
  });

  it('after some minutes of pending it stops reading and says it may take longer; Kolla igen follows it again', async () => {
    const { actor, calls, screen, last } = start();
    last().resolve(payment(refund('pending')));
    await flush();
    // Every read answers "still pending" at once.
    for (let t = 0; t < REFUND_PATIENCE_MS; t += REFUND_POLL_MS) {
      await vi.advanceTimersByTimeAsync(REFUND_POLL_MS);
      if (screen() === 'pending' && actor.getSnapshot().matches({ pending: 'reading' })) {
        last().resolve(payment(refund('pending')));
        await flush();
      }
    }
    expect(screen()).toBe('slow');
    const reads = calls.length;
    expect(reads).toBeGreaterThan(REFUND_PATIENCE_MS / REFUND_POLL_MS - 5);
    await vi.advanceTimersByTimeAsync(REFUND_PATIENCE_MS);
    expect(calls).toHaveLength(reads);
    actor.send({ type: 'user.check' });
    expect(screen()).toBe('loading');
    expect(calls).toHaveLength(reads + 1);
    last().resolve(payment(refund('paid')));
    await flush();
    expect(screen()).toBe('paid');
  });

  it('a failed first read is loadFailed with its Failure; retry reads again and clears it', async () => {
    const { actor, calls, screen, ctx, last } = start();
    last().reject(failure(503, 'SERVICE_UNAVAILABLE'));
    await flush();
    expect(screen()).toBe('loadFailed');
    expect(ctx().error?.code).toBe('SERVICE_UNAVAILABLE');
    actor.send({ type: 'user.retry' });
    expect(screen()).toBe('loading');
    expect(ctx().error).toBeNull();
    expect(calls).toHaveLength(2);
    last().resolve(payment(refund('error')));
    await flush();
    expect(screen()).toBe('failed');
    actor.send({ type: 'user.check' });
    last().resolve(payment(refund('paid')));
    await flush();
    expect(screen()).toBe('paid');
  });
});
