import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback, fromPromise, type AnyEventObject, type EventObject } from 'xstate';
import type { Failure } from '../../contract/errors.ts';
import type { Payment } from '../../contract/payment.ts';
import { POLL_MAX_MS, paymentMachine, pollDelayMs, type PaymentDevice, type StartPaymentInput } from '../../machines/payment.ts';

type Call<I> = { input: I; resolve: (p: Payment) => void; reject: (e: unknown) => void };

function manual<I>() {
  const calls: Call<I>[] = [];
  const logic = fromPromise<Payment, I>(({ input }) => new Promise((resolve, reject) => calls.push({ input, resolve, reject })));
  return { calls, logic };
}

const GREETIE = '11111111-1111-4111-8111-111111111111';

export const payment = (over: Partial<Payment> = {}): Payment => ({
  id: '22222222-2222-4222-8222-222222222222',
  greetieId: GREETIE,
  provider: 'sandbox',
  status: 'pending',
  amount: 14900,
  redirectUrl: null,
  appUrl: 'swish://paymentrequest?token=abc&callbackurl=https%3A%2F%2Fgreetie.se%2Fgreetie%2Fdetails%2F1',
  qrCode: '<svg xmlns="http://www.w3.org/2000/svg"></svg>',
  token: 'abc',
  payerAlias: null,
  errorCode: null,
  createdAt: '2026-11-23T08:00:00.000Z',
  updatedAt: '2026-11-23T08:00:00.000Z',
  refund: null,
  consentedAt: '2026-11-23T07:59:00.000Z',
  orderNumber: 'G-100123',
  ...over,
});

/** What the implementations reject with: the one Failure (contract/errors.ts). */
const failure = (status: number, code: Failure['code'], message: string): Failure => ({ status, code, message, retryAt: null });

/** 'start' comes from the review, which hands the withdrawal consent over; the details page ('resume') has none. */
function start(mode: 'start' | 'resume', device: PaymentDevice = 'desktop', consented = mode === 'start') {
  const starts = manual<StartPaymentInput>();
  const reads = manual<{ greetieId: string }>();
  // The server's stream: the test says what it tells (`stream.send`); `open` counts the streams running.
  const stream = { send: (_e: AnyEventObject) => {}, open: 0, inputs: [] as unknown[] };
  const paymentEvents = fromCallback<EventObject, { greetieId: string }>(({ input, sendBack }) => {
    stream.open += 1;
    stream.inputs.push(input);
    stream.send = sendBack;
    return () => {
      stream.open -= 1;
    };
  });
  const actor = createActor(paymentMachine.provide({ actors: { startPayment: starts.logic, readPayment: reads.logic, paymentEvents } }), {
    input: { greetieId: GREETIE, device, consented },
  }).start();
  actor.send({ type: 'user.opened', mode });
  const tags = () => [...actor.getSnapshot().tags].sort();
  const has = (screen: string) => tags().includes(screen);
  return { actor, starts: starts.calls, reads: reads.calls, stream, tags, has, ctx: () => actor.getSnapshot().context };
}

