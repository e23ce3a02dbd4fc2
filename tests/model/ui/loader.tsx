import type { Failure } from '../../../contract/errors.ts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { EventObject } from 'xstate';
import { expect, vi } from 'vitest';
import type { Merchant, Product } from '../../../contract/merchant.ts';
import { defineUi } from '../harness/types.ts';
import { renderRoute } from '../../client/shell/render.tsx';

/**
 * The loader as a person meets it: on /merchant/details/{id} (the page runs its own loader: the
 * loader with the real API calls). The server is fetch, stubbed at the edge: requests wait until
 * the path says how the server answers.
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
  address: null,
  openingHours: null,
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

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const answerAll = (make: (url: string) => Response) => {
  const now = pending;
  pending = [];
  for (const p of now) p.answer(make(p.url));
};

export default defineUi({
  // The person opens the merchant's page; the page starts its loader, which loads at once.
  render() {
    pending = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(
      (input) => new Promise<Response>((resolve) => pending.push({ url: String(input), answer: resolve })),
    );
    renderRoute(`/merchant/details/${merchant.id}`);
  },
  events: {
    'user.retry': async () => {
      await userEvent.setup().click(screen.getByRole('button', { name: 'Försök igen' }));
    },
    // The server answers: the merchant and its gifts…
    'xstate.done.actor.load': async () => {
      await waitFor(() => expect(pending.length).toBe(2));
      answerAll((url) => (url.endsWith('/products') ? json(200, products) : json(200, merchant)));
    },
    // …or an error, in the API's error shape.
    'xstate.error.actor.load': async (_env, event: EventObject) => {
      const { status, code, message } = (event as EventObject & { error: Failure }).error;
      await waitFor(() => expect(pending.length).toBeGreaterThan(0));
      answerAll(() => json(status, { message, code }));
    },
  },
  states: {
    loading: async () => {
      await screen.findByTestId('merchant-skeleton', undefined, { timeout: 5000 });
      expect(screen.getByRole('status')).toHaveTextContent('Hämtar handlaren');
    },
    loaded: async () => {
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
    vi.restoreAllMocks();
  },
});
