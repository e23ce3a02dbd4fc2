import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { expect, vi } from 'vitest';
import { REFUND_PATIENCE_MS, REFUND_POLL_MS, type RefundContext } from '../../../machines/refund.ts';
import { installDomStubs, renderRoute, signedIn } from '../../client/shell/render.tsx';
import { defineUi } from '../harness/types.ts';
import { cancelled } from '../hooks/refund.ts';

/**
 * The refund as its sender follows it on /greetie/details/{id} of a cancelled, paid greetie (the
 * page runs its own machine with the real API call). The server is fetch, stubbed at the edge: the
 * greetie answers at once; each GET …/payment waits until the path says how the server answers
 * (the payment panel reads it once too, and gets the same answer). The waits run on fake timers.
 */
type Pending = { answer: (r: Response) => void };
let pending: Pending[] = [];

const PAYMENT = `/api/greetie/${cancelled.id}/payment`;
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
/** Answers every read of the payment still open (the refund's, and the payment panel's first). */
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
const ctx = (s: AnyMachineSnapshot) => s.context as RefundContext;
const user = () => userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
const advance = (ms: number) =>
  act(() => {
    vi.advanceTimersByTime(ms);
  });

const TEXT = {
  loading: 'Vi kollar hur det går med återbetalningen…',
  pending: 'Pengarna (349 kr) är på väg tillbaka till ditt Swish-konto.',
  slow: 'Pengarna (349 kr) är fortfarande på väg tillbaka till ditt Swish-konto. Ibland tar det längre tid; du behöver inte göra något.',
  paid: '349 kr är tillbaka på ditt Swish-konto.',
  failed:
    'Återbetalningen av 349 kr har inte gått igenom än. Vi försöker igen automatiskt med samma återbetalning, så pengarna betalas aldrig ut två gånger. Du behöver inte göra något.',
  loadFailed: /^Vi kunde inte kolla hur det går med återbetalningen\./,
} as const;

/** The refund's status, announced; 'Kolla igen' only where the machine takes it. */
const shows = (text: string, check: boolean) => async () => {
  const status = await screen.findByText(text, undefined, { timeout: 5000 });
  expect(status).toHaveAttribute('role', 'status');
  const notice = status.parentElement!;
  if (check) expect(within(notice).getByRole('button', { name: 'Kolla igen' })).toBeEnabled();
  else expect(within(notice).queryByRole('button')).not.toBeInTheDocument();
};

export default defineUi({
  render() {
    pending = [];
    installDomStubs({ viewport: 'mobile' });
    vi.useFakeTimers({ shouldAdvanceTime: true });
    vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
      const url = new URL(String(input), 'http://app').pathname;
      const method = init?.method ?? 'GET';
      if (method === 'GET' && url === PAYMENT) return new Promise<Response>((resolve) => pending.push({ answer: resolve }));
      if (url === `/api/greetie/${cancelled.id}`) return Promise.resolve(json(200, cancelled));
      if (url === '/api/seller') return Promise.resolve(json(200, { name: 'Greetie AB', orgNumber: '559999-9999', email: 'hej@greetie.se' }));
      return Promise.resolve(json(404, { message: 'Finns inte.', code: 'NOT_FOUND' }));
    });
    renderRoute(`/greetie/details/${cancelled.id}`, { session: signedIn({ id: 'u1' }) });
  },
  events: {
    'user.check': async () => {
      await user().click(await screen.findByRole('button', { name: 'Kolla igen' }));
    },
    'user.retry': async () => {
      const alert = await screen.findByText(TEXT.loadFailed);
      await user().click(within(alert.parentElement!).getByRole('button', { name: 'Försök igen' }));
    },
    'xstate.after.pollDelay.refund.pending.waiting': () => advance(REFUND_POLL_MS),
    'xstate.after.patience.refund.pending': () => advance(REFUND_PATIENCE_MS),
    'xstate.done.actor.readRefund': (_env, event) => answered(() => json(200, outputOf(event))),
    'xstate.error.actor.readRefund': (_env, event) => answered(() => errorOf(event)),
    'xstate.done.actor.pollRefund': (_env, event) => answered(() => json(200, outputOf(event))),
    'xstate.error.actor.pollRefund': (_env, event) => answered(() => errorOf(event)),
  },
  states: {
    loading: shows(TEXT.loading, false),
    pending: shows(TEXT.pending, false),
    slow: shows(TEXT.slow, true),
    paid: shows(TEXT.paid, false),
    failed: shows(TEXT.failed, true),
    none: async () => {
      expect(await screen.findByText('Avbruten', undefined, { timeout: 5000 })).toBeInTheDocument();
      await waitFor(() => expect(screen.queryByText(TEXT.loading)).not.toBeInTheDocument());
      for (const text of [TEXT.pending, TEXT.paid, TEXT.failed]) expect(screen.queryByText(text)).not.toBeInTheDocument();
      expect(screen.queryByText(TEXT.loadFailed)).not.toBeInTheDocument();
    },
    loadFailed: async (_env, s) => {
      const alert = await screen.findByText(TEXT.loadFailed, undefined, { timeout: 5000 });
      expect(alert).toHaveAttribute('role', 'alert');
      expect(alert).toHaveTextContent(ctx(s).error!.message);
      expect(within(alert.parentElement!).getByRole('button', { name: 'Försök igen' })).toBeEnabled();
    },
  },
  cleanup: () => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  },
});
