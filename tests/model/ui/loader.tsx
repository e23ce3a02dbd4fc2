import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { EventObject } from 'xstate';
import { expect, vi } from 'vitest';
import type { Merchant, Product } from '../../../contract/merchant.ts';
import { defineUi } from '../harness/types.ts';
import { renderRoute } from '../../client/shell/render.tsx';
import { LOADER_DEBOUNCE_MS, type LoaderContext } from '../../../machines/loader.ts';

/**
 * The loader as a person meets it: on /merchant/details/{id}, or on /merchant for a path that
 * searches (the pages run their own loaders: loaderMachine with the real API calls). The server
 * is fetch, stubbed at the edge: requests wait until the path says how the server answers. The
 * list's debounce runs on fake timers, moved by the path's delay.
 */
const merchant: Merchant = {
  id: '4d0e1a2b-0000-4000-8000-000000000001',
  name: 'Café Kanelbullen',
  description: 'Kvarterscafé på Södermalm med nybakade kanelbullar.',
  logoUrl: '/merchants/kanelbullen.svg',
  category: 'cafe',
  website: null,
  sources: ['InStore'],
  priceFrom: 6500,
};
const products: Product[] = [
  {
    id: '4d0e1a2b-0001-4000-8000-000000000101',
    merchantId: merchant.id,
    name: 'Kaffe och kanelbulle',
    description: 'En kopp kaffe och en bulle.',
    imageUrl: merchant.logoUrl,
    source: 'InStore',
    price: 6500,
    validDays: 365,
  },
];

type Pending = { url: string; answer: (r: Response) => void };
let pending: Pending[] = [];
let navigate: (to: string) => Promise<void> = async () => {};
/** The list page (a searching path) rather than the details page. */
let list = false;
const names = (s: { context: unknown }) => ((s.context as LoaderContext).data as { items: Merchant[] }).items.map((m) => m.name);
/** The merchants the list shows, by their card headings. */
const listItems = () => screen.queryAllByRole('heading', { level: 2 }).map((h) => h.textContent);

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const answerAll = (make: (url: string) => Response) => {
  const now = pending;
  pending = [];
  for (const p of now) p.answer(make(p.url));
};

export default defineUi({
  render(env) {
    pending = [];
    list = env.path?.events.some((e) => e.type === 'user.loadLater') ?? false;
    if (list) vi.useFakeTimers({ shouldAdvanceTime: true });
    vi.spyOn(globalThis, 'fetch').mockImplementation(
      (input) => new Promise<Response>((resolve) => pending.push({ url: String(input), answer: resolve })),
    );
    const r = renderRoute('/404');
    navigate = (to) => r.navigate(to);
  },
  skip: (path) => {
    if (path.events[0]?.type === 'user.loadLater') {
      return 'no page starts with a debounced load (the list loads at once, then searches: see the scenario)';
    }
    return undefined;
  },
  events: {
    // The person opens the merchant's page; the page starts its load.
    'user.load': async () => {
      await navigate(list ? '/merchant' : `/merchant/details/${merchant.id}`);
    },
    // The person types a search; the list waits for a pause.
    'user.loadLater': async (_env, event: EventObject) => {
      const q = (event as EventObject & { params: { q: string } }).params.q;
      await userEvent.setup({ advanceTimers: vi.advanceTimersByTime }).type(screen.getByRole('searchbox', { name: 'Sök' }), q);
    },
    'xstate.after.debounce.loader.waiting': () => {
      vi.advanceTimersByTime(LOADER_DEBOUNCE_MS);
    },
    'user.retry': async () => {
      await userEvent.setup().click(screen.getByRole('button', { name: 'Försök igen' }));
    },
    // The server answers: the merchant and its gifts…
    'xstate.done.actor.0.loader.loading': async (_env, event: EventObject) => {
      if (list) {
        await waitFor(() => expect(pending.length).toBeGreaterThan(0));
        return answerAll(() => json(200, (event as EventObject & { output: unknown }).output));
      }
      await waitFor(() => expect(pending.length).toBe(2));
      answerAll((url) => (url.endsWith('/products') ? json(200, products) : json(200, merchant)));
    },
    // …or an error, in the API's error shape.
    'xstate.error.actor.0.loader.loading': async (_env, event: EventObject) => {
      const status = ((event as EventObject & { error: { status?: number } }).error.status ?? 500) as number;
      await waitFor(() => expect(pending.length).toBeGreaterThan(0));
      answerAll(() =>
        status === 404
          ? json(404, { message: 'Handlaren finns inte.', code: 'NOT_FOUND' })
          : json(500, { message: 'Något gick fel hos oss. Försök igen om en stund.', code: 'INTERNAL' }),
      );
    },
  },
  states: {
    idle: () => {
      expect(screen.queryByTestId('merchant-skeleton')).not.toBeInTheDocument();
      expect(screen.queryByRole('heading', { level: 1, name: 'Handlare' })).not.toBeInTheDocument();
    },
    loading: async () => {
      if (list) {
        await waitFor(() => expect(screen.getByText('Hämtar handlare…')).toBeInTheDocument());
        return;
      }
      await screen.findByTestId('merchant-skeleton');
      expect(screen.getByRole('status')).toHaveTextContent('Hämtar handlaren');
    },
    // While the person types, the earlier results stay.
    waiting: (_env, s) => {
      expect(listItems()).toEqual(names(s));
    },
    loaded: async (_env, s) => {
      if (list) {
        await waitFor(() => expect(listItems()).toEqual(names(s)));
        return;
      }
      expect(await screen.findByRole('heading', { level: 1, name: merchant.name })).toBeInTheDocument();
      expect(screen.getByText('Kaffe och kanelbulle')).toBeInTheDocument();
    },
    notFound: async () => {
      expect(await screen.findByRole('heading', { level: 1, name: 'Handlaren finns inte' })).toBeInTheDocument();
    },
    failed: async () => {
      const alert = await screen.findByRole('alert');
      expect(alert).toHaveTextContent('Handlaren kunde inte hämtas');
      expect(alert).toHaveTextContent('Något gick fel hos oss');
    },
  },
  cleanup: () => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  },
});
