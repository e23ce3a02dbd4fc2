import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configure, screen, waitFor, within } from '@testing-library/react';
import type { MobileUser } from '../../../contract/auth.ts';
import type { Notification } from '../../../contract/notification.ts';
import { installDomStubs, renderRoute, signedIn } from '../shell/render.tsx';

/**
 * /my/notifications through the real route table: the list newest first with the
 * unread ones marked, each a link to its greetie or voucher, 'Markera alla som lästa', the empty,
 * loading and failed states. fetch is stubbed at the edge and answers like the API.
 */

vi.setConfig({ testTimeout: 15_000 });
configure({ asyncUtilTimeout: 5_000 });

const me: MobileUser = { id: 'u1', mobileNumber: '+46701234567', name: 'Anna Andersson', allowMarketing: false, merchants: [], createdAt: '2026-11-01T08:00:00.000Z' };

const note = (over: Partial<Notification>): Notification => ({
  id: '00000000-0000-4000-8000-000000000001',
  type: 'greetieReceived',
  title: 'Du har fått en greetie!',
  body: 'Bertil har skickat en greetie till dig.',
  greetieId: '00000000-0000-4000-8000-0000000000a1',
  voucherId: null,
  read: false,
  createdAt: '2026-11-21T08:00:00.000Z',
  ...over,
});

let items: Notification[];
let calls: { method: string; url: string; body: unknown }[];
let fail: boolean;

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

