import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { Voucher } from '../../contract/voucher.ts';
import type { Failure } from '../../contract/errors.ts';
import { UNDO_MINUTES } from '../../contract/voucher.ts';
import { readToken, tillModeMachine, tokenFromScan } from '../../machines/tillMode.ts';
import { instore, redeemed, redeemedNow, redeemedPart, undone, value } from '../fixtures/vouchers.ts';

type Settle<I> = { input: I; resolve: (v: Voucher) => void; reject: (e: Failure) => void };
type ScanInput = { merchantId: string; token: string };
type RedeemInput = { merchantId: string; token: string; amount: number | null; idempotencyKey: string };
type UndoInput = { merchantId: string; redemptionId: string };

const MERCHANT = '2b2b2b2b-0000-4000-8000-000000000001';
const TOKEN = 'ABCD2345EF';

/** A till mode actor whose server calls the test settles by hand. */
function start() {
  const scans: Array<Settle<ScanInput>> = [];
  const redeems: Array<Settle<RedeemInput>> = [];
  const undos: Array<Settle<UndoInput>> = [];
  const pending = <I>(list: Array<Settle<I>>) =>
    fromPromise<Voucher, I>(({ input }) => new Promise((resolve, reject) => list.push({ input, resolve, reject })));
  const machine = tillModeMachine.provide({ actors: { scanToken: pending(scans), redeemToken: pending(redeems), undoRedemption: pending(undos) } });
  const actor = createActor(machine, { input: { merchantId: MERCHANT } }).start();
  return { actor, scans, redeems, undos };
}

const failure = (status: number, code: Failure['code'], retryAt: string | null = null): Failure => ({ status, code, message: 'Serverns text', retryAt });
const check = (code: Failure['code']): Failure => ({ status: 0, code, message: '', retryAt: null });
const taken = redeemedPart(value, 14900);

/** Types the token and looks it up; the scan answers `voucher`. */
async function found(t: ReturnType<typeof start>, voucher: Voucher) {
  t.actor.send({ type: 'user.token', text: TOKEN });
  t.actor.send({ type: 'user.lookup' });
  t.scans.at(-1)!.resolve(voucher);
  return waitFor(t.actor, (s) => s.matches('found'));
}

async function redeemedValue(t: ReturnType<typeof start>) {
  await found(t, value);
  t.actor.send({ type: 'user.amount', text: '149' });
  t.actor.send({ type: 'user.redeem' });
  t.redeems.at(-1)!.resolve(taken);
  return waitFor(t.actor, (s) => s.hasTag('redeemed'));
}

afterEach(() => {
  vi.useRealTimers();
});

describe('reading a token', () => {
  it('accepts lower case, spaces and dashes; refuses anything else', () => {
    expect(readToken(' abcd 2345-ef ')).toBe(TOKEN);
    expect(readToken('')).toBe('');
    expect(readToken('ABCD2345E')).toBeNull();
    expect(readToken('ABCD2345E0')).toBeNull(); // 0 and 1 are not in the alphabet
    expect(tokenFromScan(TOKEN)).toBe(TOKEN);
    expect(tokenFromScan(`https://greetie.se/kassa/${TOKEN}`)).toBe(TOKEN);
    expect(tokenFromScan('https://example.com/menu')).toBeNull();
  });
});

describe('till mode: the typed token', () => {
  it('starts ready, with nothing found', () => {
    const { actor } = start();
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().hasTag('ready')).toBe(true);
  });

  it('nothing typed is TOKEN_REQUIRED, and a token that cannot be one TOKEN_MALFORMED: nothing is sent', () => {
    const { actor, scans } = start();
    actor.send({ type: 'user.lookup' });
    expect(actor.getSnapshot().context.error).toEqual(check('TOKEN_REQUIRED'));
    actor.send({ type: 'user.token', text: 'abc' });
    actor.send({ type: 'user.lookup' });
    expect(actor.getSnapshot().context.error).toEqual(check('TOKEN_MALFORMED'));
    expect(actor.getSnapshot().value).toBe('idle');
    expect(scans).toHaveLength(0);
  });

  it('a token looks the voucher up with the merchant, normalized, and shows it', async () => {
    const t = start();
    t.actor.send({ type: 'user.token', text: 'abcd 2345 ef' });
    t.actor.send({ type: 'user.lookup' });
    expect(t.actor.getSnapshot().hasTag('lookingUp')).toBe(true);
    expect(t.scans.map((s) => s.input)).toEqual([{ merchantId: MERCHANT, token: TOKEN }]);
    t.scans[0]!.resolve(value);
    const s = await waitFor(t.actor, (x) => x.matches('found'));
    expect(s.context.voucher).toEqual(value);
    expect(s.hasTag('found')).toBe(true);
  });

  it.each(['TOKEN_EXPIRED', 'TOKEN_NOT_FOUND', 'VOUCHER_EXPIRED', 'NETWORK'] as const)('a lookup refused with %s goes back to the field with its code, the token kept', async (code) => {
    const t = start();
    t.actor.send({ type: 'user.token', text: TOKEN });
    t.actor.send({ type: 'user.lookup' });
    t.scans[0]!.reject(failure(code === 'NETWORK' ? 0 : 410, code));
    const s = await waitFor(t.actor, (x) => x.matches('idle'));
    expect(s.context.error?.code).toBe(code);
    expect(s.context.tokenText).toBe(TOKEN);
  });

  it('a voucher with nothing left is said to be used up, on the phone', async () => {
    const t = start();
    t.actor.send({ type: 'user.token', text: TOKEN });
    t.actor.send({ type: 'user.lookup' });
    t.scans[0]!.resolve(redeemed);
    const s = await waitFor(t.actor, (x) => x.matches('idle'));
    expect(s.context.error).toEqual(check('VOUCHER_ALREADY_REDEEMED'));
    expect(s.context.voucher).toBeNull();
  });
});

