import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { expect, vi } from 'vitest';
import { UNDO_MINUTES } from '../../../contract/voucher.ts';
import type { TillModeContext } from '../../../machines/tillMode.ts';
import { installDomStubs, renderRoute, signedIn } from '../../client/shell/render.tsx';
import { installFakeCamera } from '../../fixtures/camera.ts';
import { MERCHANT } from '../hooks/tillMode.ts';
import { defineUi } from '../harness/types.ts';

/**
 * Till mode as the staff meet it: /portal/{merchantId}/kassa in the real app, on a phone. The
 * server is fetch, stubbed at the edge: a scan, a redeem or an undo waits until the path says how
 * the server answers. The camera is the browser's, faked at getUserMedia and BarcodeDetector
 * (tests/fixtures/camera.ts). The 10 minutes of 'Ångra' pass on fake timers.
 */
type Kind = 'scan' | 'redeem' | 'undo';
let pending: Array<{ kind: Kind; answer: (r: Response) => void }> = [];
let camera: ReturnType<typeof installFakeCamera> | null = null;

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const answer = async (kind: Kind, make: () => Response) => {
  await waitFor(() => expect(pending.some((p) => p.kind === kind)).toBe(true), { timeout: 5000 });
  const now = pending.filter((p) => p.kind === kind);
  pending = pending.filter((p) => p.kind !== kind);
  for (const p of now) p.answer(make());
};
const errorOf = (event: EventObject) => {
  const e = (event as EventObject & { error: { status: number; code: string; message: string } }).error;
  return json(e.status, { code: e.code, message: e.message });
};
const ctx = (s: AnyMachineSnapshot) => s.context as TillModeContext;
const user = () => userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
const text = (el: Element | null) => (el?.textContent ?? '').replace(/\s+/gu, ' ').trim();
const click = async (name: string | RegExp) => user().click(await screen.findByRole('button', { name }, { timeout: 5000 }));
const kr = (ore: number) => `${ore / 100} kr`;

/** Till mode's words for each refusal, by the Failure's code. */
const messages: Record<string, RegExp> = {
  TOKEN_REQUIRED: /^Skriv koden som står under kundens QR-kod\.$/,
  TOKEN_MALFORMED: /^Koden har 10 tecken: bokstäver A–Z och siffror 2–9\.$/,
  TOKEN_EXPIRED: /^Koden har gått ut – be kunden visa en ny\.$/,
  VOUCHER_ALREADY_REDEEMED: /^Gåvan är redan helt använd\.$/,
  AMOUNT_REQUIRED: /^Skriv beloppet att dra\.$/,
  AMOUNT_OVER_BALANCE: /^Högst 349 kr: det som finns kvar på gåvan\.$/,
  VOUCHER_BALANCE_TOO_LOW: /^Det finns inte så mycket kvar på gåvan längre\. Kontrollera saldot och försök igen\.$/,
  REDEMPTION_NOT_FOUND: /^Det gick inte\. Inlösen finns inte\.$/,
};

