import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { Voucher } from '../../contract/voucher.ts';
import type { Failure } from '../../contract/errors.ts';
import { readAmount, redeemMachine } from '../../machines/redeem.ts';
import { instore, redeemedNow, redeemedPart, undone, value } from '../fixtures/vouchers.ts';

type RedeemCall = { input: { voucherId: string; merchantCode: string; amount: number | null; idempotencyKey: string }; resolve: (v: Voucher) => void; reject: (e: Failure) => void };
type UndoCall = { input: { voucherId: string; redemptionId: string; merchantCode: string }; resolve: (v: Voucher) => void; reject: (e: Failure) => void };

/** A redeem actor whose server calls the test settles by hand; `announced` records what the store is told. */
function start(voucher: Voucher = instore) {
  const calls: RedeemCall[] = [];
  const undos: UndoCall[] = [];
  const announced: Voucher[] = [];
  const machine = redeemMachine.provide({
    actors: {
      redeemVoucher: fromPromise<Voucher, RedeemCall['input']>(({ input }) => new Promise((resolve, reject) => calls.push({ input, resolve, reject }))),
      undoRedemption: fromPromise<Voucher, UndoCall['input']>(({ input }) => new Promise((resolve, reject) => undos.push({ input, resolve, reject }))),
    },
    actions: { announceVoucher: (_, p: { voucher: Voucher }) => void announced.push(p.voucher) },
  });
  const actor = createActor(machine, { input: { voucher } }).start();
  return { actor, calls, undos, announced };
}

const failure = (status: number, code: Failure['code'], retryAt: string | null = null): Failure => ({ status, code, message: 'Serverns text', retryAt });
/** Lets settled calls reach the actor without moving the fake clock. */
async function settle() {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}
const check = (code: Failure['code']): Failure => ({ status: 0, code, message: '', retryAt: null });

