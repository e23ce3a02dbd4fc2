import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { expect, vi } from 'vitest';
import { REFUNDS_POLL_MS, type SandboxRefundsContext } from '../../../machines/sandboxRefunds.ts';
import { renderRoute } from '../../client/shell/render.tsx';
import { defineUi } from '../harness/types.ts';

/**
 * The pending refunds as a person meets them on /sandbox (the section runs its own machine with
 * the real API calls). The server is fetch, stubbed at the edge: the sandbox is on, every other
 * section reads an empty list, and the refunds' reads and settles answer when the path says. The
 * poll interval runs on fake timers.
 */
type Pending = { settle: boolean; answer: (r: Response) => void };
let pending: Pending[] = [];

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const answered = async (settle: boolean, make: () => Response) => {
  await waitFor(() => expect(pending.some((p) => p.settle === settle)).toBe(true));
  const now = pending.filter((p) => p.settle === settle);
  pending = pending.filter((p) => p.settle !== settle);
  for (const p of now) p.answer(make());
};
const amounts = (s: AnyMachineSnapshot) => (s.context as SandboxRefundsContext).refunds.length;
const poll = () => {
  vi.advanceTimersByTime(REFUNDS_POLL_MS);
};
const section = () => screen.getByRole('region', { name: 'Återbetalningar' });
const user = () => userEvent.setup({ advanceTimers: vi.advanceTimersByTime });

export default defineUi({
  render() {
    pending = [];
    vi.useFakeTimers({ shouldAdvanceTime: true });
    vi.spyOn(globalThis, 'fetch').mockImplementation((input) => {
      const url = String(input);
      if (url === '/api/sandbox') return Promise.resolve(json(200, { enabled: true }));
      if (!url.startsWith('/api/sandbox/refunds')) return Promise.resolve(json(200, []));
      return new Promise<Response>((resolve) => pending.push({ settle: url !== '/api/sandbox/refunds', answer: resolve }));
    });
    renderRoute('/sandbox');
  },
  events: {
    'user.refresh': async () => {
      await user().click(within(section()).getByRole('button', { name: 'Uppdatera återbetalningar' }));
    },
    'user.settle': async () => {
      const list = within(section()).getByRole('list', { name: 'Väntande återbetalningar' });
      await user().click(within(within(list).getAllByRole('listitem')[0]!).getByRole('button', { name: 'Återbetald' }));
    },
    'xstate.after.pollInterval.sandboxRefunds.showing.waiting': poll,
    'xstate.after.pollInterval.sandboxRefunds.failed.waiting': poll,
    'xstate.done.actor.readRefunds': (_env, event: EventObject) => answered(false, () => json(200, (event as EventObject & { output: unknown }).output)),
    'xstate.error.actor.readRefunds': () => answered(false, () => json(500, { message: 'Något gick fel hos oss.', code: 'INTERNAL_ERROR' })),
    'xstate.done.actor.settleRefund': (_env, event: EventObject) => answered(true, () => json(200, (event as EventObject & { output: unknown }).output)),
    'xstate.error.actor.settleRefund': () => answered(true, () => json(409, { message: 'Återbetalningen är redan avgjord.', code: 'CONFLICT' })),
  },
  states: {
    loading: async () => {
      expect(await within(await screen.findByRole('region', { name: 'Återbetalningar' }, { timeout: 5000 })).findByText('Hämtar återbetalningar…')).toBeInTheDocument();
    },
    // Reading again leaves what was shown in place.
    showing: async (_env, s) => {
      if (amounts(s) === 0) {
        expect(await within(section()).findByText('Inga återbetalningar väntar')).toBeInTheDocument();
      } else {
        const list = await within(section()).findByRole('list', { name: 'Väntande återbetalningar' });
        await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(amounts(s)));
        for (const b of within(list).getAllByRole('button')) expect(b).toBeEnabled();
      }
      expect(within(section()).queryByRole('alert')).not.toBeInTheDocument();
    },
    // One settle at a time: every answer is off until the server has answered.
    settling: async () => {
      const list = within(section()).getByRole('list', { name: 'Väntande återbetalningar' });
      await waitFor(() => {
        for (const b of within(list).getAllByRole('button')) expect(b).toBeDisabled();
      });
    },
    failed: async () => {
      expect(await within(section()).findByRole('alert')).toHaveTextContent('Vi kunde inte hämta återbetalningarna.');
      expect(within(section()).queryByRole('list')).not.toBeInTheDocument();
    },
  },
  cleanup: () => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  },
});
