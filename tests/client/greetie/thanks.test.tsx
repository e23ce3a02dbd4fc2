import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Greetie, GreetieThanks } from '../../../contract/greetie.ts';
import { installDomStubs, renderRoute, signedIn, visitor } from '../shell/render.tsx';
import { greetie } from '../../model/hooks/compose.ts';

/**
 * The thank-you (machines/thanks.ts) on the real pages: the recipient thanks on the greetie they
 * opened (/greetie/view/{id}?byId=true), the sender reads it on /greetie/details/{id}. The server
 * is fetch, answered by method and path.
 */
type Answer = { status: number; body?: unknown };
let server: Record<string, (body: unknown) => Answer>;
let calls: { method: string; path: string; body: unknown }[];

const json = ({ status, body }: Answer) =>
  new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const ID = '8d3c1f2e-6a4b-4c5d-9e8f-0a1b2c3d4e5f';
const SENDER = 'a1a1a1a1-0000-4000-8000-000000000001';
const RECIPIENT = 'b2b2b2b2-0000-4000-8000-000000000002';
const RECIPIENT_NUMBER = '+46701234567';
const THANKS_PATH = `/api/greetie/${ID}/thanks`;
const saved: GreetieThanks = { message: 'Vad glad jag blev!', emoji: '🎉', createdAt: '2026-11-27T13:05:00.000Z' };

const delivered = (over: Partial<Greetie> = {}) =>
  greetie({
    id: ID,
    status: 'delivered',
    sender: { id: SENDER, name: 'Anna' },
    recipient: { name: 'Bo', mobileNumber: RECIPIENT_NUMBER },
    message: 'Grattis!',
    deliveredAt: '2026-11-23T08:00:00.000Z',
    ...over,
  });
const posts = () => calls.filter((c) => c.method === 'POST' && c.path === THANKS_PATH);

beforeAll(async () => {
  await import('../../../src/pages/greetie/view/routes.tsx');
  await import('../../../src/pages/greetie/routes.tsx');
}, 60_000);

