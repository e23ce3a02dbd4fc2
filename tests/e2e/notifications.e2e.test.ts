import { expect } from 'vitest';
import { journey, connectBrowser } from './harness/journey.ts';
import { LOGIN_PATH, api, expectPath, header, mobileNumberFor, signInOnLoginPage, call, signInByApi } from './harness/app.ts';

/**
 * Notifications: the person signs in; somebody sends them a paid greetie (through the
 * API), and once it is delivered the avatar in the header shows one unread notification. On
 * /my/notifications it is marked unread and links to the greetie; 'Markera alla som lästa' clears
 * the badge. In /my/settings the person turns on notifications in this browser: the browser is
 * asked for permission (granted by the journey) and /sw.js registered — but the harness blocks
 * service workers and Chromium here reaches no real push service, so the registration and the
 * subscription are stubs (put in before the page loads) and the journey stops at the switch being
 * on (the server has the subscription). /sandbox shows the pushes.
 */

connectBrowser();

journey('notifications', async (j) => {
  const { page, baseURL, context } = j;
  // The browser's push service stand-in: a subscription object, never a real push service.
  await context.grantPermissions(['notifications'], { origin: new URL(baseURL).origin });
  // The harness blocks service workers (serviceWorkers: 'block'), and Chromium here reaches no
  // push service: the registration and the subscription are stubs put in before the page loads.
  await context.addInitScript(() => {
    let sub: unknown = null;
    const pushManager = {
      getSubscription: async () => sub,
      subscribe: async () => {
        const endpoint = `https://fcm.googleapis.com/fcm/send/e2e-${Math.random().toString(36).slice(2)}`;
        sub = {
          endpoint,
          toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM', auth: 'tBHItJI5svbpez7KI4CCXg' } }),
          unsubscribe: async () => {
            sub = null;
            return true;
          },
        };
        return sub;
      },
    };
    const w = window as unknown as { __registered?: string[] };
    w.__registered = [];
    const registration = { scope: `${location.origin}/`, pushManager };
    Object.defineProperty(navigator, 'serviceWorker', {
      configurable: true,
      value: {
        register: async (url: string) => {
          w.__registered!.push(url);
          return registration;
        },
        ready: Promise.resolve(registration),
        getRegistration: async () => (w.__registered!.length ? registration : undefined),
      },
    });
  });

  await page.goto(LOGIN_PATH);
  await signInOnLoginPage(j, { checkpoints: false });
  await expectPath(page, '/');

  // Somebody sends this person a paid greetie; the delivery worker delivers it at once.
  const me = mobileNumberFor(j.name, j.viewport);
  const sender = mobileNumberFor('notifications-sender', j.viewport);
  const token = await signInByApi(baseURL, sender.e164);
  await call(baseURL, token, 'POST', '/api/mobileuser', { name: 'Anna' });
  const merchants = await api<Array<{ id: string }>>(baseURL, '/api/merchant');
  let productId: string | undefined;
  for (const m of merchants) {
    const products = await api<Array<{ id: string; source: string; price?: number }>>(baseURL, `/api/merchant/${m.id}/products`);
    productId = products.find((p) => p.source === 'InStore' && typeof p.price === 'number')?.id;
    if (productId) break;
  }
  if (!productId) throw new Error('the demo catalogue has no fixed-price InStore product');
  const draft = await call<{ id: string }>(baseURL, token, 'POST', '/api/greetie/createv2', {
    recipient: { mobileNumber: me.e164, name: 'Bo' },
    message: 'Grattis!',
    gifts: [{ productId }],
  });
  const payment = await call<{ id: string }>(baseURL, token, 'POST', `/api/greetie/${draft.id}/startpayment`, { withdrawalConsent: true });
  await call(baseURL, null, 'POST', `/api/sandbox/payments/${payment.id}`, { outcome: 'paid' });

  // The avatar counts it (read on each page change).
  const avatar = header(page).getByRole('button', { name: /^Konto/ });
  await expect
    .poll(
      async () => {
        await page.goto('/');
        await avatar.waitFor();
        // The count is read after the page shows: give it a moment.
        await page.waitForTimeout(300);
        return avatar.getAttribute('aria-label');
      },
      { timeout: 20_000, interval: 500 },
    )
    .toBe('Konto, 1 oläst notis');
  await j.check('the unread notification on the avatar');

  await page.goto('/my/notifications');
  await page.getByRole('heading', { level: 1, name: 'Notiser' }).waitFor();
  const list = page.getByRole('list', { name: 'Notiser' });
  const item = list.getByRole('link', { name: /Du har fått en greetie!/ });
  await item.waitFor();
  expect(await item.textContent()).toContain('Oläst');
  expect(await item.textContent()).toContain('Anna har skickat en greetie till dig.');
  expect(await item.getAttribute('href')).toBe(`/greetie/details/${draft.id}`);
  await j.check('the notification list');

  await page.getByRole('button', { name: 'Markera alla som lästa' }).click();
  await page.getByRole('heading', { level: 2, name: 'Alla notiser är lästa.' }).waitFor();
  await header(page).getByRole('button', { name: 'Konto', exact: true }).waitFor();
  expect(await item.textContent()).not.toContain('Oläst');
  await j.check('all read');

  await item.click();
  await expectPath(page, `/greetie/details/${draft.id}`);

  // Web push: asked only when turned on; the subscription is the stub above (no push service here).
  await page.goto('/my/settings');
  const toggle = page.getByRole('switch', { name: 'Visa notiser i den här webbläsaren' });
  await expect.poll(() => toggle.isEnabled()).toBe(true);
  expect(await toggle.getAttribute('aria-checked')).toBe('false');
  await toggle.click();
  await expect.poll(() => toggle.getAttribute('aria-checked'), { timeout: 15_000 }).toBe('true');
  expect(await page.evaluate(() => (window as unknown as { __registered: string[] }).__registered)).toEqual(['/sw.js']);
  // The worker itself is served from the app's origin as JavaScript (the CSP's worker-src 'self').
  const sw = await page.request.get('/sw.js');
  expect(sw.status()).toBe(200);
  expect(sw.headers()['content-type']).toMatch(/javascript/);
  expect(await sw.text()).toContain("addEventListener('push'");
  await j.check('web push on (a stubbed subscription)');

  // The sandbox's push outbox has what would have reached a phone.
  await page.goto('/sandbox');
  const outbox = page.getByRole('list', { name: 'Push-utkorg' });
  await outbox.getByText('Du har fått en greetie!').first().waitFor();
  await j.check('the sandbox push outbox');
});
