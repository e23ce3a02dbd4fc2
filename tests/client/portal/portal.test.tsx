import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PortalRedemption } from '../../../contract/portal.ts';
import { api } from '../../../src/api/client.ts';
import { settlementFileName, slugOf } from '../../../src/pages/portal/download.ts';
import { periodsAt } from '../../../src/pages/portal/period.ts';
import { installDomStubs, renderRoute, signedIn } from '../shell/render.tsx';
import { KANELBULLEN, bookshop, installPortalServer, owner, page, staff, type PortalServer } from './fakePortal.ts';

const r = (n: number, extra: Partial<PortalRedemption> = {}): PortalRedemption => ({
  id: `7a1b2c3d-0000-4000-8000-0000000000${String(n).padStart(2, '0')}`,
  voucherId: `8b2c3d4e-0000-4000-8000-0000000000${String(n).padStart(2, '0')}`,
  productName: `Produkt ${n}`,
  amount: 10000 + n,
  redeemedAt: '2026-11-27T13:05:00.000Z',
  via: 'code',
  undone: false,
  ...extra,
});

let clicked: HTMLAnchorElement[];
let server: PortalServer;
const rows = () => screen.queryAllByTestId('redemption-row');
const me = (merchants = [owner]) => signedIn({ id: 'u1', merchants });

beforeEach(() => {
  installDomStubs({ viewport: 'mobile' });
  clicked = [];
  URL.createObjectURL = vi.fn(() => 'blob:settlement');
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    clicked.push(this);
  });
});

afterEach(() => {
  api.setToken(null);
  vi.restoreAllMocks();
});

describe('periods in Europe/Stockholm', () => {
  it("today and this month are Stockholm's days, whatever the device's zone", () => {
    // 23:30 UTC on 30 November is already 1 December in Stockholm.
    expect(periodsAt(new Date('2026-11-30T23:30:00Z'))).toEqual({
      today: { from: '2026-12-01', to: '2026-12-02' },
      month: { from: '2026-12-01', to: '2027-01-01' },
    });
    expect(periodsAt(new Date('2026-11-27T12:00:00Z'))).toEqual({
      today: { from: '2026-11-27', to: '2026-11-28' },
      month: { from: '2026-11-01', to: '2026-12-01' },
    });
  });

  it('the file name says the merchant and the period', () => {
    expect(slugOf('Café Kanelbullen')).toBe('cafe-kanelbullen');
    expect(settlementFileName('Café Kanelbullen', '2026-11-01', '2026-11-30')).toBe('greetie-cafe-kanelbullen-2026-11-01-till-2026-11-30.csv');
    expect(settlementFileName('Åre Ö', null, null)).toBe('greetie-are-o-start-till-idag.csv');
  });
});

