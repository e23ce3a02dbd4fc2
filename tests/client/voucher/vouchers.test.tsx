import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configure, screen, waitFor, within } from '@testing-library/react';
import { installDomStubs, renderRoute, signedIn } from '../shell/render.tsx';
import type { Voucher } from '../../../contract/voucher.ts';
import { all, charity, code, ids, instore } from '../../fixtures/vouchers.ts';
import { fakeVoucherServer, json } from './server.ts';

/**
 * "Mina gåvor" (/voucher, /voucher/{id}) through the real route table, the real auth machine and
 * the app's real voucher store; fetch answers like the API.
 */

vi.setConfig({ testTimeout: 15_000 });
configure({ asyncUtilTimeout: 5_000 });

let server: ReturnType<typeof fakeVoucherServer>;
beforeEach(() => {
  installDomStubs({ viewport: 'mobile' });
  server = fakeVoucherServer();
});
afterEach(() => vi.restoreAllMocks());

const session = signedIn({ id: 'u1', name: 'Anna Andersson' });
const section = (name: RegExp) => screen.getByRole('region', { name });
const cardTexts = (region: HTMLElement) => within(region).getAllByRole('listitem').map((li) => li.textContent ?? '');

describe('/voucher (Mina gåvor)', () => {
  it('says it is fetching, then lists the active vouchers first and the used and expired ones greyed below with their dates', async () => {
    const hold = server.hold((c) => c.path === '/api/voucher');
    renderRoute('/voucher', { session });
    expect(await screen.findByText('Hämtar dina gåvor…')).toHaveAttribute('role', 'status');
    hold.release();
    await screen.findByRole('heading', { level: 2, name: /Att använda/ });
    const active = cardTexts(section(/Att använda/));
    expect(active).toHaveLength(3);
    expect(active.every((t) => t.includes('Giltig t.o.m. 22 november 2027'))).toBe(true);
    expect(active.join('|')).toMatch(/Café Kanelbullen.*Fika för två.*149\u00a0kr/);
    const spent = cardTexts(section(/Använda och utgångna/));
    expect(spent).toEqual([expect.stringContaining('Gick ut 31 januari 2026'), expect.stringContaining('Inlöst 20 november 2026')]);
    for (const link of within(section(/Använda och utgångna/)).getAllByRole('link')) expect(link.className).toMatch(/spent/i);
    expect(document.title).toBe('Mina gåvor · Greetie');
  });

  it('/voucher/list is the same page', async () => {
    renderRoute('/voucher/list', { session });
    expect(await screen.findByRole('heading', { level: 1, name: 'Mina gåvor' })).toBeInTheDocument();
    await screen.findByRole('heading', { level: 2, name: /Att använda/ });
  });

  it('with no vouchers, explains how gifts arrive', async () => {
    server.answer('GET /api/voucher', () => json(200, []));
    renderRoute('/voucher', { session });
    expect(await screen.findByRole('heading', { name: 'Inga gåvor ännu' })).toBeInTheDocument();
    expect(screen.getByText(/får du ett sms med en länk/)).toBeInTheDocument();
  });

  it('a failed load says so with the reason, and "Försök igen" loads again', async () => {
    let fail = true;
    server.answer('GET /api/voucher', () => (fail ? json(503, { code: 'DB_UNAVAILABLE', message: 'Databasen svarar inte.' }) : json(200, [instore])));
    const { user } = renderRoute('/voucher', { session });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Vi kunde inte hämta dina gåvor');
    expect(alert).toHaveTextContent('Databasen svarar inte.');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Försök igen' }));
    expect(await screen.findByText('Fika för två')).toBeInTheDocument();
  });
});

