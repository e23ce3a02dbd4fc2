import sharp from 'sharp';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { signInWithNumber } from './auth.ts';
import { deliveredGreetieWithPhoto } from './view.ts';

/**
 * Two times a person waits for, measured in a real browser (Chromium, phone size 390×844, default
 * motion settings, as people have them) against the bench's production server:
 *
 * - **link → gifts visible** (target ≤ 1 s): the recipient, signed in, opens the link from their
 *   SMS (/greetie/view/{refId}); from the navigation's start to the first gift's 'Lös in' on the
 *   page, as the page's own clock counts it (a MutationObserver installed before the page's
 *   scripts). Also the same for a visitor (not signed in: the gifts' names).
 * - **approve → receipt** (target ≤ 1.5 s at the median): the sender's payment page is waiting
 *   for Swish; in /sandbox (another browser window, as the payer's phone) 'Godkänn' is pressed;
 *   from that click to the receipt on the sender's page. Both pages share the browser's clock
 *   (`performance.timeOrigin + performance.now()`).
 *
 * Each run is a fresh navigation in the same browser context (the HTTP cache warm, as for a person
 * who opens the link twice; the first, cold run is counted too). Medians are the figures.
 * BENCH_JOURNEY_SHOTS=<dir> saves the payer's and the sandbox's screens when approve → receipt fails.
 */

export interface JourneyTimes {
  available: true;
  runs: number[];
  median: number;
  /** The page's API reads in the last run, as [path, start, end] ms from the navigation. */
  reads: [string, number, number][];
}
export type JourneyResult = JourneyTimes | { available: false; why: string };

export interface JourneysResult {
  recipient: JourneyResult;
  visitor: JourneyResult;
  receipt: JourneyResult;
}

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 1, locale: 'sv-SE', timezoneId: 'Europe/Stockholm' };

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** A context whose tab holds `token`'s session (what the login page leaves in sessionStorage). */
async function signedInContext(browser: Browser, session: { token: string; refreshToken?: string | null } | null): Promise<BrowserContext> {
  const context = await browser.newContext(PHONE);
  if (session) {
    await context.addInitScript((s) => {
      if (!sessionStorage.getItem('accessToken')) {
        sessionStorage.setItem('accessToken', s.token);
        if (s.refreshToken) sessionStorage.setItem('refreshToken', s.refreshToken);
      }
    }, session);
  }
  return context;
}

/** Records (window.__seenAt) when an element matching `selector` is first in the document, by the page's clock. */
async function watchFor(context: BrowserContext, selector: string): Promise<void> {
  // No named functions inside: tsx's esbuild would wrap them in a `__name` helper the page lacks.
  await context.addInitScript((sel) => {
    const w = window as unknown as { __seenAt?: number };
    const observer = new MutationObserver(() => {
      if (w.__seenAt === undefined && document.querySelector(sel)) {
        w.__seenAt = performance.now();
        observer.disconnect();
      }
    });
    observer.observe(document, { childList: true, subtree: true, attributes: true });
  }, selector);
}

async function readsOf(page: Page): Promise<[string, number, number][]> {
  return page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((e) => e as PerformanceResourceTiming)
      .filter((e) => new URL(e.name).pathname.startsWith('/api/'))
      .map((e) => [new URL(e.name).pathname, Math.round(e.startTime), Math.round(e.responseEnd)] as [string, number, number]),
  );
}

async function timeLink(context: BrowserContext, link: string, selector: string, runs: number): Promise<JourneyTimes> {
  await watchFor(context, selector);
  const page = await context.newPage();
  const times: number[] = [];
  let reads: [string, number, number][] = [];
  for (let i = 0; i < runs; i++) {
    await page.goto(link);
    await page.waitForSelector(selector, { timeout: 30_000 });
    times.push(Math.round(await page.evaluate(() => (window as unknown as { __seenAt: number }).__seenAt)));
    reads = await readsOf(page);
  }
  return { available: true, runs: times, median: median(times), reads };
}

