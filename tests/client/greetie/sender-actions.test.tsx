import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Greetie } from '../../../contract/greetie.ts';
import type { Payment } from '../../../contract/payment.ts';
import { installDomStubs, renderRoute, signedIn } from '../shell/render.tsx';
import { DRAFT_ID, gift, greetie } from '../../model/hooks/compose.ts';

/**
 * The sender's actions on /greetie/details/{id} (machines/greetieActions.ts on the real page):
 * the server is fetch, answered from `server` by method and path.
 */
type Answer = { status: number; body?: unknown; headers?: Record<string, string> };
let server: Record<string, (body: unknown) => Answer>;
let calls: { method: string; path: string; body: unknown }[];

const json = ({ status, body, headers }: Answer) =>
  new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

const recipient = { name: 'Mormor', mobileNumber: '+46701234567' };
const delivered = (over: Partial<Greetie> = {}) =>
  greetie({ status: 'delivered', recipient, gifts: [gift], total: 34900, deliveredAt: '2026-11-20T08:00:00.000Z', ...over });
const payment = (over: Partial<Payment> = {}): Payment => ({
  id: '22222222-2222-4222-8222-222222222222',
  greetieId: DRAFT_ID,
  provider: 'sandbox',
  status: 'paid',
  amount: 34900,
  redirectUrl: null,
  appUrl: null,
  qrCode: null,
  token: null,
  payerAlias: null,
  errorCode: null,
  createdAt: '2026-11-20T07:00:00.000Z',
  updatedAt: '2026-11-20T07:01:00.000Z',
  refund: null,
  consentedAt: '2026-11-23T07:59:00.000Z',
  orderNumber: 'G-100123',
  ...over,
});
const posts = () => calls.filter((c) => c.method === 'POST');

// The greetie pages' chunk is loaded once before the tests: on a busy machine its first import
// alone took the first test's whole time.
beforeAll(async () => {
  await import('../../../src/pages/greetie/routes.tsx');
}, 30_000);

