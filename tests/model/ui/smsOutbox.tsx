import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { expect, vi } from 'vitest';
import { OUTBOX_POLL_MS, type SmsOutboxContext } from '../../../machines/smsOutbox.ts';
import { renderRoute } from '../../client/shell/render.tsx';
import { defineUi } from '../harness/types.ts';

/**
 * The SMS outbox as a person meets it on /sandbox (the section runs its own machine with the real
 * API call). The server is fetch, stubbed at the edge: the sandbox is on, it has no demo
 * merchants, and the outbox answers when the path says. The poll interval runs on fake timers.
 */
type Pending = { answer: (r: Response) => void };
let pending: Pending[] = [];

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const answered = async (make: () => Response) => {
  await waitFor(() => expect(pending.length).toBeGreaterThan(0));
  const now = pending;
  pending = [];
  for (const p of now) p.answer(make());
};
const messages = (s: AnyMachineSnapshot) => (s.context as SmsOutboxContext).messages.map((m) => m.body);
const poll = () => {
  vi.advanceTimersByTime(OUTBOX_POLL_MS);
};

export default defineUi({
  render() {
    pending = [];
    vi.useFakeTimers({ shouldAdvanceTime: true });
    vi.spyOn(globalThis, 'fetch').mockImplementation((input) => {
      const url = String(input);
      if (url === '/api/sandbox') return Promise.resolve(json(200, { enabled: true }));
      if (url === '/api/sandbox/merchants') return Promise.resolve(json(200, []));
      if (url === '/api/sandbox/payments') return Promise.resolve(json(200, []));
      if (url === '/api/sandbox/refunds') return Promise.resolve(json(200, []));
      // The push outbox runs its own copy of this machine: empty and quiet, so this one is the only one answered.
      if (url.startsWith('/api/sandbox/push')) return Promise.resolve(json(200, []));
      return new Promise<Response>((resolve) => pending.push({ answer: resolve }));
    });
    renderRoute('/sandbox');
  },
  events: {
    'user.refresh': async () => {
      await userEvent.setup({ advanceTimers: vi.advanceTimersByTime }).click(screen.getByRole('button', { name: 'Uppdatera' }));
    },
    'xstate.after.pollInterval.smsOutbox.showing.waiting': poll,
    'xstate.after.pollInterval.smsOutbox.failed.waiting': poll,
    'xstate.done.actor.readOutbox': (_env, event: EventObject) => answered(() => json(200, (event as EventObject & { output: unknown }).output)),
    'xstate.error.actor.readOutbox': () => answered(() => json(500, { message: 'Något gick fel hos oss.', code: 'INTERNAL' })),
  },
  states: {
    loading: async () => {
      expect(await screen.findByText('Hämtar sms…', undefined, { timeout: 5000 })).toBeInTheDocument();
    },
    // Reading again leaves what was shown in place.
    showing: async (_env, s) => {
      const list = await screen.findByRole('list', { name: 'Sms-utkorg' });
      await waitFor(() => expect(within(list).getAllByRole('listitem').map((li) => li.querySelector('p:last-child')?.textContent)).toEqual(messages(s)));
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    },
    failed: async () => {
      expect(await screen.findByRole('alert')).toHaveTextContent('Vi kunde inte hämta sms-utkorgen.');
      expect(screen.queryByRole('list', { name: 'Sms-utkorg' })).not.toBeInTheDocument();
    },
  },
  cleanup: () => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  },
});
