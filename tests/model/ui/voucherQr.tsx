import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { expect, vi } from 'vitest';
import { QR_REFRESH_MS, type VoucherQrContext } from '../../../machines/voucherQr.ts';
import { instore } from '../../fixtures/vouchers.ts';
import { installDomStubs, renderRoute, signedIn } from '../../client/shell/render.tsx';
import { defineUi } from '../harness/types.ts';

/**
 * The QR on an in-store voucher's page (/voucher/{id}; the page runs its own machine with the real
 * API call). The server is fetch, stubbed at the edge: the voucher answers at once; each GET
 * …/qr waits until the path says how the server answers. The 100 s wait runs on fake timers; the
 * page becoming visible again is the document's own `visibilitychange`.
 */
type Pending = { answer: (r: Response) => void };
let pending: Pending[] = [];

const QR = `/api/voucher/${instore.id}/qr`;
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const answered = async (make: () => Response) => {
  await waitFor(() => expect(pending.length).toBeGreaterThan(0), { timeout: 5000 });
  const now = pending;
  pending = [];
  for (const p of now) p.answer(make());
};
const outputOf = (event: EventObject) => (event as EventObject & { output: unknown }).output;
const errorOf = (event: EventObject) => {
  const e = (event as EventObject & { error: { status: number; code: string; message: string } }).error;
  return json(e.status, { code: e.code, message: e.message });
};
const ctx = (s: AnyMachineSnapshot) => s.context as VoucherQrContext;
const user = () => userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
const spaced = (token: string) => `${token.slice(0, 5)} ${token.slice(5)}`;

/** The token on screen (the one in the machine), and whether the QR says it is being renewed. */
const showsToken = (busy: boolean) => async (_env: unknown, s: AnyMachineSnapshot) => {
  const token = ctx(s).qr!.token;
  await waitFor(() => expect(screen.getByTestId('voucher-qr-token')).toHaveTextContent(spaced(token)), { timeout: 5000 });
  expect(await screen.findByRole('img', { name: 'QR-kod för kassan' }, { timeout: 5000 })).toBeInTheDocument();
  expect(screen.getByTestId('voucher-qr-token').closest('figure')).toHaveAttribute('aria-busy', String(busy));
  expect(screen.queryByRole('button', { name: 'Visa QR-koden igen' })).not.toBeInTheDocument();
};

export default defineUi({
  render() {
    pending = [];
    installDomStubs({ viewport: 'mobile' });
    vi.useFakeTimers({ shouldAdvanceTime: true });
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' });
    vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
      const url = new URL(String(input), 'http://app').pathname;
      const method = init?.method ?? 'GET';
      if (method === 'GET' && url === QR) return new Promise<Response>((resolve) => pending.push({ answer: resolve }));
      if (url === `/api/voucher/${instore.id}`) return Promise.resolve(json(200, instore));
      if (url === '/api/voucher') return Promise.resolve(json(200, [instore]));
      return Promise.resolve(json(404, { message: 'Finns inte.', code: 'NOT_FOUND' }));
    });
    renderRoute(`/voucher/${instore.id}`, { session: signedIn({ id: 'u1', name: 'Anna Andersson' }) });
  },
  events: {
    'user.retry': async () => {
      await user().click(await screen.findByRole('button', { name: 'Visa QR-koden igen' }));
    },
    'page.visible': () =>
      act(() => {
        document.dispatchEvent(new Event('visibilitychange'));
      }),
    'xstate.after.refreshDelay.voucherQr.showing': () =>
      act(() => {
        vi.advanceTimersByTime(QR_REFRESH_MS);
      }),
    'xstate.done.actor.fetchQr': (_env, event) => answered(() => json(200, outputOf(event))),
    'xstate.error.actor.fetchQr': (_env, event) => answered(() => errorOf(event)),
    'xstate.done.actor.refreshQr': (_env, event) => answered(() => json(200, outputOf(event))),
    'xstate.error.actor.refreshQr': (_env, event) => answered(() => errorOf(event)),
  },
  states: {
    loading: async () => {
      expect(await screen.findByText('Hämtar QR-koden…', undefined, { timeout: 5000 })).toHaveAttribute('role', 'status');
      expect(screen.queryByTestId('voucher-qr-token')).not.toBeInTheDocument();
    },
    showing: showsToken(false),
    refreshing: showsToken(true),
    failed: async (_env, s) => {
      const status = await screen.findByText(`Det gick inte att visa QR-koden. ${ctx(s).error!.message}`, undefined, { timeout: 5000 });
      expect(status).toHaveAttribute('role', 'status');
      expect(screen.getByRole('button', { name: 'Visa QR-koden igen' })).toBeEnabled();
      expect(screen.queryByTestId('voucher-qr-token')).not.toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Lös in i butiken' })).toBeInTheDocument();
    },
  },
  cleanup: () => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  },
});