async function json<T>(res: Response, what: string): Promise<T> {
  if (!res.ok) throw new Error(`${what} answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
  return (await res.json()) as T;
}

/** Link → gifts visible, for the recipient signed in and for a visitor. */
async function linkToGifts(baseUrl: string, browser: Browser, runs: number): Promise<{ recipient: JourneyTimes; visitor: JourneyTimes }> {
  const recipient = await signInWithNumber(baseUrl);
  const { path } = await deliveredGreetieWithPhoto(baseUrl, (u) => signInWithNumber(u).then((s) => s.token), recipient.mobileNumber);
  const link = baseUrl + path;
  const visitorContext = await signedInContext(browser, null);
  const visitor = await timeLink(visitorContext, link, 'main section[aria-labelledby] li', runs);
  await visitorContext.close();
  const recipientContext = await signedInContext(browser, { token: recipient.token });
  const own = await timeLink(recipientContext, link, 'main a[href^="/redeem/"]', runs);
  await recipientContext.close();
  return { recipient: own, visitor };
}

/** Approve in the sandbox's Swish → the receipt on the sender's payment page. */
async function approveToReceipt(baseUrl: string, browser: Browser, runs: number): Promise<JourneyTimes> {
  const sender = await signInWithNumber(baseUrl);
  const auth = { authorization: `Bearer ${sender.token}`, 'content-type': 'application/json' };
  await json(await fetch(`${baseUrl}/api/mobileuser`, { method: 'POST', headers: auth, body: JSON.stringify({ name: 'Anna' }) }), 'POST /api/mobileuser');
  const merchants = await json<{ id: string }[]>(await fetch(`${baseUrl}/api/merchant`), 'GET /api/merchant');
  let productId: string | undefined;
  for (const m of merchants) {
    const products = await json<{ id: string; source: string; price?: number | null }[]>(await fetch(`${baseUrl}/api/merchant/${m.id}/products`), 'products');
    productId = products.find((p) => p.source === 'InStore' && typeof p.price === 'number' && p.price > 0)?.id;
    if (productId) break;
  }
  if (!productId) throw new Error('the demo catalogue has no fixed-price InStore product');
  const photo = await sharp({ create: { width: 480, height: 600, channels: 3, background: '#f4a6c8' } }).jpeg({ quality: 80 }).toBuffer();

  const senderContext = await signedInContext(browser, { token: sender.token });
  await watchFor(senderContext, 'article[aria-label="Kvitto"]');
  const page = await senderContext.newPage();
  // The payer's phone: a window of its own (a background tab's timers would be throttled).
  const payerContext = await browser.newContext({ locale: 'sv-SE' });
  const sandbox = await payerContext.newPage();
  await sandbox.goto(`${baseUrl}/sandbox`);
  await sandbox.evaluate(() => {
    document.addEventListener('click', () => ((window as unknown as { __clickedAt?: number }).__clickedAt = performance.timeOrigin + performance.now()), { capture: true });
  });
  const times: number[] = [];
  let reads: [string, number, number][] = [];
  try {
    for (let i = 0; i < runs; i++) {
      const draft = await json<{ id: string }>(
        await fetch(`${baseUrl}/api/greetie/createv2`, {
          method: 'POST',
          headers: auth,
          body: JSON.stringify({ recipient: { mobileNumber: `+4670999${String(1000 + i).slice(-4)}`, name: 'Bo' }, message: 'Grattis!', gifts: [{ productId }] }),
        }),
        'POST /api/greetie/createv2',
      );
      const form = new FormData();
      form.append('file', new Blob([photo], { type: 'image/jpeg' }), 'foto.jpg');
      await json(await fetch(`${baseUrl}/api/greetie/${draft.id}/media`, { method: 'POST', headers: { authorization: auth.authorization }, body: form }), 'POST /api/greetie/{id}/media');
      await page.goto(`${baseUrl}/greetie/new?draft=${draft.id}`);
      const main = page.getByRole('main');
      const pay = main.getByRole('button', { name: 'Betala med Swish' });
      await pay.waitFor({ timeout: 30_000 });
      await main.getByRole('checkbox', { name: /^Jag vill att greetien levereras direkt/ }).check();
      await pay.click();
      await main.getByRole('link', { name: 'Öppna Swish' }).waitFor({ timeout: 30_000 });
      // The page is listening for the payment now (its stream, or its poll as the fallback).
      const item = sandbox.getByRole('region', { name: 'Betalningar' }).getByRole('listitem').filter({ hasText: draft.id.slice(0, 8) });
      await item.waitFor({ timeout: 30_000 });
      await item.getByRole('button', { name: 'Godkänn' }).click();
      await page.waitForSelector('article[aria-label="Kvitto"]', { timeout: 30_000 });
      const clickedAt = await sandbox.evaluate(() => (window as unknown as { __clickedAt: number }).__clickedAt);
      const seenAt = await page.evaluate(() => performance.timeOrigin + (window as unknown as { __seenAt: number }).__seenAt);
      times.push(Math.round(seenAt - clickedAt));
      reads = await readsOf(page);
      await item.waitFor({ state: 'detached', timeout: 30_000 });
    }
  } catch (err) {
    if (process.env.BENCH_JOURNEY_SHOTS) {
      await page.screenshot({ path: `${process.env.BENCH_JOURNEY_SHOTS}/payer.png` }).catch(() => undefined);
      await sandbox.screenshot({ path: `${process.env.BENCH_JOURNEY_SHOTS}/sandbox.png` }).catch(() => undefined);
    }
    throw err;
  } finally {
    await payerContext.close();
    await senderContext.close();
  }
  return { available: true, runs: times, median: median(times), reads };
}

export async function benchJourneys(baseUrl: string, opts: { chromePath: string; runs: number; log: (s: string) => void }): Promise<JourneysResult> {
  const browser = await chromium.launch({ executablePath: opts.chromePath, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking'] });
  const failed = (err: unknown) => ({ available: false as const, why: (err as Error).message.split('\n')[0]! });
  try {
    let recipient: JourneyResult;
    let visitor: JourneyResult;
    try {
      ({ recipient, visitor } = await linkToGifts(baseUrl, browser, opts.runs));
      opts.log(`  link → gifts: recipient ${recipient.runs.join(', ')} ms; visitor ${visitor.runs.join(', ')} ms`);
    } catch (err) {
      recipient = visitor = failed(err);
    }
    let receipt: JourneyResult;
    try {
      receipt = await approveToReceipt(baseUrl, browser, opts.runs);
      opts.log(`  approve → receipt: ${receipt.runs.join(', ')} ms`);
    } catch (err) {
      receipt = failed(err);
    }
    return { recipient, visitor, receipt };
  } finally {
    await browser.close();
  }
}
