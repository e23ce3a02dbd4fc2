import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { expect, vi } from 'vitest';
import { MERCHANT_CODE_PATTERN } from '../../../contract/merchant.ts';
import type { Failure } from '../../../contract/errors.ts';
import { UNDO_MINUTES } from '../../../contract/voucher.ts';
import type { RedeemContext } from '../../../machines/redeem.ts';
import type { ModelPath } from '../harness/model.ts';
import { value } from '../../fixtures/vouchers.ts';
import { installDomStubs, renderRoute, signedIn } from '../../client/shell/render.tsx';
import { defineUi } from '../harness/types.ts';

/**
 * The redeem machine as the till staff meet it: the till screen /redeem/voucher/{id} in the real
 * app, for a value voucher (349 kr). The server is fetch, stubbed at the edge: the voucher is there
 * at once; a redeem or an undo waits until the path says how the server answers (a 429 with
 * Retry-After, as the server sends it). The 10 minutes of 'Ångra' pass on fake timers.
 */
type Pending = { kind: 'redeem' | 'undo'; answer: (r: Response) => void };
let pending: Pending[] = [];

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const answer = async (kind: Pending['kind'], make: () => Response) => {
  await waitFor(() => expect(pending.some((p) => p.kind === kind)).toBe(true), { timeout: 5000 });
  const now = pending.filter((p) => p.kind === kind);
  pending = pending.filter((p) => p.kind !== kind);
  for (const p of now) p.answer(make());
};
const errorOf = (event: EventObject) => {
  const e = (event as EventObject & { error: { status: number; code: string; message: string } }).error;
  return json(e.status, { code: e.code, message: e.message }, e.status === 429 ? { 'retry-after': '600' } : {});
};
const ctx = (s: AnyMachineSnapshot) => s.context as RedeemContext;
const user = () => userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
/** Text as a person reads it: no-break spaces (in "349 kr") read as spaces. */
const text = (el: Element | null) => (el?.textContent ?? '').replace(/\s+/gu, ' ').trim();

/** The till's words for each refusal, by the Failure's code. */
const messages: Partial<Record<Failure['code'], RegExp>> = {
  AMOUNT_REQUIRED: /^Skriv beloppet att dra\.$/,
  AMOUNT_OVER_BALANCE: /^Högst 349 kr: det som finns kvar på gåvan\.$/,
  MERCHANT_CODE_REQUIRED: /^Skriv handlarkoden\.$/,
  MERCHANT_CODE_MALFORMED: /^En handlarkod har 4–16 bokstäver och siffror\.$/,
  MERCHANT_CODE_WRONG: /^Fel handlarkod\. Kontrollera koden och försök igen\.$/,
  VOUCHER_BALANCE_TOO_LOW: /^Det finns inte så mycket kvar på gåvan längre\. Kontrollera saldot och försök igen\.$/,
  VOUCHER_ALREADY_REDEEMED: /^Gåvan är redan inlöst\.$/,
  VOUCHER_EXPIRED: /^Gåvan har gått ut och kan inte lösas in\.$/,
  VOUCHER_LOCKED: /^För många felaktiga koder\. Försök igen kl\. \d\d:\d\d\.$/,
};
const AMOUNT_CODES = new Set<Failure['code']>(['AMOUNT_REQUIRED', 'AMOUNT_OVER_BALANCE', 'VOUCHER_BALANCE_TOO_LOW']);

/** The code the path types at its first 'Lös in' (the phone's own check decides what follows). */
const firstCode = (path: ModelPath) =>
  (path.events.find((e) => e.type === 'user.submit' && (e as EventObject & { merchantCode: string }).merchantCode.trim()) as (EventObject & { merchantCode: string }) | undefined)
    ?.merchantCode;

const codeField = () => screen.findByRole('textbox', { name: 'Handlarkod' }, { timeout: 5000 });

