import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configure, screen, waitFor, within } from '@testing-library/react';
import type { Voucher } from '../../../contract/voucher.ts';
import { numberDigits } from '../../../src/pages/my/AccountPage.tsx';
import { installDomStubs, renderRoute, signedIn } from '../shell/render.tsx';

/**
 * /my/account: the export download and the account deletion dialog, and /my/{id},
 * through the real route table and auth machine; fetch is stubbed at the edge like the API.
 */

vi.setConfig({ testTimeout: 15_000 });
configure({ asyncUtilTimeout: 5_000 });

const me = { id: 'u1', mobileNumber: '+46701234567', name: 'Anna Andersson' };

const voucher = (over: Partial<Voucher>): Voucher => ({
  id: 'v1',
  greetieId: 'g1',
  merchant: { id: 'm1', name: 'Kafé Linnea', logoUrl: '/x.svg' },
  product: { id: 'p1', name: 'Fika för två' },
  source: 'InStore',
  amount: 14900,
  kind: 'fixed',
  balance: 14900,
  redemptions: [],
  isRedeemed: false,
  redeemedAt: null,
  expiresAt: '2099-01-01T00:00:00.000Z',
  createdAt: '2026-11-01T08:00:00.000Z',
  ...over,
});

type Call = { method: string; url: string };
let calls: Call[];
let answer: (call: Call) => Response | Promise<Response>;
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function realServer(call: Call): Response {
  const path = call.url.split('?')[0];
  if (call.method === 'GET' && path === '/api/mobileuser/vouchers')
    return json(200, [voucher({}), voucher({ id: 'v2', isRedeemed: true, product: { id: 'p2', name: 'Inlöst' } })]);
  if (call.method === 'GET' && path === '/api/mobileuser/sentgreeties') return json(200, [{ id: 'g9', status: 'draft' }, { id: 'g8', status: 'delivered' }]);
  if (call.method === 'GET' && path === '/api/mobileuser/export') return json(200, { profile: { id: 'u1' }, greeties: { sent: [], received: [] } });
  if (call.method === 'DELETE' && path === '/api/mobileuser/remove') return new Response(null, { status: 204 });
  return json(404, { code: 'NOT_FOUND', message: 'Det du letar efter finns inte.' });
}

let clicked: HTMLAnchorElement[];
beforeEach(() => {
  installDomStubs({ viewport: 'mobile' });
  calls = [];
  answer = realServer;
  clicked = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const call = { method: init?.method ?? 'GET', url: String(input) };
    calls.push(call);
    return answer(call);
  });
  URL.createObjectURL = vi.fn(() => 'blob:greetie-export');
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    clicked.push(this);
  });
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('numberDigits', () => {
  it.each(['070-123 45 67', '0701234567', '+46 70 123 45 67', '0046701234567'])('%s → 46701234567', (typed) => {
    expect(numberDigits(typed)).toBe('46701234567');
  });
});

