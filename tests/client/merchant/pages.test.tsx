import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { I18nextProvider } from 'react-i18next';
import { installDomStubs, renderRoute, signedIn } from '../shell/render.tsx';
import { createI18n } from '../../../src/i18n.ts';
import { MerchantCodesSection } from '../../../src/pages/sandbox/MerchantCodesSection.tsx';
import type { Merchant, Product } from '../../../contract/merchant.ts';

/**
 * The Handlare pages through the real route table, with fetch stubbed at the edge: the stub
 * answers like the API (API.md, "Merchant (public)") and records what was asked.
 */

const NBSP = '\u00a0';
/** Match text exactly, no-break spaces included (Testing Library's default folds them to spaces). */
const exact = { normalizer: (text: string) => text };

const cafe: Merchant = {
  id: '4d0e1a2b-0000-4000-8000-000000000001',
  name: 'Café Kanelbullen',
  description: 'Kvarterscafé på Södermalm med nybakade kanelbullar.',
  logoUrl: '/merchants/kanelbullen.svg',
  category: 'cafe',
  website: 'https://kanelbullen.example',
  sources: ['InStore', 'Code'],
  priceFrom: 6500,
  address: { street: 'Skånegatan 73', postalCode: '116 37', city: 'Stockholm' },
  openingHours: 'Mån–fre 7–18, lör–sön 9–17',
};
const spa: Merchant = {
  id: '4d0e1a2b-0000-4000-8000-000000000006',
  name: 'Fjällbadets Spa',
  description: 'Spa i Åre.',
  logoUrl: '/merchants/fjallbadet.svg',
  category: 'spa',
  website: null,
  sources: ['InStore'],
  priceFrom: 89500,
  address: null,
  openingHours: null,
};
const charity: Merchant = {
  id: '4d0e1a2b-0000-4000-8000-000000000013',
  name: 'Stiftelsen Östersjöns Framtid',
  description: 'Vi städar stränder.',
  logoUrl: '/merchants/ostersjon.svg',
  category: 'charity',
  website: null,
  sources: ['Charity'],
  priceFrom: 5000,
  address: null,
  openingHours: null,
};
const products: Product[] = [
  {
    id: '4d0e1a2b-0001-4000-8000-000000000101',
    merchantId: cafe.id,
    name: 'Kaffe och kanelbulle',
    description: 'En kopp kaffe och en bulle.',
    imageUrl: cafe.logoUrl,
    source: 'InStore',
    price: 6500,
    validDays: 365,
  },
  {
    id: '4d0e1a2b-0001-4000-8000-000000000103',
    merchantId: cafe.id,
    name: 'Presentkort',
    description: 'Valfritt belopp.',
    imageUrl: cafe.logoUrl,
    source: 'Code',
    minAmount: 10000,
    maxAmount: 100000,
    validDays: 1,
  },
  {
    id: '4d0e1a2b-0001-4000-8000-000000000102',
    merchantId: cafe.id,
    name: 'Fika för två',
    description: 'Två kaffe och två bakverk.',
    imageUrl: cafe.logoUrl,
    source: 'InStore',
    price: 14900,
    validDays: 365,
  },
];

type Reply = { status: number; body: unknown } | Promise<{ status: number; body: unknown }>;
type Handler = (url: URL) => Reply | undefined | Promise<{ status: number; body: unknown } | undefined>;

