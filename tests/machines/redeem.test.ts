import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { Voucher } from '../../contract/voucher.ts';
import { redeemMachine, toRedeemError, type RedeemFailure } from '../../machines/redeem.ts';
import { instore, redeemedNow } from '../fixtures/vouchers.ts';

/** A redeem actor whose server calls the test settles by hand; `announced` records what the store is told. */
function start() {
  const calls: { input: { voucherId: string; merchantCode: string }; resolve: (v: Voucher) => void; reject: (e: RedeemFailure) => void }[] = [];
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
    expect(actor.getSnapshot().context.error).toEqual({ reason: 'missingCode' });
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
    expect(actor.getSnapshot().context.error).toEqual({ reason: 'malformedCode' });
    actor.send({ type: 'user.submit', merchantCode: 'KANEL-1' });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(actor.getSnapshot().context.error).toEqual({ reason: 'malformedCode' });
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
    [{ status: 400, code: 'MERCHANT_CODE_WRONG' }, { reason: 'wrongCode' }],
    [{ status: 409, code: 'VOUCHER_ALREADY_REDEEMED' }, { reason: 'alreadyRedeemed' }],
    [{ status: 410, code: 'VOUCHER_EXPIRED' }, { reason: 'expired' }],
    [{ status: 429, code: 'VOUCHER_LOCKED', retryAt: '2026-11-23T10:30:00.000Z' }, { reason: 'locked', retryAt: '2026-11-23T10:30:00.000Z' }],
  ] as const)('a refusal %j goes back to idle with its own reason', async (failure, expected) => {
    const { actor, calls, announced } = start();
    actor.send({ type: 'user.submit', merchantCode: 'FEL123' });
    await waitFor(actor, (s) => s.matches('submitting'));
    calls[0]!.reject({ ...failure, message: 'Serverns text' });
    const s = await waitFor(actor, (x) => x.matches('idle'));
    expect(s.context.error).toEqual({ ...expected, message: 'Serverns text' });
    expect(announced).toEqual([]);
    // The staff may try again.
    actor.send({ type: 'user.submit', merchantCode: 'KANEL1' });
    expect(actor.getSnapshot().context.error).toBeNull();
    await waitFor(actor, (s) => s.matches('submitting'));
  });
});

describe('toRedeemError', () => {
  it('reads the server code first, the status when there is none', () => {
    expect(toRedeemError({ status: 400, code: 'MERCHANT_CODE_REQUIRED' }).reason).toBe('missingCode');
    expect(toRedeemError({ status: 409 }).reason).toBe('alreadyRedeemed');
    expect(toRedeemError({ status: 404, code: 'VOUCHER_NOT_FOUND' }).reason).toBe('notFound');
  });

  it('a malformed request is not a wrong code, and anything else is unknown with its message', () => {
    expect(toRedeemError({ status: 400, code: 'VALIDATION_FAILED' }).reason).toBe('unknown');
    expect(toRedeemError({ status: 0, message: 'Nätverket svarar inte' })).toEqual({ reason: 'unknown', message: 'Nätverket svarar inte' });
    expect(toRedeemError(new Error('x')).reason).toBe('unknown');
  });

  it('keeps the retry time only for a locked voucher', () => {
    expect(toRedeemError({ status: 400, code: 'MERCHANT_CODE_WRONG', retryAt: '2026-11-23T10:30:00.000Z' })).toEqual({ reason: 'wrongCode' });
  });
});