describe('/portal', () => {
  it('no merchant: a friendly page that says what it is for and how to get access', async () => {
    server = installPortalServer([]);
    renderRoute('/portal', { session: me([]) });
    expect(await screen.findByRole('heading', { level: 1, name: 'Handlarsidorna är för handlare' })).toBeInTheDocument();
    expect(screen.getByText(/Be Greetie koppla ditt mobilnummer till handlaren/)).toBeInTheDocument();
  });

  it('one merchant: straight to its page', async () => {
    server = installPortalServer([owner]);
    const { router } = renderRoute('/portal', { session: me() });
    expect(await screen.findByRole('heading', { level: 1, name: 'Café Kanelbullen' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(`/portal/${KANELBULLEN}`);
  });

  it('several: a chooser with each merchant and the role there', async () => {
    server = installPortalServer([owner, bookshop]);
    renderRoute('/portal', { session: me([owner, bookshop]) });
    const links = await screen.findAllByRole('link', { name: /Café Kanelbullen|Bokhandeln/ });
    expect(links.map((l) => l.textContent)).toEqual(['Café Kanelbullen, Ägare', 'Bokhandeln, Personal']);
    expect(links[1]).toHaveAttribute('href', `/portal/${bookshop.id}`);
  });

  it('a merchant the person does not work for is not found', async () => {
    server = installPortalServer([owner]);
    renderRoute(`/portal/${bookshop.id}`, { session: me() });
    expect(await screen.findByRole('heading', { level: 1, name: 'Sidan finns inte' })).toBeInTheDocument();
    expect(server.calls.some((c) => c.path.includes('/summary'))).toBe(false);
  });
});

describe('/portal/{merchantId}', () => {
  it("the owner: name, role, today's and this month's figures, outstanding explained, till mode, CSV and 'Byt handlarkod'", async () => {
    server = installPortalServer([owner]);
    renderRoute(`/portal/${KANELBULLEN}`, { session: me() });
    expect(await screen.findByRole('heading', { level: 1, name: 'Café Kanelbullen' })).toBeInTheDocument();
    expect(screen.getByTestId('portal-role')).toHaveTextContent('Du är inloggad som ägare.');
    expect(await screen.findByTestId('summary-today')).toHaveTextContent('Inlöst i dag194 kr2 presenter');
    expect(screen.getByTestId('summary-month')).toHaveTextContent(/^Inlöst i \p{L}+1 234,50 kr14 presenter$/u);
    expect(screen.getByTestId('summary-outstanding')).toHaveTextContent('3 580 kr');
    expect(screen.getByTestId('summary-outstanding')).toHaveTextContent('Det kunderna har kvar på giltiga presentkort. Greetie betalar er när de löses in.');
    expect(screen.getByTestId('summary-expired')).toHaveTextContent('450 kr');
    const { today, month } = periodsAt(new Date());
    const asked = server.calls.filter((c) => c.path.endsWith('/summary')).map((c) => ({ from: c.query.get('from'), to: c.query.get('to') }));
    expect(asked).toEqual(expect.arrayContaining([today, month]));
    expect(screen.getByRole('link', { name: 'Skanna kund' })).toHaveAttribute('href', `/portal/${KANELBULLEN}/kassa`);
    expect(screen.getByRole('button', { name: 'Ladda ner (CSV)' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Byt handlarkod' })).toBeInTheDocument();
  });

  it('staff: the same figures and list, but neither the CSV nor the code', async () => {
    server = installPortalServer([staff]);
    server.redemptions = () => page([r(1)]);
    renderRoute(`/portal/${KANELBULLEN}`, { session: me([staff]) });
    expect(await screen.findByTestId('portal-role')).toHaveTextContent('Du är inloggad som personal.');
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(await screen.findByTestId('summary-today')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Skanna kund' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Ladda ner (CSV)' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Byt handlarkod' })).not.toBeInTheDocument();
  });

  it('rows: time, product, amount in kr, QR or kod, and Ångrad marked', async () => {
    server = installPortalServer([owner]);
    server.redemptions = () => page([r(1, { via: 'qr', productName: 'Fika för två', amount: 14900 }), r(2, { undone: true, productName: 'Presentkort', amount: 20000 })]);
    renderRoute(`/portal/${KANELBULLEN}`, { session: me() });
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(rows()[0]).toHaveTextContent('Fika för två149 kr27 november 2026 14:05 · QR');
    expect(rows()[0]).not.toHaveTextContent('Ångrad');
    expect(rows()[1]).toHaveTextContent('PresentkortÅngrad200 kr27 november 2026 14:05 · kod');
  });

  it("empty: 'Inga inlösta presenter under perioden'", async () => {
    server = installPortalServer([owner]);
    renderRoute(`/portal/${KANELBULLEN}`, { session: me() });
    expect(await screen.findByText('Inga inlösta presenter under perioden')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Visa fler' })).not.toBeInTheDocument();
  });

  it("paging: 'Visa fler' asks for the Link header's cursor and adds the page; none after the last", async () => {
    server = installPortalServer([owner]);
    server.redemptions = (call) => (call.query.get('cursor') === 'c2' ? page([r(3)]) : page([r(1), r(2)], 'c2'));
    const { user } = renderRoute(`/portal/${KANELBULLEN}`, { session: me() });
    await waitFor(() => expect(rows()).toHaveLength(2));
    await user.click(screen.getByRole('button', { name: 'Visa fler' }));
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(rows().map((x) => within(x).getByText(/^Produkt/).textContent)).toEqual(['Produkt 1', 'Produkt 2', 'Produkt 3']);
    expect(screen.queryByRole('button', { name: 'Visa fler' })).not.toBeInTheDocument();
    const asked = server.calls.filter((c) => c.path.endsWith('/redemptions')).map((c) => c.query.get('cursor'));
    expect(asked).toEqual([null, 'c2']);
  });

  it('a load that fails says so, with Försök igen', async () => {
    server = installPortalServer([owner]);
    let fail = true;
    server.redemptions = () => (fail ? new Response(JSON.stringify({ code: 'DB_UNAVAILABLE', message: 'Databasen svarar inte.' }), { status: 503, headers: { 'content-type': 'application/json' } }) : page([r(1)]));
    const { user } = renderRoute(`/portal/${KANELBULLEN}`, { session: me() });
    const alert = await screen.findByText(/De inlösta presenterna kunde inte hämtas/);
    fail = false;
    await user.click(within(alert.closest('[role="alert"]') as HTMLElement).getByRole('button', { name: 'Försök igen' }));
    await waitFor(() => expect(rows()).toHaveLength(1));
  });

  it('the period: from and up to and including become [from, the day after); an end before the start is refused here', async () => {
    server = installPortalServer([owner]);
    const { user } = renderRoute(`/portal/${KANELBULLEN}`, { session: me() });
    await screen.findByText('Inga inlösta presenter under perioden');
    const from = screen.getByLabelText('Från');
    const to = screen.getByLabelText('Till och med');
    await user.type(from, '2026-11-10');
    await user.type(to, '2026-11-01');
    await user.click(screen.getByRole('button', { name: 'Visa' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Slutdatumet kan inte vara före startdatumet.');
    expect(server.calls.filter((c) => c.path.endsWith('/redemptions'))).toHaveLength(1);
    await user.clear(to);
    await user.type(to, '2026-11-30');
    await user.click(screen.getByRole('button', { name: 'Visa' }));
    await waitFor(() => expect(server.calls.filter((c) => c.path.endsWith('/redemptions'))).toHaveLength(2));
    const last = server.calls.filter((c) => c.path.endsWith('/redemptions')).at(-1)!;
    expect({ from: last.query.get('from'), to: last.query.get('to') }).toEqual({ from: '2026-11-10', to: '2026-12-01' });
  });

  it("'Ladda ner (CSV)' fetches the period's file with the sign-in and saves it named by merchant and period", async () => {
    server = installPortalServer([owner]);
    const { user } = renderRoute(`/portal/${KANELBULLEN}`, { session: me() });
    await screen.findByText('Inga inlösta presenter under perioden');
    // The fake session's sign-in as the app's client holds it (the auth machine's persistSession does it in the app).
    api.setToken('access-token');
    await user.type(screen.getByLabelText('Från'), '2026-11-01');
    await user.type(screen.getByLabelText('Till och med'), '2026-11-30');
    await user.click(screen.getByRole('button', { name: 'Visa' }));
    await waitFor(() => expect(server.calls.filter((c) => c.path.endsWith('/redemptions'))).toHaveLength(2));
    await user.click(screen.getByRole('button', { name: 'Ladda ner (CSV)' }));
    expect(await screen.findByText('Filen greetie-cafe-kanelbullen-2026-11-01-till-2026-11-30.csv är nedladdad.')).toBeInTheDocument();
    const csv = server.calls.find((c) => c.path.endsWith('/redemptions.csv'))!;
    expect({ from: csv.query.get('from'), to: csv.query.get('to') }).toEqual({ from: '2026-11-01', to: '2026-12-01' });
    expect(csv.headers.authorization).toBe('Bearer access-token');
    expect(clicked).toHaveLength(1);
    expect(clicked[0]!.download).toBe('greetie-cafe-kanelbullen-2026-11-01-till-2026-11-30.csv');
    expect(clicked[0]!.href).toBe('blob:settlement');
    const blob = vi.mocked(URL.createObjectURL).mock.calls[0]![0] as Blob;
    const bytes = new Uint8Array(await blob.arrayBuffer());
    // The BOM is kept: Excel reads the file as UTF-8.
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  });

  it('a CSV that fails says why and saves nothing', async () => {
    server = installPortalServer([owner]);
    server.csv = () => new Response(JSON.stringify({ code: 'OWNER_ONLY', message: 'Det här får bara ägaren göra.' }), { status: 403, headers: { 'content-type': 'application/json' } });
    const { user } = renderRoute(`/portal/${KANELBULLEN}`, { session: me() });
    await screen.findByText('Inga inlösta presenter under perioden');
    await user.click(screen.getByRole('button', { name: 'Ladda ner (CSV)' }));
    expect(await screen.findByText(/Filen kunde inte laddas ner/)).toHaveAttribute('role', 'alert');
    expect(clicked).toHaveLength(0);
  });
});

describe("'Byt handlarkod'", () => {
  it('confirms that the old code stops at every till, shows the new one once, copies it, and forgets it', async () => {
    server = installPortalServer([owner]);
    const { user } = renderRoute(`/portal/${KANELBULLEN}`, { session: me() });
    await user.click(await screen.findByRole('button', { name: 'Byt handlarkod' }));
    const confirm = await screen.findByRole('dialog', { name: 'Byta handlarkod?' });
    expect(confirm).toHaveTextContent('Den gamla koden slutar gälla direkt, i alla kassor.');
    expect(server.calls.some((c) => c.path.endsWith('/code'))).toBe(false);
    await user.click(within(confirm).getByRole('button', { name: 'Byt kod' }));
    const shown = await screen.findByRole('dialog', { name: 'Din nya handlarkod' });
    expect(within(shown).getByTestId('new-merchant-code')).toHaveTextContent('K7PQ42XM');
    expect(server.calls.filter((c) => c.path.endsWith('/code'))).toHaveLength(1);
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await user.click(within(shown).getByRole('button', { name: 'Kopiera' }));
    expect(writeText).toHaveBeenCalledWith('K7PQ42XM');
    expect(await within(shown).findByText('Koden är kopierad.')).toBeInTheDocument();
    // Escape does not lose a code that is shown only once.
    await user.keyboard('{Escape}');
    expect(screen.getByRole('dialog', { name: 'Din nya handlarkod' })).toBeInTheDocument();
    await user.click(within(shown).getByRole('button', { name: 'Jag har sparat koden' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.queryByText('K7PQ42XM')).not.toBeInTheDocument();
    expect(JSON.stringify(sessionStorage)).not.toContain('K7PQ42XM');
    expect(JSON.stringify(localStorage)).not.toContain('K7PQ42XM');
  });

  it('a clipboard that refuses says how to copy by hand', async () => {
    server = installPortalServer([owner]);
    const { user } = renderRoute(`/portal/${KANELBULLEN}`, { session: me() });
    await user.click(await screen.findByRole('button', { name: 'Byt handlarkod' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Byt kod' }));
    const shown = await screen.findByRole('dialog', { name: 'Din nya handlarkod' });
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: vi.fn().mockRejectedValue(new Error('denied')) }, configurable: true });
    document.execCommand = vi.fn(() => false);
    await user.click(within(shown).getByRole('button', { name: 'Kopiera' }));
    expect(await within(shown).findByText('Det gick inte att kopiera. Markera koden och kopiera den själv.')).toBeInTheDocument();
  });

  it('a refusal keeps the old code and says why; Avbryt sends nothing', async () => {
    server = installPortalServer([owner]);
    server.code = () => new Response(JSON.stringify({ code: 'OWNER_ONLY', message: 'Det här får bara ägaren göra.' }), { status: 403, headers: { 'content-type': 'application/json' } });
    const { user } = renderRoute(`/portal/${KANELBULLEN}`, { session: me() });
    await user.click(await screen.findByRole('button', { name: 'Byt handlarkod' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Avbryt' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(server.calls.some((c) => c.path.endsWith('/code'))).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Byt handlarkod' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Byt kod' }));
    const failed = await screen.findByRole('dialog', { name: 'Koden byttes inte' });
    expect(within(failed).getByRole('alert')).toHaveTextContent('Den gamla koden gäller fortfarande.');
    await user.click(within(failed).getByRole('button', { name: 'Stäng' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});