export default defineUi({
  render() {
    pending = [];
    installDomStubs({ viewport: 'mobile' });
    camera = installFakeCamera();
    vi.useFakeTimers({ shouldAdvanceTime: true });
    vi.spyOn(globalThis, 'fetch').mockImplementation((input) => {
      const path = new URL(String(input), 'http://localhost').pathname;
      const kind: Kind | null = path.endsWith('/scan') ? 'scan' : path.endsWith('/redeem') ? 'redeem' : path.endsWith('/undo') ? 'undo' : null;
      if (kind) return new Promise<Response>((resolve) => pending.push({ kind, answer: resolve }));
      return Promise.resolve(json(404, { code: 'NOT_FOUND', message: 'Det du letar efter finns inte.' }));
    });
    renderRoute(`/portal/${MERCHANT}/kassa`, { session: signedIn({ id: 'u1' }) });
  },
  events: {
    'user.token': async (_env, event) => {
      const field = await screen.findByRole('textbox', { name: 'Koden under QR-koden' }, { timeout: 5000 });
      await user().clear(field);
      await user().type(field, (event as EventObject & { text: string }).text);
    },
    'user.lookup': () => click('Hämta gåvan'),
    'user.scan': () => click('Skanna kund'),
    'user.stopScan': () => click('Skriv koden i stället'),
    'camera.found': async (_env, event) => {
      await waitFor(() => expect(camera!.getUserMedia).toHaveBeenCalled());
      act(() => camera!.show((event as EventObject & { text: string }).text));
    },
    'camera.failed': async () => {
      await waitFor(() => expect(camera!.getUserMedia).toHaveBeenCalled());
      act(() => camera!.refuse('NotAllowedError'));
    },
    'user.amount': async (_env, event) => {
      const field = await screen.findByRole('textbox', { name: 'Belopp att dra' }, { timeout: 5000 });
      await user().clear(field);
      await user().type(field, (event as EventObject & { text: string }).text);
    },
    'user.redeem': () => click('Lös in'),
    'user.cancel': () => click('Avbryt'),
    'user.undo': () => click('Ångra'),
    'user.cancelUndo': () => click('Avbryt'),
    'user.confirmUndo': () => click('Ja, ångra köpet'),
    'user.next': () => click('Skanna nästa'),
    'xstate.done.actor.scanToken': (_env, event) => answer('scan', () => json(200, (event as EventObject & { output: unknown }).output)),
    'xstate.error.actor.scanToken': (_env, event) => answer('scan', () => errorOf(event)),
    'xstate.done.actor.redeemToken': (_env, event) => answer('redeem', () => json(200, (event as EventObject & { output: unknown }).output)),
    'xstate.error.actor.redeemToken': (_env, event) => answer('redeem', () => errorOf(event)),
    'xstate.done.actor.undoRedemption': (_env, event) => answer('undo', () => json(200, (event as EventObject & { output: unknown }).output)),
    'xstate.error.actor.undoRedemption': (_env, event) => answer('undo', () => errorOf(event)),
    'xstate.after.undoWindow.tillMode.undoable': () => {
      act(() => {
        vi.advanceTimersByTime(UNDO_MINUTES * 60_000);
      });
    },
  },
  states: {
    idle: async (_env, s) => {
      expect(await screen.findByRole('button', { name: 'Skanna kund' }, { timeout: 5000 })).toBeEnabled();
      const field = screen.getByRole('textbox', { name: 'Koden under QR-koden' });
      expect(field).toHaveValue(ctx(s).tokenText);
      const c = ctx(s);
      if (c.camera) expect(text(screen.getByTestId('camera-problem'))).toMatch(/^Kameran får inte användas\./);
      else expect(screen.queryByTestId('camera-problem')).not.toBeInTheDocument();
      if (c.error) {
        expect(text(await screen.findByRole('alert'))).toMatch(messages[c.error.code]!);
        expect(field).toHaveAttribute('aria-invalid', 'true');
      } else {
        expect(screen.queryByRole('alert')).not.toBeInTheDocument();
      }
    },
    scanning: async (_env, s) => {
      expect(await screen.findByTestId('scanner-video', {}, { timeout: 5000 })).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Skriv koden i stället' })).toBeEnabled();
      // The typed field stays there.
      expect(screen.getByRole('textbox', { name: 'Koden under QR-koden' })).toBeInTheDocument();
      if (ctx(s).error) expect(text(await screen.findByRole('alert'))).toBe('Det där är inte en QR-kod från en gåva. Be kunden visa gåvans QR-kod.');
    },
    lookingUp: async () => {
      expect(await screen.findByRole('button', { name: 'Hämtar gåvan…' }, { timeout: 5000 })).toBeDisabled();
    },
    found: async (_env, s) => {
      const c = ctx(s);
      expect(await screen.findByRole('heading', { level: 1, name: c.voucher!.product.name }, { timeout: 5000 })).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Lös in' })).toBeEnabled();
      const line = text(screen.getByTestId('amount-line'));
      if (c.amount.kind === 'ok') expect(line).toBe(`Kvar efter köpet: ${kr(c.voucher!.balance - c.amount.ore)}`);
      else if (c.amount.kind === 'refused' && !c.error) expect(line).toMatch(messages[c.amount.failure.code]!);
      else expect(line).toBe(`Saldo: ${kr(c.voucher!.balance)}`);
      if (c.error) expect(text(await screen.findByRole('alert'))).toMatch(messages[c.error.code]!);
      else expect(screen.queryByRole('alert')).not.toBeInTheDocument();
      expect(text(screen.getByTestId('till-announce'))).toBe(`Gåvan hittades: ${c.voucher!.product.name}, ${kr(c.voucher!.balance)} att använda.`);
    },
    redeeming: async () => {
      expect(await screen.findByRole('button', { name: 'Löser in…' }, { timeout: 5000 })).toBeDisabled();
    },
    'undoable.offered': async () => {
      expect(await screen.findByRole('heading', { level: 1, name: 'Inlöst' }, { timeout: 5000 })).toBeInTheDocument();
      expect(text(screen.getByTestId('redeemed-amounts'))).toBe('149 kr draget · 200 kr kvar');
      expect(screen.getByTestId('live-clock').textContent).toMatch(/^\d\d:\d\d:\d\d$/);
      expect(screen.getByRole('button', { name: 'Ångra' })).toBeEnabled();
      expect(screen.getByRole('button', { name: 'Skanna nästa' })).toBeEnabled();
      expect(text(screen.getByTestId('till-announce'))).toBe('Inlöst: 149 kr draget, 200 kr kvar.');
    },
    'undoable.asking': async (_env, s) => {
      expect(await screen.findByRole('button', { name: 'Ja, ångra köpet' }, { timeout: 5000 })).toBeEnabled();
      expect(screen.getByText('Vill du ångra köpet? 149 kr läggs tillbaka på gåvan.')).toBeInTheDocument();
      const error = ctx(s).error;
      if (error) expect(text(await screen.findByRole('alert'))).toMatch(messages[error.code]!);
      else expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    },
    undoing: async () => {
      expect(await screen.findByRole('button', { name: 'Ångrar…' }, { timeout: 5000 })).toBeDisabled();
    },
    undone: async () => {
      expect(await screen.findByRole('heading', { level: 1, name: 'Ångrat' }, { timeout: 5000 })).toBeInTheDocument();
      expect(text(screen.getByTestId('undone-amounts'))).toBe('149 kr är tillbaka på gåvan · 349 kr kvar');
      expect(screen.getByRole('button', { name: 'Skanna nästa' })).toBeEnabled();
    },
    closed: async (_env, s) => {
      expect(await screen.findByRole('heading', { level: 1, name: 'Inlöst' }, { timeout: 5000 })).toBeInTheDocument();
      await waitFor(() => expect(screen.queryByRole('button', { name: /^Ångra/ })).not.toBeInTheDocument());
      expect(text(screen.getByTestId('undo-over'))).toBe(
        ctx(s).error?.code === 'ALREADY_UNDONE' ? 'Köpet är redan ångrat.' : 'Det går inte längre att ångra köpet: det går bara inom 10 minuter.',
      );
    },
  },
  cleanup: () => {
    camera?.uninstall();
    camera = null;
    vi.useRealTimers();
    vi.restoreAllMocks();
  },
});
