import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Greetie } from '../../../contract/greetie.ts';
import type { MerchantPage, Product } from '../../../contract/merchant.ts';
import { installDomStubs, renderRoute, signedIn } from '../shell/render.tsx';
import { DRAFT_ID, MERCHANT_ID, PRODUCT_ID, gift, greetie, paidPayment, photo, textElement } from '../../model/hooks/compose.ts';
import { FakeXhr } from './fakeXhr.ts';

/**
 * The greetie pages' own logic, on the real routes: the server is fetch (answered at once from
 * `server`, by method and path) and XMLHttpRequest (uploads), faked at the edge.
 */
type Answer = { status: number; body?: unknown };
let server: Record<string, (body: unknown) => Answer>;
let calls: { method: string; path: string; body: unknown }[];

const json = ({ status, body }: Answer) =>
  new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const merchants: MerchantPage = {
  items: [
    {
      id: MERCHANT_ID,
      name: 'Café Kanelbullen',
      description: '',
      logoUrl: '/merchants/kanelbullen.svg',
      category: 'cafe',
      website: null,
      sources: ['InStore'],
      priceFrom: 6500,
      address: null,
      openingHours: null,
    },
  ],
  nextCursor: null,
};
const voucher: Product = {
  id: '7b2e4d3f-0000-4000-8000-000000000003',
  merchantId: MERCHANT_ID,
  name: 'Presentkort',
  description: '',
  imageUrl: '/merchants/kanelbullen.svg',
  source: 'InStore',
  minAmount: 10000,
  maxAmount: 100000,
  validDays: 365,
};

function serve(draft: Greetie) {
  server = {
    [`GET /api/greetie/${DRAFT_ID}`]: () => ({ status: 200, body: draft }),
    [`PATCH /api/greetie/${DRAFT_ID}`]: () => ({ status: 200, body: draft }),
    'GET /api/merchant/v2': () => ({ status: 200, body: merchants }),
    [`GET /api/merchant/${MERCHANT_ID}/products`]: () => ({ status: 200, body: [voucher] }),
  };
}

// The greetie pages' chunk is loaded once before the tests: on a busy machine its first import
// alone took the first test's whole time.
beforeAll(async () => {
  await import('../../../src/pages/greetie/routes.tsx');
}, 30_000);