beforeEach(() => {
  installDomStubs({ viewport: 'mobile' });
  calls = [];
  server = {
    'GET /api/seller': () => ({ status: 200, body: { name: 'Greetie AB', orgNumber: '559999-9999', email: 'hej@greetie.se' } }),
    [`GET /api/greetie/${DRAFT_ID}/payment`]: () => ({ status: 200, body: payment() }),
  };
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

const open = (g: Greetie) => {
  server[`GET /api/greetie/${DRAFT_ID}`] = () => ({ status: 200, body: g });
  renderRoute(`/greetie/details/${DRAFT_ID}`, { session: signedIn({ id: g.sender.id ?? 'u1' }) });
};

describe('/greetie/details/{id}: the sender cancels, resends, corrects', () => {
  it('cancel: the confirmation says what happens, the request is made once, the page shows it cancelled and the refund', async () => {
    const user = userEvent.setup();
    let refund: Payment['refund'] = null;
    server[`GET /api/greetie/${DRAFT_ID}/payment`] = () => ({ status: 200, body: payment({ refund }) });
    server[`POST /api/greetie/${DRAFT_ID}/cancel`] = () => {
      refund = { id: '33333333-3333-4333-8333-333333333333', status: 'pending', amount: 34900, createdAt: '2026-11-21T08:00:00.000Z', updatedAt: '2026-11-21T08:00:00.000Z' };
      return { status: 200, body: delivered({ status: 'cancelled', cancelledAt: '2026-11-21T08:00:00.000Z' }) };
    };
    open(delivered());
    await user.click(await screen.findByRole('button', { name: 'Avbryt och få pengarna tillbaka' }));
    const dialog = await screen.findByRole('dialog', { name: 'Avbryta greetien?' });
    expect(dialog).toHaveTextContent('Mottagaren har inte öppnat sin greetie än. Om du avbryter får du tillbaka 349 kr till ditt Swish-konto.');
    expect(posts()).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Avbryt greetien' }));

    expect(await within(dialog).findByText('Greetien är avbruten.')).toBeInTheDocument();
    expect(posts()).toEqual([{ method: 'POST', path: `/api/greetie/${DRAFT_ID}/cancel`, body: undefined }]);
    await user.click(within(dialog).getByRole('button', { name: 'Stäng' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByText('Avbruten')).toBeInTheDocument();
    expect(await screen.findByText(/är på väg tillbaka till ditt Swish-konto/)).toHaveTextContent('Pengarna (349 kr) är på väg tillbaka till ditt Swish-konto.');
    expect(screen.queryByRole('button', { name: 'Avbryt och få pengarna tillbaka' })).not.toBeInTheDocument();
  });

  it('a greetie without payment: cancelling says it is stopped, no money', async () => {
    const user = userEvent.setup();
    open(delivered({ gifts: [], total: 0 }));
    await user.click(await screen.findByRole('button', { name: 'Avbryt och få pengarna tillbaka' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Om du avbryter stoppas greetien');
    expect(dialog).not.toHaveTextContent('Swish');
  });

  it('correct: a wrong number is refused on the phone; a right one is sent with its body and the page shows the new number', async () => {
    const user = userEvent.setup();
    server[`POST /api/greetie/${DRAFT_ID}/recipient`] = (body) => ({
      status: 200,
      body: delivered({ recipient: { name: (body as { name: string }).name, mobileNumber: '+46707654321' } }),
    });
    open(delivered());
    await user.click(await screen.findByRole('button', { name: 'Rätta numret' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rätta mottagarens nummer' });
    expect(dialog).toHaveTextContent('den gamla länken slutar fungera');
    await user.type(within(dialog).getByLabelText('Nytt mobilnummer'), '12345');
    await user.click(within(dialog).getByRole('button', { name: 'Rätta numret' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Skriv ett svenskt mobilnummer');
    expect(posts()).toEqual([]);
    await user.clear(within(dialog).getByLabelText('Nytt mobilnummer'));
    await user.type(within(dialog).getByLabelText('Nytt mobilnummer'), '070-765 43 21');
    await user.click(within(dialog).getByRole('button', { name: 'Rätta numret' }));
    expect(await within(dialog).findByText('Numret är rättat. Greetien går till 070-765 43 21.')).toBeInTheDocument();
    expect(posts()).toEqual([{ method: 'POST', path: `/api/greetie/${DRAFT_ID}/recipient`, body: { mobileNumber: '070-765 43 21', name: 'Mormor' } }]);
    await user.click(within(dialog).getByRole('button', { name: 'Stäng' }));
    expect(await screen.findByText('Mormor (+46707654321)')).toBeInTheDocument();
  });

  it('resend refused with RESEND_LIMIT: the reason and when to try again are shown', async () => {
    const user = userEvent.setup();
    server[`POST /api/greetie/${DRAFT_ID}/resend`] = () => ({
      status: 429,
      body: { message: 'För många.', code: 'RESEND_LIMIT' },
      headers: { 'retry-after': '3600' },
    });
    open(delivered());
    await user.click(await screen.findByRole('button', { name: 'Skicka länken igen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Skicka länken igen?' });
    expect(dialog).toHaveTextContent('Samma länk skickas igen som sms till 070-123 45 67.');
    await user.click(within(dialog).getByRole('button', { name: 'Skicka igen' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(/Länken har redan skickats igen det senaste dygnet\. Försök igen efter .+\./);
    expect(posts()).toHaveLength(1);
  });

  it('GREETIE_ALREADY_OPENED from the server is worded; closing reads the greetie again and says why the actions are gone', async () => {
    const user = userEvent.setup();
    server[`POST /api/greetie/${DRAFT_ID}/cancel`] = () => {
      server[`GET /api/greetie/${DRAFT_ID}`] = () => ({ status: 200, body: delivered({ viewed: true, viewedAt: '2026-11-21T07:00:00.000Z' }) });
      return { status: 409, body: { message: 'Öppnad.', code: 'GREETIE_ALREADY_OPENED' } };
    };
    open(delivered());
    await user.click(await screen.findByRole('button', { name: 'Avbryt och få pengarna tillbaka' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Avbryt greetien' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Mottagaren har redan öppnat greetien');
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Stäng' }));
    expect(await screen.findByText('Mottagaren har öppnat greetien, så den kan inte längre avbrytas eller skickas om.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Avbryt och få pengarna tillbaka' })).not.toBeInTheDocument();
  });

  it('a scheduled greetie offers correct and cancel, not resend', async () => {
    open(delivered({ status: 'scheduled', deliveredAt: null, deliverAt: '2030-12-24T15:00:00.000Z' }));
    expect(await screen.findByRole('button', { name: 'Rätta numret' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Avbryt och få pengarna tillbaka' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Skicka länken igen' })).not.toBeInTheDocument();
  });

  it('a delivered greetie says "Levererad" with when, not "Levereras"', async () => {
    open(delivered());
    const term = await screen.findByText('Levererad', { selector: 'dt' });
    expect(term.nextElementSibling).toHaveTextContent('20 november 2026 09:00');
    expect(screen.queryByText('Levereras', { selector: 'dt' })).not.toBeInTheDocument();
  });

  it('a greetie still to come says "Levereras" with the time chosen', async () => {
    open(delivered({ status: 'scheduled', deliveredAt: null, deliverAt: '2030-12-24T15:00:00.000Z' }));
    const term = await screen.findByText('Levereras', { selector: 'dt' });
    expect(term.nextElementSibling).toHaveTextContent('24 december 2030 16:00');
  });

  it('opened: the actions are gone and the page says why', async () => {
    open(delivered({ viewed: true, viewedAt: '2026-11-20T09:00:00.000Z' }));
    expect(await screen.findByText('Mottagaren har öppnat greetien, så den kan inte längre avbrytas eller skickas om.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Avbryt och få pengarna tillbaka' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Rätta numret' })).not.toBeInTheDocument();
  });

  it('a cancelled greetie shows its refund status in plain Swedish', async () => {
    server[`GET /api/greetie/${DRAFT_ID}/payment`] = () => ({
      status: 200,
      body: payment({ refund: { id: '33333333-3333-4333-8333-333333333333', status: 'error', amount: 34900, createdAt: '2026-11-21T08:00:00.000Z', updatedAt: '2026-11-21T08:00:00.000Z' } }),
    });
    open(delivered({ status: 'cancelled', cancelledAt: '2026-11-21T08:00:00.000Z' }));
    expect(await screen.findByText('Avbruten')).toBeInTheDocument();
    expect(await screen.findByText(/Återbetalningen av 349 kr har inte gått igenom än/)).toBeInTheDocument();
  });

  it('a pending refund is followed: after a read 5 s later the page says the money is back, announced as a status', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const pendingRefund = { id: '33333333-3333-4333-8333-333333333333', status: 'pending' as const, amount: 34900, createdAt: '2026-11-21T08:00:00.000Z', updatedAt: '2026-11-21T08:00:00.000Z' };
      let refund: Payment['refund'] = pendingRefund;
      server[`GET /api/greetie/${DRAFT_ID}/payment`] = () => ({ status: 200, body: payment({ refund }) });
      open(delivered({ status: 'cancelled', cancelledAt: '2026-11-21T08:00:00.000Z' }));
      const status = await screen.findByText('Pengarna (349 kr) är på väg tillbaka till ditt Swish-konto.');
      expect(status).toHaveAttribute('role', 'status');
      // The payment panel reads the payment too: count the reads from here.
      const reads = () => calls.filter((c) => c.path === `/api/greetie/${DRAFT_ID}/payment`).length;
      const before = reads();
      refund = { ...pendingRefund, status: 'paid', updatedAt: '2026-11-21T08:05:00.000Z' };
      await act(() => vi.advanceTimersByTimeAsync(5_000));
      expect(await screen.findByText('349 kr är tillbaka på ditt Swish-konto.')).toHaveAttribute('role', 'status');
      expect(reads()).toBe(before + 1);
      // Paid is the end: no more reads.
      await act(() => vi.advanceTimersByTimeAsync(60_000));
      expect(reads()).toBe(before + 1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a refund that fails says it is retried as the same refund, never paid twice; Kolla igen reads it again', async () => {
    const user = userEvent.setup();
    const failedRefund = { id: '33333333-3333-4333-8333-333333333333', status: 'error' as const, amount: 34900, createdAt: '2026-11-21T08:00:00.000Z', updatedAt: '2026-11-21T08:00:00.000Z' };
    let refund: Payment['refund'] = failedRefund;
    server[`GET /api/greetie/${DRAFT_ID}/payment`] = () => ({ status: 200, body: payment({ refund }) });
    open(delivered({ status: 'cancelled', cancelledAt: '2026-11-21T08:00:00.000Z' }));
    expect(await screen.findByText(/samma återbetalning, så pengarna betalas aldrig ut två gånger/)).toHaveAttribute('role', 'status');
    refund = { ...failedRefund, status: 'paid' };
    await user.click(screen.getByRole('button', { name: 'Kolla igen' }));
    expect(await screen.findByText('349 kr är tillbaka på ditt Swish-konto.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Kolla igen' })).not.toBeInTheDocument();
  });

  it('a failed read of the refund is said, with Försök igen', async () => {
    const user = userEvent.setup();
    let down = true;
    server[`GET /api/greetie/${DRAFT_ID}/payment`] = () =>
      down
        ? { status: 503, body: { message: 'Tjänsten är inte tillgänglig just nu.', code: 'SERVICE_UNAVAILABLE' } }
        : { status: 200, body: payment({ refund: { id: '33333333-3333-4333-8333-333333333333', status: 'paid', amount: 34900, createdAt: '2026-11-21T08:00:00.000Z', updatedAt: '2026-11-21T08:00:00.000Z' } }) };
    open(delivered({ status: 'cancelled', cancelledAt: '2026-11-21T08:00:00.000Z' }));
    const alert = await screen.findByText(/^Vi kunde inte kolla hur det går med återbetalningen\./);
    expect(alert).toHaveAttribute('role', 'alert');
    expect(alert).toHaveTextContent('Vi kunde inte kolla hur det går med återbetalningen. Tjänsten är inte tillgänglig just nu.');
    down = false;
    await user.click(within(alert.parentElement!).getByRole('button', { name: 'Försök igen' }));
    expect(await screen.findByText('349 kr är tillbaka på ditt Swish-konto.')).toBeInTheDocument();
  });
});