describe('till mode: the camera', () => {
  it("'Skanna kund' starts scanning; a QR code with a token looks it up", () => {
    const { actor, scans } = start();
    actor.send({ type: 'user.scan' });
    expect(actor.getSnapshot().hasTag('scanning')).toBe(true);
    actor.send({ type: 'camera.found', text: `https://greetie.se/kassa/${TOKEN}` });
    expect(actor.getSnapshot().value).toBe('lookingUp');
    expect(actor.getSnapshot().context.tokenText).toBe(TOKEN);
    expect(scans.map((s) => s.input.token)).toEqual([TOKEN]);
  });

  it('a QR code that is not a voucher’s keeps scanning and says so', () => {
    const { actor, scans } = start();
    actor.send({ type: 'user.scan' });
    actor.send({ type: 'camera.found', text: 'https://example.com/menu' });
    expect(actor.getSnapshot().value).toBe('scanning');
    expect(actor.getSnapshot().context.error).toEqual(check('TOKEN_MALFORMED'));
    expect(scans).toHaveLength(0);
  });

  it.each(['denied', 'unavailable'] as const)('a camera %s goes back to the typed field and keeps why', (reason) => {
    const { actor } = start();
    actor.send({ type: 'user.scan' });
    actor.send({ type: 'camera.failed', reason });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context.camera).toBe(reason);
    // Trying the camera again forgets the old reason.
    actor.send({ type: 'user.scan' });
    expect(actor.getSnapshot().context.camera).toBeNull();
  });

  it("'Skriv koden i stället' stops the camera", () => {
    const { actor } = start();
    actor.send({ type: 'user.scan' });
    actor.send({ type: 'user.stopScan' });
    expect(actor.getSnapshot().value).toBe('idle');
  });
});

describe('till mode: redeeming', () => {
  it('a value voucher needs an amount: none, or one over the balance, is refused on the phone', async () => {
    const t = start();
    await found(t, value);
    t.actor.send({ type: 'user.redeem' });
    expect(t.actor.getSnapshot().context.error).toEqual(check('AMOUNT_REQUIRED'));
    t.actor.send({ type: 'user.amount', text: '400' });
    expect(t.actor.getSnapshot().context.amount).toEqual({ kind: 'refused', failure: check('AMOUNT_OVER_BALANCE') });
    t.actor.send({ type: 'user.redeem' });
    expect(t.actor.getSnapshot().context.error).toEqual(check('AMOUNT_OVER_BALANCE'));
    expect(t.redeems).toHaveLength(0);
  });

  it('redeems the amount with the token and a key, then Inlöst with the redemption', async () => {
    const t = start();
    const s = await redeemedValue(t);
    expect(t.redeems.map((r) => ({ ...r.input, idempotencyKey: typeof r.input.idempotencyKey }))).toEqual([
      { merchantId: MERCHANT, token: TOKEN, amount: 14900, idempotencyKey: 'string' },
    ]);
    expect(s.value).toEqual({ undoable: 'offered' });
    expect(s.context.redemption?.amount).toBe(14900);
    expect(s.context.voucher?.balance).toBe(20000);
  });

  it('a fixed voucher is redeemed whole (no amount)', async () => {
    const t = start();
    await found(t, instore);
    t.actor.send({ type: 'user.redeem' });
    expect(t.redeems[0]!.input.amount).toBeNull();
    t.redeems[0]!.resolve(redeemedNow(instore));
    await waitFor(t.actor, (s) => s.hasTag('redeemed'));
  });

  it('no answer keeps the attempt’s key: pressing again sends the same key; a refusal ends it', async () => {
    const t = start();
    await found(t, value);
    t.actor.send({ type: 'user.amount', text: '149' });
    t.actor.send({ type: 'user.redeem' });
    t.redeems[0]!.reject(failure(0, 'NETWORK'));
    await waitFor(t.actor, (s) => s.matches('found'));
    t.actor.send({ type: 'user.redeem' });
    expect(t.redeems[1]!.input.idempotencyKey).toBe(t.redeems[0]!.input.idempotencyKey);
    t.redeems[1]!.reject(failure(409, 'VOUCHER_BALANCE_TOO_LOW'));
    const s = await waitFor(t.actor, (x) => x.matches('found'));
    expect(s.context.error?.code).toBe('VOUCHER_BALANCE_TOO_LOW');
    t.actor.send({ type: 'user.redeem' });
    expect(t.redeems[2]!.input.idempotencyKey).not.toBe(t.redeems[0]!.input.idempotencyKey);
  });

  it('TOKEN_EXPIRED at redeem ends this voucher: back to scan, the field empty', async () => {
    const t = start();
    await found(t, instore);
    t.actor.send({ type: 'user.redeem' });
    t.redeems[0]!.reject(failure(410, 'TOKEN_EXPIRED'));
    const s = await waitFor(t.actor, (x) => x.matches('idle'));
    expect(s.context.error?.code).toBe('TOKEN_EXPIRED');
    expect(s.context.voucher).toBeNull();
    expect(s.context.tokenText).toBe('');
  });

  it("'Avbryt' on a found voucher starts over", async () => {
    const t = start();
    await found(t, value);
    t.actor.send({ type: 'user.cancel' });
    expect(t.actor.getSnapshot().value).toBe('idle');
    expect(t.actor.getSnapshot().context.voucher).toBeNull();
  });
});

