/**
 * The drivers of `npm run flows:shots`: each walks the real pages (as a person does, by role and
 * label) to the states of one or more machines and pictures them with the camera
 * (./recorder.ts). A waiting state is held on screen by holding its request; a failed state by
 * answering its request with an error. A state no driver reaches stays `todo` in the manifest.
 */
import { randomInt, randomUUID } from 'node:crypto';
import sharp from 'sharp';
import type { Locator, Route } from 'playwright-core';
import type { Camera } from './recorder.ts';

export interface Driver {
  /** The machines whose states this driver pictures (the manifest's todo reason names it). */
  machines: string[];
  run(camera: Camera): Promise<void>;
}

async function api<T>(baseURL: string, path: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(new URL(path, baseURL), { ...init, headers: { accept: 'application/json', 'accept-language': 'sv', 'content-type': 'application/json', ...init.headers } });
  const text = await res.text();
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path} answered ${res.status}: ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** The newest code the sandbox outbox holds for `e164`, sent after `since`. */
async function codeFor(baseURL: string, e164: string, since: number): Promise<string> {
  const until = Date.now() + 15_000;
  for (;;) {
    const messages = await api<{ to: string; body: string; sentAt: string }[]>(baseURL, `/api/sandbox/sms?to=${encodeURIComponent(e164)}`);
    const code = messages.find((m) => m.to === e164 && Date.parse(m.sentAt) >= since - 2_000)?.body.match(/\b(\d{6})\b/)?.[1];
    if (code) return code;
    if (Date.now() > until) throw new Error(`no code reached ${e164}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** An access token for `e164`, through the API (the sandbox outbox has the code). */
async function tokenFor(baseURL: string, e164: string, name?: string): Promise<string> {
  const since = Date.now();
  const { token } = await api<{ token: string }>(baseURL, '/api/auth/verificationcode', { method: 'POST', body: JSON.stringify({ mobileNumber: e164 }) });
  const code = await codeFor(baseURL, e164, since);
  const session = await api<{ token: string }>(baseURL, '/api/auth/login', { method: 'POST', body: JSON.stringify({ token, code, deviceId: randomUUID() }) });
  if (name) await api(baseURL, '/api/mobileuser', { method: 'POST', body: JSON.stringify({ name }), headers: { authorization: `Bearer ${session.token}` } });
  return session.token;
}

/**
 * A number of its own for each person a driver plays (as the journeys have, tests/e2e/harness/app.ts):
 * codes to one number are limited, and the sandbox sends nothing for real.
 */
function freshNumber(): { typed: string; e164: string } {
  const digits = String(randomInt(0, 10_000_000)).padStart(7, '0');
  return { typed: `070-${digits.slice(0, 3)} ${digits.slice(3, 5)} ${digits.slice(5)}`, e164: `+4670${digits}` };
}

/** Signs in on the login page, as a person does. With `name`, the profile has that name first (no name question). */
async function signIn(camera: Camera, who = freshNumber(), name?: string): Promise<void> {
  const { page, baseURL } = camera;
  if (name) await tokenFor(baseURL, who.e164, name);
  await page.goto('/auth/jwt/login');
  await page.getByLabel('Mobilnummer').fill(who.typed);
  const since = Date.now();
  await page.getByRole('button', { name: 'Skicka kod' }).click();
  const codeField = page.getByLabel('Kod', { exact: true });
  await codeField.waitFor();
  await codeField.fill(await codeFor(baseURL, who.e164, since));
  await page.getByRole('main').getByRole('button', { name: 'Logga in', exact: true }).click();
  await page.getByRole('banner').getByRole('button', { name: 'Konto' }).waitFor();
}

/** Runs `fn`; a failure is logged and the driver goes on (the states it would have pictured stay todo). */
async function attempt(camera: Camera, what: string, fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
  } catch (err) {
    const message = (err as Error).message.split('\n')[0];
    camera.log.push(`✗ ${what}: ${message}`);
    console.log(`  ✗ ${what}: ${message}`);
    if (process.env.FLOWS_SHOTS_DEBUG) await camera.page.screenshot({ path: `${process.env.FLOWS_SHOTS_DEBUG}/${what.replace(/[^\w.-]+/g, '_')}.png` }).catch(() => undefined);
    await camera.releaseAll();
  }
}

/**
 * Answers the `method` requests matching `pattern` with `status` and the API's error shape (the
 * server's own code, as it would answer), letting every other request through, until the returned
 * function is called.
 */
async function refuse(camera: Camera, pattern: string | RegExp, method: string, status: number, code: string, message = 'Något gick fel.'): Promise<() => Promise<void>> {
  const handler = (route: Route) =>
    route.request().method() === method
      ? route.fulfill({ status, contentType: 'application/json', body: JSON.stringify({ message, code }) })
      : route.fallback();
  await camera.page.route(pattern, handler);
  return () => camera.page.unroute(pattern, handler);
}

/**
 * Holds the requests matching `pattern` until the returned function is called, then answers them
 * with the server's answer as `rewrite` changes it (a product sold out meanwhile).
 */
async function holdAndRewrite(camera: Camera, pattern: string | RegExp, rewrite: (json: unknown) => unknown): Promise<() => Promise<void>> {
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  const handler = async (route: Route) => {
    await gate;
    const response = await route.fetch().catch(() => null);
    if (!response) return route.abort().catch(() => undefined);
    await route.fulfill({ response, json: rewrite(await response.json()) }).catch(() => undefined);
  };
  await camera.page.route(pattern, handler);
  return async () => {
    open();
    await camera.page.unroute(pattern, handler);
  };
}

/** A paid greetie from `token`'s person (its one fixed-price gift paid in the sandbox), cancelled: its refund is pending. */
async function cancelledPaidGreetie(baseURL: string, token: string): Promise<string> {
  const auth = { authorization: `Bearer ${token}` };
  const id = await draftWithGift(baseURL, token);
  const payment = await api<{ id: string }>(baseURL, `/api/greetie/${id}/startpayment`, { method: 'POST', headers: auth, body: JSON.stringify({ withdrawalConsent: true }) });
  await api(baseURL, `/api/sandbox/payments/${payment.id}`, { method: 'POST', body: JSON.stringify({ outcome: 'paid' }) });
  await api(baseURL, `/api/greetie/${id}/cancel`, { method: 'POST', headers: auth, body: '{}' });
  return id;
}

const auth: Driver = {
  machines: ['auth'],
  async run(camera) {
    const { page } = camera;
    const who = freshNumber();
    // The resend countdown and the session's renewal are timers, moved on by hand.
    await page.clock.install();
    await page.goto('/auth/jwt/login');
    await camera.shoot('auth', 'unauthenticated.enteringNumber');
    await page.getByLabel('Mobilnummer').fill(who.typed);
    let release = await camera.hold('**/api/auth/verificationcode');
    const since = Date.now();
    await page.getByRole('button', { name: 'Skicka kod' }).click();
    await camera.shoot('auth', 'unauthenticated.requestingCode');
    await release();
    await camera.shoot('auth', 'unauthenticated.enteringCode.waitingToResend');
    const code = await codeFor(camera.baseURL, who.e164, since);
    await attempt(camera, 'auth: canResend, resendingCode', async () => {
      await page.clock.runFor(31_000);
      await camera.shoot('auth', 'unauthenticated.enteringCode.canResend');
      release = await camera.hold('**/api/auth/verificationcode');
      await page.getByRole('button', { name: 'Skicka ny kod' }).click();
      await camera.shoot('auth', 'unauthenticated.resendingCode');
      await release();
      await camera.waitFor('auth', 'unauthenticated.enteringCode.waitingToResend');
    });
    const fresh = await codeFor(camera.baseURL, who.e164, Date.now() - 60_000);
    await page.getByLabel('Kod', { exact: true }).fill(fresh || code);
    release = await camera.hold('**/api/auth/login');
    await page.getByRole('main').getByRole('button', { name: 'Logga in', exact: true }).click();
    await camera.shoot('auth', 'unauthenticated.loggingIn');
    await release();
    await camera.shoot('auth', 'authenticated.active', { settle: 600 });
    // A reload with the session in the tab: the app first looks for it.
    release = await camera.hold('**/api/auth/my');
    await page.reload({ waitUntil: 'commit' });
    await attempt(camera, 'auth: loading', () => camera.shoot('auth', 'loading'));
    await release();
    await camera.waitFor('auth', 'authenticated.active');
    // A new tab (nothing in its session storage): the browser's sign-in cookie is asked.
    await attempt(camera, 'auth: restoring', async () => {
      const refresh = await camera.hold('**/api/auth/refresh');
      await page.evaluate(() => sessionStorage.clear());
      await page.reload({ waitUntil: 'commit' });
      await camera.shoot('auth', 'restoring');
      await refresh();
    });
    await camera.waitFor('auth', 'authenticated.active');
    await attempt(camera, 'auth: refreshing', async () => {
      const refresh = await camera.hold('**/api/auth/refresh**');
      await page.clock.fastForward('02:00:00');
      await camera.shoot('auth', 'authenticated.refreshing');
      await refresh();
    });
    await camera.waitFor('auth', 'authenticated.active');
    await attempt(camera, 'auth: signingOut', async () => {
      const out = await camera.hold('**/api/auth/logout');
      await page.getByRole('banner').getByRole('button', { name: 'Konto' }).click();
      await page.getByRole('menuitem', { name: 'Logga ut' }).click();
      await camera.shoot('auth', 'signingOut');
      await out();
    });
  },
};

const merchantSearch: Driver = {
  machines: ['merchantSearch'],
  async run(camera) {
    const { page } = camera;
    // Pages of four, so the demo catalogue has a next page ('Visa fler').
    const pagesOfFour = (route: Route) => {
      const url = new URL(route.request().url());
      url.searchParams.set('limit', '4');
      return route.fallback({ url: url.toString() });
    };
    await page.route('**/api/merchant/v2**', pagesOfFour);
    // The typing pause is a timer: the clock stops while the picture of typing is taken.
    await page.clock.install();
    let release = await camera.hold('**/api/merchant/v2**');
    await page.goto('/merchant');
    await camera.shoot('merchantSearch', 'searching');
    await release();
    await camera.shoot('merchantSearch', 'showing', { settle: 600 });
    const more = page.getByRole('button', { name: 'Visa fler' });
    release = await camera.hold('**/api/merchant/v2**');
    await more.click();
    await camera.shoot('merchantSearch', 'loadingMore');
    await release();
    await camera.waitFor('merchantSearch', 'showing');
    const unfail = await camera.fail('**/api/merchant/v2**');
    await more.click();
    await camera.shoot('merchantSearch', 'failed.nextPage');
    await page.getByLabel('Sök', { exact: true }).click();
    await page.clock.pauseAt(Date.now() + 60_000);
    await page.keyboard.type('kaffe');
    await camera.shoot('merchantSearch', 'debouncing');
    await page.clock.resume();
    await camera.shoot('merchantSearch', 'failed.firstPage');
    await unfail();
  },
};

/** The merchant's page reads the merchant with the loader. */
const loader: Driver = {
  machines: ['loader'],
  async run(camera) {
    const { page } = camera;
    const merchant = (await api<{ id: string }[]>(camera.baseURL, '/api/merchant'))[0]!;
    let release = await camera.hold(`**/api/merchant/${merchant.id}`);
    await page.goto(`/merchant/details/${merchant.id}`);
    await camera.shoot('loader', 'loading');
    await release();
    await camera.shoot('loader', 'loaded', { settle: 600 });
    release = await camera.fail(`**/api/merchant/${merchant.id}`);
    await page.reload();
    await camera.shoot('loader', 'failed');
    await release();
    await page.goto('/merchant/details/4d0e1a2b-0000-4000-8000-999999999999');
    await camera.shoot('loader', 'notFound');
  },
};

const greetieView: Driver = {
  machines: ['greetieView'],
  async run(camera) {
    const { page } = camera;
    const release = await camera.hold('**/api/greetie/byRef**');
    await page.goto('/greetie/view/AbCdEf123456');
    await camera.shoot('greetieView', 'loading');
    await release();
    await camera.shoot('greetieView', 'notFound');
    const unfail = await camera.fail('**/api/greetie/byRef**');
    await page.reload();
    await camera.shoot('greetieView', 'error');
    await unfail();
  },
};

/** The sandbox page's SMS outbox and pending refunds. */
const sandbox: Driver = {
  machines: ['smsOutbox', 'sandboxRefunds'],
  async run(camera) {
    const { page } = camera;
    const smsPart = { show: page.getByRole('heading', { name: 'Sms-utkorg' }).first() };
    const refundsPart = { show: page.getByRole('heading', { name: 'Återbetalningar' }).first() };
    const sms = await camera.hold('**/api/sandbox/sms**');
    const refunds = await camera.hold('**/api/sandbox/refunds**');
    await page.goto('/sandbox');
    await attempt(camera, 'smsOutbox: loading', () => camera.shoot('smsOutbox', 'loading', smsPart));
    await attempt(camera, 'sandboxRefunds: loading', () => camera.shoot('sandboxRefunds', 'loading', refundsPart));
    await sms();
    await refunds();
    await attempt(camera, 'smsOutbox: showing', () => camera.shoot('smsOutbox', 'showing', smsPart));
    await attempt(camera, 'sandboxRefunds: showing', () => camera.shoot('sandboxRefunds', 'showing', refundsPart));
    const failSms = await camera.fail('**/api/sandbox/sms**');
    const failRefunds = await camera.fail('**/api/sandbox/refunds**');
    await page.reload();
    await attempt(camera, 'smsOutbox: failed', () => camera.shoot('smsOutbox', 'failed', smsPart));
    await attempt(camera, 'sandboxRefunds: failed', () => camera.shoot('sandboxRefunds', 'failed', refundsPart));
    await failSms();
    await failRefunds();
    // The reads between two waits, held on screen.
    const readSms = await camera.hold('**/api/sandbox/sms**');
    const readRefunds = await camera.hold('**/api/sandbox/refunds**');
    await attempt(camera, 'smsOutbox: failed.reading', () => camera.shoot('smsOutbox', 'failed.reading', { ...smsPart, timeout: 20_000 }));
    await attempt(camera, 'sandboxRefunds: failed.reading', () => camera.shoot('sandboxRefunds', 'failed.reading', { ...refundsPart, timeout: 20_000 }));
    await readSms();
    await readRefunds();
    await attempt(camera, 'smsOutbox: showing.reading', () => shootNextRead(camera, 'smsOutbox', '**/api/sandbox/sms**', smsPart));
    await attempt(camera, 'sandboxRefunds: showing.reading', () => shootNextRead(camera, 'sandboxRefunds', '**/api/sandbox/refunds**', refundsPart));
    await attempt(camera, 'sandboxRefunds: settling', async () => {
      // A paid greetie cancelled: its refund waits here for Swish's answer, given by hand (held on screen).
      const token = await tokenFor(camera.baseURL, freshNumber().e164, 'Anna');
      await cancelledPaidGreetie(camera.baseURL, token);
      await page.reload();
      const answers = page.getByRole('group', { name: /^Svara på återbetalningen på/ }).first();
      await answers.waitFor({ timeout: 20_000 });
      const settle = await camera.hold('**/api/sandbox/refunds/*');
      await answers.getByRole('button', { name: 'Återbetald' }).click();
      await camera.shoot('sandboxRefunds', 'settling', refundsPart);
      await settle();
    });
  },
};

/** A first sign-in asks for a name (the profile); then the profile and settings pages. */
const profile: Driver = {
  machines: ['profile', 'toasts'],
  async run(camera) {
    const { page } = camera;
    await signIn(camera);
    await camera.shoot('profile', 'ready.idle', { settle: 600 });
    let release = await camera.hold('**/api/mobileuser**');
    await page.getByLabel('Vad heter du?').fill('Ada Ek');
    await page.getByRole('button', { name: 'Klar' }).click();
    await camera.shoot('profile', 'ready.savingName');
    await release();
    // The toast that says so: the toasts' queue is active on every page, shown here with one.
    await page.getByText('Ditt namn är sparat.').first().waitFor();
    await camera.shoot('toasts', 'active');
    release = await camera.hold('**/api/mobileuser/**');
    await page.goto('/my/settings');
    await attempt(camera, 'profile: loading', () => camera.shoot('profile', 'loading'));
    await release();
    await attempt(camera, 'profile: savingMarketing', async () => {
      await camera.waitFor('profile', 'ready.idle');
      const hold = await camera.hold('**/api/mobileuser/allowmarketing**');
      await page.getByRole('switch', { name: /erbjudanden/i }).or(page.getByRole('checkbox', { name: /erbjudanden/i })).first().click();
      await camera.shoot('profile', 'ready.savingMarketing');
      await hold();
    });
    release = await camera.fail('**/api/mobileuser/**');
    await page.reload();
    await attempt(camera, 'profile: failed', () => camera.shoot('profile', 'failed'));
    await release();
    // Another first sign-in, where the person says 'Inte nu'.
    await page.goto('/');
    await page.getByRole('banner').getByRole('button', { name: 'Konto' }).click();
    await page.getByRole('menuitem', { name: 'Logga ut' }).click();
    await page.getByRole('banner').getByRole('button', { name: 'Konto' }).waitFor({ state: 'detached' });
    await signIn(camera);
    await page.getByRole('button', { name: 'Inte nu' }).click();
    await camera.shoot('profile', 'skipped', { settle: 600 });
  },
};

interface Gift {
  greetieId: string;
  voucherId: string;
  merchantId: string;
  merchantCode: string;
  product: string;
  /** The delivered greetie's link (a path). */
  link: string;
}

/**
 * A paid greetie with a 349 kr in-store value gift from `sender` to `recipient`, delivered (the
 * sandbox pays it; delivery is a job), as the till journey makes one.
 */
async function giveValueGift(baseURL: string, sender: string, recipient: { e164: string }, recipientToken: string, source: 'InStore' | 'Code' = 'InStore'): Promise<Gift> {
  const AMOUNT = 34_900;
  const token = await tokenFor(baseURL, sender, 'Anna');
  const auth = { authorization: `Bearer ${token}` };
  const merchants = await api<{ id: string; name: string }[]>(baseURL, '/api/merchant');
  for (const m of merchants) {
    const products = await api<{ id: string; name: string; source: string; minAmount?: number; maxAmount?: number }[]>(baseURL, `/api/merchant/${m.id}/products`);
    const p = products.find((x) => x.source === source && typeof x.minAmount === 'number' && x.minAmount <= AMOUNT && (x.maxAmount ?? 0) >= AMOUNT);
    // The sandbox knows a merchant's code until someone changes it (then it is shown once only);
    // a code gift (used online) needs none.
    const merchantCode = (await api<{ id: string; merchantCode: string | null }[]>(baseURL, '/api/sandbox/merchants')).find((x) => x.id === m.id)?.merchantCode ?? (source === 'Code' ? '' : null);
    if (!p || merchantCode === null || merchantCode === undefined) continue;
    const draft = await api<{ id: string }>(baseURL, '/api/greetie/createv2', {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ recipient: { mobileNumber: recipient.e164, name: 'Bo' }, message: 'Ät något gott!', gifts: [{ productId: p.id, amount: AMOUNT }] }),
    });
    const payment = await api<{ id: string }>(baseURL, `/api/greetie/${draft.id}/startpayment`, { method: 'POST', headers: auth, body: JSON.stringify({ withdrawalConsent: true }) });
    await api(baseURL, `/api/sandbox/payments/${payment.id}`, { method: 'POST', body: JSON.stringify({ outcome: 'paid' }) });
    const until = Date.now() + 30_000;
    for (;;) {
      const messages = await api<{ to: string; body: string; sentAt: string }[]>(baseURL, `/api/sandbox/sms?to=${encodeURIComponent(recipient.e164)}`);
      // The newest delivery is this greetie's (the driver waits for each before the next).
      const link = messages
        .toSorted((a, b) => Date.parse(b.sentAt) - Date.parse(a.sentAt))
        .map((x) => /https?:\/\/\S+(\/greetie\/view\/[A-Za-z0-9_%-]+)/.exec(x.body)?.[1])
        .find(Boolean);
      const vouchers = link ? await api<{ id: string; greetieId: string }[]>(baseURL, '/api/voucher', { headers: { authorization: `Bearer ${recipientToken}` } }) : [];
      const voucher = vouchers.find((v) => v.greetieId === draft.id);
      if (link && voucher) return { greetieId: draft.id, voucherId: voucher.id, merchantId: m.id, merchantCode, product: p.name, link };
      if (Date.now() > until) throw new Error('the greetie was not delivered within 30 s');
      await new Promise((r) => setTimeout(r, 300));
    }
  }
  throw new Error(`the demo catalogue has no ${source} product with a range holding 349 kr${source === 'InStore' ? ' at a merchant whose code the sandbox knows' : ''}`);
}

/**
 * The recipient's side: the greetie opened from its link, the thanks, Mina gåvor, the voucher's
 * page with its QR, the till (a redeem and its undo), a greetie's gifts, and giving the value away.
 */
const recipient: Driver = {
  machines: ['greetieView', 'thanks', 'vouchers', 'voucherQr', 'redeem', 'donate'],
  async run(camera) {
    const { page, baseURL } = camera;
    const me = freshNumber();
    const myToken = await tokenFor(baseURL, me.e164, 'Bo');
    const gift = await giveValueGift(baseURL, freshNumber().e164, me, myToken);
    // Timers the pages run (the QR's renewal, the undo's ten minutes) are moved on by hand.
    await page.clock.install();
    await signIn(camera, me);

    await attempt(camera, 'greetieView: showing, viewed', async () => {
      // The moment before the gifts shows only with motion allowed.
      await page.emulateMedia({ reducedMotion: 'no-preference' });
      // The moment is a timer (half a second): the page's clock stops while the greetie is read
      // (held), so the moment stays on screen while it is pictured.
      const read = await camera.hold('**/api/greetie/byRef**');
      await page.goto(gift.link);
      await camera.waitFor('greetieView', 'loading');
      await page.clock.pauseAt(Date.now() + 5_000);
      await read();
      await attempt(camera, 'greetieView: showing', () => camera.shoot('greetieView', 'showing', { settle: 400 }));
      await page.clock.resume();
      await page.emulateMedia({ reducedMotion: 'reduce' });
      await camera.shoot('greetieView', 'viewed', { settle: 800 });
    });
    await attempt(camera, 'thanks', async () => {
      const form = { show: page.getByRole('region', { name: /^(Tacka|Ditt tack)/ }).first() };
      await camera.shoot('thanks', 'composing', form);
      await page.getByLabel('Ditt tack').fill('Tack så mycket, Anna!');
      let release = await camera.fail(`**/api/greetie/${gift.greetieId}/thanks`);
      await page.getByRole('button', { name: 'Skicka tack' }).click();
      await camera.shoot('thanks', 'failed', form);
      await release();
      release = await camera.hold(`**/api/greetie/${gift.greetieId}/thanks`);
      await page.getByRole('button', { name: 'Skicka tack' }).click();
      await camera.shoot('thanks', 'sending', form);
      await release();
      await camera.shoot('thanks', 'sent', form);
    });

    await attempt(camera, 'vouchers: the list', async () => {
      let release = await camera.hold('**/api/voucher');
      await page.goto('/voucher');
      await camera.shoot('vouchers', 'list.loading');
      await release();
      await camera.shoot('vouchers', 'list.ready', { settle: 600 });
      release = await camera.fail('**/api/voucher');
      await page.reload();
      await camera.shoot('vouchers', 'list.failed');
      await release();
    });

    await attempt(camera, "vouchers and voucherQr: the voucher's page", async () => {
      let voucher = await camera.hold(`**/api/voucher/${gift.voucherId}`);
      const qr = await camera.hold(`**/api/voucher/${gift.voucherId}/qr`);
      await page.goto(`/voucher/${gift.voucherId}`);
      await camera.shoot('vouchers', 'selected.loading');
      // The QR's box, whatever it shows (aria-busy while there is no code).
      const qrBox = { show: page.locator('figure[aria-busy]').first() };
      await voucher();
      await camera.shoot('voucherQr', 'loading', qrBox);
      await qr();
      await camera.shoot('voucherQr', 'showing', { ...qrBox, settle: 600 });
      await page.evaluate(() => window.scrollTo(0, 0));
      await camera.shoot('vouchers', 'selected.ready.idle');
      const renew = await camera.hold(`**/api/voucher/${gift.voucherId}/qr`);
      await page.clock.fastForward('01:41');
      await camera.shoot('voucherQr', 'refreshing', qrBox);
      await renew();
      const unfail = await camera.fail(`**/api/voucher/${gift.voucherId}/qr`);
      await page.reload();
      await camera.shoot('voucherQr', 'failed', qrBox);
      await unfail();
      voucher = await camera.fail(`**/api/voucher/${gift.voucherId}`);
      await page.reload();
      await camera.shoot('vouchers', 'selected.failed');
      await voucher();
    });

    await attempt(camera, 'redeem: the till', async () => {
      await page.goto(`/voucher/${gift.voucherId}`);
      await page.getByRole('link', { name: 'Lös in i butiken' }).click();
      await camera.shoot('redeem', 'idle');
      const main = page.getByRole('main');
      await main.getByRole('textbox', { name: 'Belopp att dra' }).fill('149');
      await main.getByRole('textbox', { name: 'Handlarkod' }).fill(gift.merchantCode);
      let release = await camera.hold('**/api/voucher/redeem');
      await main.getByRole('button', { name: 'Lös in' }).click();
      await camera.shoot('redeem', 'submitting');
      await release();
      await camera.shoot('redeem', 'undoable.offered', { settle: 600 });
      await main.getByRole('button', { name: 'Ångra', exact: true }).click();
      await camera.shoot('redeem', 'undoable.asking');
      await main.getByRole('textbox', { name: 'Handlarkod' }).fill(gift.merchantCode);
      release = await camera.hold('**/api/voucher/*/redemptions/*/undo');
      await main.getByRole('button', { name: 'Ångra köpet' }).click();
      await camera.shoot('redeem', 'undoing');
      await release();
      await camera.shoot('redeem', 'undone');
      await main.getByRole('button', { name: 'Lös in på nytt' }).click();
      await camera.waitFor('redeem', 'idle');
      await main.getByRole('textbox', { name: 'Belopp att dra' }).fill('100');
      await main.getByRole('textbox', { name: 'Handlarkod' }).fill(gift.merchantCode);
      await main.getByRole('button', { name: 'Lös in' }).click();
      await camera.waitFor('redeem', 'undoable.offered');
      await page.clock.fastForward('10:05');
      await camera.shoot('redeem', 'closed');
    });

    await attempt(camera, "vouchers: a greetie's gifts", async () => {
      let release = await camera.hold(`**/api/greetie/${gift.greetieId}/vouchers`);
      await page.goto(`/redeem/${gift.greetieId}`);
      await camera.shoot('vouchers', 'greetie.loading');
      await release();
      await camera.shoot('vouchers', 'greetie.ready', { settle: 600 });
      release = await camera.fail(`**/api/greetie/${gift.greetieId}/vouchers`);
      await page.reload();
      await camera.shoot('vouchers', 'greetie.failed');
      await release();
    });

    await attempt(camera, 'donate', async () => {
      const other = await giveValueGift(baseURL, freshNumber().e164, me, myToken);
      await page.goto(`/voucher/${other.voucherId}`);
      const offer = page.getByRole('button', { name: 'Skänk värdet i stället' });
      await camera.shoot('donate', 'idle');
      let release = await camera.fail('**/api/merchant/v2**');
      await offer.click();
      await camera.shoot('donate', 'loadFailed');
      await release();
      release = await camera.hold('**/api/merchant/v2**');
      const region = page.getByRole('region', { name: 'Skänk värdet i stället' });
      await region.getByRole('button', { name: 'Försök igen' }).click();
      await camera.shoot('donate', 'loading');
      await release();
      await camera.shoot('donate', 'choosing', { settle: 600 });
      await region.getByRole('group', { name: 'Välj organisation' }).getByRole('radio').first().check();
      await region.getByRole('button', { name: 'Fortsätt' }).click();
      await camera.shoot('donate', 'confirming');
      const dialog = page.getByRole('dialog');
      release = await camera.fail(`**/api/voucher/${other.voucherId}/donate`);
      await dialog.getByRole('button', { name: /^Skänk / }).click();
      await camera.shoot('donate', 'failed');
      await release();
      // A refusal the charity did not cause offers only 'Stäng': back to the voucher, and again.
      await page.getByRole('dialog').getByRole('button', { name: /^(Stäng|Tillbaka|Välj en annan)$/ }).first().click();
      if (await offer.isVisible()) await offer.click();
      await region.getByRole('group', { name: 'Välj organisation' }).getByRole('radio').first().check();
      await region.getByRole('button', { name: 'Fortsätt' }).click();
      release = await camera.hold(`**/api/voucher/${other.voucherId}/donate`);
      await page.getByRole('dialog').getByRole('button', { name: /^Skänk / }).click();
      await camera.shoot('donate', 'donating');
      await release();
      await camera.shoot('donate', 'done', { settle: 600 });
    });

    await attempt(camera, 'thanks: refused', async () => {
      // Thanked already (on another phone, say): the server refuses, and trying again cannot help.
      const another = await giveValueGift(baseURL, freshNumber().e164, me, myToken);
      await page.goto(another.link);
      const form = { show: page.getByRole('region', { name: /^(Tacka|Ditt tack)/ }).first() };
      await camera.waitFor('thanks', 'composing', 20_000);
      await page.getByLabel('Ditt tack').fill('Tack, Anna!');
      const release = await refuse(camera, `**/api/greetie/${another.greetieId}/thanks`, 'POST', 409, 'THANKS_ALREADY_SENT', 'Du har redan tackat för den här greetien.');
      await page.getByRole('button', { name: 'Skicka tack' }).click();
      await camera.shoot('thanks', 'refused', { ...form, settle: 600 });
      await release();
    });

    await attempt(camera, 'vouchers: selected.ready.marking', async () => {
      // A code gift (used online, the sandbox's code): 'Markera som använd', held on screen.
      const code = await giveValueGift(baseURL, freshNumber().e164, me, myToken, 'Code');
      await page.goto(`/voucher/${code.voucherId}`);
      const mark = page.getByRole('button', { name: 'Markera som använd' });
      await mark.waitFor({ timeout: 20_000 });
      const release = await camera.hold('**/api/voucher/redeemed**');
      await mark.click();
      await camera.shoot('vouchers', 'selected.ready.marking', { settle: 400 });
      await release();
      await camera.waitFor('vouchers', 'selected.ready.idle');
    });
  },
};

/**
 * The merchant's side: the demo owner signs in to the portal (the redemptions list, 'Byt
 * handlarkod') and the till mode, where a customer's gift is looked up by the code under its QR.
 */
const portal: Driver = {
  machines: ['portalRedemptions', 'codeRotation', 'tillMode'],
  async run(camera) {
    const { page, baseURL } = camera;
    const customer = freshNumber();
    const customerToken = await tokenFor(baseURL, customer.e164, 'Cleo');
    const gift = await giveValueGift(baseURL, freshNumber().e164, customer, customerToken);
    const asCustomer = { authorization: `Bearer ${customerToken}` };
    // Two uses at the customer's till, so the list has more than one page of one.
    for (const amount of [5_000, 4_000]) {
      await api(baseURL, '/api/voucher/redeem', { method: 'POST', headers: { ...asCustomer, 'idempotency-key': randomUUID() }, body: JSON.stringify({ voucherId: gift.voucherId, merchantCode: gift.merchantCode, amount }) });
    }
    const owner = (await api<{ id: string; ownerNumber: string }[]>(baseURL, '/api/sandbox/merchants')).find((m) => m.id === gift.merchantId)!.ownerNumber;
    await tokenFor(baseURL, owner, 'Ägaren');
    await page.clock.install();
    await signIn(camera, { typed: owner, e164: owner });

    const list = new RegExp(`/api/portal/merchants/${gift.merchantId}/redemptions(\\?|$)`);
    await attempt(camera, 'portalRedemptions', async () => {
      // Pages of one, so there is a next page.
      await page.route(list, (route) => {
        const url = new URL(route.request().url());
        url.searchParams.set('limit', '1');
        return route.fallback({ url: url.toString() });
      });
      const part = { show: page.getByRole('heading', { name: /Inlösta presenter/ }).first() };
      let release = await camera.hold(list);
      await page.goto(`/portal/${gift.merchantId}`);
      await camera.shoot('portalRedemptions', 'loading', part);
      await release();
      await camera.shoot('portalRedemptions', 'showing', { ...part, settle: 600 });
      const more = page.getByRole('button', { name: 'Visa fler' });
      release = await camera.hold(list);
      await more.click();
      await camera.shoot('portalRedemptions', 'loadingMore', part);
      await release();
      await camera.waitFor('portalRedemptions', 'showing');
      release = await camera.fail(list);
      await more.click();
      await camera.shoot('portalRedemptions', 'failed.nextPage', part);
      await page.getByRole('button', { name: 'Visa', exact: true }).click();
      await camera.shoot('portalRedemptions', 'failed.firstPage', part);
      await release();
    });

    await attempt(camera, 'codeRotation', async () => {
      await page.goto(`/portal/${gift.merchantId}`);
      const change = page.getByRole('button', { name: 'Byt handlarkod' });
      await change.scrollIntoViewIfNeeded();
      await camera.shoot('codeRotation', 'idle', { show: change });
      await change.click();
      await camera.shoot('codeRotation', 'confirming');
      const code = `**/api/portal/merchants/${gift.merchantId}/code`;
      let release = await camera.fail(code);
      await page.getByRole('dialog').getByRole('button', { name: 'Byt kod' }).click();
      await camera.shoot('codeRotation', 'failed');
      await release();
      await page.getByRole('dialog').getByRole('button', { name: 'Stäng' }).click();
      await change.click();
      release = await camera.hold(code);
      await page.getByRole('dialog').getByRole('button', { name: 'Byt kod' }).click();
      await camera.shoot('codeRotation', 'rotating');
      await release();
      await camera.shoot('codeRotation', 'shown');
      await page.getByRole('dialog').getByRole('button', { name: 'Jag har sparat koden' }).click();
    });

    await attempt(camera, 'tillMode', async () => {
      const { token } = await api<{ token: string }>(baseURL, `/api/voucher/${gift.voucherId}/qr`, { headers: asCustomer });
      await page.goto(`/portal/${gift.merchantId}/kassa`);
      await camera.shoot('tillMode', 'idle');
      const main = page.getByRole('main');
      await main.getByRole('textbox', { name: 'Koden under QR-koden' }).fill(token);
      let release = await camera.hold(`**/api/portal/merchants/${gift.merchantId}/scan`);
      await main.getByRole('button', { name: 'Hämta gåvan' }).click();
      await camera.shoot('tillMode', 'lookingUp');
      await release();
      await camera.shoot('tillMode', 'found', { settle: 600 });
      await main.getByRole('textbox', { name: 'Belopp att dra' }).fill('49');
      release = await camera.hold(`**/api/portal/merchants/${gift.merchantId}/redeem`);
      await main.getByRole('button', { name: 'Lös in' }).click();
      await camera.shoot('tillMode', 'redeeming');
      await release();
      await camera.shoot('tillMode', 'undoable.offered', { settle: 600 });
      await main.getByRole('button', { name: 'Ångra', exact: true }).click();
      await camera.shoot('tillMode', 'undoable.asking');
      release = await camera.hold(`**/api/portal/merchants/${gift.merchantId}/redemptions/*/undo`);
      await main.getByRole('button', { name: 'Ja, ångra köpet' }).click();
      await camera.shoot('tillMode', 'undoing');
      await release();
      await camera.shoot('tillMode', 'undone');
    });
    await attempt(camera, 'tillMode: scanning', async () => {
      // The browser's fake camera (scripts/flows-shots.ts starts Chromium with one): a test picture, no one's face.
      await camera.context.grantPermissions(['camera'], { origin: camera.baseURL });
      await page.goto(`/portal/${gift.merchantId}/kassa`);
      await camera.waitFor('tillMode', 'idle');
      const main = page.getByRole('main');
      await main.getByRole('button', { name: 'Skanna kund' }).click();
      await camera.shoot('tillMode', 'scanning', { settle: 800 });
      await main.getByRole('button', { name: 'Skriv koden i stället' }).click();
      await camera.waitFor('tillMode', 'idle');
    });
    await attempt(camera, 'tillMode: closed', async () => {
      const { token } = await api<{ token: string }>(baseURL, `/api/voucher/${gift.voucherId}/qr`, { headers: asCustomer });
      await page.goto(`/portal/${gift.merchantId}/kassa`);
      const main = page.getByRole('main');
      await main.getByRole('textbox', { name: 'Koden under QR-koden' }).fill(token);
      await main.getByRole('button', { name: 'Hämta gåvan' }).click();
      await camera.waitFor('tillMode', 'found');
      await main.getByRole('textbox', { name: 'Belopp att dra' }).fill('10');
      await main.getByRole('button', { name: 'Lös in' }).click();
      await camera.waitFor('tillMode', 'undoable.offered');
      await page.clock.fastForward('10:05');
      await camera.shoot('tillMode', 'closed');
    });
  },
};

/** A draft greetie from `token`'s person with one fixed-price gift, to a fresh number. */
async function draftWithGift(baseURL: string, token: string): Promise<string> {
  for (const m of await api<{ id: string }[]>(baseURL, '/api/merchant')) {
    const p = (await api<{ id: string; price?: number }[]>(baseURL, `/api/merchant/${m.id}/products`)).find((x) => typeof x.price === 'number' && x.price > 0);
    if (!p) continue;
    const draft = await api<{ id: string }>(baseURL, '/api/greetie/createv2', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: JSON.stringify({ recipient: { mobileNumber: freshNumber().e164, name: 'Bo' }, message: 'Grattis!', gifts: [{ productId: p.id }] }),
    });
    return draft.id;
  }
  throw new Error('the demo catalogue has no fixed-price product');
}

/**
 * The sender's side, on a greetie's details page: the payment taken up there (Swish's outcomes
 * one by one, from the sandbox), the actions on a delivered, unopened greetie, and the refund.
 */
const sender: Driver = {
  machines: ['payment', 'greetieActions', 'refund'],
  async run(camera) {
    const { page, baseURL } = camera;
    const me = freshNumber();
    const token = await tokenFor(baseURL, me.e164, 'Anna');
    const auth = { authorization: `Bearer ${token}` };
    const id = await draftWithGift(baseURL, token);
    const unpaid = await draftWithGift(baseURL, token);
    await page.clock.install();
    await signIn(camera, me);
    const paymentRead = `**/api/greetie/${id}/payment`;
    const settle = async (outcome: string) => {
      const payment = await api<{ id: string }>(baseURL, `/api/greetie/${id}/payment`, { headers: auth });
      await api(baseURL, `/api/sandbox/payments/${payment.id}`, { method: 'POST', body: JSON.stringify({ outcome }) });
    };
    const retry = async () => {
      const consent = page.getByRole('checkbox', { name: /^Jag vill att greetien levereras direkt/ });
      if ((await consent.count()) > 0 && !(await consent.isChecked())) await consent.check();
      await page.getByRole('button', { name: 'Försök igen' }).first().click();
    };

    await attempt(camera, 'payment: none', async () => {
      await page.goto(`/greetie/details/${unpaid}`);
      await camera.shoot('payment', 'none', { settle: 600 });
    });

    await attempt(camera, 'refund: none', async () => {
      // A cancelled greetie whose payment the server no longer finds (404 PAYMENT_NOT_FOUND, answered
      // here): there is nothing to pay back, and the page says nothing about money.
      const gone = await cancelledPaidGreetie(baseURL, token);
      const release = await refuse(camera, `**/api/greetie/${gone}/payment`, 'GET', 404, 'PAYMENT_NOT_FOUND', 'Ingen betalning hittades.');
      await page.goto(`/greetie/details/${gone}`);
      await camera.shoot('refund', 'none', { settle: 600 });
      await release();
    });

    await attempt(camera, 'payment', async () => {
      // The payment's part of the details page (below the greetie itself).
      const part = { show: page.getByRole('heading', { name: /Betala med Swish|Betalningen|Tack!/ }).first() };
      await api(baseURL, `/api/greetie/${id}/startpayment`, { method: 'POST', headers: auth, body: JSON.stringify({ withdrawalConsent: true }) });
      let release = await camera.hold(paymentRead);
      await page.goto(`/greetie/details/${id}`);
      await camera.shoot('payment', 'checking', part);
      await release();
      await camera.shoot('payment', 'open', { ...part, settle: 600 });
      release = await camera.fail(paymentRead);
      await page.reload();
      await camera.shoot('payment', 'checkFailed', part);
      await release();
      await page.reload();
      await camera.waitFor('payment', 'open');
      for (const [outcome, state] of [
        ['declined', 'ended.declined'],
        ['cancelled', 'ended.cancelled'],
        ['timeout', 'ended.expired'],
        ['error', 'ended.failed'],
      ] as const) {
        await settle(outcome);
        await camera.shoot('payment', state, { ...part, timeout: 20_000 });
        if (state === 'ended.declined') {
          const start = await camera.hold(`**/api/greetie/${id}/startpayment`);
          await retry();
          await camera.shoot('payment', 'starting', part);
          await start();
        } else {
          await retry();
        }
        await camera.waitFor('payment', 'open');
      }
      release = await camera.fail(`**/api/greetie/${id}/startpayment`, 409, 'SOLD_OUT');
      await settle('declined');
      await camera.waitFor('payment', 'ended.declined', 20_000);
      await retry();
      await camera.shoot('payment', 'ended.startFailed', part);
      await release();
      await retry();
      await camera.waitFor('payment', 'open');
      await settle('paid');
      await camera.shoot('payment', 'paid', { ...part, timeout: 20_000, settle: 600 });
    });

    await attempt(camera, 'greetieActions', async () => {
      await page.goto(`/greetie/details/${id}`);
      const resend = page.getByRole('button', { name: 'Skicka länken igen' });
      await resend.waitFor({ timeout: 30_000 });
      await camera.shoot('greetieActions', 'idle', { show: resend });
      await resend.click();
      await camera.shoot('greetieActions', 'confirming');
      let release = await camera.fail(`**/api/greetie/${id}/resend`);
      await page.getByRole('dialog').getByRole('button', { name: 'Skicka igen' }).click();
      await camera.shoot('greetieActions', 'failed');
      await release();
      const again = page.getByRole('dialog').getByRole('button', { name: 'Skicka igen' });
      if (!(await again.isVisible())) {
        await page.getByRole('dialog').getByRole('button', { name: /^(Stäng|Tillbaka)$/ }).first().click();
        await resend.click();
      }
      release = await camera.hold(`**/api/greetie/${id}/resend`);
      await page.getByRole('dialog').getByRole('button', { name: 'Skicka igen' }).click();
      await camera.shoot('greetieActions', 'working');
      await release();
      await camera.shoot('greetieActions', 'done');
    });

    await attempt(camera, 'refund', async () => {
      // What the page says about the money, wherever it stands on the page.
      const part = { show: page.getByText(/återbetalning|Swish-konto/i).first() };
      await page.goto(`/greetie/details/${id}`);
      await page.getByRole('button', { name: 'Avbryt och få pengarna tillbaka' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Avbryt greetien' }).click();
      await page.getByRole('dialog').waitFor({ state: 'detached' }).catch(() => undefined);
      let release = await camera.hold(paymentRead);
      await page.reload();
      await camera.shoot('refund', 'loading', part);
      await release();
      await camera.shoot('refund', 'pending', { ...part, settle: 600 });
      await page.clock.fastForward('03:05');
      await camera.shoot('refund', 'slow', part);
      release = await camera.fail(paymentRead);
      await page.reload();
      await camera.shoot('refund', 'loadFailed', part);
      await release();
      const [pending] = await api<{ id: string }[]>(baseURL, '/api/sandbox/refunds');
      await api(baseURL, `/api/sandbox/refunds/${pending!.id}`, { method: 'POST', body: JSON.stringify({ outcome: 'error' }) });
      await page.reload();
      await camera.shoot('refund', 'failed', part);
    });

    await attempt(camera, 'refund: paid', async () => {
      // Another paid greetie cancelled, its refund answered by the sandbox's Swish: the money is back.
      const back = await cancelledPaidGreetie(baseURL, token);
      const refund = (await api<{ id: string; greetieId: string }[]>(baseURL, '/api/sandbox/refunds')).find((r) => r.greetieId === back);
      if (!refund) throw new Error('the cancelled greetie has no pending refund');
      await api(baseURL, `/api/sandbox/refunds/${refund.id}`, { method: 'POST', body: JSON.stringify({ outcome: 'paid' }) });
      await page.goto(`/greetie/details/${back}`);
      await camera.shoot('refund', 'paid', { show: page.getByText(/återbetalning|Swish-konto/i).first(), settle: 600 });
    });
  },
};

/**
 * Pictures a poll's read, held on screen: the hold goes on first, so the next read waits for it (a
 * read already on its way when the hold went on may end before the picture: then the next one).
 */
async function shootNextRead(camera: Camera, machine: string, pattern: string, part: { show: Locator }): Promise<void> {
  for (let tries = 1; ; tries++) {
    await camera.waitFor(machine, 'showing.waiting', 20_000);
    const hold = await camera.hold(pattern);
    try {
      return await camera.shoot(machine, 'showing.reading', { ...part, timeout: 20_000 });
    } catch (err) {
      if (tries >= 3) throw err;
    } finally {
      await hold();
    }
  }
}

/** A small real JPEG (the server checks the bytes), as the compose journey makes one. */
const photo = () => sharp({ create: { width: 480, height: 600, channels: 3, background: '#7fb3d5' } }).jpeg({ quality: 80 }).toBuffer();

/**
 * Making a greetie: the editor's steps with its upload and autosave, paying for one with a gift,
 * and sending one without; then drafts opened by their address.
 */
const compose: Driver = {
  machines: ['compose', 'upload', 'autosave'],
  async run(camera) {
    const { page, baseURL } = camera;
    const me = freshNumber();
    // No name yet: the recipient step asks for the sender's.
    await signIn(camera, me);
    await page.getByRole('button', { name: 'Inte nu' }).click();
    const main = page.getByRole('main');
    const next = main.getByRole('button', { name: 'Nästa' });
    const file = main.getByLabel('Välj från telefonen');

    await page.goto('/greetie/new');
    await camera.shoot('compose', 'editing.steps.media.ready', { settle: 600 });
    await camera.shoot('upload', 'ready.idle');
    await attempt(camera, 'upload: refused, stopped', async () => {
      // A file that is no photo or video is refused on the phone, before anything is sent.
      await file.setInputFiles({ name: 'inbjudan.txt', mimeType: 'text/plain', buffer: Buffer.from('Välkommen på fest!') });
      await camera.shoot('upload', 'ready.refused');
      // The draft the upload needs cannot be created: the upload stops with the reason.
      const refuseDraft = await refuse(camera, '**/api/greetie', 'POST', 500, 'INTERNAL_ERROR');
      await file.setInputFiles({ name: 'foto.jpg', mimeType: 'image/jpeg', buffer: await photo() });
      await camera.shoot('upload', 'ready.stopped.failed', { show: main.getByRole('alert').filter({ hasText: 'Filen kunde inte laddas upp' }) });
      await refuseDraft();
      // Tried again, and cancelled by the person while it is on its way.
      const held = await camera.hold('**/api/greetie');
      await main.getByRole('button', { name: 'Försök igen' }).click();
      await camera.shoot('upload', 'creatingDraft');
      await main.getByRole('button', { name: 'Avbryt uppladdningen' }).click();
      await camera.shoot('upload', 'ready.stopped.cancelled');
      await held();
    });
    const draft = await camera.hold('**/api/greetie');
    const media = await camera.hold('**/api/greetie/*/media');
    await file.setInputFiles({ name: 'foto.jpg', mimeType: 'image/jpeg', buffer: await photo() });
    await attempt(camera, 'upload: creatingDraft', () => camera.shoot('upload', 'creatingDraft'));
    await draft();
    await camera.shoot('upload', 'uploading');
    await camera.shoot('compose', 'editing.steps.media.uploading');
    await media();
    await main.getByRole('img', { name: 'Din bild' }).waitFor({ timeout: 30_000 });
    await camera.waitFor('upload', 'ready.idle', 30_000);
    await next.click();
    await camera.shoot('compose', 'editing.steps.content', { settle: 600 });
    await camera.shoot('autosave', 'saved');

    await attempt(camera, 'autosave: waiting, saving, failed', async () => {
      const save = await camera.hold('**/api/greetie/*');
      await main.getByRole('group', { name: 'Lägg till' }).getByRole('button', { name: 'Text' }).click();
      const textPanel = main.getByRole('region', { name: 'Ny text' });
      await textPanel.getByRole('textbox').fill('Grattis!');
      await textPanel.getByRole('button', { name: 'Lägg till text' }).click();
      await camera.shoot('autosave', 'waiting', { settle: 0 }).catch(() => undefined);
      await camera.shoot('autosave', 'saving', { timeout: 20_000 });
      await camera.releaseAll();
      await save();
      await camera.waitFor('autosave', 'saved', 20_000);
      const fail = await camera.fail('**/api/greetie/*', 500);
      await main.getByRole('group', { name: 'Lägg till' }).getByRole('button', { name: 'Text' }).click();
      await main.getByRole('region', { name: 'Ny text' }).getByRole('textbox').fill('Hurra!');
      await main.getByRole('region', { name: 'Ny text' }).getByRole('button', { name: 'Lägg till text' }).click();
      await camera.shoot('autosave', 'failed', { timeout: 20_000 });
      await fail();
      await main.getByRole('button', { name: /Spara igen|Försök igen/ }).first().click();
      await camera.waitFor('autosave', 'saved', 20_000);
    });

    await attempt(camera, 'compose: editing.overlay.failed', async () => {
      // The flat picture of the content does not reach the server; the person goes on regardless.
      const refuseOverlay = await refuse(camera, '**/api/greetie/*/mediaoverlay', 'POST', 500, 'INTERNAL_ERROR');
      await main.getByRole('group', { name: 'Lägg till' }).getByRole('button', { name: 'Text' }).click();
      await main.getByRole('region', { name: 'Ny text' }).getByRole('textbox').fill('Ha en fin dag!');
      await main.getByRole('region', { name: 'Ny text' }).getByRole('button', { name: 'Lägg till text' }).click();
      await camera.shoot('compose', 'editing.overlay.failed', { timeout: 20_000 });
      await refuseOverlay();
    });

    await next.click();
    await camera.shoot('compose', 'editing.steps.gifts', { settle: 600 });
    await main.getByRole('region', { name: 'Välj handlare' }).getByRole('button', { name: /Café Kanelbullen/ }).click();
    await main.getByRole('heading', { name: 'Café Kanelbullen' }).waitFor();
    // The gift sells out as it is chosen: the save is refused (GIFT_CODE_POOL_EMPTY, as the server
    // says it), the products are read again (held on screen) and answer that it is sold out.
    await attempt(camera, 'autosave: failed.soldOut', async () => {
      await camera.waitFor('autosave', 'saved', 20_000);
      const refuseSave = await refuse(camera, '**/api/greetie/*', 'PATCH', 409, 'GIFT_CODE_POOL_EMPTY', 'En present är slut just nu.');
      const products = await holdAndRewrite(camera, '**/api/merchant/*/products**', (json) =>
        (json as { name: string }[]).map((p) => (p.name === 'Fika för två' ? { ...p, available: false } : p)),
      );
      await main.getByRole('listitem').filter({ hasText: 'Fika för två' }).getByRole('button', { name: /^Lägg till/ }).click();
      const alert = { show: main.getByRole('alert').filter({ hasText: 'En present är slut just nu' }) };
      await camera.shoot('autosave', 'failed.soldOut.finding', { ...alert, timeout: 20_000 });
      await products();
      await camera.shoot('autosave', 'failed.soldOut.found', { ...alert, settle: 600 });
      await refuseSave();
      await main.getByRole('button', { name: 'Försök spara igen' }).click();
    });
    if ((await main.getByRole('list', { name: 'Valda presenter' }).getByRole('listitem').count()) === 0) {
      await main.getByRole('listitem').filter({ hasText: 'Fika för två' }).getByRole('button', { name: /^Lägg till/ }).click();
    }
    await main.getByRole('list', { name: 'Valda presenter' }).getByRole('listitem').first().waitFor();
    await camera.waitFor('autosave', 'saved', 20_000);
    await next.click();
    await camera.waitFor('compose', 'editing.steps.recipient.editing');
    // Opened again from its address (as the compose journey does), with the profile known: a
    // profile without a name is asked for one here.
    await page.reload();
    await main.getByLabel('Ditt namn').waitFor();
    await camera.shoot('compose', 'editing.steps.recipient.editing', { settle: 600 });
    await attempt(camera, 'autosave: invalid', async () => {
      // A number half typed: the server refuses it (INVALID_MOBILE_NUMBER) and the field says so.
      await main.getByLabel('Mobilnummer').fill('070-12');
      await main.getByLabel('Mobilnummer').blur();
      await camera.shoot('autosave', 'invalid', { timeout: 20_000, settle: 600 });
    });
    await main.getByLabel('Mobilnummer').fill(freshNumber().typed);
    await main.getByLabel('Namn (valfritt)').fill('Mormor');
    await main.getByLabel('Meddelande').fill('Grattis på födelsedagen!');
    await main.getByLabel('Ditt namn').fill('Anna Lind');
    await camera.waitFor('autosave', 'saved', 20_000);
    // The profile has no name yet: 'Nästa' saves the sender's name first (held on screen).
    const name = await camera.hold('**/api/mobileuser**');
    await next.click();
    await attempt(camera, 'compose: savingSenderName', () => camera.shoot('compose', 'editing.steps.recipient.savingSenderName'));
    await name();
    await camera.shoot('compose', 'editing.steps.review', { settle: 600 });
    /** The greetie paid for here: opened again by its draft address afterwards. */
    let paidId: string | null = null;
    await attempt(camera, 'compose: handingOver, paid', async () => {
      await main.getByRole('checkbox', { name: /^Jag vill att greetien levereras direkt/ }).check();
      const start = await camera.hold('**/api/greetie/*/startpayment');
      await main.getByRole('button', { name: 'Betala med Swish' }).click();
      await camera.shoot('compose', 'handingOver');
      await camera.shoot('payment', 'starting').catch(() => undefined);
      await start();
      await camera.shoot('payment', 'open.view.awaitingPayer', { timeout: 20_000, settle: 600 });
      const id = new URL(page.url()).searchParams.get('draft') ?? '';
      const token = await page.evaluate(() => sessionStorage.getItem('accessToken'));
      const payment = await api<{ id: string }>(baseURL, `/api/greetie/${id}/payment`, { headers: { authorization: `Bearer ${token}` } });
      await api(baseURL, `/api/sandbox/payments/${payment.id}`, { method: 'POST', body: JSON.stringify({ outcome: 'paid' }) });
      await camera.shoot('compose', 'paid', { timeout: 20_000, settle: 600 });
      paidId = id;
    });

    await attempt(camera, 'compose: alreadyPaid', async () => {
      // A paid greetie opened again by its draft address: never a step or a payment, its page with the receipt.
      if (!paidId) throw new Error('no greetie was paid');
      await page.goto(`/greetie/new?draft=${paidId}`);
      await camera.shoot('compose', 'alreadyPaid', { settle: 600 });
    });

    /** The greetie sent without gifts: opened by its address afterwards, it can no longer be edited. */
    let sentId: string | null = null;
    await attempt(camera, 'compose: sending, sendFailed, sent', async () => {
      await page.goto('/greetie/new');
      await camera.waitFor('compose', 'editing.steps.media.ready');
      await file.setInputFiles({ name: 'foto.jpg', mimeType: 'image/jpeg', buffer: await photo() });
      await main.getByRole('img', { name: 'Din bild' }).waitFor({ timeout: 30_000 });
      await camera.waitFor('upload', 'ready.idle', 30_000);
      await next.click();
      await next.click();
      await next.click();
      await main.getByLabel('Mobilnummer').fill(freshNumber().typed);
      await camera.waitFor('autosave', 'saved', 20_000);
      await next.click();
      await camera.waitFor('compose', 'editing.steps.review');
      sentId = new URL(page.url()).searchParams.get('draft');
      const fail = await camera.fail('**/api/greetie/*/send');
      await main.getByRole('button', { name: 'Skicka', exact: true }).click();
      await camera.shoot('compose', 'sendFailed');
      await fail();
      const send = await camera.hold('**/api/greetie/*/send');
      await main.getByRole('button', { name: /^(Skicka|Försök igen)$/ }).first().click();
      await camera.shoot('compose', 'sending');
      await send();
      await camera.shoot('compose', 'sent', { settle: 600 });
    });

    await attempt(camera, 'compose: opening a draft by its address', async () => {
      const token = await page.evaluate(() => sessionStorage.getItem('accessToken'));
      const id = await draftWithGift(baseURL, token ?? '');
      let release = await camera.hold(`**/api/greetie/${id}?**`);
      await page.goto(`/greetie/new?draft=${id}`);
      await camera.shoot('compose', 'loading');
      await release();
      await camera.waitFor('compose', 'editing.steps.media.ready');
      release = await camera.fail(`**/api/greetie/${id}?**`);
      await page.reload();
      await camera.shoot('compose', 'loadFailed');
      await release();
      await page.goto('/greetie/new?draft=00000000-0000-4000-8000-000000000000');
      await camera.shoot('compose', 'notFound');
    });

    await attempt(camera, 'compose: editing.giftLimits.unknown', async () => {
      // The gifts' products cannot be read: the amounts show as they are and cannot be changed.
      const token = await page.evaluate(() => sessionStorage.getItem('accessToken'));
      const id = await draftWithGift(baseURL, token ?? '');
      const unfail = await camera.fail('**/api/merchant/*/products**');
      await page.goto(`/greetie/new/gifts?draft=${id}`);
      await camera.waitFor('compose', 'editing.giftLimits.unknown', 20_000);
      // The draft has no photo yet: one, and on to its gifts, where the amounts are.
      await file.setInputFiles({ name: 'foto.jpg', mimeType: 'image/jpeg', buffer: await photo() });
      await main.getByRole('img', { name: 'Din bild' }).waitFor({ timeout: 30_000 });
      await camera.waitFor('upload', 'ready.idle', 30_000);
      await next.click();
      await camera.waitFor('compose', 'editing.steps.content');
      await next.click();
      await camera.waitFor('compose', 'editing.steps.gifts');
      await camera.shoot('compose', 'editing.giftLimits.unknown', { timeout: 20_000, settle: 600 });
      await unfail();
    });

    await attempt(camera, 'compose: notEditable', async () => {
      if (!sentId) throw new Error('no greetie was sent');
      await page.goto(`/greetie/new?draft=${sentId}`);
      await camera.shoot('compose', 'notEditable', { settle: 600 });
    });

    await attempt(camera, 'compose: a gift first', async () => {
      const merchant = (await api<{ id: string }[]>(baseURL, '/api/merchant'))[0]!;
      const product = (await api<{ id: string; price?: number }[]>(baseURL, `/api/merchant/${merchant.id}/products`)).find((p) => typeof p.price === 'number')!;
      let release = await camera.hold('**/api/greetie/createv2');
      await page.goto(`/greetie/new?productId=${product.id}`);
      await camera.shoot('compose', 'creatingWithGift');
      await release();
      await camera.waitFor('compose', 'editing.steps.media.ready');
      release = await camera.fail('**/api/greetie/createv2');
      await page.goto(`/greetie/new?productId=${product.id}`);
      await camera.shoot('compose', 'createFailed');
      await release();
    });
  },
};

/**
 * The content step's tool panels (machines/compose/editorPanel.ts, once it is in the editor): each
 * panel opened with its button in 'Lägg till' and closed with Escape, and a text's 'Ändra text'.
 * The camera sees the panel's actor only when the editor starts it with the app's `inspect`
 * (src/inspect.ts), as every page's machine is; without it the driver stops at its first wait.
 */
const editorPanel: Driver = {
  machines: ['editorPanel'],
  async run(camera) {
    const { page } = camera;
    await signIn(camera, freshNumber(), 'Anna');
    const main = page.getByRole('main');
    await page.goto('/greetie/new');
    await main.getByLabel('Välj från telefonen').setInputFiles({ name: 'foto.jpg', mimeType: 'image/jpeg', buffer: await photo() });
    await main.getByRole('img', { name: 'Din bild' }).waitFor({ timeout: 30_000 });
    await camera.waitFor('upload', 'ready.idle', 30_000);
    await main.getByRole('button', { name: 'Nästa' }).click();
    await camera.waitFor('compose', 'editing.steps.content');
    await camera.shoot('editorPanel', 'closed', { settle: 600 });
    const tools = main.getByRole('group', { name: 'Lägg till' });
    for (const [tool, state] of [
      ['Text', 'open.text'],
      ['Emoji', 'open.emoji'],
      ['Klistermärke', 'open.sticker'],
      ['Animation', 'open.lottie'],
      ['Bild', 'open.picture'],
    ] as const) {
      await attempt(camera, `editorPanel: ${state}`, async () => {
        await tools.getByRole('button', { name: tool, exact: true }).click();
        await camera.shoot('editorPanel', state, { settle: 600 });
        await page.keyboard.press('Escape');
        await camera.waitFor('editorPanel', 'closed');
      });
    }
    await attempt(camera, 'editorPanel: open.editingText', async () => {
      await tools.getByRole('button', { name: 'Text', exact: true }).click();
      const panel = main.getByRole('region', { name: 'Ny text' });
      await panel.getByRole('textbox').fill('Grattis!');
      await panel.getByRole('button', { name: 'Lägg till text' }).click();
      await camera.waitFor('editorPanel', 'closed');
      await main.getByRole('button', { name: /^Text: Grattis!/ }).first().click();
      await main.getByRole('button', { name: 'Ändra text' }).click();
      await camera.shoot('editorPanel', 'open.editingText', { settle: 600 });
      await page.keyboard.press('Escape');
    });
  },
};

export const DRIVERS: Record<string, Driver> = { auth, merchantSearch, loader, greetieView, sandbox, profile, recipient, portal, sender, compose, editorPanel };