/** fetch at the edge: each call goes to the handler; unknown calls answer 404 in the error shape. */
function stubFetch(handler: Handler) {
  const calls: URL[] = [];
  const fetchStub = vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://localhost');
    calls.push(url);
    const reply = (await handler(url)) ?? { status: 404, body: { code: 'ROUTE_NOT_FOUND', message: 'Adressen finns inte i API:et.' } };
    return new Response(JSON.stringify(reply.body), { status: reply.status, headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchStub);
  const merchantCalls = () => calls.filter((u) => u.pathname.startsWith('/api/merchant'));
  return { calls, merchantCalls };
}

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** A catalogue that filters the way the server does, for the three merchants above. */
function catalogue(url: URL): Reply | undefined {
  if (url.pathname === '/api/merchant/v2') {
    const q = (url.searchParams.get('q') ?? '').toLowerCase();
    const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
    const items = [cafe, charity, spa].filter(
      (m) =>
        (!q || fold(`${m.name} ${m.description}`).includes(fold(q))) &&
        (!url.searchParams.get('category') || m.category === url.searchParams.get('category')) &&
        (!url.searchParams.get('source') || m.sources.includes(url.searchParams.get('source') as never)),
    );
    return { status: 200, body: { items, nextCursor: null } };
  }
  if (url.pathname === `/api/merchant/${cafe.id}`) return { status: 200, body: cafe };
  if (url.pathname === `/api/merchant/${cafe.id}/products`) return { status: 200, body: products };
  return undefined;
}

beforeEach(() => {
  installDomStubs({ viewport: 'desktop' });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the merchant list (/merchant)', () => {
  it('shows skeletons while loading, then a grid of merchants with logo, name, category and what they offer', async () => {
    const answer = deferred<{ status: number; body: unknown }>();
    stubFetch((url) => (url.pathname === '/api/merchant/v2' ? answer.promise : undefined));
    renderRoute('/merchant');
    // The first render loads the route's chunk: give it time.
    expect(await screen.findByRole('heading', { level: 1, name: 'Handlare' }, { timeout: 5000 })).toBeInTheDocument();
    expect(await screen.findAllByTestId('merchant-skeleton')).not.toHaveLength(0);
    expect(screen.getByRole('status')).toHaveTextContent('Hämtar handlare…');
    await waitFor(() => expect(document.title).toBe('Handlare · Greetie'));

    answer.resolve({ status: 200, body: { items: [cafe, spa], nextCursor: null } });
    const link = await screen.findByRole('link', { name: /Café Kanelbullen/ });
    expect(screen.queryAllByTestId('merchant-skeleton')).toHaveLength(0);
    expect(link).toHaveAttribute('href', `/merchant/details/${cafe.id}`);
    expect(within(link).getByRole('heading', { level: 2, name: 'Café Kanelbullen' })).toBeInTheDocument();
    expect(link.querySelector('img')).toHaveAttribute('src', '/merchants/kanelbullen.svg');
    expect(link.textContent).toContain(`Café · Från 65${NBSP}kr`);
    expect(link).toHaveTextContent('I butik');
    expect(link).toHaveTextContent('Kod att använda online');
    expect(screen.getByRole('link', { name: /Fjällbadets Spa/ }).textContent).toContain(`Spa · Från 895${NBSP}kr`);
    expect(screen.getByRole('status')).toHaveTextContent('Visar 2 handlare');
  });

  it('survives React reconnecting its effects (StrictMode): the stopped first call is not a failure', async () => {
    // fetch as a browser does it: an aborted call rejects with an AbortError.
    vi.stubGlobal(
      'fetch',
      vi.fn(
        (input: RequestInfo | URL, init?: RequestInit) =>
          new Promise<Response>((resolve, reject) => {
            const url = new URL(String(input), 'http://localhost');
            init?.signal?.addEventListener('abort', () => reject(new DOMException('signal is aborted without reason', 'AbortError')));
            const reply = catalogue(url) as { status: number; body: unknown } | undefined;
            setTimeout(() => resolve(new Response(JSON.stringify(reply?.body ?? {}), { status: reply?.status ?? 404, headers: { 'content-type': 'application/json' } })), 20);
          }),
      ),
    );
    renderRoute('/merchant', { strict: true });
    expect(await screen.findByRole('link', { name: /Café Kanelbullen/ }, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.queryByText(/aborted/)).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Visar 3 handlare');
  });

  it("searches with the field labelled 'Sök', case- and accent-insensitively on the server's side", async () => {
    const { merchantCalls } = stubFetch(catalogue);
    const { user, router } = renderRoute('/merchant/list');
    await screen.findByRole('link', { name: /Fjällbadets Spa/ });
    const search = screen.getByRole('searchbox', { name: 'Sök' });
    await user.type(search, 'cafe{Enter}');
    await waitFor(() => expect(screen.queryByRole('link', { name: /Fjällbadets Spa/ })).not.toBeInTheDocument());
    expect(screen.getByRole('link', { name: /Café Kanelbullen/ })).toBeInTheDocument();
    expect(merchantCalls().at(-1)!.searchParams.get('q')).toBe('cafe');
    expect(router.state.location.search).toBe('?q=cafe');
  });

  it('filters by category and by kind of gift', async () => {
    const { merchantCalls } = stubFetch(catalogue);
    const { user } = renderRoute('/merchant');
    await screen.findByRole('link', { name: /Café Kanelbullen/ });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Kategori' }), 'Välgörenhet');
    await waitFor(() => expect(screen.queryByRole('link', { name: /Café Kanelbullen/ })).not.toBeInTheDocument());
    expect(screen.getByRole('link', { name: /Östersjöns Framtid/ })).toBeInTheDocument();
    expect(merchantCalls().at(-1)!.searchParams.get('category')).toBe('charity');

    await user.selectOptions(screen.getByRole('combobox', { name: 'Kategori' }), 'Alla kategorier');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Typ av present' }), 'Kod att använda online');
    await waitFor(() => expect(screen.queryByRole('link', { name: /Fjällbadets Spa/ })).not.toBeInTheDocument());
    expect(screen.getByRole('link', { name: /Café Kanelbullen/ })).toBeInTheDocument();
    expect(merchantCalls().at(-1)!.searchParams.get('source')).toBe('Code');
    expect(merchantCalls().at(-1)!.searchParams.has('category')).toBe(false);
  });

  it('takes its filters from the address', async () => {
    const { merchantCalls } = stubFetch(catalogue);
    renderRoute('/merchant?q=spa&category=spa&source=nonsense');
    await screen.findByRole('link', { name: /Fjällbadets Spa/ });
    expect(screen.getByRole('searchbox', { name: 'Sök' })).toHaveValue('spa');
    expect(screen.getByRole('combobox', { name: 'Kategori' })).toHaveValue('spa');
    expect(screen.getByRole('combobox', { name: 'Typ av present' })).toHaveValue('');
    expect(merchantCalls()[0]!.search).toBe('?q=spa&category=spa&limit=24');
  });

  it("shows the error's own message with a retry that loads again", async () => {
    let fail = true;
    stubFetch((url) => {
      if (url.pathname !== '/api/merchant/v2') return undefined;
      if (fail) return { status: 503, body: { code: 'DB_UNAVAILABLE', message: 'Databasen svarar inte.' } };
      return { status: 200, body: { items: [cafe], nextCursor: null } };
    });
    const { user } = renderRoute('/merchant');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Handlarna kunde inte hämtas');
    expect(alert).toHaveTextContent('Databasen svarar inte.');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Försök igen' }));
    expect(await screen.findByRole('link', { name: /Café Kanelbullen/ })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('says so when nothing matches, with a way back to every merchant', async () => {
    stubFetch(catalogue);
    const { user } = renderRoute('/merchant?q=zzz');
    expect(await screen.findByText('Ingen handlare matchar din sökning.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Visa alla handlare' }));
    expect(await screen.findByRole('link', { name: /Café Kanelbullen/ })).toBeInTheDocument();
    expect(screen.getByRole('searchbox', { name: 'Sök' })).toHaveValue('');
  });

  it('a merchant found through a product says which product matched', async () => {
    stubFetch((url) =>
      url.pathname === '/api/merchant/v2' ? { status: 200, body: { items: [{ ...cafe, matchedProduct: 'Fika för två' }], nextCursor: null } } : undefined,
    );
    renderRoute('/merchant?q=fika');
    const card = await screen.findByRole('link', { name: /Café Kanelbullen/ });
    expect(card).toHaveTextContent('Säljer: Fika för två');
  });

  it('shows more merchants with the next cursor, keeping the ones already shown', async () => {
    const { merchantCalls } = stubFetch((url) => {
      if (url.pathname !== '/api/merchant/v2') return undefined;
      return url.searchParams.get('cursor') === 'page2'
        ? { status: 200, body: { items: [spa], nextCursor: null } }
        : { status: 200, body: { items: [cafe, charity], nextCursor: 'page2' } };
    });
    const { user } = renderRoute('/merchant');
    await screen.findByRole('link', { name: /Café Kanelbullen/ });
    await user.click(screen.getByRole('button', { name: 'Visa fler' }));
    expect(await screen.findByRole('link', { name: /Fjällbadets Spa/ })).toBeInTheDocument();
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual([
      'Café Kanelbullen',
      'Stiftelsen Östersjöns Framtid',
      'Fjällbadets Spa',
    ]);
    expect(merchantCalls().at(-1)!.searchParams.get('cursor')).toBe('page2');
    expect(screen.queryByRole('button', { name: 'Visa fler' })).not.toBeInTheDocument();
  });

  it('is there in English too', async () => {
    stubFetch(catalogue);
    renderRoute('/merchant', { language: 'en' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Merchants' })).toBeInTheDocument();
    expect(screen.getByRole('searchbox', { name: 'Search' })).toBeInTheDocument();
    expect((await screen.findByRole('link', { name: /Café Kanelbullen/ })).textContent).toContain(`From 65${NBSP}kr`);
  });
});

describe('a merchant (/merchant/details/:id)', () => {
  it('shows where and when: the address with a map link that opens in a new tab, and the opening hours', async () => {
    stubFetch(catalogue);
    renderRoute(`/merchant/details/${cafe.id}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Café Kanelbullen' })).toBeInTheDocument();
    expect(screen.getByText('Adress')).toBeInTheDocument();
    expect(screen.getByText(/Skånegatan 73/).closest('address')).toHaveTextContent('Skånegatan 73116 37 Stockholm');
    const map = screen.getByRole('link', { name: /^Visa på kartan ?– Café Kanelbullen, öppnas i en ny flik$/ });
    expect(map).toHaveAttribute('href', 'https://www.google.com/maps/search/?api=1&query=Sk%C3%A5negatan%2073%2C%20116%2037%20Stockholm');
    expect(map).toHaveAttribute('target', '_blank');
    expect(screen.getByText('Öppettider')).toBeInTheDocument();
    expect(screen.getByText('Mån–fre 7–18, lör–sön 9–17')).toBeInTheDocument();
  });

  it('shows the description, the website and the gifts with Swedish prices and a way to send each', async () => {
    stubFetch(catalogue);
    renderRoute(`/merchant/details/${cafe.id}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Café Kanelbullen' })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Café Kanelbullen · Greetie'));
    expect(screen.getByText(cafe.description)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Besök webbplatsen/ })).toHaveAttribute('href', 'https://kanelbullen.example');
    expect(screen.getByRole('link', { name: /Besök webbplatsen/ })).toHaveAttribute('rel', 'noopener noreferrer');

    const gifts = screen.getAllByRole('heading', { level: 3 }).map((h) => h.closest('li')!);
    expect(gifts.map((g) => within(g).getByRole('heading').textContent)).toEqual(['Kaffe och kanelbulle', 'Presentkort', 'Fika för två']);
    expect(within(gifts[0]!).getByText(`65${NBSP}kr`, exact)).toBeInTheDocument();
    expect(within(gifts[1]!).getByText(`100\u20131${NBSP}000${NBSP}kr`, exact)).toBeInTheDocument();
    expect(within(gifts[1]!).getByText('Du väljer belopp')).toBeInTheDocument();
    expect(within(gifts[1]!).getByText(/Giltig i 1 dag$/)).toBeInTheDocument();
    expect(within(gifts[2]!).getByText(`149${NBSP}kr`, exact)).toBeInTheDocument();
    expect(within(gifts[2]!).getByText(/I butik · Giltig i 365 dagar/)).toBeInTheDocument();

    const send = within(gifts[2]!).getByRole('link', { name: 'Skicka med en greetie: Fika för två' });
    expect(send).toHaveAttribute('href', `/greetie/new?productId=${products[2]!.id}`);
  });

  it('leads to /greetie/new with the product chosen (a value voucher at its smallest amount)', async () => {
    stubFetch(catalogue);
    // Signed in: a visitor is sent on to the login page from there, as soon as the compose page's
    // code is at hand (at once when an earlier test file has loaded it).
    const { user, router } = renderRoute(`/merchant/details/${cafe.id}`, { session: signedIn() });
    await user.click(await screen.findByRole('link', { name: 'Skicka med en greetie: Presentkort' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/greetie/new'));
    expect(router.state.location.search).toBe(`?productId=${products[1]!.id}&amount=10000`);
  });

  it('says a sold-out product is sold out, with no way to send it, and keeps the others sendable', async () => {
    stubFetch((url) =>
      url.pathname === `/api/merchant/${cafe.id}/products`
        ? { status: 200, body: products.map((p, i) => ({ ...p, available: i !== 1 })) }
        : catalogue(url),
    );
    renderRoute(`/merchant/details/${cafe.id}`);
    await screen.findByRole('heading', { level: 1, name: 'Café Kanelbullen' });
    const gifts = screen.getAllByRole('heading', { level: 3 }).map((h) => h.closest('li')!);
    expect(within(gifts[1]!).getByText('Slut just nu')).toBeInTheDocument();
    expect(within(gifts[1]!).queryByRole('link')).toBeNull();
    expect(within(gifts[0]!).getByRole('link', { name: 'Skicka med en greetie: Kaffe och kanelbulle' })).toBeInTheDocument();
    expect(within(gifts[2]!).getByRole('link', { name: 'Skicka med en greetie: Fika för två' })).toBeInTheDocument();
  });

  it('shows a not-found state for an unknown merchant, and for an id that is not one', async () => {
    const { merchantCalls } = stubFetch((url) =>
      url.pathname.startsWith('/api/merchant/') ? { status: 404, body: { code: 'MERCHANT_NOT_FOUND', message: 'Handlaren finns inte.' } } : undefined,
    );
    const first = renderRoute('/merchant/details/00000000-0000-4000-8000-000000000000');
    expect(await screen.findByRole('heading', { level: 1, name: 'Handlaren finns inte' })).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: /Alla handlare/ })[0]).toHaveAttribute('href', '/merchant');
    first.unmount();

    const before = merchantCalls().length;
    renderRoute('/merchant/details/not-an-id');
    expect(await screen.findByRole('heading', { level: 1, name: 'Handlaren finns inte' })).toBeInTheDocument();
    expect(merchantCalls()).toHaveLength(before);
  });

  it('shows skeletons while loading, and a failure with retry', async () => {
    let fail = true;
    const answer = deferred<void>();
    stubFetch(async (url) => {
      await answer.promise;
      if (fail && url.pathname.startsWith('/api/merchant/')) return { status: 500, body: { code: 'INTERNAL_ERROR', message: 'Något gick fel hos oss.' } };
      return catalogue(url);
    });
    const { user } = renderRoute(`/merchant/details/${cafe.id}`);
    expect(await screen.findByTestId('merchant-skeleton')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Hämtar handlaren…');
    answer.resolve();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Något gick fel hos oss.');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Försök igen' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Café Kanelbullen' })).toBeInTheDocument();
  });
});

describe('the sandbox merchant codes section', () => {
  it('lists the demo merchants with their codes', async () => {
    stubFetch((url) =>
      url.pathname === '/api/sandbox/merchants'
        ? { status: 200, body: [{ id: cafe.id, name: cafe.name, merchantCode: 'KANEL2481' }] }
        : undefined,
    );
    render(
      <I18nextProvider i18n={createI18n('sv')}>
        <MemoryRouter>
          <MerchantCodesSection />
        </MemoryRouter>
      </I18nextProvider>,
    );
    const section = screen.getByRole('region', { name: 'Handlarkoder' });
    const row = await within(section).findByRole('row', { name: /Café Kanelbullen/ });
    expect(within(row).getByText('KANEL2481')).toBeInTheDocument();
    expect(within(row).getByRole('link', { name: 'Café Kanelbullen' })).toHaveAttribute('href', `/merchant/details/${cafe.id}`);
  });

  it('shows a failure with retry', async () => {
    stubFetch(() => ({ status: 503, body: { code: 'SERVICE_UNAVAILABLE', message: 'Tjänsten är inte tillgänglig just nu.' } }));
    render(
      <I18nextProvider i18n={createI18n('sv')}>
        <MemoryRouter>
          <MerchantCodesSection />
        </MemoryRouter>
      </I18nextProvider>,
    );
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Tjänsten är inte tillgänglig just nu.');
    const user = userEvent.setup();
    await user.click(within(alert).getByRole('button', { name: 'Försök igen' }));
    expect(await screen.findByRole('alert')).toBeInTheDocument();
  });

  it('says calmly when the server has no demo merchant list (404)', async () => {
    stubFetch(() => undefined);
    render(
      <I18nextProvider i18n={createI18n('sv')}>
        <MemoryRouter>
          <MerchantCodesSection />
        </MemoryRouter>
      </I18nextProvider>,
    );
    expect(await screen.findByText('Den här servern visar inga handlarkoder.')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
