import { createHash, randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import type { Merchant, MerchantSource, Product } from '../../../contract/merchant.ts';
import type { Journey } from './journey.ts';

/**
 * Greetie-specific steps shared by the journeys. They find things the way a person (or a screen
 * reader) does: by role and accessible name, never by CSS class.
 */

export async function api<T>(baseURL: string, path: string): Promise<T> {
  const res = await fetch(new URL(path, baseURL), { headers: { 'accept-language': 'sv' } });
  if (!res.ok) throw new Error(`GET ${path} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

/** A call to the API as `token`'s user (or none): JSON, or multipart when the body is FormData; a non-2xx answer throws. */
export async function call<T>(baseURL: string, token: string | null, method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', 'accept-language': 'sv' };
  if (token) headers.authorization = `Bearer ${token}`;
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const res = await fetch(new URL(path, baseURL), { method, headers, body: payload });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** Signs in through the API with the code from the sandbox outbox: the access token. */
export async function signInByApi(baseURL: string, e164: string): Promise<string> {
  const since = Date.now();
  const { token } = await call<{ token: string }>(baseURL, null, 'POST', '/api/auth/verificationcode', { mobileNumber: e164 });
  const code = await readCodeFromOutbox(baseURL, e164, since);
  const session = await call<{ token: string }>(baseURL, null, 'POST', '/api/auth/login', { token, code, deviceId: randomUUID() });
  return session.token;
}

/**
 * A greetie from `senderToken`'s user to `recipientE164` with one gift of `product` (a value
 * product's gift `amount` öre; a fixed price its own), paid in the sandbox's Swish: its id.
 * Delivery is a job: see `deliveredVoucher`.
 */
export async function paidGift(baseURL: string, senderToken: string, recipientE164: string, product: Pick<Product, 'id' | 'price'>, amount?: number): Promise<string> {
  const draft = await call<{ id: string }>(baseURL, senderToken, 'POST', '/api/greetie/createv2', {
    recipient: { mobileNumber: recipientE164, name: 'Bo' },
    message: 'Ät något gott!',
    gifts: [{ productId: product.id, ...(typeof product.price === 'number' ? {} : { amount }) }],
  });
  const payment = await call<{ id: string }>(baseURL, senderToken, 'POST', `/api/greetie/${draft.id}/startpayment`, { withdrawalConsent: true });
  await call(baseURL, null, 'POST', `/api/sandbox/payments/${payment.id}`, { outcome: 'paid' });
  return draft.id;
}

/**
 * A paid greetie with one value gift (349 kr unless said: the first InStore product whose range
 * holds it) from a sender signed in through the API as `senderE164` (named Anna) to
 * `recipientE164`: the product's name, its merchant and the greetie.
 */
export async function giveValueGift(
  baseURL: string,
  senderE164: string,
  recipientE164: string,
  amount = 34900,
): Promise<{ product: string; merchantId: string; merchant: string; greetieId: string }> {
  const token = await signInByApi(baseURL, senderE164);
  await call(baseURL, token, 'POST', '/api/mobileuser', { name: 'Anna' });
  for (const m of await api<Merchant[]>(baseURL, '/api/merchant')) {
    const products = await api<Product[]>(baseURL, `/api/merchant/${m.id}/products`);
    const p = products.find((x) => x.source === 'InStore' && typeof x.minAmount === 'number' && x.minAmount <= amount && (x.maxAmount ?? 0) >= amount);
    if (!p) continue;
    return { product: p.name, merchantId: m.id, merchant: m.name, greetieId: await paidGift(baseURL, token, recipientE164, p, amount) };
  }
  throw new Error(`the demo catalogue has no InStore product with a range holding ${amount / 100} kr`);
}

/** The recipient's (`recipientToken`'s) voucher of a paid greetie, once it is delivered (a job). */
export async function deliveredVoucher(baseURL: string, recipientToken: string, greetieId: string): Promise<string> {
  let voucherId: string | undefined;
  await expect
    .poll(
      async () => {
        const vouchers = await call<Array<{ id: string; greetieId: string }>>(baseURL, recipientToken, 'GET', '/api/voucher');
        voucherId = vouchers.find((v) => v.greetieId === greetieId)?.id;
        return Boolean(voucherId);
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  return voucherId!;
}

/**
 * In a /sandbox tab: the pending Swish payment of `greetieId` answered as the payer would in the
 * Swish app ('Godkänn', 'Neka'), once the page says it got the answer. `payer` tells apart the
 * payment with that payer's number (the list is read every few seconds: a payment the page has
 * since replaced can still be listed for a moment); `screenshot` is where to save the tab first.
 */
export async function answerInSandbox(sandbox: Page, greetieId: string, answer: 'Godkänn' | 'Neka', opts: { payer?: string; screenshot?: string } = {}): Promise<void> {
  const section = sandbox.getByRole('region', { name: 'Betalningar' });
  const mine = section.getByRole('listitem').filter({ hasText: greetieId.slice(0, 8) });
  const item = opts.payer ? mine.filter({ hasText: opts.payer }) : mine;
  await item.waitFor({ timeout: 15_000 });
  if (opts.screenshot) {
    await sandbox.bringToFront();
    await sandbox.screenshot({ path: opts.screenshot, fullPage: true });
  }
  await item.getByRole('button', { name: answer }).click();
  await section.getByRole('status').filter({ hasText: answer }).waitFor();
  await item.waitFor({ state: 'detached' });
}

/** Waits until the page's path (and query, when given) is the expected one. */
export async function expectPath(page: Page, expected: string | RegExp): Promise<void> {
  await page.waitForURL((url) => {
    const p = url.pathname + url.search;
    return typeof expected === 'string' ? p === expected || url.pathname === expected : expected.test(p);
  });
}

/** A Swedish mobile number of our own for each journey and viewport, so outboxes never mix. */
export function mobileNumberFor(journey: string, viewport: string): { typed: string; e164: string } {
  const digits = (Number.parseInt(createHash('sha256').update(`${journey}/${viewport}`).digest('hex').slice(0, 12), 16) % 10_000_000)
    .toString()
    .padStart(7, '0');
  // Typed the way people write it ("070-123 45 67"); the server normalises to E.164.
  return { typed: `070-${digits.slice(0, 3)} ${digits.slice(3, 5)} ${digits.slice(5)}`, e164: `+4670${digits}` };
}

/** The 6-digit code from the newest SMS the sandbox outbox holds for `e164`, sent after `since`. */
export async function readCodeFromOutbox(baseURL: string, e164: string, since: number): Promise<string> {
  const until = Date.now() + 10_000;
  for (;;) {
    const messages = await api<{ to: string; body: string; sentAt: string }[]>(baseURL, `/api/sandbox/sms?to=${encodeURIComponent(e164)}`);
    // The newest message with a code: a greetie's link to the same number (sent by the delivery
    // worker whenever it gets to it) can arrive after the code and is not one.
    const code = messages
      .filter((m) => m.to === e164 && Date.parse(m.sentAt) >= since - 2_000)
      .map((m) => m.body.match(/\b(\d{6})\b/)?.[1])
      .find((c) => c !== undefined);
    if (code) return code;
    if (Date.now() > until) throw new Error(`no SMS with a code reached ${e164} in the sandbox outbox (found ${messages.length} without one)`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The first product of the demo catalogue with a fixed price (of `source`, when given), and its merchant. */
export async function fixedPriceProduct(baseURL: string, source?: MerchantSource): Promise<{ product: Product; merchant: Merchant }> {
  for (const merchant of await api<Merchant[]>(baseURL, '/api/merchant')) {
    const products = await api<Product[]>(baseURL, `/api/merchant/${merchant.id}/products`);
    const product = products.find((p) => (!source || p.source === source) && typeof p.price === 'number' && p.price > 0);
    if (product) return { product, merchant };
  }
  throw new Error(`the demo catalogue has no fixed-price ${source ?? ''} product`);
}

/** The link (as a path) in the SMS the sandbox outbox holds for `e164` that carries a greetie: the delivery. */
export async function greetieLinkFromOutbox(baseURL: string, e164: string): Promise<string> {
  const until = Date.now() + 20_000;
  for (;;) {
    const messages = await api<{ to: string; body: string }[]>(baseURL, `/api/sandbox/sms?to=${encodeURIComponent(e164)}`);
    const link = messages.map((m) => /https?:\/\/\S+(\/greetie\/view\/[A-Za-z0-9_%-]+)/.exec(m.body)?.[1]).find(Boolean);
    if (link) return link;
    if (Date.now() > until) throw new Error(`no greetie link reached ${e164} in the sandbox outbox`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The page's main landmark, or the page when it has none (the login page stands alone). */
async function mainOrPage(page: Page): Promise<Locator | Page> {
  return (await page.getByRole('main').count()) > 0 ? page.getByRole('main') : page;
}

/**
 * The first link in `scope` that goes to `pathname` (the routes are part of the spec; the words
 * on a call to action may change).
 */
export async function linkTo(scope: Locator, pathname: string): Promise<Locator> {
  const links = scope.getByRole('link');
  await links.first().waitFor();
  const paths = await links.evaluateAll((els) => els.map((a) => new URL((a as HTMLAnchorElement).href).pathname));
  const index = paths.indexOf(pathname);
  if (index === -1) throw new Error(`no link to ${pathname} (links go to ${paths.join(', ')})`);
  return links.nth(index);
}

/** The button that opens the navigation drawer ('Öppna menyn'). */
export const MENU_BUTTON = /meny|menu/i;

/** The header (banner landmark). */
export function header(page: Page): Locator {
  return page.getByRole('banner');
}

/**
 * Where the site navigation is: the header itself on a desktop; below the desktop breakpoint the
 * navigation lives in a drawer (a Radix dialog) opened from a menu button in the header.
 */
export async function openNavigation(page: Page): Promise<Locator> {
  const banner = header(page);
  const nav = banner.getByRole('navigation');
  const menuButton = banner.getByRole('button', { name: MENU_BUTTON });
  await nav.or(menuButton).first().waitFor();
  if (await nav.first().isVisible()) return banner;
  await menuButton.click();
  const drawer = page.getByRole('dialog');
  await drawer.waitFor();
  return drawer;
}

/** Closes the navigation drawer if it is open (Escape, as a keyboard user would). */
export async function closeNavigation(page: Page): Promise<void> {
  if (await page.getByRole('dialog').isVisible()) {
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
  }
}

const LANGUAGE_NAMES = { sv: /svenska/i, en: /english/i } as const;

/**
 * Chooses a language with the switch labelled 'Språk' / 'Language', in the header or, when the
 * header has no room for it, in the navigation drawer. Works whether the switch is a <select> or a
 * button that opens a menu of languages.
 */
export async function switchLanguage(page: Page, to: 'sv' | 'en'): Promise<void> {
  const name = /^(språk|language)$/i;
  // After a reload the server's first screen is replaced by the app's: let the page's code and
  // chunks arrive first, so the switch found is the one that stays.
  await page.waitForLoadState('networkidle').catch(() => undefined);
  const find = async () => {
    let scope: Locator = header(page);
    const inHeader = scope.getByLabel(name).or(scope.getByRole('button', { name }));
    if (!(await inHeader.first().isVisible().catch(() => false))) scope = await openNavigation(page);
    return scope.getByRole('combobox', { name }).or(scope.getByRole('button', { name })).or(scope.getByRole('group', { name })).first();
  };
  let control = await find();
  // Right after a reload the header may still be changing (the server's first screen, then the
  // app's): where the switch was looked for can be gone a moment later. Look once more.
  if (!(await control.waitFor({ timeout: 3000 }).then(() => true).catch(() => false))) {
    await closeNavigation(page);
    control = await find();
  }
  const role = await control.evaluate((el) => el.tagName.toLowerCase() + ':' + (el.getAttribute('role') ?? ''));
  if (role.startsWith('select')) {
    // The navigation holding it can still be replaced once (the header re-rendered): find it again.
    if (!(await control.selectOption(to, { timeout: 4000 }).then(() => true).catch(() => false))) {
      await closeNavigation(page);
      await (await find()).selectOption(to);
    }
  } else if (role.endsWith('group') || role.endsWith('radiogroup')) {
    await control.getByRole('radio', { name: LANGUAGE_NAMES[to] }).or(control.getByRole('button', { name: LANGUAGE_NAMES[to] })).first().click();
  } else {
    await control.click();
    await page.getByRole('menuitemradio', { name: LANGUAGE_NAMES[to] }).or(page.getByRole('menuitem', { name: LANGUAGE_NAMES[to] })).or(page.getByRole('option', { name: LANGUAGE_NAMES[to] })).first().click();
  }
  await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe(to);
  await closeNavigation(page);
}

/** Presses Tab (at most `max` times) until `target` has the focus; keyboard only, no clicks. */
export async function tabTo(page: Page, target: Locator, max = 40): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
    await page.keyboard.press('Tab');
  }
  if (await target.evaluate((el) => el === document.activeElement)) return;
  throw new Error(`Tab did not reach ${target} within ${max} presses`);
}

/** The focused element shows where the focus is (an outline or a ring), as WCAG 2.4.7 asks. */
export async function expectVisibleFocus(target: Locator): Promise<void> {
  const style = await target.evaluate((el) => {
    const s = getComputedStyle(el);
    return { outline: s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0, shadow: s.boxShadow !== 'none' };
  });
  expect(style.outline || style.shadow, `focus indicator on ${target}`).toBe(true);
}

export const LOGIN_PATH = '/auth/jwt/login';

/**
 * Signs in on the login page the journey is on: the mobile number, 'Skicka kod', the code read
 * from the sandbox SMS outbox, 'Logga in'. With `keyboard`, only Tab, Enter and typing are used.
 */
export async function signInOnLoginPage(j: Journey, opts: { keyboard?: boolean; checkpoints?: boolean; minimalLayout?: boolean } = {}): Promise<void> {
  const { page } = j;
  const mobile = page.getByLabel('Mobilnummer');
  await expect.poll(() => mobile.getAttribute('type')).toBe('tel');
  if (opts.checkpoints !== false) await j.check('login: mobile number');

  await codeFromLoginPage(j, page, mobileNumberFor(j.name, j.viewport), {
    keyboard: opts.keyboard,
    beforeCode: opts.checkpoints !== false ? () => j.check('login: code') : undefined,
  });
  const login = (await mainOrPage(page)).getByRole('button', { name: 'Logga in', exact: true });
  if (opts.keyboard) {
    await tabTo(page, login);
    await expectVisibleFocus(login);
    await page.keyboard.press('Enter');
  } else {
    await login.click();
  }
  // The greetie view returns in the minimal layout: no header, so no 'Konto' to wait for.
  if (opts.minimalLayout) await expect.poll(() => page.evaluate(() => sessionStorage.getItem('accessToken'))).toBeTruthy();
  else await expectSignedIn(page);
}

/**
 * The login page's code step, the one way every journey walks it: `number` in 'Mobilnummer' (an
 * E.164 string is typed as it is), 'Skicka kod', the per-address limit waited out when it answers
 * first, and the code from the sandbox outbox in 'Kod'. With `keyboard`, only Tab, Enter and
 * typing are used. `beforeCode` runs once the code has come (a checkpoint). The caller presses
 * 'Logga in' and waits for where that leads.
 */
export async function codeFromLoginPage(
  j: Journey,
  page: Page,
  number: { typed: string; e164: string } | string,
  opts: { keyboard?: boolean; beforeCode?: () => Promise<void> } = {},
): Promise<void> {
  const { typed, e164 } = typeof number === 'string' ? { typed: number, e164: number } : number;
  const mobile = page.getByLabel('Mobilnummer');
  const send = page.getByRole('button', { name: 'Skicka kod' });
  const since = Date.now();
  if (opts.keyboard) {
    await tabTo(page, mobile);
    await expectVisibleFocus(mobile);
    await page.keyboard.type(typed);
    await tabTo(page, send);
    await expectVisibleFocus(send);
    await page.keyboard.press('Enter');
  } else {
    await mobile.fill(typed);
    await send.click();
  }

  const codeField = page.getByLabel('Kod', { exact: true });
  // The journeys share one address: the per-address limit on code requests may answer first.
  await waitOutIpLimit(j, codeField, send, page);
  const code = await readCodeFromOutbox(j.baseURL, e164, since);
  if (opts.beforeCode) await opts.beforeCode();
  if (opts.keyboard) {
    await tabTo(page, codeField);
    await expectVisibleFocus(codeField);
    await page.keyboard.type(code);
  } else {
    await codeField.fill(code);
  }
}

/**
 * The journeys all come from 127.0.0.1, and the server allows 20 code requests a minute from one
 * IP (server/auth/rateLimit.ts). With some thirty sign-ins in a run, a later one can meet that
 * limit: the page then says "Vänta N sekunder och försök igen", and the journey does what a person
 * would — waits that long and presses 'Skicka kod' again — rather than the server's limit being
 * loosened for tests.
 */
export async function waitOutIpLimit(j: Journey, codeField: Locator, send: Locator, page: Page = j.page): Promise<void> {
  let met = false;
  const limited = page.getByRole('alert').filter({ hasText: /Vänta \d+ sekunder/ });
  for (let attempt = 0; attempt < 4; attempt++) {
    // The loser's wait is left to time out on its own: caught, so it never becomes an unhandled rejection.
    const which = await Promise.race([
      codeField.waitFor().then(() => 'code' as const, () => null),
      limited.waitFor().then(() => 'limited' as const, () => null),
    ]);
    if (which !== 'limited') break;
    met = true;
    const seconds = Number((await limited.textContent())?.match(/Vänta (\d+) sekunder/)?.[1] ?? 5);
    await page.waitForTimeout((seconds + 1) * 1000);
    if (await codeField.isVisible()) break;
    await send.press('Enter');
    // The old message goes while the new request runs (or is replaced by a new one).
    await limited.waitFor({ state: 'hidden', timeout: 3000 }).catch(() => undefined);
  }
  await codeField.waitFor();
  // The browser logs each refused request as a console error; the refusals waited out here are
  // expected, so only those (429 from the code request) are taken off the journey's problems.
  if (met) {
    const refused = /status of 429 .*\/api\/auth\/verificationcode/;
    const kept = j.problems.filter((p) => !refused.test(p));
    j.problems.splice(0, j.problems.length, ...kept);
  }
}

/** The header has switched to the signed-in variant: the account menu button 'Konto'. */
export async function expectSignedIn(page: Page): Promise<void> {
  await header(page).getByRole('button', { name: 'Konto' }).waitFor();
  expect(await page.evaluate(() => sessionStorage.getItem('accessToken'))).toBeTruthy();
}

export async function expectSignedOut(page: Page): Promise<void> {
  await expect.poll(() => header(page).getByRole('button', { name: 'Konto' }).count()).toBe(0);
  // The token is forgotten once the server has revoked the session (a moment after the header
  // switches); the journey does not go on until it is.
  await expect.poll(() => page.evaluate(() => sessionStorage.getItem('accessToken'))).toBeNull();
  // On a desktop 'Logga in' is back in the header (on a phone it is in the drawer).
  const signIn = signInControl(header(page));
  if ((await header(page).getByRole('navigation').count()) > 0) await signIn.waitFor();
}

/**
 * The header's 'Logga in' (a button, or a link styled as one; in the drawer when the header has
 * no room for it).
 */
export function signInControl(scope: Locator | Page): Locator {
  const name = 'Logga in';
  return scope.getByRole('button', { name, exact: true }).or(scope.getByRole('link', { name, exact: true })).first();
}

/** The navigation (header or drawer) offers exactly these links, each pointing where it should. */
export async function expectNavLinks(page: Page, links: Record<string, string>): Promise<void> {
  const nav = await openNavigation(page);
  for (const [name, href] of Object.entries(links)) {
    const link = nav.getByRole('link', { name, exact: true });
    await link.waitFor();
    expect(new URL((await link.getAttribute('href')) ?? '', page.url()).pathname, `link '${name}'`).toBe(href);
  }
  await closeNavigation(page);
}

/** The Swedish way to write a whole-krona amount, "1 000 kr", whatever space the app groups with. */
export function kronorPattern(ore: number): string {
  const kr = Math.round(ore / 100).toString();
  const groups = kr.replace(/\B(?=(\d{3})+(?!\d))/g, ' ').split(' ');
  return groups.join('[\\s\\u00a0\\u202f]?');
}

/**
 * The withdrawal consent at review (decision 097): 'Betala med Swish' starts nothing until it is
 * ticked. Ticks it, as a person does, by its label.
 */
export async function tickWithdrawalConsent(scope: Locator): Promise<void> {
  await scope.getByRole('checkbox', { name: /^Jag vill att greetien levereras direkt/ }).check();
}
