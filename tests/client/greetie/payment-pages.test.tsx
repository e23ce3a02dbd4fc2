import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Greetie } from '../../../contract/greetie.ts';
import type { Payment } from '../../../contract/payment.ts';
import { createI18n } from '../../../src/i18n.ts';
import { PendingPaymentsSection } from '../../../src/pages/sandbox/PendingPaymentsSection.tsx';
import { installDomStubs, renderRoute, signedIn } from '../shell/render.tsx';
import { DRAFT_ID, gift, greetie } from '../../model/hooks/compose.ts';

/**
 * The payment's pages on the real routes: the server is fetch, answered at once from `server` (by
 * method and path; a function may answer differently call by call).
 */
type Answer = { status: number; body?: unknown };
let server: Record<string, (body: unknown) => Answer>;
let calls: { method: string; path: string; body: unknown }[];

const json = ({ status, body }: Answer) =>
  new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const payment = (over: Partial<Payment> = {}): Payment => ({
  id: '22222222-2222-4222-8222-222222222222',
  greetieId: DRAFT_ID,
  provider: 'sandbox',
  status: 'pending',
  amount: 14900,
  redirectUrl: null,
  appUrl: `swish://paymentrequest?token=abc123&callbackurl=${encodeURIComponent(`https://greetie.se/greetie/details/${DRAFT_ID}`)}`,
  qrCode: '<svg xmlns="http://www.w3.org/2000/svg"><script>window.hacked = true</script><rect width="1" height="1"/></svg>',
  token: 'abc123',
  payerAlias: null,
  errorCode: null,
  createdAt: '2026-11-23T08:00:00.000Z',
  updatedAt: '2026-11-23T08:00:30.000Z',
  refund: null,
  consentedAt: '2026-11-23T07:59:00.000Z',
  orderNumber: 'G-100123',
  ...over,
});
const recipient = { name: 'Mormor', mobileNumber: '+46701234567' };
/** The withdrawal consent's label (its start). */
const CONSENT = /^Jag vill att greetien levereras direkt och förstår att ångerrätten upphör/;
const paidGreetie = (over: Partial<Greetie> = {}) => greetie({ status: 'scheduled', recipient, gifts: [gift], total: 14900, ...over });

