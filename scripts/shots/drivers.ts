/**
 * The drivers of `npm run flows:shots`: each walks the real pages (as a person does, by role and
 * label) to the states of one or more machines and pictures them with the camera
 * (./recorder.ts). A waiting state is held on screen by holding its request; a failed state by
 * answering its request with an error. A state no driver reaches stays `todo` in the manifest.
 */
import { randomUUID } from 'node:crypto';
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

let numbers = 0;
/** A fresh number from the range kept for fiction (070-174 06 05 – 99 are the demo owners'; these are 070-174 07 xx). */
function freshNumber(): { typed: string; e164: string } {
  numbers += 1;
  const n = String(numbers).padStart(2, '0');
  return { typed: `070-174 07 ${n}`, e164: `+46701740${'7'}${n}` };
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
    await camera.releaseAll();
  }
}

const auth: Driver = {
  machines: ['auth'],
  async run(camera) {
    const { page } = camera;
    const who = freshNumber();
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
      await camera.shoot('auth', 'unauthenticated.enteringCode.canResend', { timeout: 40_000 });
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
    // A reload with the session in the browser: the app first looks for it.
    release = await camera.hold('**/api/auth/my');
    const release2 = await camera.hold('**/api/auth/refresh');
    await page.reload({ waitUntil: 'commit' });
    await attempt(camera, 'auth: loading', () => camera.shoot('auth', 'loading'));
    await attempt(camera, 'auth: restoring', async () => {
      await release();
      await camera.shoot('auth', 'restoring');
    });
    await release();
    await release2();
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
    let release = await camera.hold('**/api/merchant/v2**');
    await page.goto('/merchant');
    await camera.shoot('merchantSearch', 'searching');
    await release();
    await camera.shoot('merchantSearch', 'showing', { settle: 600 });
    await attempt(camera, 'merchantSearch: loadingMore', async () => {
      release = await camera.hold('**/api/merchant/v2**');
      await page.getByRole('button', { name: 'Visa fler' }).click();
      await camera.shoot('merchantSearch', 'loadingMore');
      await release();
    });
    await attempt(camera, 'merchantSearch: failed.nextPage', async () => {
      await camera.waitFor('merchantSearch', 'showing');
      const unfail = await camera.fail('**/api/merchant/v2**');
      await page.getByRole('button', { name: 'Visa fler' }).click();
      await camera.shoot('merchantSearch', 'failed.nextPage');
      await unfail();
    });
    await page.goto('/merchant');
    await camera.waitFor('merchantSearch', 'showing');
    const search = page.getByRole('searchbox', { name: 'Sök' }).or(page.getByLabel('Sök', { exact: true })).first();
    await search.click();
    await page.keyboard.type('kaf', { delay: 30 });
    await camera.shoot('merchantSearch', 'debouncing', { settle: 0 }).catch(async () => {
      // The pause may have passed while the picture was taken: try once more with a held search.
      const hold = await camera.hold('**/api/merchant/v2**');
      await page.keyboard.type('f');
      await camera.shoot('merchantSearch', 'debouncing', { settle: 0 });
      await hold();
    });
    await camera.waitFor('merchantSearch', 'showing');
    const unfail = await camera.fail('**/api/merchant/v2**');
    await page.keyboard.press('Enter');
    await camera.shoot('merchantSearch', 'failed.firstPage');
    await unfail();
  },
};

/** The merchant's page reads the merchant with the loader. */
const loader: Driver = {
  machines: ['loader'],
  async run(camera) {
    const { page } = camera;
    const [merchant] = await api<{ id: string }[]>(camera.baseURL, '/api/merchant');
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
    const sms = await camera.hold('**/api/sandbox/sms**');
    const refunds = await camera.hold('**/api/sandbox/refunds**');
    await page.goto('/sandbox');
    await attempt(camera, 'smsOutbox: loading', () => camera.shoot('smsOutbox', 'loading'));
    await attempt(camera, 'sandboxRefunds: loading', () => camera.shoot('sandboxRefunds', 'loading'));
    await sms();
    await refunds();
    await attempt(camera, 'smsOutbox: showing', () => camera.shoot('smsOutbox', 'showing.waiting'));
    await attempt(camera, 'sandboxRefunds: showing', () => camera.shoot('sandboxRefunds', 'showing.waiting'));
    const failSms = await camera.fail('**/api/sandbox/sms**');
    const failRefunds = await camera.fail('**/api/sandbox/refunds**');
    await page.reload();
    await attempt(camera, 'smsOutbox: failed', () => camera.shoot('smsOutbox', 'failed.waiting'));
    await attempt(camera, 'sandboxRefunds: failed', () => camera.shoot('sandboxRefunds', 'failed.waiting'));
    await failSms();
    await failRefunds();
    // The reads between two waits, held on screen.
    const readSms = await camera.hold('**/api/sandbox/sms**');
    const readRefunds = await camera.hold('**/api/sandbox/refunds**');
    await attempt(camera, 'smsOutbox: failed.reading', () => camera.shoot('smsOutbox', 'failed.reading', { timeout: 20_000 }));
    await attempt(camera, 'sandboxRefunds: failed.reading', () => camera.shoot('sandboxRefunds', 'failed.reading', { timeout: 20_000 }));
    await readSms();
    await readRefunds();
    await attempt(camera, 'smsOutbox: showing.reading', async () => {
      await camera.waitFor('smsOutbox', 'showing.waiting', 20_000);
      const hold = await camera.hold('**/api/sandbox/sms**');
      await camera.shoot('smsOutbox', 'showing.reading', { timeout: 20_000 });
      await hold();
    });
    await attempt(camera, 'sandboxRefunds: showing.reading', async () => {
      await camera.waitFor('sandboxRefunds', 'showing.waiting', 20_000);
      const hold = await camera.hold('**/api/sandbox/refunds**');
      await camera.shoot('sandboxRefunds', 'showing.reading', { timeout: 20_000 });
      await hold();
    });
  },
};

/** A first sign-in asks for a name (the profile); then the profile page. */
const profile: Driver = {
  machines: ['profile'],
  async run(camera) {
    const { page } = camera;
    await signIn(camera);
    await attempt(camera, 'profile: the name question', async () => {
      await camera.shoot('profile', 'ready.idle', { settle: 600 });
      const hold = await camera.hold('**/api/mobileuser**');
      await page.getByLabel('Namn', { exact: true }).first().fill('Ada Ek');
      await page.getByRole('button', { name: /^(Klar|Spara)$/ }).first().click();
      await camera.shoot('profile', 'ready.savingName');
      await hold();
    });
    let release = await camera.hold('**/api/mobileuser/**');
    await page.goto('/my/profile');
    await attempt(camera, 'profile: loading', () => camera.shoot('profile', 'loading'));
    await release();
    await camera.waitFor('profile', 'ready.idle');
    await attempt(camera, 'profile: savingMarketing', async () => {
      const hold = await camera.hold('**/api/mobileuser/allowmarketing**');
      await page.getByRole('switch', { name: /erbjudanden/i }).or(page.getByRole('checkbox', { name: /erbjudanden/i })).first().click();
      await camera.shoot('profile', 'ready.savingMarketing');
      await hold();
    });
    release = await camera.fail('**/api/mobileuser/**');
    await page.reload();
    await attempt(camera, 'profile: failed', () => camera.shoot('profile', 'failed'));
    await release();
  },
};

export const DRIVERS: Record<string, Driver> = { auth, merchantSearch, loader, greetieView, sandbox, profile };