describe('till mode: Ångra and Skanna nästa', () => {
  it("'Ångra' asks; 'Avbryt' keeps the purchase; 'Ja, ångra' undoes at the merchant", async () => {
    const t = start();
    await redeemedValue(t);
    t.actor.send({ type: 'user.undo' });
    expect(t.actor.getSnapshot().hasTag('undoAsk')).toBe(true);
    t.actor.send({ type: 'user.cancelUndo' });
    expect(t.actor.getSnapshot().hasTag('redeemed')).toBe(true);
    t.actor.send({ type: 'user.undo' });
    t.actor.send({ type: 'user.confirmUndo' });
    expect(t.actor.getSnapshot().hasTag('undoBusy')).toBe(true);
    expect(t.undos.map((u) => u.input)).toEqual([{ merchantId: MERCHANT, redemptionId: taken.redemptions[0]!.id }]);
    t.undos[0]!.resolve(undone(taken, taken.redemptions[0]!.id));
    const s = await waitFor(t.actor, (x) => x.matches('undone'));
    expect(s.context.voucher?.balance).toBe(34900);
    t.actor.send({ type: 'user.next' });
    expect(t.actor.getSnapshot().value).toBe('idle');
    expect(t.actor.getSnapshot().context.voucher).toBeNull();
  });

  it('no answer to the undo asks again; UNDO_TOO_LATE closes it', async () => {
    const t = start();
    await redeemedValue(t);
    t.actor.send({ type: 'user.undo' });
    t.actor.send({ type: 'user.confirmUndo' });
    t.undos[0]!.reject(failure(0, 'NETWORK'));
    await waitFor(t.actor, (s) => s.hasTag('undoAsk'));
    t.actor.send({ type: 'user.confirmUndo' });
    t.undos[1]!.reject(failure(409, 'UNDO_TOO_LATE'));
    const s = await waitFor(t.actor, (x) => x.matches('closed'));
    expect(s.context.error?.code).toBe('UNDO_TOO_LATE');
    t.actor.send({ type: 'user.next' });
    expect(t.actor.getSnapshot().value).toBe('idle');
  });

  it("after 10 minutes 'Ångra' is gone; 'Skanna nästa' from Inlöst starts over", async () => {
    vi.useFakeTimers();
    const t = start();
    await found(t, value);
    t.actor.send({ type: 'user.amount', text: '149' });
    t.actor.send({ type: 'user.redeem' });
    t.redeems[0]!.resolve(taken);
    await vi.waitFor(() => expect(t.actor.getSnapshot().hasTag('redeemed')).toBe(true));
    vi.advanceTimersByTime(UNDO_MINUTES * 60_000 - 2000);
    expect(t.actor.getSnapshot().hasTag('redeemed')).toBe(true);
    vi.advanceTimersByTime(2000);
    expect(t.actor.getSnapshot().value).toBe('closed');

    const u = start();
    await found(u, instore);
    u.actor.send({ type: 'user.redeem' });
    u.redeems[0]!.resolve(redeemedNow(instore));
    await vi.waitFor(() => expect(u.actor.getSnapshot().hasTag('redeemed')).toBe(true));
    u.actor.send({ type: 'user.next' });
    expect(u.actor.getSnapshot().value).toBe('idle');
  });
});