beforeEach(() => {
  installDomStubs({ viewport: 'mobile' });
  calls = [];
  server = { 'GET /api/seller': () => ({ status: 200, body: { name: 'Greetie AB', orgNumber: '559999-9999', email: 'hej@greetie.se' } }) };
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
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('/greetie/details/{id}: where Swish returns the payer', () => {
  it('waits for the answer of an open payment, then shows the receipt: gifts, total, seller, delivery, terms', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let status: Payment['status'] = 'pending';
    let current = greetie({ status: 'awaitingPayment', recipient, gifts: [gift], total: 14900 });
    server[`GET /api/greetie/${DRAFT_ID}`] = () => ({ status: 200, body: current });
    server[`GET /api/greetie/${DRAFT_ID}/payment`] = () => ({ status: 200, body: payment({ status }) });
    renderRoute(`/greetie/details/${DRAFT_ID}`, { session: signedIn({ id: 'u1' }) });

    expect(await screen.findByText('Väntar på svar från Swish…')).toBeInTheDocument();
    expect(screen.getByText('Betalning väntar')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);

    // The payer approves in Swish; the next read finds it paid.
    status = 'paid';
    current = paidGreetie({ deliverAt: '2030-12-24T15:00:00.000Z' });
    // Reading is the stream's fallback (the stream is not answered here): the first read after 2 s.
    await vi.advanceTimersByTimeAsync(2000);
    expect(await screen.findByRole('heading', { name: 'Tack! Betalningen är klar' })).toBeInTheDocument();
    const receipt = await screen.findByRole('article', { name: 'Kvitto' });
    // The payment's order number, for people (never the greetie's refId), and the PDF to keep.
    expect(receipt).toHaveTextContent(/Ordernummer\s*G-100123/);
    expect(within(receipt).getByRole('button', { name: 'Spara kvitto' })).toBeEnabled();
    expect(within(receipt).getByText('Fika för två')).toBeInTheDocument();
    expect(within(receipt).getByText('Café Kanelbullen')).toBeInTheDocument();
    expect(receipt).toHaveTextContent(/Totalt\s*149\skr/);
    // Next to the total: the validity and the right of withdrawal, with a link to the terms.
    expect(receipt).toHaveTextContent('Gåvorna gäller från dagen då greetien levereras, så många dagar som står vid varje gåva.');
    expect(receipt).toHaveTextContent(/Ångerrätt: tills mottagaren öppnar greetien eller använder en gåva kan du avbeställa och få tillbaka allt, även efter 14 dagar\./);
    expect(within(receipt).getByRole('link', { name: 'Läs mer i köpvillkoren' })).toHaveAttribute('href', '/villkor');
    expect(await within(receipt).findByText('Greetie AB, Org.nr 559999-9999')).toBeInTheDocument();
    expect(receipt).toHaveTextContent('Mottagaren får ett sms med din greetie 24 december 2030 16:00.');
    expect(within(receipt).getByRole('link', { name: 'Köpvillkor' })).toHaveAttribute('href', '/villkor');
    expect(within(receipt).getByRole('link', { name: 'Integritetspolicy' })).toHaveAttribute('href', '/integritet');
    // The page read the greetie again: it is scheduled now.
    expect(await screen.findByText('Schemalagd')).toBeInTheDocument();
  }, 15_000);

  it('a declined payment says so and offers to try again (after the withdrawal consent) or go back to the review', async () => {
    server[`GET /api/greetie/${DRAFT_ID}`] = () => ({ status: 200, body: greetie({ status: 'draft', recipient, gifts: [gift], total: 14900 }) });
    server[`GET /api/greetie/${DRAFT_ID}/payment`] = () => ({ status: 200, body: payment({ status: 'declined', errorCode: 'RF07' }) });
    server[`POST /api/greetie/${DRAFT_ID}/startpayment`] = () => ({ status: 200, body: payment() });
    renderRoute(`/greetie/details/${DRAFT_ID}`, { session: signedIn({ id: 'u1' }) });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Betalningen nekades');
    expect(alert).toHaveTextContent('Inga pengar har dragits.');
    // A new payment needs the withdrawal consent: trying without it starts nothing, says so at the
    // box and moves focus there.
    const box = within(alert).getByRole('checkbox', { name: CONSENT });
    expect(box).not.toBeChecked();
    await userEvent.click(within(alert).getByRole('button', { name: 'Försök igen' }));
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    expect(box).toHaveFocus();
    expect(box).toHaveAttribute('aria-invalid', 'true');
    expect(box).toHaveAccessibleDescription(/Kryssa i rutan om leverans och ångerrätt för att kunna betala/);
    await userEvent.click(box);
    expect(box).not.toHaveAttribute('aria-invalid');
    await userEvent.click(within(alert).getByRole('button', { name: 'Försök igen' }));
    // A desktop's view (this test's media query): the QR code as an image, never as markup in the page.
    const qr = await screen.findByRole('img', { name: 'QR-kod för betalningen i Swish' });
    expect(qr.tagName).toBe('IMG');
    expect(document.querySelector('main svg script, main script')).toBeNull();
    expect((window as { hacked?: boolean }).hacked).toBeUndefined();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ withdrawalConsent: true });
    await userEvent.click(screen.getByRole('button', { name: 'Betala på ett annat sätt' }));
    expect(screen.getByRole('link', { name: 'Öppna Swish' })).toHaveAttribute('href', payment().appUrl);
  });

  it('a greetie without a payment yet shows no payment; a delivered one that was opened reads Sedd', async () => {
    server[`GET /api/greetie/${DRAFT_ID}`] = () => ({ status: 200, body: greetie({ status: 'draft', recipient, gifts: [gift], total: 14900 }) });
    server[`GET /api/greetie/${DRAFT_ID}/payment`] = () => ({ status: 404, body: { code: 'PAYMENT_NOT_FOUND', message: 'Det finns ingen betalning.' } });
    const first = renderRoute(`/greetie/details/${DRAFT_ID}`, { session: signedIn({ id: 'u1' }) });
    expect(await screen.findByText('Utkast')).toBeInTheDocument();
    await waitFor(() => expect(calls.some((c) => c.path.endsWith('/payment'))).toBe(true));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByText('Fika för två')).toBeInTheDocument();
    first.unmount();

    server[`GET /api/greetie/${DRAFT_ID}`] = () => ({
      status: 200,
      body: paidGreetie({ status: 'delivered', viewed: true, deliveredAt: '2026-11-23T09:00:00.000Z', viewedAt: '2026-11-23T10:00:00.000Z' }),
    });
    server[`GET /api/greetie/${DRAFT_ID}/payment`] = () => ({ status: 200, body: payment({ status: 'paid' }) });
    renderRoute(`/greetie/details/${DRAFT_ID}`, { session: signedIn({ id: 'u1' }) });
    expect(await screen.findByText('Sedd')).toBeInTheDocument();
    expect(await screen.findByText('Din greetie levererades 23 november 2026 10:00.')).toBeInTheDocument();
  });
});