export default defineUi({
  skip(path) {
    // The page runs the machine's own check of the code, so what follows a code is the check's answer.
    const types = path.events.map((e) => e.type);
    const code = firstCode(path);
    const malformed = code !== undefined && !new RegExp(MERCHANT_CODE_PATTERN).test(code.trim());
    if (types.includes('xstate.error.actor.checkCode') && !malformed) return 'the page checks a well-formed code and sends it: its check never refuses that code';
    if (types.includes('xstate.done.actor.checkCode') && malformed) return 'the page refuses that code itself: its check never passes it';
    return undefined;
  },
  render() {
    pending = [];
    installDomStubs({ viewport: 'mobile' });
    vi.useFakeTimers({ shouldAdvanceTime: true });
    vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
      const path = new URL(String(input), 'http://localhost').pathname;
      if ((init?.method ?? 'GET') === 'GET' && path === `/api/voucher/${value.id}`) return Promise.resolve(json(200, value));
      if (path === '/api/voucher/redeem') return new Promise<Response>((resolve) => pending.push({ kind: 'redeem', answer: resolve }));
      if (path.endsWith('/undo')) return new Promise<Response>((resolve) => pending.push({ kind: 'undo', answer: resolve }));
      return Promise.resolve(json(404, { code: 'NOT_FOUND', message: 'Det du letar efter finns inte.' }));
    });
    renderRoute(`/redeem/voucher/${value.id}`, { session: signedIn({ id: 'u1' }) });
  },
  events: {
    'user.amount': async (_env, event: EventObject) => {
      const field = await screen.findByRole('textbox', { name: 'Belopp att dra' }, { timeout: 5000 });
      await user().clear(field);
      await user().type(field, (event as EventObject & { text: string }).text);
    },
    'user.submit': async (_env, event: EventObject) => {
      const code = (event as EventObject & { merchantCode: string }).merchantCode;
      const field = await codeField();
      await user().clear(field);
      if (code) await user().type(field, code);
      await user().click(screen.getByRole('button', { name: 'Lös in' }));
    },
    // The phone's own check settles at once on the page: nothing to do but let it.
    'xstate.done.actor.checkCode': () => {},
    'xstate.error.actor.checkCode': () => {},
    'xstate.done.actor.redeemVoucher': (_env, event) => answer('redeem', () => json(200, (event as EventObject & { output: unknown }).output)),
    'xstate.error.actor.redeemVoucher': (_env, event) => answer('redeem', () => errorOf(event)),
    'user.undo': async () => {
      await user().click(await screen.findByRole('button', { name: 'Ångra' }, { timeout: 5000 }));
    },
    'user.cancelUndo': async () => {
      await user().click(screen.getByRole('button', { name: 'Avbryt' }));
    },
    'user.confirmUndo': async (_env, event: EventObject) => {
      const code = (event as EventObject & { merchantCode: string }).merchantCode;
      const field = await codeField();
      await user().clear(field);
      if (code) await user().type(field, code);
      await user().click(screen.getByRole('button', { name: 'Ångra köpet' }));
    },
    'xstate.done.actor.undoRedemption': (_env, event) => answer('undo', () => json(200, (event as EventObject & { output: unknown }).output)),
    'xstate.error.actor.undoRedemption': (_env, event) => answer('undo', () => errorOf(event)),
    // The 10 minutes pass.
    'xstate.after.undoWindow.redeem.undoable': () => {
      act(() => {
        vi.advanceTimersByTime(UNDO_MINUTES * 60_000);
      });
    },
    'user.again': async () => {
      await user().click(screen.getByRole('button', { name: 'Lös in på nytt' }));
    },
  },
  states: {
    idle: async (_env, s) => {
      const button = await screen.findByRole('button', { name: 'Lös in' }, { timeout: 5000 });
      expect(button).toBeEnabled();
      const c = ctx(s);
      const amount = screen.getByRole('textbox', { name: 'Belopp att dra' });
      expect(amount).toHaveAttribute('inputmode', 'decimal');
      // What stays on the voucher, at once; or what is wrong with the amount.
      const line = text(screen.getByTestId('amount-line'));
      if (c.amount.kind === 'ok') expect(line).toBe(`Kvar efter köpet: ${(c.voucher.balance - c.amount.ore) / 100} kr`);
      else if (c.amount.kind === 'refused' && !c.error) expect(line).toMatch(messages[c.amount.failure.code]!);
      else expect(line).toBe(`Saldo: ${c.voucher.balance / 100} kr`);
      const error = c.error;
      if (error) {
        const alert = await screen.findByRole('alert');
        expect(text(alert)).toMatch(messages[error.code]!);
        const field = AMOUNT_CODES.has(error.code) ? amount : screen.getByRole('textbox', { name: 'Handlarkod' });
        expect(field).toHaveAttribute('aria-invalid', 'true');
      } else {
        expect(screen.queryByRole('alert')).not.toBeInTheDocument();
      }
    },
    // The check settles within the same tick: the staff see the button busy, or the code refused.
    validating: async () => {
      await waitFor(() => {
        const busy = screen.queryByRole('button', { name: 'Löser in…' });
        const refused = screen.queryByRole('alert');
        expect(busy?.hasAttribute('disabled') || refused?.textContent === 'En handlarkod har 4–16 bokstäver och siffror.').toBe(true);
      });
    },
    submitting: async () => {
      expect(await screen.findByRole('button', { name: 'Löser in…' })).toBeDisabled();
    },
    'undoable.offered': async () => {
      expect(await screen.findByRole('heading', { level: 1, name: 'Inlöst' }, { timeout: 5000 })).toBeInTheDocument();
      expect(text(screen.getByTestId('redeemed-amounts'))).toBe('149 kr draget · 200 kr kvar');
      expect(screen.getByTestId('live-clock').textContent).toMatch(/^\d\d:\d\d:\d\d$/);
      expect(screen.getByText(/^Du kan ångra köpet till kl\. \d\d:\d\d\.$/)).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Ångra' })).toBeEnabled();
      expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    },
    'undoable.asking': async (_env, s) => {
      expect(await screen.findByRole('button', { name: 'Ångra köpet' }, { timeout: 5000 })).toBeEnabled();
      expect(screen.getByRole('heading', { level: 1, name: 'Inlöst' })).toBeInTheDocument();
      const field = screen.getByRole('textbox', { name: 'Handlarkod' });
      const error = ctx(s).error;
      if (error) {
        const alert = await screen.findByRole('alert');
        expect(text(alert)).toMatch(messages[error.code]!);
        expect(field).toHaveAttribute('aria-invalid', 'true');
      } else {
        expect(screen.queryByRole('alert')).not.toBeInTheDocument();
      }
    },
    undoing: async () => {
      expect(await screen.findByRole('button', { name: 'Ångrar…' })).toBeDisabled();
    },
    undone: async () => {
      expect(await screen.findByRole('heading', { level: 1, name: 'Ångrat' }, { timeout: 5000 })).toBeInTheDocument();
      expect(text(screen.getByTestId('undone-amounts'))).toBe('149 kr är tillbaka på gåvan · 349 kr kvar');
      expect(screen.getByRole('button', { name: 'Lös in på nytt' })).toBeEnabled();
    },
    closed: async (_env, s) => {
      expect(await screen.findByRole('heading', { level: 1, name: 'Inlöst' }, { timeout: 5000 })).toBeInTheDocument();
      expect(text(screen.getByTestId('redeemed-amounts'))).toBe('149 kr draget · 200 kr kvar');
      await waitFor(() => expect(screen.queryByRole('button', { name: /^Ångra/ })).not.toBeInTheDocument());
      expect(text(screen.getByTestId('undo-over'))).toBe(
        ctx(s).error?.code === 'ALREADY_UNDONE' ? 'Köpet är redan ångrat.' : 'Det går inte längre att ångra köpet: det går bara inom 10 minuter.',
      );
    },
  },
  cleanup: () => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  },
});
