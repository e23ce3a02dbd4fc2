import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { REVEAL_DELAY_MS } from '../../../machines/greetieView.ts';
import { installDomStubs, renderRoute, signedIn, visitor } from '../shell/render.tsx';

/**
 * /greetie/view/{refId} and /greetie/view/{id}?byId=true on the real routes: the server is fetch,
 * answered at once by method and path, faked at the edge. Most tests ask for reduced motion, so
 * the gifts are revealed without the pause (the pause has a test of its own).
 */
type Answer = { status: number; body?: unknown };
let server: Record<string, (query: URLSearchParams) => Answer>;
let calls: { method: string; path: string; query: string; auth: string | null }[];

const json = ({ status, body }: Answer) =>
  new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const REF = 'AbCdEf123456';
const ID = '8d3c1f2e-6a4b-4c5d-9e8f-0a1b2c3d4e5f';
const SENDER = 'a1a1a1a1-0000-4000-8000-000000000001';
const RECIPIENT_NUMBER = '+46701234567';
const SENDER_NUMBER = '+46709876543';
const photo = { kind: 'photo', url: '/api/media/AAAAAAAAAAAAAAAAAAAAAA.webp', thumbnailUrl: '/api/media/BBBBBBBBBBBBBBBBBBBBBB.webp', overlayUrl: null };
const video = { kind: 'video', url: '/api/media/CCCCCCCCCCCCCCCCCCCCCC.mp4', thumbnailUrl: '/api/media/DDDDDDDDDDDDDDDDDDDDDD.jpg', overlayUrl: null };

const voucher = (id: string, productName: string, extra: Record<string, unknown> = {}) => ({
  id,
  greetieId: ID,
  merchant: { id: 'c0c0c0c0-0000-4000-8000-000000000001', name: 'Café Kanelbullen', logoUrl: '/merchants/kanelbullen.svg' },
  product: { id: 'c0c0c0c0-0000-4000-8000-000000000002', name: productName },
  source: 'InStore',
  amount: 14900,
  isRedeemed: false,
  redeemedAt: null,
  expiresAt: '2027-11-23T08:00:00.000Z',
  createdAt: '2026-11-23T08:00:00.000Z',
  ...extra,
});
const V1 = 'e1e1e1e1-0000-4000-8000-000000000001';
const V2 = 'e1e1e1e1-0000-4000-8000-000000000002';
const V3 = 'e1e1e1e1-0000-4000-8000-000000000003';
const gifts = [
  { productId: 'c0c0c0c0-0000-4000-8000-000000000002', productName: 'Fika för två', merchantId: 'c0c0c0c0-0000-4000-8000-000000000001', merchantName: 'Café Kanelbullen', source: 'InStore', amount: 14900 },
  { productId: 'c0c0c0c0-0000-4000-8000-000000000003', productName: 'Presentkort', merchantId: 'c0c0c0c0-0000-4000-8000-000000000001', merchantName: 'Café Kanelbullen', source: 'InStore', amount: 20000 },
];

/** The greetie as its sender or recipient reads it. */
const greetie = (extra: Record<string, unknown> = {}) => ({
  id: ID,
  refId: REF,
  status: 'delivered',
  sender: { id: SENDER, name: 'Anna' },
  recipient: { name: 'Bo', mobileNumber: RECIPIENT_NUMBER },
  message: 'Grattis på födelsedagen!',
  content: [{ type: 'text', value: 'Hurra', x: 0.5, y: 0.2, scale: 1, rotation: 0 }],
  media: photo,
  gifts,
  vouchers: [],
  total: 34900,
  deliverAt: null,
  deliveredAt: '2026-11-23T08:00:00.000Z',
  viewed: false,
  viewedAt: null,
  cancelledAt: null,
  createdAt: '2026-11-22T08:00:00.000Z',
  updatedAt: '2026-11-23T08:00:00.000Z',
  ...extra,
});

/** The public view: the recipient's name only, vouchers without codes. */
const publicGreetie = (extra: Record<string, unknown> = {}) => {
  const { recipient: _r, ...rest } = greetie(extra);
  return { ...rest, recipient: { name: 'Bo' }, vouchers: [voucher(V1, 'Fika för två'), voucher(V2, 'Presentkort', { amount: 20000 })] };
};