describe('the payment started from the review: the server refuses', () => {
  it.each([
    [409, 'GIFT_CODE_POOL_EMPTY', 'En av gåvorna är slut just nu. Välj en annan gåva.'],
    [429, 'SEND_LIMIT_DAY', 'Du har skickat 20 greeties i dag. Försök igen i morgon.'],
    [400, 'PAYMENT_BE18', 'Swish-numret är inte kopplat till Swish.'],
    [409, 'PAYMENT_RP06', 'Det finns redan en betalning som väntar i din Swish. Avsluta den först.'],
    [503, 'PAYMENT_UNAVAILABLE', 'Swish svarar inte just nu. Försök igen om en stund.'],
  ])('%i %s: its own message, try again or back to the review', async (status, code, message) => {
    server[`GET /api/greetie/${DRAFT_ID}`] = () => ({ status: 200, body: greetie({ status: 'draft', recipient, gifts: [gift], total: 14900 }) });
    server[`GET /api/greetie/${DRAFT_ID}/payment`] = () => ({ status: 200, body: payment({ status: 'expired', errorCode: 'TM01' }) });
    server[`POST /api/greetie/${DRAFT_ID}/startpayment`] = () => ({ status, body: { code, message } });
    const { router } = renderRoute(`/greetie/details/${DRAFT_ID}`, { session: signedIn({ id: 'u1' }) });
    const expired = await screen.findByRole('alert');
    expect(expired).toHaveTextContent('Tiden gick ut');
    await userEvent.click(within(expired).getByRole('checkbox', { name: CONSENT }));
    await userEvent.click(within(expired).getByRole('button', { name: 'Försök igen' }));
    const alert = await screen.findByRole('alert', { name: '' });
    await waitFor(() => expect(alert).toHaveTextContent('Betalningen kunde inte startas'));
    expect(alert).toHaveTextContent(message);
    // Back to the review: the draft opens in the compose page, which then names the step it shows
    // in the address (/greetie/new/media: this draft has no photo yet), at once when its code is
    // loaded already.
    await userEvent.click(within(alert).getByRole('button', { name: 'Tillbaka till granskningen' }));
    await waitFor(() => expect(router.state.location.pathname).toMatch(/^\/greetie\/new(\/|$)/));
    expect(router.state.location.search).toBe(`?draft=${DRAFT_ID}`);
  });
});

describe('/sandbox: pending payments', () => {
  it('lists them and answers one as the payer would', async () => {
    let pending = [payment(), payment({ id: '33333333-3333-4333-8333-333333333333', amount: 29900, payerAlias: '+46701234567', appUrl: null, qrCode: null, token: null })];
    server['GET /api/sandbox/payments'] = () => ({ status: 200, body: pending });
    server['POST /api/sandbox/payments/33333333-3333-4333-8333-333333333333'] = () => {
      pending = pending.slice(0, 1);
      return { status: 200, body: payment({ status: 'paid' }) };
    };
    render(
      <I18nextProvider i18n={createI18n('sv')}>
        <MemoryRouter>
          <PendingPaymentsSection />
        </MemoryRouter>
      </I18nextProvider>,
    );
    const list = await screen.findByRole('list', { name: 'Väntande betalningar' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[1]).toHaveTextContent('+46701234567');
    const group = within(items[1]!).getByRole('group', { name: 'Svara på betalningen på 299\u00a0kr' });
    expect(within(group).getAllByRole('button').map((b) => b.textContent)).toEqual(['Godkänn', 'Neka', 'Avbryt', 'Fel', 'Tidsgräns']);
    await userEvent.click(within(group).getByRole('button', { name: 'Godkänn' }));
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({ path: '/api/sandbox/payments/33333333-3333-4333-8333-333333333333', body: { outcome: 'paid' } });
    expect(await screen.findByText('Betalningen på 299 kr fick svaret ”Godkänn”.')).toBeInTheDocument();
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1));
  }, 15_000);
});