beforeEach(() => {
  installDomStubs({ viewport: 'mobile' });
  calls = [];
  server = {};
  FakeXhr.reset();
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = new URL(String(input), 'http://app');
    const method = init?.method ?? 'GET';
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    calls.push({ method, path: url.pathname, body });
    const handler = server[`${method} ${url.pathname}`];
    return json(handler ? handler(body) : { status: 404, body: { message: 'Finns inte.', code: 'NOT_FOUND' } });
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const stepHeading = (name: string) => screen.findByRole('heading', { level: 2, name });

describe('/greetie/new', () => {
  it('shows where the person is: the stepper marks the step, and focus goes to its heading', async () => {
    serve(greetie({ media: photo, content: [textElement] }));
    const user = userEvent.setup();
    renderRoute(`/greetie/new?draft=${DRAFT_ID}`, { session: signedIn() });
    expect(await stepHeading('Lägg till presenter')).toBeInTheDocument();
    const steps = within(screen.getByRole('navigation', { name: 'Steg' })).getAllByRole('listitem');
    expect(steps.map((s) => s.textContent)).toEqual(['Steg 1 av 5: Bild', 'Steg 2 av 5: Innehåll', 'Steg 3 av 5: Presenter', 'Steg 4 av 5: Mottagare', 'Steg 5 av 5: Granska']);
    expect(steps[2]).toHaveAttribute('aria-current', 'step');

    await user.click(screen.getByRole('button', { name: 'Tillbaka' }));
    const heading = await stepHeading('Klä din greetie');
    expect(heading).toHaveFocus();
    expect(steps[1]).toHaveAttribute('aria-current', 'step');
  });

  it.each([
    ['a PDF', new File(['%PDF'], 'kvitto.pdf', { type: 'application/pdf' }), 'Filen går inte att använda. Välj ett foto (JPEG, PNG, WebP eller HEIC) eller en video (MP4, WebM eller MOV).'],
    ['a 16 MB photo', Object.defineProperty(new File(['x'], 'stor.jpg', { type: 'image/jpeg' }), 'size', { value: 16 * 1024 * 1024 }), 'Fotot är större än 15 MB. Välj ett mindre foto.'],
    ['a 101 MB video', Object.defineProperty(new File(['x'], 'lang.mp4', { type: 'video/mp4' }), 'size', { value: 101 * 1024 * 1024 }), 'Videon är större än 100 MB. Välj en kortare video.'],
    ['an empty photo', new File([], 'tom.jpg', { type: 'image/jpeg' }), 'Filen är tom. Välj en annan.'],
  ])('refuses %s before anything is sent, saying why in Swedish', async (_what, file, message) => {
    const user = userEvent.setup({ applyAccept: false });
    renderRoute('/greetie/new', { session: signedIn() });
    await stepHeading('Välj en bild eller video');
    await user.upload(screen.getByLabelText('Välj från telefonen'), file);
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    // Nothing of the draft's: the header's unread count (GET /api/mobileuser/notifications) is not the page's.
    expect(calls.filter((c) => !c.path.startsWith('/api/mobileuser/notifications'))).toEqual([]);
    expect(FakeXhr.all).toEqual([]);
    expect(screen.getByRole('button', { name: 'Nästa' })).toBeDisabled();
  });

  it('an address whose draft id is no UUID shows "not found" without asking the server for a draft', async () => {
    renderRoute('/greetie/new?draft=inte-ett-utkast', { session: signedIn() });
    expect(await stepHeading('Greetien finns inte')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Mina greeties' })).toHaveAttribute('href', '/greetie/list');
    expect(calls.filter((c) => c.path.startsWith('/api/greetie'))).toEqual([]);
  });

  it('keeps a running total in kr while gifts and amounts change; an amount outside the limits stops the step', async () => {
    serve(greetie({ media: photo, content: [textElement], gifts: [gift], total: gift.amount }));
    const user = userEvent.setup();
    renderRoute(`/greetie/new?draft=${DRAFT_ID}`, { session: signedIn() });
    // A draft with gifts continues at the recipient: back to the gifts.
    await stepHeading('Vem ska få den?');
    await user.click(screen.getByRole('button', { name: 'Tillbaka' }));
    await stepHeading('Lägg till presenter');
    const total = () => screen.getByText(/^Summa:/).textContent;
    expect(total()).toBe('Summa: 149\u00a0kr');

    await user.click(await screen.findByRole('button', { name: /Café Kanelbullen/ }));
    // Each gift says what it costs and how long it is valid, beside its image or the merchant's logo.
    const row = (await screen.findByRole('button', { name: 'Lägg till Presentkort' })).closest('li')!;
    expect(row).toHaveTextContent('Giltig i 365 dagar');
    expect(row.querySelector('img')).toHaveAttribute('src', '/merchants/kanelbullen.svg');
    await user.click(await screen.findByRole('button', { name: 'Lägg till Presentkort' }));
    expect(total()).toBe('Summa: 249\u00a0kr'); // a value voucher starts at its smallest amount

    const amount = screen.getByRole('textbox', { name: 'Belopp i kr' });
    await user.clear(amount);
    await user.type(amount, '1250,50');
    expect(total()).toBe('Summa: 1\u00a0399,50\u00a0kr');
    expect(amount).toHaveAttribute('aria-invalid', 'true'); // over 1 000 kr
    expect(screen.getByText(/^Välj ett belopp mellan/)).toHaveTextContent(/mellan 100–1\s000\skr/);
    expect(screen.getByRole('button', { name: 'Nästa' })).toBeDisabled();

    // Amount chips beside the field: 200, 300 and 500 kr (within 100–1 000 kr), toggle buttons.
    const chips = within(screen.getByRole('group', { name: 'Välj belopp för Presentkort' })).getAllByRole('button');
    expect(chips.map((c) => c.textContent)).toEqual(['200\u00a0kr', '300\u00a0kr', '500\u00a0kr']);
    expect(chips.every((c) => c.getAttribute('aria-pressed') === 'false')).toBe(true);
    await user.click(chips[1]!);
    expect(amount).toHaveValue('300');
    expect(chips[1]).toHaveAttribute('aria-pressed', 'true');
    expect(total()).toBe('Summa: 449\u00a0kr');

    await user.clear(amount);
    await user.type(amount, '500');
    expect(amount).toHaveAttribute('aria-invalid', 'false');
    expect(chips[2]).toHaveAttribute('aria-pressed', 'true'); // typing a chip's amount presses it
    expect(chips[1]).toHaveAttribute('aria-pressed', 'false');
    expect(total()).toBe('Summa: 649\u00a0kr');
    expect(screen.getByRole('button', { name: 'Nästa' })).toBeEnabled();

    await user.click(screen.getByRole('button', { name: 'Ta bort Fika för två' }));
    expect(total()).toBe('Summa: 500\u00a0kr');
  });

  it("a resumed draft's value voucher keeps its amount editable within the product's limits", async () => {
    const chosen = { ...gift, productId: voucher.id, productName: voucher.name, amount: 30000 };
    serve(greetie({ media: photo, content: [textElement], gifts: [chosen], total: 30000 }));
    const user = userEvent.setup();
    renderRoute(`/greetie/new?draft=${DRAFT_ID}`, { session: signedIn() });
    await stepHeading('Vem ska få den?');
    await user.click(screen.getByRole('button', { name: 'Tillbaka' }));
    await stepHeading('Lägg till presenter');
    const amount = await screen.findByRole('textbox', { name: 'Belopp i kr' });
    expect(amount).toHaveValue('300');
    expect(calls.filter((c) => c.path === `/api/merchant/${MERCHANT_ID}/products`)).toHaveLength(1);
    await user.clear(amount);
    await user.type(amount, '50');
    expect(amount).toHaveAttribute('aria-invalid', 'true'); // under 100 kr
    expect(screen.getByRole('button', { name: 'Nästa' })).toBeDisabled();
    await user.clear(amount);
    await user.type(amount, '450');
    expect(screen.getByText(/^Summa:/).textContent).toBe('Summa: 450\u00a0kr');
  });

  it('a typo in the number shows only the field\'s error, not "Ändringarna kunde inte sparas" (the server\'s refusal of the field is no save fault)', async () => {
    serve(greetie({ media: photo, message: 'Hej' }));
    server[`PATCH /api/greetie/${DRAFT_ID}`] = (body) =>
      /^\+?46 ?7|^07/.test((body as { recipient?: { mobileNumber: string } | null }).recipient?.mobileNumber ?? '') &&
      ((body as { recipient: { mobileNumber: string } }).recipient.mobileNumber.replace(/\D/g, '').length >= 10)
        ? { status: 200, body: greetie({ media: photo, message: 'Hej', recipient: { name: null, mobileNumber: '+46701234567' } }) }
        : { status: 400, body: { code: 'INVALID_MOBILE_NUMBER', message: 'Ogiltigt mobilnummer.' } };
    const user = userEvent.setup();
    renderRoute(`/greetie/new?draft=${DRAFT_ID}`, { session: signedIn() });
    await stepHeading('Vem ska få den?');
    const number = screen.getByRole('textbox', { name: 'Mobilnummer' });
    await user.type(number, '070-12');
    await waitFor(() => expect(calls.some((c) => c.method === 'PATCH')).toBe(true), { timeout: 3000 });
    await waitFor(() => expect(screen.getByText('Sparas när allt är rätt ifyllt')).toBeInTheDocument());
    expect(screen.queryByText('Ändringarna kunde inte sparas')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Spara igen' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Nästa' }));
    const alerts = await screen.findAllByRole('alert');
    expect(alerts.map((a) => a.textContent)).toEqual(['Skriv ett svenskt mobilnummer, t.ex. 070-123 45 67.']);
    // Put right, it is saved.
    await user.type(number, '3 45 67');
    await waitFor(() => expect(screen.getByText('Sparat')).toBeInTheDocument(), { timeout: 3000 });
  });

  it('asks for a Swedish mobile number, and a delivery time ahead, before the review', async () => {
    serve(greetie({ media: photo, message: 'Hej' }));
    const user = userEvent.setup();
    renderRoute(`/greetie/new?draft=${DRAFT_ID}`, { session: signedIn() });
    await stepHeading('Vem ska få den?');
    const number = screen.getByRole('textbox', { name: 'Mobilnummer' });
    expect(screen.getByText('Ett svenskt mobilnummer, t.ex. 070-123 45 67.')).toBeInTheDocument();

    await user.type(number, '12345');
    await user.click(screen.getByRole('button', { name: 'Nästa' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Skriv ett svenskt mobilnummer, t.ex. 070-123 45 67.');
    expect(number).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('heading', { level: 2, name: 'Vem ska få den?' })).toBeInTheDocument();

    await user.clear(number);
    await user.type(number, '070-123 45 67');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    await user.click(screen.getByRole('checkbox', { name: 'Skicka vid en senare tidpunkt' }));
    const date = screen.getByLabelText('Datum');
    await user.clear(date);
    await user.type(date, '2020-01-01');
    expect(await screen.findByRole('alert')).toHaveTextContent('Tiden har redan varit. Välj en tid framåt.');
    await user.click(screen.getByRole('button', { name: 'Nästa' }));
    expect(screen.getByRole('heading', { level: 2, name: 'Vem ska få den?' })).toBeInTheDocument();

    await user.click(screen.getByRole('checkbox', { name: 'Skicka vid en senare tidpunkt' }));
    await user.click(screen.getByRole('button', { name: 'Nästa' }));
    expect(await stepHeading('Granska din greetie')).toBeInTheDocument();
  });
});

describe("/greetie/new: the names (issue 27 and issue 22's name rule)", () => {
  it('asks a sender without a name for it in the recipient step, refuses a link before sending, and saves it to the profile before the review', async () => {
    serve(greetie({ media: photo, message: 'Hej' }));
    server['POST /api/mobileuser/u1'] = (body) => ({
      status: 200,
      body: { id: 'u1', mobileNumber: '+46701234567', name: (body as { name: string }).name, allowMarketing: false, createdAt: '2026-11-01T08:00:00.000Z' },
    });
    const user = userEvent.setup();
    renderRoute(`/greetie/new?draft=${DRAFT_ID}`, { session: signedIn({ name: null }) });
    await stepHeading('Vem ska få den?');
    await user.type(screen.getByRole('textbox', { name: 'Mobilnummer' }), '070-123 45 67');
    const own = screen.getByRole('textbox', { name: 'Ditt namn' });
    expect(screen.getByText(/Står i sms:et till mottagaren/)).toBeInTheDocument();

    await user.type(own, 'Swish: verifiera på https://evil.example');
    await user.click(screen.getByRole('button', { name: 'Nästa' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Namnet får inte innehålla länkar eller webbadresser. Skriv bara namnet.');
    expect(own).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('heading', { level: 2, name: 'Vem ska få den?' })).toBeInTheDocument();
    expect(calls.some((c) => c.path === '/api/mobileuser/u1')).toBe(false);

    await user.clear(own);
    await user.type(own, 'Anna Lind');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Nästa' }));
    expect(await stepHeading('Granska din greetie')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST' && c.path === '/api/mobileuser/u1')?.body).toEqual({ name: 'Anna Lind' });
  });

  it("does not ask a sender who has a name; the recipient's name follows the same rule, said under its field", async () => {
    serve(greetie({ media: photo, message: 'Hej' }));
    const user = userEvent.setup();
    renderRoute(`/greetie/new?draft=${DRAFT_ID}`, { session: signedIn() });
    await stepHeading('Vem ska få den?');
    expect(screen.queryByRole('textbox', { name: 'Ditt namn' })).not.toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Mobilnummer' }), '070-123 45 67');
    const name = screen.getByRole('textbox', { name: 'Namn (valfritt)' });
    await user.type(name, 'Mormor 070 123 45 67');
    await user.click(screen.getByRole('button', { name: 'Nästa' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Namnet får inte innehålla telefonnummer. Skriv bara namnet.');
    expect(name).toHaveAttribute('aria-invalid', 'true');
    await user.clear(name);
    await user.type(name, 'A.B. Svensson');
    await user.click(screen.getByRole('button', { name: 'Nästa' }));
    expect(await stepHeading('Granska din greetie')).toBeInTheDocument();
  });
});

describe('/greetie/new: sold-out gifts (issue 13)', () => {
  const fika: Product = { ...voucher, id: PRODUCT_ID, name: 'Fika för två', source: 'Code', price: 14900, minAmount: undefined, maxAmount: undefined };
  const soldOutCard: Product = { ...voucher, id: '7b2e4d3f-0000-4000-8000-000000000004', name: 'Bullkort', source: 'Code', price: 9900, minAmount: undefined, maxAmount: undefined, available: false };

  it('shows a sold-out product greyed, in its place, as "Slut just nu": it cannot be added', async () => {
    serve(greetie({ media: photo, content: [textElement] }));
    server[`GET /api/merchant/${MERCHANT_ID}/products`] = () => ({ status: 200, body: [voucher, soldOutCard, { ...fika, available: true }] });
    const user = userEvent.setup();
    renderRoute(`/greetie/new?draft=${DRAFT_ID}`, { session: signedIn() });
    await stepHeading('Lägg till presenter');
    await user.click(await screen.findByRole('button', { name: /Café Kanelbullen/ }));
    const products = await screen.findByRole('region', { name: 'Café Kanelbullen' });
    const rows = await within(products).findAllByRole('listitem');
    // Its place in the list is kept (the server's order).
    expect(rows.map((r) => within(r).getAllByRole('paragraph')[0]!.textContent)).toEqual(['Presentkort', 'Bullkort', 'Fika för två']);

    const add = within(rows[1]!).getByRole('button', { name: 'Lägg till Bullkort' });
    expect(add).toBeDisabled();
    expect(add).toHaveAttribute('aria-disabled', 'true');
    expect(add).toHaveAccessibleDescription('Slut just nu – den går inte att välja');
    expect(rows[1]).toHaveTextContent('Slut just nu');
    await user.click(add);
    expect(screen.getByText('Inga presenter valda. Det går bra att skicka utan.')).toBeInTheDocument();

    // The others can be added as before.
    for (const name of ['Presentkort', 'Fika för två']) {
      const other = within(products).getByRole('button', { name: `Lägg till ${name}` });
      expect(other).toBeEnabled();
      expect(other).not.toHaveAttribute('aria-disabled');
      expect(other).not.toHaveAccessibleDescription();
    }
    await user.click(within(products).getByRole('button', { name: 'Lägg till Fika för två' }));
    expect(screen.getByText(/^Summa:/).textContent).toBe('Summa: 149\u00a0kr');
  });

  it('a chosen gift that sold out meanwhile: the refused save names it, keeps the draft, and removing it saves the rest', async () => {
    const draft = greetie({ media: photo, content: [textElement], gifts: [{ ...gift, source: 'Code' }], total: gift.amount, message: 'Grattis!' });
    serve(draft);
    let fikaLeft = true;
    server[`GET /api/merchant/${MERCHANT_ID}/products`] = () => ({ status: 200, body: [voucher, { ...fika, available: fikaLeft }] });
    server[`PATCH /api/greetie/${DRAFT_ID}`] = (body) => {
      const gifts = (body as { gifts: { productId: string }[] }).gifts;
      if (gifts.some((g) => g.productId === PRODUCT_ID))
        return { status: 409, body: { code: 'GIFT_CODE_POOL_EMPTY', message: 'En av gåvorna är slut just nu. Välj en annan gåva.' } };
      return { status: 200, body: { ...draft, gifts: [], total: 0, message: (body as { message: string }).message } };
    };
    const user = userEvent.setup();
    renderRoute(`/greetie/new?draft=${DRAFT_ID}`, { session: signedIn() });
    await stepHeading('Vem ska få den?');

    // Meanwhile the last code was sold: the next save is refused.
    fikaLeft = false;
    await user.type(screen.getByRole('textbox', { name: 'Meddelande' }), ' Kram');
    const alert = await screen.findByRole('alert');
    await waitFor(() => expect(alert).toHaveTextContent('Fika för två från Café Kanelbullen är slut just nu.'));
    expect(alert).toHaveTextContent('En present är slut just nu');
    expect(alert).toHaveTextContent('inget annat försvinner');
    expect(alert).toHaveTextContent('Gå tillbaka till steget Presenter och ta bort den.');
    expect(alert).not.toHaveTextContent('Ändringarna kunde inte sparas');
    // Nothing is lost: the text typed stays, and the gift is still chosen.
    expect(screen.getByRole('textbox', { name: 'Meddelande' })).toHaveValue('Grattis! Kram');

    await user.click(screen.getByRole('button', { name: 'Tillbaka' }));
    await stepHeading('Lägg till presenter');
    const chosen = screen.getByRole('list', { name: 'Valda presenter' });
    expect(within(chosen).getByRole('listitem')).toHaveTextContent('Slut just nu – ta bort den för att kunna spara.');
    expect(screen.getByRole('alert')).toHaveTextContent('Fika för två från Café Kanelbullen är slut just nu.');
    expect(screen.getByRole('alert')).not.toHaveTextContent('Gå tillbaka');
    // It cannot be chosen again meanwhile.
    await user.click(screen.getByRole('button', { name: /Café Kanelbullen/ }));
    expect(await screen.findByRole('button', { name: 'Lägg till Fika för två' })).toBeDisabled();

    const saves = () => calls.filter((c) => c.method === 'PATCH');
    const before = saves().length;
    await user.click(screen.getByRole('button', { name: 'Ta bort Fika för två' }));
    await waitFor(() => expect(saves().length).toBe(before + 1));
    const body = saves().at(-1)!.body as { gifts: unknown[]; message: string; content: unknown[] };
    expect(body.gifts).toEqual([]);
    expect(body.message).toBe('Grattis! Kram');
    expect(body.content).toEqual([textElement]);
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
    expect(screen.getByText('Inga presenter valda. Det går bra att skicka utan.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Nästa' })).toBeEnabled();
  }, 15_000);

  it("another 409 keeps the save's own message; a sold-out refusal with no gift to name says so plainly", async () => {
    serve(greetie({ media: photo, content: [textElement], gifts: [gift, gift], total: 2 * gift.amount }));
    server[`PATCH /api/greetie/${DRAFT_ID}`] = () => ({ status: 409, body: { code: 'GIFT_CODE_POOL_EMPTY', message: 'En av gåvorna är slut just nu. Välj en annan gåva.' } });
    const user = userEvent.setup();
    renderRoute(`/greetie/new?draft=${DRAFT_ID}`, { session: signedIn() });
    await stepHeading('Vem ska få den?');
    // Two of a product with one code left: it is available, yet too many are chosen.
    await user.type(screen.getByRole('textbox', { name: 'Meddelande' }), 'Hej');
    const alert = await screen.findByRole('alert');
    await waitFor(() => expect(alert).toHaveTextContent('En av presenterna är slut just nu, eller så finns det inte så många kvar som du har valt.'));

    server[`PATCH /api/greetie/${DRAFT_ID}`] = () => ({ status: 409, body: { code: 'GREETIE_NOT_EDITABLE', message: 'Greetien går inte att ändra längre.' } });
    await user.click(screen.getByRole('button', { name: 'Försök spara igen' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Ändringarna kunde inte sparas'));
    expect(screen.getByRole('alert')).toHaveTextContent('Greetien går inte att ändra längre.');
    expect(screen.getByRole('alert')).not.toHaveTextContent('slut');
  });
});

describe('/greetie/new: the withdrawal consent at review (issue 25)', () => {
  const CONSENT = /^Jag vill att greetien levereras direkt och förstår att ångerrätten upphör när mottagaren öppnar den eller använder en gåva\. Tills dess kan jag avbryta och få tillbaka hela beloppet\.$/;

  it('a delivery time that has passed since it was picked is refused at the review, said at the time, with the way back to change it', async () => {
    serve(greetie({ media: photo, gifts: [gift], total: 14900, recipient: { name: 'Mormor', mobileNumber: '+46701234567' }, deliverAt: '2026-01-01T11:00:00.000Z' }));
    const user = userEvent.setup();
    renderRoute(`/greetie/new?draft=${DRAFT_ID}`, { session: signedIn() });
    await stepHeading('Granska din greetie');
    expect(await screen.findByRole('alert')).toHaveTextContent('Tiden har redan varit. Välj en tid framåt.');
    await user.click(screen.getByRole('checkbox', { name: CONSENT }));
    const pay = screen.getByRole('button', { name: 'Betala med Swish' });
    expect(pay).toBeDisabled();
    expect(pay).toHaveAccessibleDescription(/Tiden har redan varit/);
    await user.click(screen.getByRole('button', { name: 'Ändra tiden' }));
    expect(await stepHeading('Vem ska få den?')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Tiden har redan varit. Välj en tid framåt.');
    expect(calls.filter((c) => c.path.endsWith('/startpayment'))).toEqual([]);
  });

  it('pay is refused until the box is ticked: the error beside it, focus on it; ticked, startpayment carries the consent', async () => {
    serve(greetie({ media: photo, gifts: [gift], total: 14900, recipient: { name: 'Mormor', mobileNumber: '+46701234567' } }));
    server[`POST /api/greetie/${DRAFT_ID}/startpayment`] = () => ({
      status: 200,
      body: { ...paidPayment, status: 'pending', token: 't', appUrl: 'swish://paymentrequest?token=t', qrCode: '<svg/>' },
    });
    const user = userEvent.setup();
    renderRoute(`/greetie/new?draft=${DRAFT_ID}`, { session: signedIn() });
    await stepHeading('Granska din greetie');
    // A real checkbox with its label, not ticked; the terms' section on the right of withdrawal linked.
    const box = screen.getByRole('checkbox', { name: CONSENT });
    expect(box).not.toBeChecked();
    expect(screen.getByRole('link', { name: 'Läs om ångerrätten i köpvillkoren' })).toHaveAttribute('href', '/villkor#angerratt');
    const pay = screen.getByRole('button', { name: 'Betala med Swish' });
    await waitFor(() => expect(pay).toBeEnabled());

    await user.click(pay);
    expect(calls.some((c) => c.path.endsWith('/startpayment'))).toBe(false);
    expect(await stepHeading('Granska din greetie')).toBeInTheDocument();
    expect(box).toHaveFocus();
    expect(box).toHaveAttribute('aria-invalid', 'true');
    expect(box).toHaveAccessibleDescription(/Kryssa i rutan om leverans och ångerrätt för att kunna betala/);

    // By keyboard: the space bar ticks it.
    await user.keyboard(' ');
    expect(box).toBeChecked();
    expect(box).not.toHaveAttribute('aria-invalid');
    await user.click(pay);
    await stepHeading('Betala med Swish');
    await waitFor(() => expect(calls.find((c) => c.path.endsWith('/startpayment'))?.body).toEqual({ withdrawalConsent: true }));
  });

  it('a greetie without gifts asks for nothing: there is nothing to withdraw from', async () => {
    serve(greetie({ media: photo, recipient: { name: 'Mormor', mobileNumber: '+46701234567' } }));
    renderRoute(`/greetie/new?draft=${DRAFT_ID}`, { session: signedIn() });
    await stepHeading('Granska din greetie');
    expect(screen.getByRole('button', { name: 'Skicka' })).toBeInTheDocument();
    expect(screen.queryByRole('checkbox', { name: CONSENT })).not.toBeInTheDocument();
  });
});

describe('/greetie/details/{id}', () => {
  it('deletes a draft only after the confirmation, then shows the list', async () => {
    serve(greetie({ media: photo }));
    server[`DELETE /api/greetie/${DRAFT_ID}`] = () => ({ status: 204 });
    const user = userEvent.setup();
    const { router } = renderRoute(`/greetie/details/${DRAFT_ID}`, { session: signedIn() });
    await user.click(await screen.findByRole('button', { name: 'Ta bort' }));
    const dialog = await screen.findByRole('dialog', { name: 'Ta bort greetien?' });
    expect(dialog).toHaveTextContent('Greetien och dess bild eller video tas bort. Det går inte att ångra.');

    await user.click(within(dialog).getByRole('button', { name: 'Behåll' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.filter((c) => c.method === 'DELETE')).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Ta bort' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Ta bort greetien' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/greetie/list'));
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([`/api/greetie/${DRAFT_ID}`]);
  });

  it("keeps the dialog open with the server's refusal", async () => {
    serve(greetie({ media: photo }));
    server[`DELETE /api/greetie/${DRAFT_ID}`] = () => ({ status: 409, body: { message: 'Greetien är redan skickad och kan inte tas bort.', code: 'CONFLICT' } });
    const user = userEvent.setup();
    const { router } = renderRoute(`/greetie/details/${DRAFT_ID}`, { session: signedIn() });
    await user.click(await screen.findByRole('button', { name: 'Ta bort' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Ta bort greetien' }));
    expect(await within(screen.getByRole('dialog')).findByRole('alert')).toHaveTextContent('Greetien är redan skickad och kan inte tas bort.');
    expect(router.state.location.pathname).toBe(`/greetie/details/${DRAFT_ID}`);
  });
});

describe('/greetie/list', () => {
  it("draws each greetie's picture with its content over it, and a gift where there is no picture yet", async () => {
    const withPhoto = greetie({
      id: '5d1c0c3e-0000-4000-8000-0000000000a1',
      status: 'delivered',
      media: { ...photo, thumbnailUrl: '/api/media/TTTTTTTTTTTTTTTTTTTTTT.webp', overlayUrl: '/api/media/OOOOOOOOOOOOOOOOOOOOOO.webp' },
    });
    const noMedia = greetie({ id: '5d1c0c3e-0000-4000-8000-0000000000a2', status: 'delivered', media: null });
    server = { 'GET /api/greetie': () => ({ status: 200, body: [withPhoto, noMedia] }) };
    renderRoute('/greetie/list', { session: signedIn() });
    const links = await screen.findAllByRole('link', { name: /Mormor|Någon|mottagare/i });
    expect(links.length).toBeGreaterThanOrEqual(2);
    const [photoThumb] = await screen.findAllByTestId('greetie-thumb');
    // The photo's small copy first, the (transparent) content over it.
    expect([...photoThumb!.querySelectorAll('img')].map((i) => i.getAttribute('src'))).toEqual([withPhoto.media!.thumbnailUrl, withPhoto.media!.overlayUrl]);
    expect(screen.getAllByTestId('greetie-thumb')).toHaveLength(1);
    expect(screen.getByTestId('greetie-thumb-empty').querySelector('svg')).not.toBeNull();
  });

  const DRAFT_A = '5d1c0c3e-0000-4000-8000-0000000000b1';
  const DRAFT_B = '5d1c0c3e-0000-4000-8000-0000000000b2';
  const DRAFT_C = '5d1c0c3e-0000-4000-8000-0000000000b3';
  const drafts = () => [
    greetie({ id: DRAFT_A, media: { ...photo, thumbnailUrl: '/api/media/TTTTTTTTTTTTTTTTTTTTTT.webp' }, updatedAt: '2026-05-03T12:15:00.000Z' }),
    greetie({ id: DRAFT_B, recipient: { name: 'Mormor', mobileNumber: '+46701112233' }, updatedAt: '2026-05-02T09:05:00.000Z' }),
    greetie({ id: DRAFT_C, message: 'Grattis på födelsedagen, Kalle!', updatedAt: '2026-05-01T08:00:00.000Z' }),
  ];

  it('each draft says what it is: its picture, its recipient or "Utkast", when it was changed, and its message', async () => {
    server = { 'GET /api/greetie': () => ({ status: 200, body: drafts() }) };
    renderRoute('/greetie/list', { session: signedIn() });
    const sent = (await screen.findByRole('heading', { level: 2, name: 'Skickade' })).closest('section')!;
    const rows = await within(sent).findAllByRole('listitem');
    expect(rows).toHaveLength(3);
    expect(within(rows[0]!).getByTestId('greetie-thumb')).toBeInTheDocument();
    expect(rows[0]).toHaveTextContent('Utkast · ändrat 3 maj 2026 14:15');
    expect(rows[1]).toHaveTextContent('Mormor');
    expect(rows[1]).toHaveTextContent('ändrat 2 maj 2026 11:05');
    expect(rows[2]).toHaveTextContent('Grattis på födelsedagen, Kalle!');
    expect(screen.queryByText('Ingen mottagare än')).not.toBeInTheDocument();
    // No two rows read the same.
    expect(new Set(rows.map((r) => r.textContent)).size).toBe(3);
  });

  it('a draft is deleted from the list after "Ta bort" is confirmed; "Behåll" keeps it', async () => {
    let left = drafts();
    server = {
      'GET /api/greetie': () => ({ status: 200, body: left }),
      [`DELETE /api/greetie/${DRAFT_B}`]: () => {
        left = left.filter((g) => g.id !== DRAFT_B);
        return { status: 204 };
      },
    };
    const user = userEvent.setup();
    renderRoute('/greetie/list', { session: signedIn() });
    const remove = await screen.findByRole('button', { name: 'Ta bort utkastet: Mormor, ändrat 2 maj 2026 11:05' });
    await user.click(remove);
    const dialog = await screen.findByRole('alertdialog', { name: 'Ta bort utkastet?' });
    await user.click(within(dialog).getByRole('button', { name: 'Behåll' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(calls.filter((c) => c.method === 'DELETE')).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Ta bort utkastet: Mormor, ändrat 2 maj 2026 11:05' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Ta bort utkastet' }));
    await waitFor(() => expect(screen.queryByText('Mormor')).not.toBeInTheDocument());
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([`/api/greetie/${DRAFT_B}`]);
    expect(screen.getAllByRole('button', { name: /^Ta bort utkastet:/ })).toHaveLength(2);
  });

  it('a draft the server will not delete (sent meanwhile) stays, and the dialog says why', async () => {
    server = {
      'GET /api/greetie': () => ({ status: 200, body: drafts() }),
      [`DELETE /api/greetie/${DRAFT_A}`]: () => ({ status: 409, body: { code: 'GREETIE_NOT_DRAFT', message: 'Greetien är redan skickad och kan inte tas bort.' } }),
    };
    const user = userEvent.setup();
    renderRoute('/greetie/list', { session: signedIn() });
    await user.click(await screen.findByRole('button', { name: /^Ta bort utkastet: Utkast, ändrat 3 maj/ }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Ta bort utkastet' }));
    expect(await within(screen.getByRole('alertdialog')).findByRole('alert')).toHaveTextContent('Greetien är redan skickad och kan inte tas bort.');
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Behåll' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(screen.getAllByRole('button', { name: /^Ta bort utkastet:/ })).toHaveLength(3);
  });
});