const settle = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('payment machine', () => {
  it('starts an m-commerce payment from the review and waits for the payer', async () => {
    const t = start('start');
    expect(t.tags()).toEqual(['busy', 'starting']);
    expect(t.starts[0]!.input).toEqual({ greetieId: GREETIE, payerAlias: null, withdrawalConsent: true });
    t.starts[0]!.resolve(payment());
    await settle();
    expect(t.has('awaitingPayer')).toBe(true);
    expect(t.ctx().payment?.qrCode).toContain('<svg');
  });

  it('reads the payment again with a growing wait until Swish answers, then shows the receipt', async () => {
    const t = start('start');
    t.starts[0]!.resolve(payment());
    await settle();
    const waits = [];
    for (let i = 0; i < 6; i++) {
      const wait = pollDelayMs(i);
      waits.push(wait);
      await vi.advanceTimersByTimeAsync(wait - 1);
      expect(t.reads).toHaveLength(i);
      await vi.advanceTimersByTimeAsync(1);
      expect(t.reads).toHaveLength(i + 1);
      t.reads[i]!.resolve(payment());
      await settle();
    }
    expect(waits).toEqual([2000, 3000, 4500, POLL_MAX_MS, POLL_MAX_MS, POLL_MAX_MS]);
    await vi.advanceTimersByTimeAsync(POLL_MAX_MS);
    t.reads[6]!.resolve(payment({ status: 'paid', appUrl: null, qrCode: null, token: null }));
    await settle();
    expect(t.tags()).toEqual(['paid']);
    expect(t.actor.getSnapshot().status).toBe('done');
  });

  it('the server\'s stream settles the payment as it happens, without waiting for the next read', async () => {
    const t = start('start');
    t.starts[0]!.resolve(payment());
    await settle();
    expect(t.stream.open).toBe(1);
    expect(t.stream.inputs).toEqual([{ greetieId: GREETIE }]);
    // An open payment told of changes nothing: the page waits as before.
    t.stream.send({ type: 'stream.payment', payment: payment({ token: null, appUrl: null, qrCode: null }) });
    await settle();
    expect(t.has('awaitingPayer')).toBe(true);
    expect(t.ctx().payment?.qrCode).toContain('<svg');
    expect(t.reads).toHaveLength(0);
    t.stream.send({ type: 'stream.payment', payment: payment({ status: 'paid', token: null, appUrl: null, qrCode: null }) });
    await settle();
    expect(t.tags()).toEqual(['paid']);
    expect(t.reads).toHaveLength(0);
    // The stream is stopped with the wait.
    expect(t.stream.open).toBe(0);
  });

  it.each([
    ['declined', 'RF07', 'declined'],
    ['cancelled', 'BANKIDCL', 'cancelled'],
    ['expired', 'TM01', 'expired'],
    ['error', 'FF08', 'failed'],
  ] as const)('a %s payment told by the stream has its own page at once', async (status, errorCode, tag) => {
    const t = start('start');
    t.starts[0]!.resolve(payment());
    await settle();
    t.stream.send({ type: 'stream.payment', payment: payment({ status, errorCode, token: null, appUrl: null, qrCode: null }) });
    await settle();
    expect(t.tags()).toEqual([tag]);
    expect(t.ctx().payment?.errorCode).toBe(errorCode);
  });

  it('the stream back after a break reads the payment at once (anything may have happened meanwhile)', async () => {
    const t = start('start');
    t.starts[0]!.resolve(payment());
    await settle();
    t.stream.send({ type: 'stream.reconnected' });
    await settle();
    expect(t.reads).toHaveLength(1);
    t.reads[0]!.resolve(payment({ status: 'paid', appUrl: null, qrCode: null, token: null }));
    await settle();
    expect(t.tags()).toEqual(['paid']);
  });

  it.each([
    ['declined', 'RF07', 'declined'],
    ['cancelled', 'BANKIDCL', 'cancelled'],
    ['expired', 'TM01', 'expired'],
    ['error', 'FF08', 'failed'],
  ] as const)('a %s payment (%s) has its own page, and trying again starts a new request', async (status, errorCode, tag) => {
    const t = start('start');
    t.starts[0]!.resolve(payment());
    await settle();
    await vi.advanceTimersByTimeAsync(pollDelayMs(0));
    t.reads[0]!.resolve(payment({ status, errorCode, appUrl: null, qrCode: null, token: null }));
    await settle();
    expect(t.tags()).toEqual([tag]);
    t.actor.send({ type: 'user.retry' });
    expect(t.tags()).toEqual(['busy', 'starting']);
    expect(t.starts).toHaveLength(2);
    expect(t.starts[1]!.input.payerAlias).toBeNull();
    // The consent handed over from the review goes with every start.
    expect(t.starts.map((c) => c.input.withdrawalConsent)).toEqual([true, true]);
  });

  it('a Swish number on the desktop starts the payment again as e-commerce and waits for that phone', async () => {
    const t = start('start');
    t.starts[0]!.resolve(payment());
    await settle();
    t.actor.send({ type: 'user.submitPayer', payerAlias: '070-123 45 67' });
    expect(t.starts[1]!.input.payerAlias).toBe('070-123 45 67');
    t.starts[1]!.resolve(payment({ payerAlias: '+46701234567', appUrl: null, qrCode: null, token: null }));
    await settle();
    expect(t.has('readingResult')).toBe(true);
    // Another way: a new m-commerce request (the number's request cannot show a QR code).
    t.actor.send({ type: 'user.changePayment' });
    expect(t.starts[2]!.input.payerAlias).toBeNull();
  });

  it('a number that is not a Swedish mobile number is said under the field and nothing is sent', async () => {
    const t = start('start');
    t.starts[0]!.resolve(payment());
    await settle();
    t.actor.send({ type: 'user.submitPayer', payerAlias: '08-123 456' });
    expect(t.starts).toHaveLength(1);
    expect(t.ctx().payerInvalid).toBe(true);
    expect(t.has('awaitingPayer')).toBe(true);
    t.actor.send({ type: 'user.showAppButton' });
    expect(t.ctx()).toMatchObject({ payerInvalid: false, device: 'phone' });
  });

  it("on a phone 'Öppna Swish' waits for the answer; coming back to the page reads at once", async () => {
    const t = start('start', 'phone');
    t.starts[0]!.resolve(payment());
    await settle();
    expect(t.ctx().device).toBe('phone');
    t.actor.send({ type: 'user.openedSwish' });
    expect(t.has('readingResult')).toBe(true);
    t.actor.send({ type: 'user.returned' });
    expect(t.reads).toHaveLength(1);
    // Back to the app button: the same request.
    t.actor.send({ type: 'user.changePayment' });
    expect(t.has('awaitingPayer')).toBe(true);
    expect(t.starts).toHaveLength(1);
  });

  it('a failed read keeps the page and reads again later', async () => {
    const t = start('start');
    t.starts[0]!.resolve(payment());
    await settle();
    await vi.advanceTimersByTimeAsync(pollDelayMs(0));
    t.reads[0]!.reject(failure(0, 'NETWORK', 'Ingen anslutning'));
    await settle();
    expect(t.ctx().readFailed).toBe(true);
    expect(t.has('awaitingPayer')).toBe(true);
    await vi.advanceTimersByTimeAsync(pollDelayMs(1));
    t.reads[1]!.resolve(payment());
    await settle();
    expect(t.ctx().readFailed).toBe(false);
  });

  it("keeps the server's reason when the payment cannot start (sold out, a send limit, Swish down)", async () => {
    const t = start('start');
    t.starts[0]!.reject(failure(409, 'GIFT_CODE_POOL_EMPTY', 'En av gåvorna är slut just nu. Välj en annan gåva.'));
    await settle();
    expect(t.tags()).toEqual(['startFailed']);
    expect(t.ctx().error).toEqual(failure(409, 'GIFT_CODE_POOL_EMPTY', 'En av gåvorna är slut just nu. Välj en annan gåva.'));
    t.actor.send({ type: 'user.retry' });
    t.starts[1]!.resolve(payment());
    await settle();
    expect(t.ctx().error).toBeNull();
  });

  describe('resumed on the details page (back from Swish)', () => {
    it('an open payment: waits for the answer at once', async () => {
      const t = start('resume');
      expect(t.tags()).toEqual(['busy', 'checking']);
      expect(t.starts).toHaveLength(0);
      t.reads[0]!.resolve(payment());
      await settle();
      expect(t.has('readingResult')).toBe(true);
    });

    it('a paid one: the receipt', async () => {
      const t = start('resume');
      t.reads[0]!.resolve(payment({ status: 'paid' }));
      await settle();
      expect(t.tags()).toEqual(['paid']);
    });

    it('none yet (404): nothing to show; a failed read: the reason and a retry', async () => {
      const t = start('resume');
      t.reads[0]!.reject(failure(404, 'PAYMENT_NOT_FOUND', 'Det finns ingen betalning.'));
      await settle();
      expect(t.tags()).toEqual(['none']);

      const u = start('resume');
      u.reads[0]!.reject(failure(503, 'SERVICE_UNAVAILABLE', 'Tjänsten är inte tillgänglig.'));
      await settle();
      expect(u.tags()).toEqual(['checkFailed']);
      u.actor.send({ type: 'user.retry' });
      expect(u.reads).toHaveLength(2);
    });

    it('reads the code, never the status: a 404 of another kind is a failed read, not "no payment yet"', async () => {
      const t = start('resume');
      t.reads[0]!.reject(failure(404, 'GREETIE_NOT_FOUND', 'Greetien finns inte.'));
      await settle();
      expect(t.tags()).toEqual(['checkFailed']);
      expect(t.ctx().error?.code).toBe('GREETIE_NOT_FOUND');
    });

    it('retrying a declined payment asks for the withdrawal consent first, then starts one that shows the QR code again', async () => {
      const t = start('resume');
      t.reads[0]!.resolve(payment({ status: 'declined', errorCode: 'RF07' }));
      await settle();
      // Not ticked here yet: nothing starts, the page says so at the box.
      t.actor.send({ type: 'user.retry' });
      expect(t.starts).toHaveLength(0);
      expect(t.tags()).toEqual(['declined']);
      expect(t.ctx().consentMissing).toBe(true);
      t.actor.send({ type: 'user.consented', consented: true });
      expect(t.ctx()).toMatchObject({ consented: true, consentMissing: false });
      t.actor.send({ type: 'user.retry' });
      expect(t.starts[0]!.input).toEqual({ greetieId: GREETIE, payerAlias: null, withdrawalConsent: true });
      t.starts[0]!.resolve(payment());
      await settle();
      expect(t.has('awaitingPayer')).toBe(true);
    });
  });
});