describe('/my/account', () => {
  it("'Ladda ner mina uppgifter' saves GET /mobileuser/export as a dated JSON file and says so", async () => {
    const { user } = renderRoute('/my/account', { session: signedIn(me) });
    expect(await screen.findByRole('heading', { level: 1, name: 'Mitt konto' })).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Mina sidor' });
    expect(within(nav).getByRole('link', { name: 'Konto' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('link', { name: 'Mina greeties' })).toHaveAttribute('href', '/greetie');
    expect(within(nav).getByRole('link', { name: 'Mina gåvor' })).toHaveAttribute('href', '/voucher');
    await user.click(screen.getByRole('button', { name: 'Ladda ner mina uppgifter' }));
    expect(await screen.findByText('Klart! Filen är nedladdad.')).toBeInTheDocument();
    expect(calls).toContainEqual({ method: 'GET', url: '/api/mobileuser/export' });
    expect(clicked).toHaveLength(1);
    expect(clicked[0]!.download).toMatch(/^greetie-mina-uppgifter-\d{4}-\d{2}-\d{2}\.json$/);
    expect(clicked[0]!.href).toBe('blob:greetie-export');
  });

  it('the delete dialog names the unredeemed gifts and drafts, needs the number typed, then deletes and signs out with a message', async () => {
    const signOut = vi.fn();
    const { user } = renderRoute('/my/account', { session: signedIn(me, signOut) });
    await user.click(await screen.findByRole('button', { name: 'Radera mitt konto' }));
    const dialog = await screen.findByRole('dialog', { name: 'Vill du radera ditt konto?' });
    expect(await within(dialog).findByText('Du förlorar en gåva som inte är inlöst:')).toBeInTheDocument();
    expect(within(dialog).getByRole('listitem')).toHaveTextContent('Kafé Linnea: Fika för två (149,00 kr)');
    expect(within(dialog).getByText('Ett utkast som inte är betalt raderas.')).toBeInTheDocument();
    const confirm = within(dialog).getByRole('button', { name: 'Radera kontot' });
    expect(confirm).toBeDisabled();
    const field = within(dialog).getByRole('textbox', { name: 'Skriv ditt mobilnummer (070-123 45 67) för att bekräfta' });
    await user.type(field, '070-123 45 68');
    expect(confirm).toBeDisabled();
    await user.clear(field);
    await user.type(field, '070-123 45 67');
    expect(confirm).toBeEnabled();
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    await user.click(confirm);
    await waitFor(() => expect(signOut).toHaveBeenCalled());
    expect(calls).toContainEqual({ method: 'DELETE', url: '/api/mobileuser/remove' });
    expect(await screen.findByText('Ditt konto är raderat. Du är utloggad.')).toBeInTheDocument();
  });

  it('a refused deletion keeps the dialog open with the server\'s reason, and nobody is signed out', async () => {
    answer = (call) =>
      call.method === 'DELETE'
        ? json(409, { code: 'ACCOUNT_PAYMENT_PENDING', message: 'En betalning för en av dina greeties pågår just nu.' })
        : realServer(call);
    const signOut = vi.fn();
    const { user } = renderRoute('/my/account', { session: signedIn(me, signOut) });
    await user.click(await screen.findByRole('button', { name: 'Radera mitt konto' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByRole('textbox'), '+46701234567');
    await user.click(within(dialog).getByRole('button', { name: 'Radera kontot' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('En betalning för en av dina greeties pågår just nu.');
    expect(signOut).not.toHaveBeenCalled();
    // Avbryt closes it and nothing else happens.
    await user.click(within(dialog).getByRole('button', { name: 'Avbryt' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});

describe('/my/{id}', () => {
  it("one's own id shows the profile; another id is the 404 page", async () => {
    renderRoute('/my/u1', { session: signedIn(me) });
    expect(await screen.findByRole('heading', { level: 1, name: 'Min profil' })).toBeInTheDocument();
  });

  it('another id is the 404 page', async () => {
    renderRoute('/my/someone-else', { session: signedIn(me) });
    expect(await screen.findByText('404')).toBeInTheDocument();
  });
});

describe('a greetie whose sender removed their account', () => {
  it("is from 'En tidigare användare' in Mina greeties", async () => {
    const greetie = {
      id: 'g1',
      refId: 'r1',
      status: 'delivered',
      sender: { id: null, name: null },
      recipient: { name: 'Anna', mobileNumber: me.mobileNumber },
      message: 'Grattis!',
      content: [],
      media: null,
      gifts: [],
      vouchers: [],
      total: 0,
      deliverAt: null,
      deliveredAt: '2026-11-01T08:00:00.000Z',
      viewed: true,
      viewedAt: '2026-11-01T09:00:00.000Z',
      createdAt: '2026-11-01T08:00:00.000Z',
      updatedAt: '2026-11-01T08:00:00.000Z',
    };
    answer = (call) => (call.method === 'GET' && call.url.split('?')[0] === '/api/greetie' ? json(200, [greetie]) : realServer(call));
    renderRoute('/greetie', { session: signedIn(me) });
    expect(await screen.findByText('En tidigare användare')).toBeInTheDocument();
  });
});