beforeEach(() => {
  installDomStubs({ viewport: 'mobile', reducedMotion: true });
  calls = [];
  server = {
    'GET /api/seller': () => ({ status: 200, body: { name: 'Greetie AB', orgNumber: '559999-9999', email: 'hej@greetie.se' } }),
  };
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = new URL(String(input), 'http://app');
    const method = init?.method ?? 'GET';
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    calls.push({ method, path: url.pathname, body });
    const handler = server[`${method} ${url.pathname}`];
    return json(handler ? handler(body) : { status: 404, body: { message: 'Finns inte.', code: 'GREETIE_NOT_FOUND' } });
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** The greetie opened by its recipient (or `who`), signed in. */
const openAs = (g: Greetie, who = { id: RECIPIENT, mobileNumber: RECIPIENT_NUMBER }) => {
  server[`GET /api/greetie/${ID}`] = () => ({ status: 200, body: g });
  renderRoute(`/greetie/view/${ID}?byId=true`, { session: signedIn(who) });
};
const form = () => screen.findByRole('region', { name: 'Tacka Anna' }, { timeout: 5000 });

describe('/greetie/view: the recipient thanks the sender', () => {
  it('writes, picks an emoji and sends once: the page shows what was sent, the focus on it', async () => {
    const user = userEvent.setup();
    server[`POST ${THANKS_PATH}`] = () => ({ status: 200, body: delivered({ viewed: true, thanks: saved }) });
    openAs(delivered());
    const region = await form();
    // The choices: none (picked), then each emoji by its name.
    const radios = within(region).getAllByRole('radio');
    expect(radios.map((r) => r.getAttribute('value') ?? 'none')).toEqual(['none', '🎉', '❤️', '😊', '🙏', '🥰', '🤗']);
    expect(within(region).getByRole('radio', { name: 'Ingen' })).toBeChecked();
    const field = within(region).getByLabelText('Ditt tack');
    expect(field).toHaveAttribute('maxlength', '500');
    expect(field).toHaveAccessibleDescription('0/500 tecken');

    await user.type(field, '  Vad glad jag blev!');
    expect(within(region).getByText('20/500 tecken')).toBeInTheDocument();
    await user.click(within(region).getByRole('radio', { name: 'Fest' }));
    await user.click(within(region).getByRole('button', { name: 'Skicka tack' }));

    const sent = await screen.findByRole('region', { name: 'Ditt tack' });
    expect(within(sent).getByRole('status')).toHaveTextContent('Tack! Ditt tack är skickat till Anna.');
    expect(sent).toHaveTextContent('🎉 Vad glad jag blev!');
    expect(sent).toHaveTextContent(/Skickat \d+ \w+ 2026/);
    await waitFor(() => expect(within(sent).getByRole('heading', { name: 'Ditt tack' })).toHaveFocus());
    expect(screen.queryByRole('button', { name: 'Skicka tack' })).not.toBeInTheDocument();
    expect(posts().map((c) => c.body)).toEqual([{ message: 'Vad glad jag blev!', emoji: '🎉' }]);
  });

  it('an empty text is not sent: said under the field, tied to it', async () => {
    const user = userEvent.setup();
    openAs(delivered());
    const region = await form();
    await user.type(within(region).getByLabelText('Ditt tack'), '   ');
    await user.click(within(region).getByRole('button', { name: 'Skicka tack' }));
    const alert = await within(region).findByRole('alert');
    expect(alert).toHaveTextContent('Skriv något i ditt tack.');
    const field = within(region).getByLabelText('Ditt tack');
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAccessibleDescription(/Skriv något i ditt tack\./);
    expect(posts()).toHaveLength(0);
  });

  it('near the limit, what is left is read out', async () => {
    openAs(delivered());
    const region = await form();
    const live = region.querySelector('[aria-live="polite"]')!;
    expect(live).toHaveTextContent('');
    fireEvent.change(within(region).getByLabelText('Ditt tack'), { target: { value: 'a'.repeat(460) } });
    expect(within(region).getByText('460/500 tecken')).toBeInTheDocument();
    expect(live).toHaveTextContent('40 tecken kvar');
  });

  it('a failed send loses nothing: the text and the emoji stay, and the same thanks can be sent again', async () => {
    const user = userEvent.setup();
    let answer: Answer = { status: 503, body: { message: 'Tjänsten är inte tillgänglig just nu.', code: 'SERVICE_UNAVAILABLE' } };
    server[`POST ${THANKS_PATH}`] = () => answer;
    openAs(delivered());
    const region = await form();
    await user.type(within(region).getByLabelText('Ditt tack'), 'Tack!');
    await user.click(within(region).getByRole('radio', { name: 'Kram' }));
    await user.click(within(region).getByRole('button', { name: 'Skicka tack' }));

    expect(await within(region).findByRole('alert')).toHaveTextContent('Tjänsten är inte tillgänglig just nu. Din text finns kvar, så du kan försöka igen.');
    expect(within(region).getByLabelText('Ditt tack')).toHaveValue('Tack!');
    expect(within(region).getByRole('radio', { name: 'Kram' })).toBeChecked();

    answer = { status: 200, body: delivered({ viewed: true, thanks: { message: 'Tack!', emoji: '🤗', createdAt: saved.createdAt } }) };
    await user.click(within(region).getByRole('button', { name: 'Skicka tack' }));
    expect(await screen.findByRole('region', { name: 'Ditt tack' })).toHaveTextContent('🤗 Tack!');
    expect(posts().map((c) => c.body)).toEqual([
      { message: 'Tack!', emoji: '🤗' },
      { message: 'Tack!', emoji: '🤗' },
    ]);
  });

  it.each([
    [409, 'THANKS_ALREADY_SENT', 'Du har redan tackat för den här greetien.'],
    [404, 'GREETIE_NOT_FOUND', 'Den här greetien går inte längre att tacka för. Avsändaren kan ha rättat numret den skickades till.'],
  ] as const)('%i %s: said, the focus on it, and no form to send again', async (status, code, text) => {
    const user = userEvent.setup();
    server[`POST ${THANKS_PATH}`] = () => ({ status, body: { message: 'Nej.', code } });
    openAs(delivered());
    const region = await form();
    await user.type(within(region).getByLabelText('Ditt tack'), 'Tack!');
    await user.click(within(region).getByRole('button', { name: 'Skicka tack' }));
    const alert = await within(region).findByRole('alert');
    expect(alert).toHaveTextContent(text);
    await waitFor(() => expect(alert).toHaveFocus());
    expect(within(region).queryByRole('button', { name: 'Skicka tack' })).not.toBeInTheDocument();
    expect(posts()).toHaveLength(1);
  });

  it('a greetie already thanked shows the thanks as sent, without the form', async () => {
    openAs(delivered({ viewed: true, thanks: saved }));
    const sent = await screen.findByRole('region', { name: 'Ditt tack' }, { timeout: 5000 });
    expect(sent).toHaveTextContent('🎉 Vad glad jag blev!');
    expect(within(sent).queryByRole('status')).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Tacka Anna' })).not.toBeInTheDocument();
  });

  it('only the recipient thanks: not the sender, not a visitor', async () => {
    openAs(delivered(), { id: SENDER, mobileNumber: '+46709876543' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Din greetie till Bo' }, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Tacka Anna' })).not.toBeInTheDocument();
  });

  it('a visitor who opened the link gets no form', async () => {
    const { recipient: _r, ...rest } = delivered();
    server['GET /api/greetie/byRef'] = () => ({ status: 200, body: { ...rest, recipient: { name: 'Bo' } } });
    renderRoute(`/greetie/view/ref-1`, { session: visitor });
    expect(await screen.findByRole('heading', { level: 1, name: 'En greetie från Anna' }, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Tacka Anna' })).not.toBeInTheDocument();
  });
});

describe('/greetie/details: the sender reads the thanks', () => {
  const openDetails = (g: Greetie) => {
    server[`GET /api/greetie/${ID}`] = () => ({ status: 200, body: g });
    renderRoute(`/greetie/details/${ID}`, { session: signedIn({ id: SENDER }) });
  };

  it('"Tack från Bo: ”…” 🎉" with the date', async () => {
    openDetails(delivered({ viewed: true, viewedAt: saved.createdAt, thanks: saved }));
    const note = await screen.findByRole('region', { name: 'Tack från mottagaren' }, { timeout: 5000 });
    expect(note).toHaveTextContent('Tack från Bo: ”Vad glad jag blev!” 🎉');
    const time = note.querySelector('time')!;
    expect(time).toHaveAttribute('datetime', saved.createdAt);
    expect(time).toHaveTextContent(/27 november 2026/);
  });

  it('without the recipient\'s name and without an emoji', async () => {
    openDetails(delivered({ recipient: { name: null, mobileNumber: RECIPIENT_NUMBER }, viewed: true, thanks: { ...saved, emoji: null } }));
    const note = await screen.findByRole('region', { name: 'Tack från mottagaren' }, { timeout: 5000 });
    expect(note.querySelector('p')).toHaveTextContent(/^Tack från mottagaren: ”Vad glad jag blev!”$/);
  });

  it('no thanks yet: nothing about it', async () => {
    openDetails(delivered());
    expect(await screen.findByRole('button', { name: 'Rätta numret' }, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Tack från mottagaren' })).not.toBeInTheDocument();
  });
});
