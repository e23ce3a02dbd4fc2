import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, configure, screen, waitFor, within } from '@testing-library/react';
import { installDomStubs, renderRoute, signedIn } from '../shell/render.tsx';
import { ids } from '../../fixtures/vouchers.ts';
import { fakeVoucherServer, json, MERCHANT_CODE } from './server.ts';

/**
 * The redeem pages (/redeem, /redeem/{greetieId}, the till screen /redeem/voucher/{id}) through
 * the real route table, the app's voucher store and the redeem machine; fetch answers like the API.
 */

vi.setConfig({ testTimeout: 15_000 });
configure({ asyncUtilTimeout: 5_000 });

let server: ReturnType<typeof fakeVoucherServer>;
beforeEach(() => {
  installDomStubs({ viewport: 'mobile' });
  server = fakeVoucherServer();
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const session = signedIn({ id: 'u1', name: 'Anna Andersson' });
const redeems = () => server.calls.filter((c) => c.path === '/api/voucher/redeem');

async function openTill() {
  const r = renderRoute(`/redeem/voucher/${ids.instore}`, { session });
  await screen.findByRole('heading', { level: 1, name: 'Fika för två' });
  return r;
}

describe('the till screen', () => {
  it("shows the voucher to the staff and a field labelled 'Handlarkod' with 'Lös in'", async () => {
    await openTill();
    expect(screen.getByText('149 kr', { normalizer: (t) => t.replace(/\s/g, ' ') })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Handlarkod' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Lös in' })).toBeEnabled();
    // What the gift is, who it is from and until when, for the staff to read.
    expect(screen.getByText('Två valfria kaffedrycker och två bakverk ur disken.')).toBeInTheDocument();
    expect(screen.getByText('Från Astrid Lindqvist')).toBeInTheDocument();
    expect(screen.getByText('Giltig t.o.m. 22 november 2027')).toBeInTheDocument();
  });

  it('an empty code is refused on the phone: its own message, nothing sent', async () => {
    const { user } = await openTill();
    await user.click(screen.getByRole('button', { name: 'Lös in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Skriv handlarkoden.');
    expect(screen.getByRole('textbox', { name: 'Handlarkod' })).toHaveAttribute('aria-invalid', 'true');
    expect(redeems()).toEqual([]);
  });

  it('a wrong code: its own message, the field ready to type over', async () => {
    const { user } = await openTill();
    await user.type(screen.getByRole('textbox', { name: 'Handlarkod' }), 'FEL123');
    await user.click(screen.getByRole('button', { name: 'Lös in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Fel handlarkod. Kontrollera koden och försök igen.');
    expect(redeems().map((c) => c.body)).toEqual([{ voucherId: ids.instore, merchantCode: 'FEL123' }]);
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Handlarkod' })).toHaveFocus());
  });

  it.each([
    [409, 'VOUCHER_ALREADY_REDEEMED', 'Gåvan är redan inlöst.'],
    [410, 'VOUCHER_EXPIRED', 'Gåvan har gått ut och kan inte lösas in.'],
  ])('%i: its own message', async (status, code, text) => {
    server.answer('POST /api/voucher/redeem', () => json(status, { code, message: 'Serverns text' }));
    const { user } = await openTill();
    await user.type(screen.getByRole('textbox', { name: 'Handlarkod' }), MERCHANT_CODE);
    await user.click(screen.getByRole('button', { name: 'Lös in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(text);
  });

  it('locked (429): says when to try again, from Retry-After', async () => {
    server.answer('POST /api/voucher/redeem', () => json(429, { code: 'VOUCHER_LOCKED', message: 'Låst' }, { 'retry-after': '600' }));
    const { user } = await openTill();
    await user.type(screen.getByRole('textbox', { name: 'Handlarkod' }), MERCHANT_CODE);
    const before = Date.now();
    await user.click(screen.getByRole('button', { name: 'Lös in' }));
    const alert = await screen.findByRole('alert');
    const expected = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Stockholm', hour: '2-digit', minute: '2-digit' }).format(before + 600_000);
    const later = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Stockholm', hour: '2-digit', minute: '2-digit' }).format(Date.now() + 600_000);
    expect([`För många felaktiga koder. Försök igen kl. ${expected}.`, `För många felaktiga koder. Försök igen kl. ${later}.`]).toContain(alert.textContent);
  });

  it('the right code: a large "Inlöst" with the time now, ticking', async () => {
    const { user } = await openTill();
    await user.type(screen.getByRole('textbox', { name: 'Handlarkod' }), ' kanel1 ');
    await user.click(screen.getByRole('button', { name: 'Lös in' }));
    const heading = await screen.findByRole('heading', { level: 1, name: 'Inlöst' });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(screen.getByText(/Fika för två från Café Kanelbullen/)).toBeInTheDocument();
    const clock = screen.getByTestId('live-clock');
    expect(clock.textContent).toMatch(/^\d\d:\d\d:\d\d$/);
    const first = clock.getAttribute('datetime');
    await waitFor(() => expect(screen.getByTestId('live-clock').getAttribute('datetime')).not.toBe(first), { timeout: 2500 });
    expect(redeems().map((c) => c.body)).toEqual([{ voucherId: ids.instore, merchantCode: 'kanel1' }]);
  });

  it('after the redeem, Mina gåvor shows the voucher redeemed at once, before the list has loaded again', async () => {
    const { user, navigate } = await openTill();
    await user.type(screen.getByRole('textbox', { name: 'Handlarkod' }), MERCHANT_CODE);
    await user.click(screen.getByRole('button', { name: 'Lös in' }));
    await screen.findByRole('heading', { level: 1, name: 'Inlöst' });
    const hold = server.hold((c) => c.path === '/api/voucher');
    await navigate(`/voucher/${ids.instore}`);
    // The voucher's page: redeemed, from the store, without a new load of the voucher.
    expect(await screen.findByTestId('voucher-status')).toHaveTextContent(/^Inlöst \d+ \w+ 20\d\d$/);
    expect(screen.queryByRole('link', { name: 'Lös in i butiken' })).not.toBeInTheDocument();
    hold.release();
  });

  it('the list updates without a reload: the redeemed voucher is greyed while the list loads again', async () => {
    const { user, navigate } = renderRoute('/voucher', { session });
    await screen.findByText('Fika för två');
    await navigate(`/redeem/voucher/${ids.instore}`);
    await user.type(await screen.findByRole('textbox', { name: 'Handlarkod' }), MERCHANT_CODE);
    await user.click(screen.getByRole('button', { name: 'Lös in' }));
    await screen.findByRole('heading', { level: 1, name: 'Inlöst' });
    const hold = server.hold((c) => c.path === '/api/voucher');
    await navigate('/voucher');
    const spent = await screen.findByRole('region', { name: /Använda och utgångna/ });
    expect(within(spent).getByText('Fika för två')).toBeInTheDocument();
    expect(server.calls.filter((c) => c.path === '/api/voucher')).toHaveLength(2);
    act(() => hold.release());
  });

  it('a voucher redeemed before: says when, and offers no form', async () => {
    renderRoute(`/redeem/voucher/${ids.redeemed}`, { session });
    expect(await screen.findByText(/Gåvan löstes in 20 november 2026/)).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Handlarkod' })).not.toBeInTheDocument();
  });
});

describe('/redeem', () => {
  it('lists only what a till can redeem: active InStore vouchers', async () => {
    renderRoute('/redeem', { session });
    const links = await screen.findAllByRole('link', { name: /Café Kanelbullen/ });
    expect(links.map((l) => l.getAttribute('href'))).toEqual([`/redeem/voucher/${ids.instore}`]);
    expect(screen.queryByText('Presentkort på nätet')).not.toBeInTheDocument();
  });

  it('/redeem/{greetieId}?voucher=: the greetie\'s vouchers, the chosen one first', async () => {
    renderRoute(`/redeem/${ids.greetie}?voucher=${ids.charity}`, { session });
    await screen.findByText('Plantera tio träd');
    const items = within(screen.getByRole('main')).getAllByRole('listitem');
    expect(items[0]).toHaveTextContent('Plantera tio träd');
    expect(items[0]).toHaveTextContent('Vald gåva');
  });

  it('a greetie that is not yours (or not delivered): not found', async () => {
    renderRoute('/redeem/9f9f9f9f-0000-4000-8000-000000000009', { session });
    expect(await screen.findByRole('alert')).toHaveTextContent('Vi hittar inga gåvor här');
  });
});