describe('/voucher/{id}', () => {
  it("InStore: 'Lös in i butiken' leads to the till screen", async () => {
    const { user, router } = renderRoute(`/voucher/${ids.instore}`, { session });
    expect(await screen.findByRole('heading', { level: 1, name: 'Fika för två' })).toBeInTheDocument();
    expect(screen.getByText('Giltig t.o.m. 22 november 2027')).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Lös in i butiken' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/redeem/voucher/${ids.instore}`));
  });

  it('InStore: says what the gift is, who it is from, and where and when to use it, with a map link in a new tab', async () => {
    renderRoute(`/voucher/${ids.instore}`, { session });
    expect(await screen.findByRole('heading', { level: 1, name: 'Fika för två' })).toBeInTheDocument();
    expect(screen.getByText('Två valfria kaffedrycker och två bakverk ur disken.')).toBeInTheDocument();
    expect(screen.getByText('Från Astrid Lindqvist')).toBeInTheDocument();
    expect(screen.getByText(/Skånegatan 73/).closest('address')).toHaveTextContent('Skånegatan 73116 37 Stockholm');
    expect(screen.getByText('Mån–fre 7–18, lör–sön 9–17')).toBeInTheDocument();
    const map = screen.getByRole('link', { name: /^Visa på kartan ?– Café Kanelbullen, öppnas i en ny flik$/ });
    expect(map).toHaveAttribute('href', 'https://www.google.com/maps/search/?api=1&query=Sk%C3%A5negatan%2073%2C%20116%2037%20Stockholm');
    expect(map).toHaveAttribute('target', '_blank');
    expect(map).toHaveAttribute('rel', 'noopener noreferrer');
  });

  it('the Mina gåvor card says what it is, who it is from and where', async () => {
    renderRoute('/voucher', { session });
    await screen.findByRole('heading', { level: 2, name: /Att använda/ });
    const card = cardTexts(section(/Att använda/)).find((c) => c.includes('Fika för två'))!;
    expect(card).toContain('Två valfria kaffedrycker och två bakverk ur disken.');
    expect(card).toContain('Från Astrid Lindqvist');
    expect(card).toContain('Skånegatan 73, Stockholm');
  });

  it('Code: the code, copied with an announced confirmation, and marked used', async () => {
    const { user } = renderRoute(`/voucher/${ids.code}`, { session });
    // After render: user-event puts its own clipboard in place when it is set up.
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    expect(await screen.findByText(code.code!)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Kopiera koden' }));
    expect(writeText).toHaveBeenCalledWith(code.code);
    expect(await screen.findByText('Koden är kopierad.')).toHaveAttribute('role', 'status');
    await user.click(screen.getByRole('button', { name: 'Markera som använd' }));
    expect(await screen.findByText('Gåvan är markerad som använd.')).toHaveAttribute('role', 'status');
    expect(screen.getByTestId('voucher-status')).toHaveTextContent(/^Använd \d+ \w+ 20\d\d$/);
    expect(screen.queryByRole('button', { name: 'Markera som använd' })).not.toBeInTheDocument();
    expect(server.calls.filter((c) => c.method === 'POST').map((c) => `${c.path}?id=${c.query.get('id')}`)).toEqual([`/api/voucher/redeemed?id=${ids.code}`]);
  });

  it('Code: a clipboard that refuses says how to copy by hand', async () => {
    const { user } = renderRoute(`/voucher/${ids.code}`, { session });
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: vi.fn().mockRejectedValue(new Error('denied')) }, configurable: true });
    await user.click(await screen.findByRole('button', { name: 'Kopiera koden' }));
    expect(await screen.findByText(/Det gick inte att kopiera/)).toBeInTheDocument();
  });

  it("Charity: the certificate in the recipient's name; 'Skänk gåvan' asks first, 'Inte nu' sends nothing, yes gives it", async () => {
    const { user } = renderRoute(`/voucher/${ids.charity}`, { session });
    const certificate = await screen.findByRole('region', { name: 'Gåvobevis' });
    expect(certificate).toHaveTextContent('Barnens Skog');
    expect(certificate).toHaveTextContent('200 kr');
    expect(certificate).toHaveTextContent('Anna Andersson');
    await user.click(screen.getByRole('button', { name: 'Skänk gåvan' }));
    let dialog = await screen.findByRole('dialog', { name: 'Skänka gåvan till Barnens Skog?' });
    expect(dialog).toHaveTextContent('200 kr går till Barnens Skog i ditt namn.');
    await user.click(within(dialog).getByRole('button', { name: 'Inte nu' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(server.calls.filter((c) => c.method === 'POST')).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Skänk gåvan' }));
    dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Ja, skänk gåvan' }));
    const thanks = await screen.findByText('Tack! Gåvan är skänkt till Barnens Skog.');
    // The button is gone: the focus is on the thanks, not lost.
    await waitFor(() => expect(thanks).toHaveFocus());
    expect(screen.queryByRole('button', { name: 'Skänk gåvan' })).not.toBeInTheDocument();
    expect(server.calls.filter((c) => c.method === 'POST').map((c) => c.query.get('id'))).toEqual([charity.id]);
  });

  it("a failed mark says why and the voucher stays unused", async () => {
    server.answer('POST /api/voucher/redeemed', () => json(503, { code: 'DB_UNAVAILABLE', message: 'Databasen svarar inte.' }));
    const { user } = renderRoute(`/voucher/${ids.code}`, { session });
    await user.click(await screen.findByRole('button', { name: 'Markera som använd' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Det gick inte. Databasen svarar inte.');
    expect(screen.getByRole('button', { name: 'Markera som använd' })).toBeEnabled();
  });

  it("someone else's (or no) voucher: not found, no retry", async () => {
    renderRoute('/voucher/9f9f9f9f-0000-4000-8000-000000000009', { session });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Vi hittar inte den här gåvan');
    expect(within(alert).queryByRole('button')).not.toBeInTheDocument();
  });

  it('opened from the list, shows what the list knows at once', async () => {
    const { user } = renderRoute('/voucher', { session });
    await screen.findByText('Fika för två');
    const hold = server.hold((c) => c.path === `/api/voucher/${ids.instore}`);
    await user.click(screen.getByRole('link', { name: /Fika för två/ }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Fika för två' })).toBeInTheDocument();
    hold.release();
  });
});

describe('a value voucher used in parts', () => {
  const use = (n: number, amount: number, redeemedAt: string, undone = false) => ({
    id: `4d4d4d4d-0000-4000-8000-0000000000b${n}`,
    amount,
    redeemedAt,
    via: 'code' as const,
    undone,
  });
  // 349 kr: 100 kr taken, 49 kr taken and undone at once, then 49 kr again; 200 kr left.
  const partly: Voucher = {
    ...instore,
    id: '1a1a1a1a-0000-4000-8000-0000000000e1',
    product: { id: '3c3c3c3c-0000-4000-8000-0000000000e1', name: 'Presentkort valfritt belopp' },
    kind: 'value',
    amount: 34900,
    balance: 20000,
    redemptions: [use(1, 10000, '2026-11-20T09:30:00.000Z'), use(2, 4900, '2026-11-21T13:05:00.000Z', true), use(3, 4900, '2026-11-21T13:07:00.000Z')],
  };
  const unused: Voucher = { ...partly, id: '1a1a1a1a-0000-4000-8000-0000000000e2', balance: 34900, redemptions: [] };
  const nbsp = (t: string) => t.replace(/\u00a0/g, ' ');

  it("Mina gåvor: its card says what is left ('Kvar: 200 kr av 349 kr'); a fixed voucher's does not", async () => {
    server = fakeVoucherServer([partly, ...all]);
    renderRoute('/voucher', { session });
    const card = await screen.findByRole('link', { name: /Presentkort valfritt belopp/ }, { timeout: 10_000 });
    expect(nbsp(card.textContent ?? '')).toContain('Kvar: 200 kr av 349 kr');
    expect(card).toHaveAccessibleName(/Kvar: 200\skr av 349\skr/);
    expect(screen.getByRole('link', { name: /Fika för två/ }).textContent).not.toMatch(/Kvar/);
  });

  it('its page: the balance, and its uses newest first with date, amount and "Ångrad" for an undone one, as a labelled list', async () => {
    server = fakeVoucherServer([partly, ...all]);
    renderRoute(`/voucher/${partly.id}`, { session });
    expect(await screen.findByTestId('voucher-balance')).toHaveTextContent('Kvar: 200 kr av 349 kr');
    const history = screen.getByRole('region', { name: 'Användningar' });
    const list = within(history).getByRole('list', { name: 'Användningar' });
    const items = within(list).getAllByRole('listitem').map((li) => nbsp(li.textContent ?? ''));
    expect(items).toEqual(['21 november 2026 14:0749 kr', '21 november 2026 14:0549 krÅngrad', '20 november 2026 10:30100 kr']);
    expect(within(list).getAllByRole('listitem')[2]!.querySelector('time')).toHaveAttribute('datetime', '2026-11-20T09:30:00.000Z');
  });

  it('unused: the whole amount left and no uses yet; a fixed voucher shows neither', async () => {
    server = fakeVoucherServer([unused, ...all]);
    const r = renderRoute(`/voucher/${unused.id}`, { session });
    expect(await screen.findByTestId('voucher-balance')).toHaveTextContent('Kvar: 349 kr av 349 kr');
    expect(within(screen.getByRole('region', { name: 'Användningar' })).getByText('Inte använt än.')).toBeInTheDocument();
    r.unmount();
    renderRoute(`/voucher/${ids.instore}`, { session });
    await screen.findByRole('heading', { level: 1, name: 'Fika för två' });
    expect(screen.queryByTestId('voucher-balance')).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Användningar' })).not.toBeInTheDocument();
  });

  it('in English too', async () => {
    server = fakeVoucherServer([partly, ...all]);
    renderRoute(`/voucher/${partly.id}`, { session, language: 'en' });
    expect(await screen.findByTestId('voucher-balance')).toHaveTextContent('Left: 200 kr of 349 kr');
    const list = within(screen.getByRole('region', { name: 'Uses' })).getByRole('list');
    expect(nbsp(within(list).getAllByRole('listitem')[1]!.textContent ?? '')).toBe('21 November 2026 14:0549 krUndone');
  });
});