describe('redeem machine: a fixed voucher, used whole', () => {
  it('starts idle, ready for the code', () => {
    const { actor } = start();
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().hasTag('ready')).toBe(true);
  });

  it('an empty code (or only spaces) is refused on the phone: nothing is sent', () => {
    const { actor, calls } = start();
    actor.send({ type: 'user.submit', merchantCode: '   ' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context.error).toEqual(check('MERCHANT_CODE_REQUIRED'));
    expect(calls).toHaveLength(0);
  });

  it('a code that cannot be a merchant code is refused on the phone too (validating → idle): it costs none of the five tries', async () => {
    const { actor, calls } = start();
    actor.send({ type: 'user.submit', merchantCode: 'ab' });
    expect(actor.getSnapshot().value).toBe('validating');
    await waitFor(actor, (s) => s.matches('idle'));
    expect(actor.getSnapshot().context.error).toEqual(check('MERCHANT_CODE_MALFORMED'));
    actor.send({ type: 'user.submit', merchantCode: 'KANEL-1' });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(actor.getSnapshot().context.error).toEqual(check('MERCHANT_CODE_MALFORMED'));
    expect(calls).toHaveLength(0);
  });

  it('a right code: submitting (busy) with the trimmed code, no amount and a key, then Inlöst with Ångra; the store is told once', async () => {
    const { actor, calls, announced } = start();
    actor.send({ type: 'user.submit', merchantCode: '  kanel1 ' });
    await waitFor(actor, (s) => s.matches('submitting'));
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(calls.map((c) => ({ ...c.input, idempotencyKey: typeof c.input.idempotencyKey }))).toEqual([
      { voucherId: instore.id, merchantCode: 'kanel1', amount: null, idempotencyKey: 'string' },
    ]);
    expect(calls[0]!.input.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    // A second press while sending does nothing.
    actor.send({ type: 'user.submit', merchantCode: 'kanel1' });
    expect(calls).toHaveLength(1);
    calls[0]!.resolve(redeemedNow(instore));
    const s = await waitFor(actor, (x) => x.hasTag('redeemed'));
    expect(s.value).toEqual({ undoable: 'offered' });
    expect(s.context.voucher).toEqual(redeemedNow(instore));
    expect(s.context.redemption?.amount).toBe(14900);
    expect(announced).toEqual([redeemedNow(instore)]);
  });

  it.each([
    failure(400, 'MERCHANT_CODE_WRONG'),
    failure(409, 'VOUCHER_ALREADY_REDEEMED'),
    failure(410, 'VOUCHER_EXPIRED'),
    failure(429, 'VOUCHER_LOCKED', '2026-11-23T10:30:00.000Z'),
    failure(0, 'NETWORK'),
  ])('a refusal $code goes back to idle, keeping the Failure as it came', async (refusal) => {
    const { actor, calls, announced } = start();
    actor.send({ type: 'user.submit', merchantCode: 'FEL123' });
    await waitFor(actor, (s) => s.matches('submitting'));
    calls[0]!.reject(refusal);
    const s = await waitFor(actor, (x) => x.matches('idle'));
    expect(s.context.error).toEqual(refusal);
    expect(announced).toEqual([]);
    // The staff may try again.
    actor.send({ type: 'user.submit', merchantCode: 'KANEL1' });
    expect(actor.getSnapshot().context.error).toBeNull();
    await waitFor(actor, (s) => s.matches('submitting'));
  });
});

describe('readAmount: kronor as staff type them', () => {
  it.each([
    ['150', 15000],
    ['150,50', 15050],
    ['150.5', 15050],
    ['0,01', 1],
    [' 1 000 ', 100000],
    ['1\u00a0000 kr', 100000],
    ['349', 34900],
    ['150,', 15000],
  ])('%j is %i öre', (text, ore) => {
    expect(readAmount(text, 100000)).toEqual({ kind: 'ok', ore });
  });

  it.each(['abc', '150,505', '-5', '1e3', ',5', '1,2,3', '15 0,5 0,1', '12345678'])('%j is not an amount', (text) => {
    expect(readAmount(text, 100000)).toEqual({ kind: 'refused', failure: check('AMOUNT_MALFORMED') });
  });

  it('nothing typed is empty; 0 is too small; more than the balance is AMOUNT_OVER_BALANCE', () => {
    expect(readAmount('  ', 34900)).toEqual({ kind: 'empty' });
    expect(readAmount('0', 34900)).toEqual({ kind: 'refused', failure: check('AMOUNT_TOO_SMALL') });
    expect(readAmount('0,00', 34900)).toEqual({ kind: 'refused', failure: check('AMOUNT_TOO_SMALL') });
    expect(readAmount('349,01', 34900)).toEqual({ kind: 'refused', failure: check('AMOUNT_OVER_BALANCE') });
    expect(readAmount('349', 34900)).toEqual({ kind: 'ok', ore: 34900 });
  });
});

describe('redeem machine: a value voucher, used in parts', () => {
  it('the amount is read as it is typed; what is wrong shows at once and nothing is sent', () => {
    const { actor, calls } = start(value);
    actor.send({ type: 'user.amount', text: '149' });
    expect(actor.getSnapshot().context.amount).toEqual({ kind: 'ok', ore: 14900 });
    actor.send({ type: 'user.amount', text: '400' });
    expect(actor.getSnapshot().context.amount).toEqual({ kind: 'refused', failure: check('AMOUNT_OVER_BALANCE') });
    actor.send({ type: 'user.submit', merchantCode: 'KANEL1' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context.error).toEqual(check('AMOUNT_OVER_BALANCE'));
    // Typing again gives way to what the field says now.
    actor.send({ type: 'user.amount', text: '14' });
    expect(actor.getSnapshot().context.error).toBeNull();
    expect(calls).toHaveLength(0);
  });

  it('no amount at all: AMOUNT_REQUIRED, before the code is looked at', () => {
    const { actor, calls } = start(value);
    actor.send({ type: 'user.submit', merchantCode: '' });
    expect(actor.getSnapshot().context.error).toEqual(check('AMOUNT_REQUIRED'));
    actor.send({ type: 'user.amount', text: '0' });
    actor.send({ type: 'user.submit', merchantCode: 'KANEL1' });
    expect(actor.getSnapshot().context.error).toEqual(check('AMOUNT_TOO_SMALL'));
    expect(actor.getSnapshot().value).toBe('idle');
    expect(calls).toHaveLength(0);
  });

  it('sends the amount in öre; Inlöst with what was taken and what is left', async () => {
    const { actor, calls, announced } = start(value);
    actor.send({ type: 'user.amount', text: '149' });
    actor.send({ type: 'user.submit', merchantCode: 'KANEL1' });
    await waitFor(actor, (s) => s.matches('submitting'));
    expect(calls[0]!.input).toMatchObject({ voucherId: value.id, merchantCode: 'KANEL1', amount: 14900 });
    const answer = redeemedPart(value, 14900);
    calls[0]!.resolve(answer);
    const s = await waitFor(actor, (x) => x.hasTag('redeemed'));
    expect(s.context.redemption).toEqual(answer.redemptions[0]);
    expect(s.context.voucher.balance).toBe(20000);
    expect(announced).toEqual([answer]);
  });

  it('an attempt without an answer keeps its Idempotency-Key: pressing again sends the same key, so nothing is taken twice', async () => {
    const { actor, calls } = start(value);
    actor.send({ type: 'user.amount', text: '149' });
    actor.send({ type: 'user.submit', merchantCode: 'KANEL1' });
    await waitFor(actor, (s) => s.matches('submitting'));
    calls[0]!.reject(failure(0, 'NETWORK'));
    await waitFor(actor, (s) => s.matches('idle'));
    actor.send({ type: 'user.submit', merchantCode: ' KANEL1' });
    await waitFor(actor, (s) => s.matches('submitting'));
    expect(calls[1]!.input.idempotencyKey).toBe(calls[0]!.input.idempotencyKey);
    // Still in progress on the server: the same key once more.
    calls[1]!.reject(failure(409, 'IDEMPOTENCY_KEY_IN_PROGRESS'));
    await waitFor(actor, (s) => s.matches('idle'));
    actor.send({ type: 'user.submit', merchantCode: 'KANEL1' });
    await waitFor(actor, (s) => s.matches('submitting'));
    expect(calls[2]!.input.idempotencyKey).toBe(calls[0]!.input.idempotencyKey);
  });

  it('a new attempt gets a new key: after a refusal, or with another amount', async () => {
    const { actor, calls } = start(value);
    actor.send({ type: 'user.amount', text: '149' });
    actor.send({ type: 'user.submit', merchantCode: 'FEL123' });
    await waitFor(actor, (s) => s.matches('submitting'));
    calls[0]!.reject(failure(400, 'MERCHANT_CODE_WRONG'));
    await waitFor(actor, (s) => s.matches('idle'));
    actor.send({ type: 'user.submit', merchantCode: 'FEL123' });
    await waitFor(actor, (s) => s.matches('submitting'));
    expect(calls[1]!.input.idempotencyKey).not.toBe(calls[0]!.input.idempotencyKey);
    calls[1]!.reject(failure(0, 'NETWORK'));
    await waitFor(actor, (s) => s.matches('idle'));
    actor.send({ type: 'user.amount', text: '150' });
    actor.send({ type: 'user.submit', merchantCode: 'FEL123' });
    await waitFor(actor, (s) => s.matches('submitting'));
    expect(new Set(calls.map((c) => c.input.idempotencyKey)).size).toBe(3);
  });

  it('the server says the balance is too low (it changed meanwhile): back to idle with its Failure', async () => {
    const { actor, calls } = start(value);
    actor.send({ type: 'user.amount', text: '300' });
    actor.send({ type: 'user.submit', merchantCode: 'KANEL1' });
    await waitFor(actor, (s) => s.matches('submitting'));
    calls[0]!.reject(failure(409, 'VOUCHER_BALANCE_TOO_LOW'));
    const s = await waitFor(actor, (x) => x.matches('idle'));
    expect(s.context.error).toEqual(failure(409, 'VOUCHER_BALANCE_TOO_LOW'));
  });
});

describe('redeem machine: Ångra within 10 minutes', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: new Date('2026-11-23T10:15:00.000Z') });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  async function redeemed() {
    const t = start(value);
    t.actor.send({ type: 'user.amount', text: '149' });
    t.actor.send({ type: 'user.submit', merchantCode: 'KANEL1' });
    await settle();
    expect(t.calls).toHaveLength(1);
    t.calls[0]!.resolve(redeemedPart(value, 14900));
    await settle();
    expect(t.actor.getSnapshot().hasTag('redeemed')).toBe(true);
    return t;
  }

  it('offers Ångra until 10 minutes after the answer (date-fns on the phone\'s clock)', async () => {
    const { actor } = await redeemed();
    expect(actor.getSnapshot().context.undoUntil).toBe('2026-11-23T10:25:00.000Z');
  });

  it('the code again, then the amount is back; the store is told', async () => {
    const { actor, undos, announced } = await redeemed();
    actor.send({ type: 'user.undo' });
    expect(actor.getSnapshot().value).toEqual({ undoable: 'asking' });
    expect(actor.getSnapshot().hasTag('undoAsk')).toBe(true);
    actor.send({ type: 'user.confirmUndo', merchantCode: '' });
    expect(actor.getSnapshot().context.error).toEqual(check('MERCHANT_CODE_REQUIRED'));
    actor.send({ type: 'user.confirmUndo', merchantCode: 'ab' });
    expect(actor.getSnapshot().context.error).toEqual(check('MERCHANT_CODE_MALFORMED'));
    expect(undos).toHaveLength(0);
    actor.send({ type: 'user.confirmUndo', merchantCode: ' kanel1 ' });
    expect(actor.getSnapshot().hasTag('undoBusy')).toBe(true);
    const redemptionId = redeemedPart(value, 14900).redemptions[0]!.id;
    expect(undos.map((u) => u.input)).toEqual([{ voucherId: value.id, redemptionId, merchantCode: 'kanel1' }]);
    const back = undone(redeemedPart(value, 14900), redemptionId);
    undos[0]!.resolve(back);
    await settle();
    expect(actor.getSnapshot().value).toBe('undone');
    expect(actor.getSnapshot().context.voucher.balance).toBe(34900);
    expect(announced.at(-1)).toEqual(back);
    // And the till can start again, with the balance as it is now.
    actor.send({ type: 'user.again' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context).toMatchObject({ amountText: '', amount: { kind: 'empty' }, error: null, redemption: null, undoUntil: null });
    expect(actor.getSnapshot().context.voucher.balance).toBe(34900);
  });

  it('a wrong code for the undo: asked again, with the reason; Avbryt leaves the purchase', async () => {
    const { actor, undos } = await redeemed();
    actor.send({ type: 'user.undo' });
    actor.send({ type: 'user.confirmUndo', merchantCode: 'FEL123' });
    undos[0]!.reject(failure(400, 'MERCHANT_CODE_WRONG'));
    await settle();
    expect(actor.getSnapshot().value).toEqual({ undoable: 'asking' });
    expect(actor.getSnapshot().context.error).toEqual(failure(400, 'MERCHANT_CODE_WRONG'));
    actor.send({ type: 'user.cancelUndo' });
    expect(actor.getSnapshot().value).toEqual({ undoable: 'offered' });
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it('after 10 minutes Ångra is gone (the timer is the machine\'s), also while the code is asked', async () => {
    const { actor } = await redeemed();
    vi.advanceTimersByTime(9 * 60_000);
    actor.send({ type: 'user.undo' });
    // Leaving and coming back does not restart the 10 minutes.
    actor.send({ type: 'user.cancelUndo' });
    actor.send({ type: 'user.undo' });
    vi.advanceTimersByTime(60_000 - 1);
    expect(actor.getSnapshot().value).toEqual({ undoable: 'asking' });
    vi.advanceTimersByTime(1);
    expect(actor.getSnapshot().value).toBe('closed');
    expect(actor.getSnapshot().status).toBe('done');
  });

  it('a wrong code back from the server re-enters the window with what is left of it, not 10 new minutes', async () => {
    const { actor, undos } = await redeemed();
    vi.advanceTimersByTime(8 * 60_000);
    actor.send({ type: 'user.undo' });
    actor.send({ type: 'user.confirmUndo', merchantCode: 'FEL123' });
    undos[0]!.reject(failure(400, 'MERCHANT_CODE_WRONG'));
    await settle();
    expect(actor.getSnapshot().value).toEqual({ undoable: 'asking' });
    vi.advanceTimersByTime(2 * 60_000);
    expect(actor.getSnapshot().value).toBe('closed');
  });

  it.each([failure(409, 'UNDO_TOO_LATE'), failure(409, 'ALREADY_UNDONE')])('the server says $code: closed, saying why', async (refusal) => {
    const { actor, undos } = await redeemed();
    actor.send({ type: 'user.undo' });
    actor.send({ type: 'user.confirmUndo', merchantCode: 'KANEL1' });
    undos[0]!.reject(refusal);
    await settle();
    expect(actor.getSnapshot().value).toBe('closed');
    expect(actor.getSnapshot().context.error).toEqual(refusal);
  });
});
