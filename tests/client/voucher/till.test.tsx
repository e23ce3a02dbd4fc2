import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, configure, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { installDomStubs, renderRoute, signedIn } from '../shell/render.tsx';
import { all, ids, value } from '../../fixtures/vouchers.ts';
import { fakeVoucherServer, json, MERCHANT_CODE } from './server.ts';

/**
 * The till for a value voucher (issue 25): the amount in kronor with the balance left shown at
 * once, the Idempotency-Key of each attempt, "Inlöst" with what was taken and what is left, and
 * 'Ångra' with the merchant code for 10 minutes. Through the real route table, the app's voucher
 * store and the redeem machine; fetch answers like the API.
 */

vi.setConfig({ testTimeout: 20_000 });
configure({ asyncUtilTimeout: 8_000 });

let server: ReturnType<typeof fakeVoucherServer>;
beforeEach(() => {
  installDomStubs({ viewport: 'mobile' });
  server = fakeVoucherServer([...all, value]);
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const session = signedIn({ id: 'u1', name: 'Anna Andersson' });
const redeems = () => server.calls.filter((c) => c.path === '/api/voucher/redeem');
const undos = () => server.calls.filter((c) => c.path.endsWith('/undo'));
/** Text as a person reads it: the no-break spaces of "349 kr" read as spaces. */
const read = (el: Element | null) => (el?.textContent ?? '').replace(/\s+/gu, ' ').trim();

async function openTill(id: string = ids.value) {
  const r = renderRoute(`/redeem/voucher/${id}`, { session });
  await screen.findByRole('heading', { level: 1, name: id === ids.value ? 'Presentkort Kanelbullen' : 'Fika för två' });
  return r;
}

async function redeem149(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByRole('textbox', { name: 'Belopp att dra' }), '149');
  await user.type(screen.getByRole('textbox', { name: 'Handlarkod' }), MERCHANT_CODE);
  await user.click(screen.getByRole('button', { name: 'Lös in' }));
  await screen.findByRole('heading', { level: 1, name: 'Inlöst' });
}

describe('the till: a value voucher', () => {
  it('asks for the amount on the decimal keypad first, and shows at once what stays on the voucher', async () => {
    const { user } = await openTill();
    const amount = screen.getByRole('textbox', { name: 'Belopp att dra' });
    expect(amount).toHaveAttribute('inputmode', 'decimal');
    // The amount comes before the code.
    expect(amount.compareDocumentPosition(screen.getByRole('textbox', { name: 'Handlarkod' })) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    const line = screen.getByTestId('amount-line');
    expect(read(line)).toBe('Saldo: 349 kr');
    await user.type(amount, '149');
    expect(read(line)).toBe('Kvar efter köpet: 200 kr');
    await user.clear(amount);
    await user.type(amount, '150,50');
    expect(read(line)).toBe('Kvar efter köpet: 198,50 kr');
    await user.clear(amount);
    await user.type(amount, '400');
    expect(read(line)).toBe('Högst 349 kr: det som finns kvar på gåvan.');
    expect(amount).toHaveAttribute('aria-invalid', 'true');
  });

  it.each([
    ['', 'Skriv beloppet att dra.'],
    ['0', 'Beloppet måste vara mer än 0 kr.'],
    ['12,345', 'Skriv beloppet i kronor, till exempel 150 eller 150,50.'],
    ['400', 'Högst 349 kr: det som finns kvar på gåvan.'],
  ])('%j is refused inline, under the amount, and nothing is sent', async (typed, message) => {
    const { user } = await openTill();
    const amount = screen.getByRole('textbox', { name: 'Belopp att dra' });
    if (typed) await user.type(amount, typed);
    await user.type(screen.getByRole('textbox', { name: 'Handlarkod' }), MERCHANT_CODE);
    await user.click(screen.getByRole('button', { name: 'Lös in' }));
    expect(read(await screen.findByRole('alert'))).toBe(message);
    expect(amount).toHaveAttribute('aria-invalid', 'true');
    await waitFor(() => expect(amount).toHaveFocus());
    expect(redeems()).toEqual([]);
  });

  it('sends the amount in öre with an Idempotency-Key; "Inlöst" says what was taken and what is left', async () => {
    const { user } = await openTill();
    await redeem149(user);
    expect(redeems().map((c) => c.body)).toEqual([{ voucherId: ids.value, merchantCode: MERCHANT_CODE, amount: 14900 }]);
    expect(redeems()[0]!.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(read(screen.getByTestId('redeemed-amounts'))).toBe('149 kr draget · 200 kr kvar');
    expect(screen.getByText(/^Du kan ångra köpet till kl\. \d\d:\d\d\.$/)).toBeInTheDocument();
  });

  it('no answer, then Lös in again: the same Idempotency-Key, so the server cannot take twice', async () => {
    let first = true;
    server.answer('POST /api/voucher/redeem', () => {
      if (first) {
        first = false;
        throw new TypeError('Failed to fetch');
      }
      return json(200, { ...value, balance: 20000, redemptions: [{ id: '4d4d4d4d-0000-4000-8000-0000000000aa', amount: 14900, redeemedAt: new Date().toISOString(), via: 'code', undone: false }] });
    });
    const { user } = await openTill();
    await user.type(screen.getByRole('textbox', { name: 'Belopp att dra' }), '149');
    await user.type(screen.getByRole('textbox', { name: 'Handlarkod' }), MERCHANT_CODE);
    await user.click(screen.getByRole('button', { name: 'Lös in' }));
    expect(read(await screen.findByRole('alert'))).toBe("Vi fick inget svar. Tryck 'Lös in' igen: inget dras två gånger.");
    await user.click(screen.getByRole('button', { name: 'Lös in' }));
    await screen.findByRole('heading', { level: 1, name: 'Inlöst' });
    const keys = redeems().map((c) => c.headers['idempotency-key']);
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
  });

  it('a refusal ends the attempt: the next Lös in has a new key', async () => {
    const { user } = await openTill();
    await user.type(screen.getByRole('textbox', { name: 'Belopp att dra' }), '149');
    await user.type(screen.getByRole('textbox', { name: 'Handlarkod' }), 'FEL123');
    await user.click(screen.getByRole('button', { name: 'Lös in' }));
    expect(read(await screen.findByRole('alert'))).toBe('Fel handlarkod. Kontrollera koden och försök igen.');
    await user.clear(screen.getByRole('textbox', { name: 'Handlarkod' }));
    await user.type(screen.getByRole('textbox', { name: 'Handlarkod' }), MERCHANT_CODE);
    await user.click(screen.getByRole('button', { name: 'Lös in' }));
    await screen.findByRole('heading', { level: 1, name: 'Inlöst' });
    const keys = redeems().map((c) => c.headers['idempotency-key']);
    expect(new Set(keys).size).toBe(2);
  });

  it("the server says the balance is too low (it changed meanwhile): said under the amount", async () => {
    server.answer('POST /api/voucher/redeem', () => json(409, { code: 'VOUCHER_BALANCE_TOO_LOW', message: 'Saldot räcker inte.' }));
    const { user } = await openTill();
    await user.type(screen.getByRole('textbox', { name: 'Belopp att dra' }), '149');
    await user.type(screen.getByRole('textbox', { name: 'Handlarkod' }), MERCHANT_CODE);
    await user.click(screen.getByRole('button', { name: 'Lös in' }));
    expect(read(await screen.findByRole('alert'))).toBe('Det finns inte så mycket kvar på gåvan längre. Kontrollera saldot och försök igen.');
    expect(screen.getByRole('textbox', { name: 'Belopp att dra' })).toHaveAttribute('aria-invalid', 'true');
  });

  it("'Ångra': the merchant code again, the amount back, the balance shown; then the till can start again", async () => {
    const { user, navigate } = await openTill();
    await redeem149(user);
    await user.click(screen.getByRole('button', { name: 'Ångra' }));
    const field = await screen.findByRole('textbox', { name: 'Handlarkod' });
    await waitFor(() => expect(field).toHaveFocus());
    await user.type(field, 'FEL123');
    await user.click(screen.getByRole('button', { name: 'Ångra köpet' }));
    expect(read(await screen.findByRole('alert'))).toBe('Fel handlarkod. Kontrollera koden och försök igen.');
    await user.clear(field);
    await user.type(field, MERCHANT_CODE.toLowerCase());
    await user.click(screen.getByRole('button', { name: 'Ångra köpet' }));
    await screen.findByRole('heading', { level: 1, name: 'Ångrat' });
    expect(read(screen.getByTestId('undone-amounts'))).toBe('149 kr är tillbaka på gåvan · 349 kr kvar');
    const redemptionId = undos()[0]!.path.split('/')[5];
    expect(undos().map((c) => [c.path, c.body])).toEqual([
      [`/api/voucher/${ids.value}/redemptions/${redemptionId}/undo`, { merchantCode: 'FEL123' }],
      [`/api/voucher/${ids.value}/redemptions/${redemptionId}/undo`, { merchantCode: MERCHANT_CODE.toLowerCase() }],
    ]);
    await user.click(screen.getByRole('button', { name: 'Lös in på nytt' }));
    expect(read(await screen.findByTestId('amount-line'))).toBe('Saldo: 349 kr');
    // The voucher's page shows the balance back, from the store.
    await navigate(`/voucher/${ids.value}`);
    await screen.findByRole('heading', { level: 1, name: 'Presentkort Kanelbullen' });
  });

  it('after 10 minutes Ångra is gone and the till says so plainly', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await openTill(ids.value);
    await redeem149(userEvent.setup({ advanceTimers: vi.advanceTimersByTime }));
    expect(screen.getByRole('button', { name: 'Ångra' })).toBeEnabled();
    act(() => {
      vi.advanceTimersByTime(10 * 60_000 + 1000);
    });
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Ångra' })).not.toBeInTheDocument());
    expect(read(screen.getByTestId('undo-over'))).toBe('Det går inte längre att ångra köpet: det går bara inom 10 minuter.');
    expect(read(screen.getByTestId('redeemed-amounts'))).toBe('149 kr draget · 200 kr kvar');
  });

  it.each([
    ['UNDO_TOO_LATE', 'Det går inte längre att ångra köpet: det går bara inom 10 minuter.'],
    ['ALREADY_UNDONE', 'Köpet är redan ångrat.'],
  ])('the server says %s: no more Ångra, and why', async (code, text) => {
    const { user } = await openTill();
    await redeem149(user);
    await user.click(screen.getByRole('button', { name: 'Ångra' }));
    await user.type(await screen.findByRole('textbox', { name: 'Handlarkod' }), MERCHANT_CODE);
    // The server's answer to the undo.
    vi.mocked(globalThis.fetch).mockImplementationOnce(async () => json(409, { code, message: 'Serverns text' }));
    await user.click(screen.getByRole('button', { name: 'Ångra köpet' }));
    expect(read(await screen.findByTestId('undo-over'))).toBe(text);
    expect(screen.queryByRole('button', { name: /^Ångra/ })).not.toBeInTheDocument();
  });
});

describe('the till: no answer to the undo', () => {
  it("says so in the undo's own words; pressing 'Ångra köpet' again undoes it", async () => {
    server = fakeVoucherServer([...all, value]);
    const { user } = await openTill();
    await redeem149(user);
    await user.click(screen.getByRole('button', { name: 'Ångra' }));
    await user.type(await screen.findByRole('textbox', { name: 'Handlarkod' }), MERCHANT_CODE);
    vi.mocked(globalThis.fetch).mockImplementationOnce(async () => {
      throw new TypeError('Failed to fetch');
    });
    await user.click(screen.getByRole('button', { name: 'Ångra köpet' }));
    expect(read(await screen.findByRole('alert'))).toBe("Vi fick inget svar. Tryck 'Ångra köpet' igen: beloppet läggs bara tillbaka en gång.");
    await user.click(screen.getByRole('button', { name: 'Ångra köpet' }));
    await screen.findByRole('heading', { level: 1, name: 'Ångrat' });
  });
});

describe('the till: a fixed voucher', () => {
  it('asks for no amount and sends none: used whole; Ångra is offered too', async () => {
    const { user } = await openTill(ids.instore);
    expect(screen.queryByRole('textbox', { name: 'Belopp att dra' })).not.toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Handlarkod' }), MERCHANT_CODE);
    await user.click(screen.getByRole('button', { name: 'Lös in' }));
    await screen.findByRole('heading', { level: 1, name: 'Inlöst' });
    expect(redeems().map((c) => c.body)).toEqual([{ voucherId: ids.instore, merchantCode: MERCHANT_CODE }]);
    expect(read(screen.getByTestId('redeemed-amounts'))).toBe('149 kr draget · 0 kr kvar');
    expect(screen.getByRole('button', { name: 'Ångra' })).toBeEnabled();
  });
});
