import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configure, screen, waitFor, within } from '@testing-library/react';
import type { MobileUser } from '../../../contract/auth.ts';
import { formatMobileNumber } from '../../../src/format/phone.ts';
import { installDomStubs, renderRoute, signedIn } from '../shell/render.tsx';

/**
 * My pages (/my/profile, /my/settings), the account menu's 'Mina sidor' and the name prompt after
 * the first sign-in, through the real route table and the real auth machine. fetch is stubbed at
 * the edge and answers like the API (API.md, "Mobile user"), recording what was asked.
 */

// The pages and the header's parts are lazy chunks: the first render of each waits for its import.
vi.setConfig({ testTimeout: 15_000 });
configure({ asyncUtilTimeout: 5_000 });

const me: MobileUser = { id: 'u1', mobileNumber: '+46701234567', name: 'Anna Andersson', allowMarketing: false, merchants: [], createdAt: '2026-11-01T08:00:00.000Z' };

type Call = { method: string; url: string; body: unknown };
let calls: Call[];
/** What the fake server does with each call; the default answers like the real one. */
let answer: (call: Call, stored: MobileUser) => Response | Promise<Response>;
let stored: MobileUser;

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function realServer(call: Call, user: MobileUser): Response {
  const path = call.url.split('?')[0];
  if (call.method === 'GET' && path === `/api/mobileuser/${user.id}`) return json(200, user);
  if (call.method === 'POST' && (path === `/api/mobileuser/${user.id}` || path === '/api/mobileuser')) {
    stored = { ...user, ...(call.body as Partial<MobileUser>) };
    return json(200, stored);
  }
  if (call.method === 'POST' && path === '/api/mobileuser/allowmarketing') {
    stored = { ...user, allowMarketing: new URL(call.url, 'http://x').searchParams.get('isAllowed') === 'true' };
    return json(200, stored);
  }
  return json(404, { code: 'NOT_FOUND', message: 'Det du letar efter finns inte.' });
}

beforeEach(() => {
  installDomStubs({ viewport: 'mobile' });
  localStorage.clear();
  calls = [];
  stored = { ...me };
  answer = realServer;
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const call = { method: init?.method ?? 'GET', url: String(input), body: init?.body ? JSON.parse(String(init.body)) : undefined };
    calls.push(call);
    return answer(call, stored);
  });
});

afterEach(() => {
  vi.restoreAllMocks();
});

// The header's unread count (GET /api/mobileuser/notifications) is not the profile's.
const apiCalls = () => calls.filter((c) => c.url.startsWith('/api/mobileuser') && !c.url.startsWith('/api/mobileuser/notifications'));
const banner = () => screen.getByRole('banner');
const findBanner = () => screen.findByRole('banner', undefined, { timeout: 3000 });

