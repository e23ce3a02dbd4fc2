import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { Voucher } from '../../contract/voucher.ts';
import type { Failure } from '../../contract/errors.ts';
import { redeemMachine } from '../../machines/redeem.ts';
import { instore, redeemedNow } from '../fixtures/vouchers.ts';

/** A redeem actor whose server calls the test settles by hand; `announced` records what the store is told. */
function start() {
  const calls: { input: { voucherId: string; merchantCode: string }; resolve: (v: Voucher) => void; reject: (e: Failure) => void }[] = [];
  const announced: Voucher[] = [];
  const machine = redeemMachine.provide({
    actors: {
      redeemVoucher: fromPromise<Voucher, { voucherId: string; merchantCode: string }>(
        ({ input }) => new Promise((resolve, reject) => calls.push({ input, resolve, reject })),
      ),
    },
    actions: { announceRedeemed: (_, p: { voucher: Voucher }) => void announced.push(p.voucher) },
  });
  const actor = createActor(machine, { input: { voucherId: instore.id } }).start();
  return { actor, calls, announced };
}

describe('redeem machine', () => {
  it('starts idle, ready for the code', () => {
    const { actor } = start();
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().hasTag('ready')).toBe(true);
  });

  it('an empty code (or only spaces) is refused on the phone: nothing is sent', () => {
    const { actor, calls } = start();
    actor.send({ type: 'user.submit', merchantCode: '   ' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context.error).toEqual({ status: 0, code: 'MERCHANT_CODE_REQUIRED', message: '', retryAt: null });
    expect(calls).toHaveLength(0);
  });

  it('the guard says no to an empty code', () => {
    const guard = redeemMachine.implementations.guards.hasCode as (a: { event: { merchantCode: string } }) => boolean;
    expect(guard({ event: { merchantCode: '' } })).toBe(false);
    expect(guard({ event: { merchantCode: '  ' } })).toBe(false);
    expect(guard({ event: { merchantCode: 'KANEL1' } })).toBe(true);
  });

  it('a code that cannot be a merchant code is refused on the phone too (validating → idle): it costs none of the five tries', async () => {
    const { actor, calls } = start();
    actor.send({ type: 'user.submit', merchantCode: 'ab' });
    expect(actor.getSnapshot().value).toBe('validating');
    await waitFor(actor, (s) => s.matches('idle'));
    expect(actor.getSnapshot().context.error).toEqual({ status: 0, code: 'MERCHANT_CODE_MALFORMED', message: '', retryAt: null });
    actor.send({ type: 'user.submit', merchantCode: 'KANEL-1' });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(actor.getSnapshot().context.error).toEqual({ status: 0, code: 'MERCHANT_CODE_MALFORMED', message: '', retryAt: null });
    expect(calls).toHaveLength(0);
  });

  it('a right code: submitting (busy) with the trimmed code, then redeemed, and the store is told once', async () => {
    const { actor, calls, announced } = start();
    actor.send({ type: 'user.submit', merchantCode: '  kanel1 ' });
    expect(actor.getSnapshot().value).toBe('validating');
    await waitFor(actor, (s) => s.matches('submitting'));
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(calls.map((c) => c.input)).toEqual([{ voucherId: instore.id, merchantCode: 'kanel1' }]);
    // A second press while sending does nothing.
    actor.send({ type: 'user.submit', merchantCode: 'kanel1' });
    expect(calls).toHaveLength(1);
    calls[0]!.resolve(redeemedNow(instore));
    const s = await waitFor(actor, (x) => x.matches('redeemed'));
    expect(s.status).toBe('done');
    expect(s.context.voucher).toEqual(redeemedNow(instore));
    expect(announced).toEqual([redeemedNow(instore)]);
  });

  it.each([
    { status: 400, code: 'MERCHANT_CODE_WRONG', retryAt: null },
    { status: 409, code: 'VOUCHER_ALREADY_REDEEMED', retryAt: null },
    { status: 410, code: 'VOUCHER_EXPIRED', retryAt: null },
    { status: 429, code: 'VOUCHER_LOCKED', retryAt: '2026-11-23T10:30:00.000Z' },
    { status: 0, code: 'NETWORK', retryAt: null },
  ] as const)('a refusal $code goes back to idle, keeping the Failure as it came', async (refusal) => {
    const { actor, calls, announced } = start();
    actor.send({ type: 'user.submit', merchantCode: 'FEL123' });
    await waitFor(actor, (s) => s.matches('submitting'));
    const failure: Failure = { ...refusal, message: 'Serverns text' };
    calls[0]!.reject(failure);
    const s = await waitFor(actor, (x) => x.matches('idle'));
    expect(s.context.error).toEqual(failure);
    expect(announced).toEqual([]);
    // The staff may try again.
    actor.send({ type: 'user.submit', merchantCode: 'KANEL1' });
    expect(actor.getSnapshot().context.error).toBeNull();
    await waitFor(actor, (s) => s.matches('submitting'));
  });
});
