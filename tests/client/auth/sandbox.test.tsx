import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { installDomStubs } from '../shell/render.tsx';
import { renderApp } from './render.tsx';

const outbox = [
  { to: '+46701234567', body: 'Din Greetie-kod är 654321\n\n@localhost #654321', sentAt: '2026-11-21T08:01:00.000Z' },
  { to: '+46709876543', body: 'Din Greetie-kod är 123456\n\n@localhost #123456', sentAt: '2026-11-21T08:00:00.000Z' },
];

const pushes = [
  { to: 'ExponentPushToken[abc]', title: 'Du har fått en greetie!', body: 'Anna har skickat en greetie till dig.', data: {}, sentAt: '2026-11-21T08:02:00.000Z' },
];

function stubApi(sandbox: 'on' | 'off', sms: 'ok' | 'fail' = 'ok') {
  const fetch = vi.fn(async (url: string) => {
    const json = (status: number, body: unknown) =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    if (url === '/api/sandbox') return sandbox === 'on' ? json(200, { enabled: true }) : json(404, { code: 'ROUTE_NOT_FOUND', message: 'x' });
    if (url === '/api/sandbox/sms') return sms === 'ok' ? json(200, outbox) : json(500, { code: 'INTERNAL_ERROR', message: 'x' });
    if (url === '/api/sandbox/payments') return json(200, []);
    if (url === '/api/sandbox/push') return json(200, pushes);
    return json(404, { code: 'ROUTE_NOT_FOUND', message: 'x' });
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

beforeEach(() => {
  installDomStubs();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the sandbox page (/sandbox)', () => {
  it('shows the SMS outbox in the order the server gives (newest first)', async () => {
    stubApi('on');
    renderApp('/sandbox');
    expect(await screen.findByRole('heading', { level: 1, name: 'Sandlåda' })).toBeInTheDocument();
    const list = await screen.findByRole('list', { name: 'Sms-utkorg' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('+46701234567');
    expect(items[0]).toHaveTextContent('Din Greetie-kod är 654321');
    expect(items[1]).toHaveTextContent('+46709876543');
    expect(within(items[0]!).getByText(/21 november 2026 09:01:00/)).toHaveAttribute('datetime', outbox[0]!.sentAt);
    expect(screen.getByRole('button', { name: 'Uppdatera' })).toBeInTheDocument();
  });

  it('shows the push outbox: each push with its device, title and body (issue 15)', async () => {
    stubApi('on');
    renderApp('/sandbox');
    const list = await screen.findByRole('list', { name: 'Push-utkorg' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(1);
    expect(items[0]).toHaveTextContent('ExponentPushToken[abc]');
    expect(items[0]).toHaveTextContent('Du har fått en greetie!');
    expect(items[0]).toHaveTextContent('Anna har skickat en greetie till dig.');
    expect(screen.getByRole('button', { name: 'Uppdatera notiser' })).toBeInTheDocument();
  });

  it('goes to /404 when the sandbox is off', async () => {
    stubApi('off');
    const r = renderApp('/sandbox');
    await waitFor(() => expect(r.router.state.location.pathname).toBe('/404'));
  });

  it('says so when the outbox cannot be read', async () => {
    stubApi('on', 'fail');
    renderApp('/sandbox');
    expect(await screen.findByRole('alert')).toHaveTextContent('Vi kunde inte hämta sms-utkorgen.');
  });
});