beforeEach(() => {
  installDomStubs({ viewport: 'mobile' });
  localStorage.clear();
  calls = [];
  fail = false;
  items = [
    note({ id: '00000000-0000-4000-8000-000000000003', type: 'voucherExpiring', title: 'Presentkortet går ut om 7 dagar', body: 'Glöm inte att använda Fika för två hos Kaféet.', voucherId: '00000000-0000-4000-8000-0000000000b1', createdAt: '2026-11-21T10:00:00.000Z' }),
    note({ id: '00000000-0000-4000-8000-000000000002', type: 'greetieViewed', title: 'Din greetie har öppnats', body: 'Cecilia har öppnat din greetie.', read: true, createdAt: '2026-11-21T09:00:00.000Z' }),
    note({}),
  ];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const call = { method: init?.method ?? 'GET', url: String(input), body: init?.body ? JSON.parse(String(init.body)) : undefined };
    calls.push(call);
    const path = call.url.split('?')[0];
    if (path === '/api/mobileuser/notifications' && call.method === 'GET') {
      if (fail) return json(503, { code: 'SERVICE_UNAVAILABLE', message: 'Tjänsten är inte tillgänglig just nu.' });
      return json(200, items, { 'x-unread-count': String(items.filter((n) => !n.read).length) });
    }
    if (path === '/api/mobileuser/notifications/read' && call.method === 'POST') {
      const ids = (call.body as { ids?: string[] }).ids;
      items = items.map((n) => (!ids || ids.includes(n.id) ? { ...n, read: true } : n));
      return new Response(null, { status: 204 });
    }
    if (path === `/api/mobileuser/${me.id}`) return json(200, me);
    return json(404, { code: 'NOT_FOUND', message: 'Det du letar efter finns inte.' });
  });
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('/my/notifications', () => {
  it('lists them newest first, the unread ones marked, each a link to its voucher or greetie', async () => {
    renderRoute('/my/notifications', { session: signedIn(me) });
    expect(await screen.findByRole('heading', { level: 1, name: 'Notiser' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 2, name: '2 olästa' })).toBeInTheDocument();
    const links = within(screen.getByRole('list', { name: 'Notiser' })).getAllByRole('link');
    expect(links.map((l) => l.getAttribute('href'))).toEqual([
      '/voucher/00000000-0000-4000-8000-0000000000b1',
      '/greetie/details/00000000-0000-4000-8000-0000000000a1',
      '/greetie/details/00000000-0000-4000-8000-0000000000a1',
    ]);
    expect(links[0]).toHaveTextContent('Oläst');
    expect(links[0]).toHaveTextContent('Presentkortet går ut om 7 dagar');
    expect(links[1]).not.toHaveTextContent('Oläst');
    const nav = screen.getByRole('navigation', { name: 'Mina sidor' });
    expect(within(nav).getByRole('link', { name: 'Notiser' })).toHaveAttribute('aria-current', 'page');
  });

  it("'Markera alla som lästa' marks them all read on the server and on the page", async () => {
    const { user } = renderRoute('/my/notifications', { session: signedIn(me) });
    await user.click(await screen.findByRole('button', { name: 'Markera alla som lästa' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Alla notiser är lästa.' })).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toEqual([{ method: 'POST', url: '/api/mobileuser/notifications/read', body: {} }]);
    expect(screen.queryByText('Oläst')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Markera alla som lästa' })).not.toBeInTheDocument();
  });

  it("the header's avatar shows the unread count, and loses it once they are all marked read", async () => {
    const { user } = renderRoute('/my/notifications', { session: signedIn(me) });
    const banner = await screen.findByRole('banner');
    const avatar = await within(banner).findByRole('button', { name: 'Konto, 2 olästa notiser' });
    expect(within(banner).getByTestId('unread-badge')).toHaveTextContent('2');
    // The badge is beside the button, not in it: the button's visible text stays its initial (WCAG 2.5.3).
    expect(avatar).not.toHaveTextContent('2');
    await user.click(await screen.findByRole('button', { name: 'Markera alla som lästa' }));
    await waitFor(() => expect(within(banner).getByRole('button', { name: 'Konto' })).toBeInTheDocument());
    expect(within(banner).queryByTestId('unread-badge')).not.toBeInTheDocument();
  });

  it('opening an unread notification marks it read (that one only), and the count goes down', async () => {
    const { user, router } = renderRoute('/my/notifications', { session: signedIn(me) });
    const banner = await screen.findByRole('banner');
    await within(banner).findByRole('button', { name: 'Konto, 2 olästa notiser' });
    const links = within(await screen.findByRole('list', { name: 'Notiser' })).getAllByRole('link');
    await user.click(links[0]!);
    await waitFor(() => expect(router.state.location.pathname).toBe('/voucher/00000000-0000-4000-8000-0000000000b1'));
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'POST')).toEqual([
        { method: 'POST', url: '/api/mobileuser/notifications/read', body: { ids: ['00000000-0000-4000-8000-000000000003'] } },
      ]),
    );
    expect(items.filter((x) => !x.read).map((x) => x.id)).toEqual(['00000000-0000-4000-8000-000000000001']);
    await waitFor(() => expect(within(screen.getByRole('banner')).getByTestId('unread-badge')).toHaveTextContent('1'));
  });

  it("opening one already read asks nothing of the server", async () => {
    const { user } = renderRoute('/my/notifications', { session: signedIn(me) });
    const links = within(await screen.findByRole('list', { name: 'Notiser' })).getAllByRole('link');
    await user.click(links[1]!);
    await new Promise((r) => setTimeout(r, 50));
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it("the account menu has 'Notiser' with the unread count, leading to the list", async () => {
    const { user, router } = renderRoute('/', { session: signedIn(me) });
    const banner = await screen.findByRole('banner');
    await user.click(await within(banner).findByRole('button', { name: 'Konto, 2 olästa notiser' }));
    const item = await screen.findByRole('menuitem', { name: 'Notiser, 2 olästa notiser' });
    expect(item).toHaveAttribute('href', '/my/notifications');
    expect(item).toHaveTextContent(/^Notiser2/);
    await user.click(item);
    await waitFor(() => expect(router.state.location.pathname).toBe('/my/notifications'));
  });

  it('says so when there are none', async () => {
    items = [];
    renderRoute('/my/notifications', { session: signedIn(me) });
    expect(await screen.findByText(/Inga notiser ännu/)).toBeInTheDocument();
  });

  it('a failed load says why and tries again', async () => {
    fail = true;
    const { user } = renderRoute('/my/notifications', { session: signedIn(me) });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Notiserna kunde inte hämtas');
    expect(alert).toHaveTextContent('Tjänsten är inte tillgänglig just nu.');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Försök igen' }));
    await waitFor(() => expect(screen.getByRole('heading', { level: 2, name: '2 olästa' })).toBeInTheDocument());
  });
});
