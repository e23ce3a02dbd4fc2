import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { expect, vi } from 'vitest';
import { TYPING_PAUSE_MS, type MerchantSearchContext } from '../../../machines/merchantSearch.ts';
import { renderRoute } from '../../client/shell/render.tsx';
import { defineUi } from '../harness/types.ts';

/**
 * The merchant search as a person meets it on /merchant (the page runs its own machine with the
 * real API calls). The server is fetch, stubbed at the edge: requests wait until the path says
 * how the server answers. The typing pause runs on fake timers, moved by the path's delay.
 */
type Pending = { url: string; answer: (r: Response) => void };
let pending: Pending[] = [];

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const answerAll = (make: () => Response) => {
  const now = pending;
  pending = [];
  for (const p of now) p.answer(make());
};
const answered = async (make: () => Response) => {
  await waitFor(() => expect(pending.length).toBeGreaterThan(0));
  answerAll(make);
};
const ctx = (s: AnyMachineSnapshot) => s.context as MerchantSearchContext;
/** The merchants the list shows, by their card headings. */
const listItems = () => screen.queryAllByRole('heading', { level: 2 }).map((h) => h.textContent);
const names = (s: AnyMachineSnapshot) => ctx(s).items.map((m) => m.name);
const user = () => userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
const searchbox = () => screen.getByRole('searchbox', { name: 'Sök' });

export default defineUi({
  render() {
    pending = [];
    vi.useFakeTimers({ shouldAdvanceTime: true });
    vi.spyOn(globalThis, 'fetch').mockImplementation(
      (input) => new Promise<Response>((resolve) => pending.push({ url: String(input), answer: resolve })),
    );
    renderRoute('/merchant');
  },
  events: {
    // The person types a search (after clearing the field): the list waits for a pause.
    'user.typed': async (_env, event: EventObject) => {
      await user().clear(searchbox());
      await user().type(searchbox(), (event as EventObject & { q: string }).q);
    },
    'xstate.after.typingPause.merchantSearch.debouncing': () => {
      vi.advanceTimersByTime(TYPING_PAUSE_MS);
    },
    // The person picks Café (choosing it again takes a round through "all categories").
    'user.filtered': async () => {
      const select = screen.getByRole('combobox', { name: 'Kategori' });
      if ((select as HTMLSelectElement).value === 'cafe') await user().selectOptions(select, 'Alla kategorier');
      await user().selectOptions(select, 'Café');
    },
    'user.submitted': async () => {
      await user().type(searchbox(), '{Enter}');
    },
    'user.showMore': async () => {
      await user().click(screen.getByRole('button', { name: 'Visa fler' }));
    },
    'user.retry': async () => {
      await user().click(screen.getByRole('button', { name: 'Försök igen' }));
    },
    // The server answers with the path's page…
    'xstate.done.actor.search': (_env, event: EventObject) => answered(() => json(200, (event as EventObject & { output: unknown }).output)),
    'xstate.done.actor.searchMore': (_env, event: EventObject) => answered(() => json(200, (event as EventObject & { output: unknown }).output)),
    // …or an error, in the API's error shape.
    'xstate.error.actor.search': () => answered(() => json(500, { message: 'Något gick fel hos oss. Försök igen om en stund.', code: 'INTERNAL_ERROR' })),
    'xstate.error.actor.searchMore': () => answered(() => json(500, { message: 'Något gick fel hos oss. Försök igen om en stund.', code: 'INTERNAL_ERROR' })),
  },
  states: {
    searching: async () => {
      await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Hämtar handlare…'), { timeout: 5000 });
      expect(screen.getAllByTestId('merchant-skeleton')).not.toHaveLength(0);
    },
    // While the person types, the list shown stays and nothing is loading.
    debouncing: (_env, s) => {
      expect(listItems()).toEqual(names(s));
      expect(screen.queryByTestId('merchant-skeleton')).not.toBeInTheDocument();
    },
    showing: async (_env, s) => {
      await waitFor(() => expect(listItems()).toEqual(names(s)));
      if (names(s).length === 0) expect(screen.getByText('Ingen handlare matchar din sökning.')).toBeInTheDocument();
      else expect(screen.getByRole('status')).toHaveTextContent(`Visar ${names(s).length} handlare`);
      const more = screen.queryByRole('button', { name: 'Visa fler' });
      if (ctx(s).nextCursor) expect(more).toBeInTheDocument();
      else expect(more).not.toBeInTheDocument();
    },
    loadingMore: async (_env, s) => {
      await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Hämtar fler handlare…'));
      expect(listItems()).toEqual(names(s));
    },
    failed: async () => {
      const alert = await screen.findByRole('alert');
      expect(alert).toHaveTextContent('Handlarna kunde inte hämtas');
      expect(alert).toHaveTextContent('Något gick fel hos oss');
    },
  },
  cleanup: () => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  },
});
