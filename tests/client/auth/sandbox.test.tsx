import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
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

const refunds = [
  {
    id: '0b7e8a52-3c1d-4f6a-9e2b-000000000001',
    paymentId: '0b7e8a52-3c1d-4f6a-9e2b-000000000002',
    greetieId: 'a1b2c3d4-3c1d-4f6a-9e2b-000000000003',
    amount: 14950,
    status: 'pending',
    createdAt: '2026-11-21T08:05:00.000Z',
  },
  {
    id: '0b7e8a52-3c1d-4f6a-9e2b-000000000004',
    paymentId: '0b7e8a52-3c1d-4f6a-9e2b-000000000005',
    greetieId: 'e5f6a7b8-3c1d-4f6a-9e2b-000000000006',
    amount: 100000,
    status: 'pending',
    createdAt: '2026-11-21T08:04:00.000Z',
  },
];

type Refunds = typeof refunds;

/**
 * The sandbox's answers. `refundReads` answers GET /api/sandbox/refunds in turn (the last one
 * from then on; 'fail' is a 500); `settle` answers the POST that settles one.
 */
function stubApi(
  sandbox: 'on' | 'off',
  sms: 'ok' | 'fail' = 'ok',
  { refundReads = [[]], settle = 'ok' }: { refundReads?: (Refunds | 'fail')[]; settle?: 'ok' | 'fail' } = {},
) {
  let reads = 0;
  const fetch = vi.fn(async (url: string, _init?: RequestInit) => {
    const json = (status: number, body: unknown) =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    if (url === '/api/sandbox') return sandbox === 'on' ? json(200, { enabled: true }) : json(404, { code: 'ROUTE_NOT_FOUND', message: 'x' });
    if (url === '/api/sandbox/sms') return sms === 'ok' ? json(200, outbox) : json(500, { code: 'INTERNAL_ERROR', message: 'x' });
    if (url === '/api/sandbox/payments') return json(200, []);
    if (url === '/api/sandbox/push') return json(200, pushes);
    if (url === '/api/sandbox/refunds') {
      const answer = refundReads[Math.min(reads++, refundReads.length - 1)]!;
      return answer === 'fail' ? json(500, { code: 'INTERNAL_ERROR', message: 'x' }) : json(200, answer);
    }
    if (url.startsWith('/api/sandbox/refunds/')) {
      if (settle === 'fail') return json(409, { code: 'CONFLICT', message: 'Återbetalningen är redan avgjord.' });
      return json(200, { ...refunds.find((r) => url.endsWith(r.id))!, status: 'paid' });
    }
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

  describe('pending refunds', () => {
    it('lists the pending refunds newest first, each in kronor with its two answers', async () => {
      stubApi('on', 'ok', { refundReads: [refunds] });
      renderApp('/sandbox');
      expect(await screen.findByRole('heading', { level: 2, name: 'Återbetalningar' })).toBeInTheDocument();
      const list = await screen.findByRole('list', { name: 'Väntande återbetalningar' });
      const items = within(list).getAllByRole('listitem');
      expect(items).toHaveLength(2);
      // Kronor as sv-SE writes them, with no-break spaces (toHaveTextContent would fold them away).
      expect(items[0]!.querySelector('strong')?.textContent).toBe('149,50\u00a0kr');
      expect(items[0]).toHaveTextContent('a1b2c3d4');
      expect(within(items[0]!).getByText(/21 november 2026 09:05:00/)).toHaveAttribute('datetime', refunds[0]!.createdAt);
      expect(items[1]!.querySelector('strong')?.textContent).toBe('1\u00a0000\u00a0kr');
      const answers = within(items[0]!).getByRole('group', { name: 'Svara på återbetalningen på 149,50\u00a0kr' });
      expect(within(answers).getAllByRole('button').map((b) => b.textContent)).toEqual(['Återbetald', 'Fel']);
      expect(screen.getByRole('button', { name: 'Uppdatera återbetalningar' })).toBeInTheDocument();
    });

    it('settles one: posts its outcome, says so and reads the list again', async () => {
      const fetch = stubApi('on', 'ok', { refundReads: [refunds, [refunds[1]!]] });
      renderApp('/sandbox');
      const list = await screen.findByRole('list', { name: 'Väntande återbetalningar' });
      const first = within(list).getAllByRole('listitem')[0]!;
      await userEvent.click(within(first).getByRole('button', { name: 'Återbetald' }));

      await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1));
      const posts = fetch.mock.calls.filter(([url]) => url.startsWith('/api/sandbox/refunds/'));
      expect(posts).toHaveLength(1);
      expect(posts[0]![0]).toBe(`/api/sandbox/refunds/${refunds[0]!.id}`);
      expect(posts[0]![1]?.method).toBe('POST');
      expect(JSON.parse(String(posts[0]![1]?.body))).toEqual({ outcome: 'paid' });
      const section = screen.getByRole('region', { name: 'Återbetalningar' });
      expect(within(section).getByRole('status')).toHaveTextContent('Återbetalningen på 149,50 kr fick svaret ”Återbetald”.');
    });

    it('says so when a refund cannot be settled', async () => {
      stubApi('on', 'ok', { refundReads: [refunds], settle: 'fail' });
      renderApp('/sandbox');
      const list = await screen.findByRole('list', { name: 'Väntande återbetalningar' });
      await userEvent.click(within(within(list).getAllByRole('listitem')[1]!).getByRole('button', { name: 'Fel' }));
      const section = screen.getByRole('region', { name: 'Återbetalningar' });
      await waitFor(() =>
        expect(within(section).getByRole('status')).toHaveTextContent('Återbetalningen kunde inte avgöras: Återbetalningen är redan avgjord.'),
      );
    });

    it('says when no refund is waiting', async () => {
      stubApi('on', 'ok', { refundReads: [[]] });
      renderApp('/sandbox');
      const section = await screen.findByRole('region', { name: 'Återbetalningar' });
      expect(await within(section).findByText('Inga återbetalningar väntar')).toBeInTheDocument();
      expect(within(section).queryByRole('list')).not.toBeInTheDocument();
    });

    it('says so when the refunds cannot be read', async () => {
      stubApi('on', 'ok', { refundReads: ['fail'] });
      renderApp('/sandbox');
      const section = await screen.findByRole('region', { name: 'Återbetalningar' });
      expect(await within(section).findByRole('alert')).toHaveTextContent('Vi kunde inte hämta återbetalningarna.');
    });
  });
});