// The greetie pages' chunk is loaded once before the tests (on a busy machine its first import
// alone can take most of a test's time).
beforeAll(async () => {
  await import('../../../src/pages/greetie/routes.tsx');
}, 30_000);

beforeEach(() => {
  calls = [];
  server = {};
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = new URL(String(input), 'http://app');
    const method = init?.method ?? 'GET';
    const headers = new Headers(init?.headers);
    calls.push({ method, path: url.pathname, query: url.search, auth: headers.get('authorization') });
    const handler = server[`${method} ${url.pathname}`];
    return json(handler ? handler(url.searchParams) : { status: 404, body: { message: 'Greetien finns inte.', code: 'GREETIE_NOT_FOUND' } });
  });
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const giftsHeading = (name: string) => screen.findByRole('heading', { level: 2, name }, { timeout: 3000 });
const noPhoneNumberOrCode = () => {
  const text = document.body.textContent ?? '';
  expect(text).not.toMatch(/\+46|07\d[\s-]?\d/);
};

describe('/greetie/view/{refId} (the SMS link)', () => {
  it('a visitor sees the greetie, the gifts by name and "Logga in för att ta emot" with returnTo: no phone number, no code, no redeem', async () => {
    installDomStubs({ viewport: 'mobile', reducedMotion: true });
    server[`GET /api/greetie/byRef`] = (q) => (q.get('refId') === REF ? { status: 200, body: publicGreetie() } : { status: 404 });
    renderRoute(`/greetie/view/${REF}`, { session: visitor });

    expect(await screen.findByRole('heading', { level: 1, name: 'En greetie från Anna' })).toBeInTheDocument();
    const first = screen.getByRole('img', { name: 'Bilden i greetien' });
    expect(first).toHaveAttribute('fetchpriority', 'high');
    expect(first).toHaveAttribute('width');
    expect(first).toHaveAttribute('height');
    // The small copy first; the full photo over it, fetched after it, shown once loaded.
    expect(first).toHaveAttribute('src', photo.thumbnailUrl);
    const full = document.querySelector(`img[src="${photo.url}"]`)!;
    expect(full).toHaveAttribute('fetchpriority', 'low');
    expect(full).toHaveAttribute('data-loaded', 'false');
    fireEvent.load(full);
    expect(full).toHaveAttribute('data-loaded', 'true');
    expect(screen.getByRole('img', { name: 'Över bilden: Hurra' })).toBeInTheDocument();
    expect(screen.getByText('Grattis på födelsedagen!')).toBeInTheDocument();

    const section = (await giftsHeading('2 gåvor följer med')).closest('section')!;
    expect(within(section).getByText('Fika för två')).toBeInTheDocument();
    expect(within(section).getByText('Presentkort')).toBeInTheDocument();
    expect(within(section).getByText('Från Café Kanelbullen · 149 kr')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Logga in för att ta emot' })).toHaveAttribute(
      'href',
      `/auth/jwt/login?returnTo=${encodeURIComponent(`/greetie/view/${REF}`)}`,
    );
    expect(screen.queryByRole('link', { name: 'Lös in' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Mina gåvor' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Visa gåvan' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Skicka en egen greetie' })).toHaveAttribute('href', '/greetie/new');
    noPhoneNumberOrCode();
    // One read, by the reference, without a token: the server marks it viewed.
    expect(calls.map((c) => `${c.method} ${c.path}${c.query}`)).toEqual([`GET /api/greetie/byRef?refId=${REF}`]);
    expect(document.title).toBe('En greetie från Anna · Greetie');
  });

  it('carries Greetie\'s brand, the sender\'s name and how to tell a real Greetie SMS (issue 27), in Swedish and English', async () => {
    installDomStubs({ viewport: 'mobile', reducedMotion: true });
    server[`GET /api/greetie/byRef`] = () => ({ status: 200, body: publicGreetie() });
    renderRoute(`/greetie/view/${REF}`, { session: visitor });
    const note = await screen.findByRole('complementary', { name: 'Om greetien' });
    expect(within(note).getByText('Greetie')).toBeInTheDocument();
    expect(within(note).getByText('Skickad av Anna med Greetie')).toBeInTheDocument();
    const host = window.location.host;
    expect(host).not.toBe('');
    expect(note).toHaveTextContent(`Äkta greetie-sms kommer från avsändaren ”Greetie” och länkar bara till ${host}.`);
    expect(note).toHaveTextContent('Vi ber dig aldrig om BankID, kortuppgifter eller betalning för att öppna en greetie.');
  });

  it('the note says "Skickad med Greetie" when the sender has no name any more (a removed account)', async () => {
    installDomStubs({ viewport: 'mobile', reducedMotion: true });
    server[`GET /api/greetie/byRef`] = () => ({ status: 200, body: publicGreetie({ sender: { id: null, name: null } }) });
    renderRoute(`/greetie/view/${REF}`, { session: visitor });
    const note = await screen.findByRole('complementary', { name: 'Om greetien' });
    expect(within(note).getByText('Skickad med Greetie')).toBeInTheDocument();
  });

  it('the gifts are revealed after the media has played a moment, in a live region', async () => {
    installDomStubs({ viewport: 'mobile' });
    vi.useFakeTimers({ shouldAdvanceTime: true });
    server[`GET /api/greetie/byRef`] = () => ({ status: 200, body: publicGreetie() });
    renderRoute(`/greetie/view/${REF}`, { session: visitor });
    await screen.findByRole('heading', { level: 1, name: 'En greetie från Anna' });
    expect(screen.queryByText('Fika för två')).not.toBeInTheDocument();
    vi.advanceTimersByTime(REVEAL_DELAY_MS);
    const heading = await giftsHeading('2 gåvor följer med');
    expect(heading.closest('[aria-live="polite"]')).not.toBeNull();
  });

  it('a link that leads nowhere says so, with the way home and no retry', async () => {
    installDomStubs({ viewport: 'mobile', reducedMotion: true });
    renderRoute(`/greetie/view/${REF}`, { session: visitor });
    expect(await screen.findByRole('heading', { level: 1, name: 'Vi hittar inte den här greetien' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Till startsidan' })).toHaveAttribute('href', '/');
    expect(screen.queryByRole('button', { name: 'Försök igen' })).not.toBeInTheDocument();
  });

  it('a link that leads nowhere carries the brand, how to tell a real Greetie SMS, and where to get help', async () => {
    installDomStubs({ viewport: 'mobile', reducedMotion: true });
    server['GET /api/seller'] = () => ({ status: 200, body: { name: 'Greetie AB', orgNumber: '559000-0000', email: 'hej@greetie.se' } });
    renderRoute(`/greetie/view/${REF}`, { session: visitor });
    const heading = await screen.findByRole('heading', { level: 1, name: 'Vi hittar inte den här greetien' });
    const box = heading.parentElement!;
    expect(within(box).getByText('Greetie')).toBeInTheDocument();
    expect(box).toHaveTextContent(`Äkta greetie-sms kommer från avsändaren ”Greetie” och länkar bara till ${window.location.host}.`);
    expect(await within(box).findByRole('link', { name: 'hej@greetie.se' })).toHaveAttribute('href', 'mailto:hej@greetie.se');
    expect(box).toHaveTextContent('Behöver du hjälp? Skriv till oss: hej@greetie.se');
    expect(within(box).getByRole('link', { name: 'Till startsidan' })).toHaveAttribute('href', '/');
  });

  it('a failure says what went wrong, and "Försök igen" reads it again', async () => {
    installDomStubs({ viewport: 'mobile', reducedMotion: true });
    let fail = true;
    server[`GET /api/greetie/byRef`] = () =>
      fail ? { status: 503, body: { message: 'Tjänsten är inte tillgänglig just nu.', code: 'SERVICE_UNAVAILABLE' } } : { status: 200, body: publicGreetie() };
    renderRoute(`/greetie/view/${REF}`, { session: visitor });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Vi kunde inte visa greetien');
    expect(alert).toHaveTextContent('Tjänsten är inte tillgänglig just nu.');
    fail = false;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Försök igen' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'En greetie från Anna' })).toBeInTheDocument();
  });

  it('its recipient, signed in, gets each gift with Visa gåvan and Lös in, and Mina gåvor (the list); a redeemed one shows when, without Lös in', async () => {
    installDomStubs({ viewport: 'mobile', reducedMotion: true });
    server[`GET /api/greetie/byRef`] = () => ({ status: 200, body: publicGreetie() });
    server[`GET /api/greetie/${ID}`] = () => ({ status: 200, body: greetie() });
    server[`GET /api/greetie/${ID}/vouchers`] = () => ({
      status: 200,
      body: [
        voucher(V1, 'Fika för två'),
        voucher(V2, 'Presentkort', { amount: 20000, isRedeemed: true, redeemedAt: '2026-11-23T09:30:00.000Z' }),
        voucher(V3, 'Bokkod', { source: 'Code', code: 'KOD-4711-HEMLIG' }),
      ],
    });
    const { actor } = renderRoute(`/greetie/view/${REF}`, { session: signedIn({ mobileNumber: RECIPIENT_NUMBER }) });

    const section = (await giftsHeading('Dina gåvor')).closest('section')!;
    await within(section).findAllByRole('link', { name: 'Lös in' });
    const [fika, card, code] = within(section).getAllByRole('listitem');
    expect(fika).toHaveTextContent('Fika för två');
    expect(within(fika!).getByRole('link', { name: 'Visa gåvan' })).toHaveAttribute('href', `/voucher/${V1}`);
    const redeem = within(fika!).getByRole('link', { name: 'Lös in' });
    expect(redeem).toHaveAttribute('href', `/redeem/${ID}?voucher=${V1}`);
    expect(redeem).toHaveAccessibleDescription('Fika för två');
    expect(within(card!).getByText('Inlöst 23 november 2026 10:30')).toBeInTheDocument();
    expect(within(card!).queryByRole('link', { name: 'Lös in' })).not.toBeInTheDocument();
    expect(within(card!).getByRole('link', { name: 'Visa gåvan' })).toHaveAttribute('href', `/voucher/${V2}`);
    expect(screen.queryByRole('link', { name: 'Logga in för att ta emot' })).not.toBeInTheDocument();
    // An online code is used on the voucher's own page (Mina gåvor), not at a till, and never shown on the greetie.
    expect(within(code!).getByRole('link', { name: 'Visa gåvan' })).toHaveAttribute('href', `/voucher/${V3}`);
    expect(within(code!).queryByRole('link', { name: 'Lös in' })).not.toBeInTheDocument();
    expect(document.body.textContent).not.toContain('KOD-4711-HEMLIG');
    // One way to the whole list, and to send one of their own.
    expect(screen.getByRole('link', { name: 'Mina gåvor' })).toHaveAttribute('href', '/voucher');
    expect(screen.getByRole('link', { name: 'Skicka en egen greetie' })).toHaveAttribute('href', '/greetie/new');
    // The public read marks it viewed; the second read (to learn whose it is) does not.
    expect(calls.map((c) => `${c.method} ${c.path}${c.query}`)).toEqual([
      `GET /api/greetie/byRef?refId=${REF}`,
      `GET /api/greetie/${ID}?markAsViewed=false`,
      `GET /api/greetie/${ID}/vouchers`,
    ]);

    // Redeemed at the till (the voucher store hears of it): the greetie shows it at once, no reload.
    act(() =>
      actor.system.get('vouchers')!.send({
        type: 'redeem.succeeded',
        voucher: voucher(V1, 'Fika för två', { isRedeemed: true, redeemedAt: '2026-11-23T11:00:00.000Z' }),
      }),
    );
    expect(await within(fika!).findByText('Inlöst 23 november 2026 12:00')).toBeInTheDocument();
    expect(within(fika!).queryByRole('link', { name: 'Lös in' })).not.toBeInTheDocument();
    expect(calls).toHaveLength(3);
  });

  it('its recipient’s vouchers are asked for while the greetie plays, not after the gifts are revealed', async () => {
    installDomStubs({ viewport: 'mobile' });
    server[`GET /api/greetie/byRef`] = () => ({ status: 200, body: publicGreetie() });
    server[`GET /api/greetie/${ID}`] = () => ({ status: 200, body: greetie() });
    server[`GET /api/greetie/${ID}/vouchers`] = () => ({ status: 200, body: [voucher(V1, 'Fika för två'), voucher(V2, 'Presentkort', { amount: 20000 })] });
    renderRoute(`/greetie/view/${REF}`, { session: signedIn({ mobileNumber: RECIPIENT_NUMBER }) });
    await screen.findByRole('heading', { level: 1, name: 'En greetie från Anna' });
    await waitFor(() => expect(calls.map((c) => c.path)).toContain(`/api/greetie/${ID}/vouchers`));
    // Still playing: the gifts are not revealed yet, and their vouchers are already on their way.
    expect(screen.queryByRole('heading', { level: 2, name: 'Dina gåvor' })).not.toBeInTheDocument();
    const section = (await giftsHeading('Dina gåvor')).closest('section')!;
    expect(await within(section).findAllByRole('link', { name: 'Lös in' })).toHaveLength(2);
    expect(calls.filter((c) => c.path === `/api/greetie/${ID}/vouchers`)).toHaveLength(1);
  });

  it('someone signed in with another number gets "Logga in med ett annat nummer": signed out, to sign-in, back to this greetie', async () => {
    installDomStubs({ viewport: 'mobile', reducedMotion: true });
    server[`GET /api/greetie/byRef`] = () => ({ status: 200, body: publicGreetie() });
    const signOut = vi.fn();
    const { user, router } = renderRoute(`/greetie/view/${REF}`, { session: signedIn({ id: 'ffffffff-0000-4000-8000-000000000009', mobileNumber: '+46731112233' }, signOut) });
    await giftsHeading('2 gåvor följer med');
    expect(screen.getByText(/skickades till ett annat nummer än det du är inloggad med/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Logga in med ett annat nummer' }));
    expect(signOut).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(`/auth/jwt/login?returnTo=${encodeURIComponent(`/greetie/view/${REF}`)}`));
    expect(await screen.findByLabelText('Mobilnummer')).toBeInTheDocument();
  });

  it('someone else signed in sees the gift names and is told the gifts are the recipient’s', async () => {
    installDomStubs({ viewport: 'mobile', reducedMotion: true });
    server[`GET /api/greetie/byRef`] = () => ({ status: 200, body: publicGreetie() });
    renderRoute(`/greetie/view/${REF}`, { session: signedIn({ id: 'ffffffff-0000-4000-8000-000000000009', mobileNumber: '+46731112233' }) });
    const section = (await giftsHeading('2 gåvor följer med')).closest('section')!;
    expect(within(section).getByText('Fika för två')).toBeInTheDocument();
    expect(within(section).getByText(/Gåvorna tillhör mottagaren/)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Lös in' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Logga in för att ta emot' })).not.toBeInTheDocument();
  });

  it('a video starts muted and inline, its poster is the first frame, and a button turns the sound on and off', async () => {
    installDomStubs({ viewport: 'mobile', reducedMotion: true });
    server[`GET /api/greetie/byRef`] = () => ({ status: 200, body: publicGreetie({ media: video }) });
    vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
    renderRoute(`/greetie/view/${REF}`, { session: visitor });
    const player = (await screen.findByLabelText('Videon i greetien')) as HTMLVideoElement;
    expect(player.muted).toBe(true);
    expect(player).toHaveAttribute('playsinline');
    expect(player).toHaveAttribute('poster', video.thumbnailUrl);
    const poster = document.querySelector(`img[src="${video.thumbnailUrl}"]`);
    expect(poster).toHaveAttribute('fetchpriority', 'high');

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Slå på ljudet' }));
    expect(player.muted).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Stäng av ljudet' }));
    expect(player.muted).toBe(true);
  });
});

describe('/greetie/view/{id}?byId=true', () => {
  it('its sender sees "Sedd" with the time it was seen, and what they gave without links', async () => {
    installDomStubs({ viewport: 'desktop', reducedMotion: true });
    server[`GET /api/greetie/${ID}`] = () => ({ status: 200, body: greetie({ viewed: true, viewedAt: '2026-11-23T09:15:00.000Z' }) });
    renderRoute(`/greetie/view/${ID}?byId=true`, { session: signedIn({ id: SENDER, mobileNumber: SENDER_NUMBER }) });
    expect(await screen.findByRole('heading', { level: 1, name: 'Din greetie till Bo' })).toBeInTheDocument();
    expect(screen.getByText('Sedd 23 november 2026 10:15')).toBeInTheDocument();
    const section = (await giftsHeading('Gåvorna du gav')).closest('section')!;
    expect(within(section).getByText('Presentkort')).toBeInTheDocument();
    expect(within(section).queryByRole('link')).not.toBeInTheDocument();
    expect(calls.map((c) => `${c.method} ${c.path}${c.query}`)).toEqual([`GET /api/greetie/${ID}?markAsViewed=true`]);
  });

  it('its sender sees "Inte sedd än" before the recipient has opened it', async () => {
    installDomStubs({ viewport: 'desktop', reducedMotion: true });
    server[`GET /api/greetie/${ID}`] = () => ({ status: 200, body: greetie({ gifts: [] }) });
    renderRoute(`/greetie/view/${ID}?byId=true`, { session: signedIn({ id: SENDER, mobileNumber: SENDER_NUMBER }) });
    expect(await screen.findByText('Inte sedd än')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { level: 2 })).not.toBeInTheDocument();
    expect(calls.map((c) => c.path)).toEqual([`/api/greetie/${ID}`]);
  });

  it('a visitor is sent to sign in, and comes back here', async () => {
    installDomStubs({ viewport: 'mobile', reducedMotion: true });
    const { router } = renderRoute(`/greetie/view/${ID}?byId=true`, { session: visitor });
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/jwt/login'));
    expect(new URLSearchParams(router.state.location.search).get('returnTo')).toBe(`/greetie/view/${ID}?byId=true`);
    expect(calls).toEqual([]);
  });

  it('a greetie that is not the person’s is not found', async () => {
    installDomStubs({ viewport: 'mobile', reducedMotion: true });
    renderRoute(`/greetie/view/${ID}?byId=true`, { session: signedIn() });
    expect(await screen.findByRole('heading', { level: 1, name: 'Vi hittar inte den här greetien' })).toBeInTheDocument();
  });
});

describe("the server's first frame (index.html's #boot-frame, decision 090)", () => {
  /** What the server puts after #root for /greetie/view/{refId}: the first frame, before any script. */
  const bootFrame = (src: string) => {
    const el = document.createElement('div');
    el.id = 'boot-frame';
    el.setAttribute('aria-hidden', 'true');
    el.innerHTML = `<div class="boot-frame-page"><div class="boot-stage"><img src="${src}" width="1080" height="1350" alt="" /></div></div>`;
    document.body.append(el);
    return el;
  };
  afterEach(() => document.getElementById('boot-frame')?.remove());

  it('stays over the loading page until the page’s own first frame (the same file) has loaded, then goes', async () => {
    installDomStubs({ viewport: 'mobile', reducedMotion: true });
    const frame = bootFrame(photo.thumbnailUrl);
    server[`GET /api/greetie/byRef`] = () => ({ status: 200, body: publicGreetie() });
    renderRoute(`/greetie/view/${REF}`, { session: visitor });
    const first = await screen.findByRole('img', { name: 'Bilden i greetien' });
    expect(first).toHaveAttribute('src', photo.thumbnailUrl);
    expect(frame.isConnected).toBe(true);
    fireEvent.load(first);
    await waitFor(() => expect(frame.isConnected).toBe(false));
    // The page's stage is the only image of the greetie left, the first thing in its grid on a phone.
    expect(document.querySelectorAll(`img[src="${photo.thumbnailUrl}"]`)).toHaveLength(1);
  });

  it('goes when the page finds nothing to show', async () => {
    installDomStubs({ viewport: 'mobile', reducedMotion: true });
    const frame = bootFrame(photo.thumbnailUrl);
    renderRoute(`/greetie/view/${REF}`, { session: visitor });
    await screen.findByRole('heading', { level: 1, name: 'Vi hittar inte den här greetien' });
    expect(frame.isConnected).toBe(false);
  });

  it('goes when the page’s image fails, and when the page is left', async () => {
    installDomStubs({ viewport: 'mobile', reducedMotion: true });
    let frame = bootFrame(photo.thumbnailUrl);
    server[`GET /api/greetie/byRef`] = () => ({ status: 200, body: publicGreetie() });
    const { router } = renderRoute(`/greetie/view/${REF}`, { session: visitor });
    fireEvent.error(await screen.findByRole('img', { name: 'Bilden i greetien' }));
    expect(frame.isConnected).toBe(false);

    frame = bootFrame(photo.thumbnailUrl);
    await act(() => router.navigate('/merchant'));
    await waitFor(() => expect(frame.isConnected).toBe(false));
  });
});