describe('/my/profile', () => {
  it('shows the name to change, the number formatted, and shortcuts to Mina greeties and Mina gåvor', async () => {
    renderRoute('/my/profile', { session: signedIn(me) });
    expect(await screen.findByRole('heading', { level: 1, name: 'Min profil' })).toBeInTheDocument();
    expect(await screen.findByRole('textbox', { name: 'Namn' })).toHaveValue('Anna Andersson');
    expect(screen.getByText('070-123 45 67')).toBeInTheDocument();
    // The profile's shortcut cards, and the same two in my pages' nav.
    const greeties = screen.getAllByRole('link', { name: /Mina greeties/ });
    const gifts = screen.getAllByRole('link', { name: /Mina gåvor/ });
    expect(greeties).toHaveLength(2);
    expect(gifts).toHaveLength(2);
    for (const l of greeties) expect(l).toHaveAttribute('href', '/greetie');
    for (const l of gifts) expect(l).toHaveAttribute('href', '/voucher');
    const nav = screen.getByRole('navigation', { name: 'Mina sidor' });
    expect(within(nav).getByRole('link', { name: 'Profil' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('link', { name: 'Inställningar' })).toHaveAttribute('href', '/my/settings');
    expect(apiCalls()).toEqual([{ method: 'GET', url: '/api/mobileuser/u1', body: undefined }]);
  });

  it("'Spara' saves the trimmed name; a toast says so and the header shows it without a reload", async () => {
    const { user } = renderRoute('/my/profile', { session: signedIn(me) });
    const field = await screen.findByRole('textbox', { name: 'Namn' });
    await user.clear(field);
    await user.type(field, '  Anna Berg ');
    await user.click(screen.getByRole('button', { name: 'Spara' }));
    expect(await screen.findByText('Ditt namn är sparat.')).toBeInTheDocument();
    expect(apiCalls().at(-1)).toEqual({ method: 'POST', url: '/api/mobileuser/u1', body: { name: 'Anna Berg' } });
    await waitFor(() => expect(within(banner()).getByText('Anna Berg')).toBeInTheDocument());
    expect(within(banner()).getByRole('button', { name: 'Konto' })).toHaveTextContent('A');
  });

  it.each([
    ['   ', 'Skriv ditt namn.'],
    ['x'.repeat(101), 'Namnet får vara högst 100 tecken.'],
  ])('refuses %j before sending anything: %s', async (typed, message) => {
    const { user } = renderRoute('/my/profile', { session: signedIn(me) });
    const field = await screen.findByRole('textbox', { name: 'Namn' });
    await user.clear(field);
    if (typed.trim()) await user.type(field, typed);
    else await user.type(field, typed);
    await user.click(screen.getByRole('button', { name: 'Spara' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAccessibleDescription(expect.stringContaining(message));
    expect(apiCalls().filter((c) => c.method === 'POST')).toEqual([]);
  });

  it("shows the server's reason when it refuses the name, and keeps the session's name", async () => {
    answer = (call, user) =>
      call.method === 'POST' ? json(503, { code: 'SERVICE_UNAVAILABLE', message: 'Tjänsten är inte tillgänglig just nu.' }) : realServer(call, user);
    const { user } = renderRoute('/my/profile', { session: signedIn(me) });
    const field = await screen.findByRole('textbox', { name: 'Namn' });
    await user.clear(field);
    await user.type(field, 'Bertil');
    await user.click(screen.getByRole('button', { name: 'Spara' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Tjänsten är inte tillgänglig just nu.');
    expect(field).toHaveValue('Bertil');
    expect(within(banner()).getByText('Anna Andersson')).toBeInTheDocument();
  });

  it('a failed load says so and tries again on request', async () => {
    let fail = true;
    answer = (call, user) => (fail ? json(500, { code: 'INTERNAL_ERROR', message: 'Något gick fel hos oss.' }) : realServer(call, user));
    const { user } = renderRoute('/my/profile', { session: signedIn(me) });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Vi kunde inte hämta din profil');
    expect(alert).toHaveTextContent('Något gick fel hos oss.');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Försök igen' }));
    expect(await screen.findByRole('textbox', { name: 'Namn' })).toHaveValue('Anna Andersson');
  });

  it('speaks English when English is chosen', async () => {
    renderRoute('/my/profile', { session: signedIn(me), language: 'en' });
    expect(await screen.findByRole('heading', { level: 1, name: 'My profile' })).toBeInTheDocument();
    expect(await screen.findByRole('textbox', { name: 'Name' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save' })).toBeInTheDocument();
  });
});

describe('/my/settings', () => {
  it('the marketing switch is saved at once, with a toast, and can be turned off again', async () => {
    const { user } = renderRoute('/my/settings', { session: signedIn(me) });
    expect(await screen.findByRole('heading', { level: 1, name: 'Inställningar' })).toBeInTheDocument();
    const toggle = await screen.findByRole('switch', { name: 'Skicka mig erbjudanden och nyheter' });
    expect(toggle).toHaveAttribute('aria-checked', 'false');
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-checked', 'true');
    expect(await screen.findByText('Sparat: du får erbjudanden och nyheter.')).toBeInTheDocument();
    expect(apiCalls().at(-1)).toEqual({ method: 'POST', url: '/api/mobileuser/allowmarketing?isAllowed=true', body: undefined });
    await user.click(toggle);
    expect(await screen.findByText('Sparat: du får inga erbjudanden.')).toBeInTheDocument();
    expect(toggle).toHaveAttribute('aria-checked', 'false');
    expect(apiCalls().at(-1)?.url).toBe('/api/mobileuser/allowmarketing?isAllowed=false');
  });

  it('shows that it is saving, and goes back with the reason when saving fails', async () => {
    let release: (r: Response) => void = () => {};
    answer = (call, user) =>
      call.url.startsWith('/api/mobileuser/allowmarketing') ? new Promise<Response>((r) => (release = r)) : realServer(call, user);
    const { user } = renderRoute('/my/settings', { session: signedIn(me) });
    const toggle = await screen.findByRole('switch', { name: 'Skicka mig erbjudanden och nyheter' });
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByText('Sparar…')).toBeInTheDocument();
    release(json(503, { code: 'DB_UNAVAILABLE', message: 'Databasen svarar inte.' }));
    await waitFor(() => expect(toggle).toHaveAttribute('aria-checked', 'false'));
    expect(screen.getByRole('alert')).toHaveTextContent('Vi kunde inte spara ditt val. Försök igen.');
    expect(await screen.findByText('Ditt val kunde inte sparas.')).toBeInTheDocument();
  });

  it('shows a loading state while the profile is on its way', async () => {
    let release: (r: Response) => void = () => {};
    answer = () => new Promise<Response>((r) => (release = r));
    renderRoute('/my/settings', { session: signedIn(me) });
    expect(await screen.findByText('Hämtar din profil…')).toBeInTheDocument();
    release(json(200, me));
    expect(await screen.findByRole('switch')).toBeInTheDocument();
  });
});

describe('the account menu and the name prompt', () => {
  it("the account menu has 'Mina sidor', going to /my/profile", async () => {
    const { user, router } = renderRoute('/', { session: signedIn(me) });
    await user.click(await within(await findBanner()).findByRole('button', { name: 'Konto' }));
    const item = await screen.findByRole('menuitem', { name: 'Mina sidor' });
    expect(item).toHaveAttribute('href', '/my/profile');
    await user.click(item);
    await waitFor(() => expect(router.state.location.pathname).toBe('/my/profile'));
  });

  it('the header shows the name beside the account button', async () => {
    renderRoute('/', { session: signedIn(me) });
    expect(await within(await findBanner()).findByText('Anna Andersson')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Välkommen till Greetie!' })).not.toBeInTheDocument();
  });

  it('a person with no name is asked for one; saved, the header shows it and the prompt is gone', async () => {
    stored = { ...me, name: null };
    const { user } = renderRoute('/', { session: signedIn({ ...me, name: null }) });
    const prompt = await screen.findByRole('region', { name: 'Välkommen till Greetie!' });
    await user.type(within(prompt).getByRole('textbox', { name: 'Vad heter du?' }), 'Cecilia');
    await user.click(within(prompt).getByRole('button', { name: 'Klar' }));
    await waitFor(() => expect(within(banner()).getByText('Cecilia')).toBeInTheDocument());
    expect(screen.queryByRole('region', { name: 'Välkommen till Greetie!' })).not.toBeInTheDocument();
    expect(apiCalls()).toEqual([
      { method: 'GET', url: '/api/mobileuser/u1', body: undefined },
      { method: 'POST', url: '/api/mobileuser/u1', body: { name: 'Cecilia' } },
    ]);
    expect(await screen.findByText('Ditt namn är sparat.')).toBeInTheDocument();
  });

  it("'Inte nu' puts the prompt away, and it stays away on other pages", async () => {
    stored = { ...me, name: null };
    const { user, navigate } = renderRoute('/', { session: signedIn({ ...me, name: null }) });
    const prompt = await screen.findByRole('region', { name: 'Välkommen till Greetie!' });
    await user.click(within(prompt).getByRole('button', { name: 'Inte nu' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Välkommen till Greetie!' })).not.toBeInTheDocument());
    // Another layout: a new header, which asks again only if nobody said 'Inte nu'.
    await navigate('/voucher');
    expect(await screen.findByRole('heading', { level: 1, name: 'Mina gåvor' })).toBeInTheDocument();
    expect(screen.queryByText('Välkommen till Greetie!')).not.toBeInTheDocument();
    expect(apiCalls().filter((c) => c.method === 'POST')).toEqual([]);
  });

  it('an empty answer is refused under the field, nothing is sent', async () => {
    stored = { ...me, name: null };
    const { user } = renderRoute('/', { session: signedIn({ ...me, name: null }) });
    const prompt = await screen.findByRole('region', { name: 'Välkommen till Greetie!' });
    await user.click(within(prompt).getByRole('button', { name: 'Klar' }));
    expect(await within(prompt).findByRole('alert')).toHaveTextContent('Skriv ditt namn.');
    expect(apiCalls().filter((c) => c.method === 'POST')).toEqual([]);
  });

  it('asks only when the server, too, has no name', async () => {
    renderRoute('/', { session: signedIn({ ...me, name: null }) });
    await waitFor(() => expect(apiCalls()).toEqual([{ method: 'GET', url: '/api/mobileuser/u1', body: undefined }]));
    await within(await findBanner()).findByRole('button', { name: 'Konto' });
    expect(screen.queryByText('Välkommen till Greetie!')).not.toBeInTheDocument();
  });

  it('my pages do not show the prompt (they ask for the name themselves)', async () => {
    stored = { ...me, name: null };
    renderRoute('/my/profile', { session: signedIn({ ...me, name: null }) });
    expect(await screen.findByRole('textbox', { name: 'Namn' })).toHaveValue('');
    expect(screen.queryByRole('region', { name: 'Välkommen till Greetie!' })).not.toBeInTheDocument();
  });
});

describe('formatMobileNumber', () => {
  it('writes a Swedish mobile number the Swedish way, anything else as stored', () => {
    expect(formatMobileNumber('+46701234567')).toBe('070-123 45 67');
    expect(formatMobileNumber('+46761112233')).toBe('076-111 22 33');
    expect(formatMobileNumber('+4781234567')).toBe('+4781234567');
  });
});
