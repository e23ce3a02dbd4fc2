import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configure, screen, waitFor } from '@testing-library/react';
import type { MobileUser } from '../../../contract/auth.ts';
import { installDomStubs, renderRoute, signedIn } from '../shell/render.tsx';

/**
 * /my/settings' web push switch: off until turned on; the browser is asked for
 * permission only then; on → the service worker registered, subscribed with the server's VAPID
 * key, the subscription sent; off → deleted and unsubscribed; a refusal explained. The browser's
 * push parts (Notification, serviceWorker, PushManager) are stubs: jsdom has none.
 */

vi.setConfig({ testTimeout: 15_000 });
configure({ asyncUtilTimeout: 5_000 });

const me: MobileUser = { id: 'u1', mobileNumber: '+46701234567', name: 'Anna Andersson', allowMarketing: false, merchants: [], createdAt: '2026-11-01T08:00:00.000Z' };
const PUBLIC_KEY = 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM';
const ENDPOINT = 'https://push.example.test/send/abc';

let calls: { method: string; url: string; body: unknown }[];
/** The Accept-Language of each POST /api/mobileuser/webpush, in order. */
let subscribedIn: (string | undefined)[];
let permission: NotificationPermission;
let answer: NotificationPermission;
let subscription: { endpoint: string; toJSON: () => unknown; unsubscribe: ReturnType<typeof vi.fn> } | null;
let subscribe: ReturnType<typeof vi.fn>;
let register: ReturnType<typeof vi.fn>;
let requestPermission: ReturnType<typeof vi.fn>;

beforeEach(() => {
  installDomStubs({ viewport: 'mobile' });
  calls = [];
  subscribedIn = [];
  permission = 'default';
  answer = 'granted';
  subscription = null;
  requestPermission = vi.fn(async () => (permission = answer));
  vi.stubGlobal('Notification', {
    get permission() {
      return permission;
    },
    requestPermission,
  });
  vi.stubGlobal('PushManager', function PushManager() {});
  subscribe = vi.fn(async () => {
    subscription = {
      endpoint: ENDPOINT,
      toJSON: () => ({ endpoint: ENDPOINT, expirationTime: null, keys: { p256dh: 'p256', auth: 'auth' } }),
      unsubscribe: vi.fn(async () => {
        subscription = null;
        return true;
      }),
    };
    return subscription;
  });
  const registration = { pushManager: { getSubscription: async () => subscription, subscribe } };
  register = vi.fn(async () => registration);
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: { register, ready: Promise.resolve(registration), getRegistration: async () => (subscription ? registration : undefined) },
  });
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const call = { method: init?.method ?? 'GET', url: String(input), body: init?.body ? JSON.parse(String(init.body)) : undefined };
    calls.push(call);
    if (call.method === 'POST' && call.url === '/api/mobileuser/webpush') subscribedIn.push((init?.headers as Record<string, string> | undefined)?.['Accept-Language']);
    const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    const path = call.url.split('?')[0];
    if (path === '/api/mobileuser/webpush' && call.method === 'GET') return json(200, { publicKey: PUBLIC_KEY });
    if (path === '/api/mobileuser/webpush') return new Response(null, { status: 204 });
    if (path === `/api/mobileuser/${me.id}`) return json(200, me);
    if (path === '/api/mobileuser/notifications') return json(200, []);
    return json(404, { code: 'NOT_FOUND', message: 'Det du letar efter finns inte.' });
  });
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, 'serviceWorker');
});

const pushCalls = () => calls.filter((c) => c.url.startsWith('/api/mobileuser/webpush'));

describe('/my/settings: notifications in this browser', () => {
  it('is off and asks nothing until turned on; on: permission asked, /sw.js registered, subscribed with the VAPID key, sent to the server', async () => {
    const { user } = renderRoute('/my/settings', { session: signedIn(me) });
    const toggle = await screen.findByRole('switch', { name: 'Visa notiser i den här webbläsaren' });
    await waitFor(() => expect(toggle).toBeEnabled());
    expect(toggle).toHaveAttribute('aria-checked', 'false');
    expect(requestPermission).not.toHaveBeenCalled();
    expect(register).not.toHaveBeenCalled();

    await user.click(toggle);
    await waitFor(() => expect(toggle).toHaveAttribute('aria-checked', 'true'));
    expect(requestPermission).toHaveBeenCalledTimes(1);
    expect(register).toHaveBeenCalledWith('/sw.js');
    const options = subscribe.mock.calls[0]![0] as { userVisibleOnly: boolean; applicationServerKey: Uint8Array };
    expect(options.userVisibleOnly).toBe(true);
    expect(options.applicationServerKey).toHaveLength(65);
    expect(pushCalls()).toEqual([
      { method: 'GET', url: '/api/mobileuser/webpush', body: undefined },
      { method: 'POST', url: '/api/mobileuser/webpush', body: { endpoint: ENDPOINT, keys: { p256dh: 'p256', auth: 'auth' } } },
    ]);

    // Off: the server forgets it and the browser unsubscribes.
    const sub = subscription!;
    await user.click(toggle);
    await waitFor(() => expect(toggle).toHaveAttribute('aria-checked', 'false'));
    expect(pushCalls().at(-1)).toEqual({ method: 'DELETE', url: `/api/mobileuser/webpush?endpoint=${encodeURIComponent(ENDPOINT)}`, body: undefined });
    expect(sub.unsubscribe).toHaveBeenCalled();
  });

  it('with push on, a change of language tells the server again, so pushes come in the new language', async () => {
    installDomStubs({ viewport: 'desktop' });
    const { user } = renderRoute('/my/settings', { session: signedIn(me) });
    const toggle = await screen.findByRole('switch', { name: 'Visa notiser i den här webbläsaren' });
    await waitFor(() => expect(toggle).toBeEnabled());
    await user.click(toggle);
    await waitFor(() => expect(toggle).toHaveAttribute('aria-checked', 'true'));
    expect(subscribedIn).toEqual(['sv']);

    await user.selectOptions(screen.getByRole('combobox', { name: 'Språk' }), 'en');
    await waitFor(() => expect(subscribedIn).toEqual(['sv', 'en']));
    expect(pushCalls().at(-1)).toEqual({ method: 'POST', url: '/api/mobileuser/webpush', body: { endpoint: ENDPOINT, keys: { p256dh: 'p256', auth: 'auth' } } });
  });

  it('a refused permission leaves it off and says how to allow it; nothing is sent', async () => {
    answer = 'denied';
    const { user } = renderRoute('/my/settings', { session: signedIn(me) });
    const toggle = await screen.findByRole('switch', { name: 'Visa notiser i den här webbläsaren' });
    await waitFor(() => expect(toggle).toBeEnabled());
    await user.click(toggle);
    expect(await screen.findByText(/Notiser är blockerade för Greetie/)).toBeInTheDocument();
    expect(toggle).toHaveAttribute('aria-checked', 'false');
    expect(toggle).toBeDisabled();
    expect(pushCalls()).toEqual([]);
  });
});
