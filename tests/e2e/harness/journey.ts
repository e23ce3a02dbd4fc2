import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, inject, test } from 'vitest';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { BLOCKING_IMPACTS, formatViolations, runAxe, type AxeViolation } from './axe.ts';

/**
 * The two sizes every page is looked at. A journey walks at the phone's size (the product is
 * phone first) and each `check()` also lays the page out at the desktop's size, screenshots it and
 * runs axe there; a journey whose walk differs by size (the drawer against the header, Swish's
 * app link against its QR code) walks at both. See docs/decisions/105-one-walk-two-sizes.md.
 */
export const VIEWPORTS = {
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 1 },
  desktop: { viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 },
} satisfies Record<string, BrowserContextOptions>;
export type ViewportName = keyof typeof VIEWPORTS;

let browser: Browser | undefined;

/** The run's Chromium, once connectBrowser()'s beforeAll has run. */
export function currentBrowser(): Browser {
  if (!browser) throw new Error('call connectBrowser() at the top of the journey file');
  return browser;
}

/** Call once at the top of a journey file: connects to the run's Chromium for that file. */
export function connectBrowser(): void {
  beforeAll(async () => {
    browser = await chromium.connect(inject('browserWSEndpoint'));
  });
  afterAll(async () => {
    await browser?.close();
    browser = undefined;
  });
}

function slug(s: string): string {
  return s
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/**
 * One journey at one viewport: its own browser context (fresh storage), one page, and the
 * watchers that fail it on a console error, an uncaught exception, a CSP violation or a request
 * to any origin but the app's.
 */
export class Journey {
  readonly problems: string[] = [];
  readonly axeReport: { step: string; url: string; violations: AxeViolation[] }[] = [];
  private step = 0;

  /** The other size `check()` also looks at, when this journey walks at one size only. */
  private alsoAt: ViewportName | null = null;

  private constructor(
    readonly name: string,
    readonly viewport: ViewportName,
    readonly baseURL: string,
    readonly context: BrowserContext,
    readonly page: Page,
  ) {}

  static async open(b: Browser, name: string, viewport: ViewportName, baseURL: string, alsoAt: ViewportName | null = null): Promise<Journey> {
    const context = await b.newContext({
      ...VIEWPORTS[viewport],
      baseURL,
      locale: 'sv-SE',
      timezoneId: 'Europe/Stockholm',
      // Page transitions off: axe and screenshots see the settled page, not a frame mid-fade.
      reducedMotion: 'reduce',
      serviceWorkers: 'block',
    });
    context.setDefaultTimeout(10_000);
    context.setDefaultNavigationTimeout(15_000);
    const page = await context.newPage();
    const journey = new Journey(name, viewport, baseURL, context, page);
    journey.alsoAt = alsoAt;
    const origin = new URL(baseURL).origin;

    context.on('request', (req) => {
      const url = req.url();
      if (/^(data|blob|about):/.test(url)) return;
      if (new URL(url).origin !== origin) journey.problems.push(`request to another origin: ${req.method()} ${url}`);
    });
    page.on('websocket', (ws) => journey.problems.push(`websocket opened: ${ws.url()}`));
    page.on('console', (msg) => {
      if (msg.type() !== 'error') return;
      const where = msg.location().url ? ` (${msg.location().url})` : '';
      journey.problems.push(`console error on ${journey.path()}: ${msg.text()}${where}`);
    });
    page.on('pageerror', (err) => journey.problems.push(`uncaught exception on ${journey.path()}: ${err.message}`));
    // A listener for CSP violations in every document, reported back through a binding (init
    // scripts and bindings run outside the page's CSP).
    await context.exposeBinding('__e2eCspViolation', (_source, text: string) => {
      journey.problems.push(`CSP violation on ${journey.path()}: ${text}`);
    });
    await context.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => {
        const report = (window as unknown as { __e2eCspViolation: (t: string) => void }).__e2eCspViolation;
        void report(`${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber})`);
      });
    });
    return journey;
  }

  /** The page's path and query, e.g. "/auth/jwt/login?returnTo=%2Fvoucher". */
  path(): string {
    const url = new URL(this.page.url());
    return url.protocol === 'about:' ? this.page.url() : url.pathname + url.search;
  }

  /** Resolves when nothing is left to arrive: load event and web fonts. */
  async settle(): Promise<void> {
    await this.page.waitForLoadState('load');
    await this.page.evaluate(() => document.fonts.ready.then(() => undefined));
  }

  /**
   * A page a person sees: screenshot it to test-results/<journey>-<viewport>-<nn-step>.png, run
   * axe (no serious or critical violations), and fail now on anything the watchers caught.
   * Call it after asserting the page shows what it should, so the screenshot is the real thing.
   */
  async check(step: string): Promise<void> {
    this.step += 1;
    const stepName = `${String(this.step).padStart(2, '0')}-${slug(step)}`;
    await this.settle();
    await this.look(this.viewport, stepName);
    if (this.alsoAt) {
      // The same page laid out at the other size: what a person there would see, and axe on it.
      await this.page.setViewportSize(VIEWPORTS[this.alsoAt].viewport);
      try {
        await this.page.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))));
        await this.look(this.alsoAt, stepName);
      } finally {
        await this.page.setViewportSize(VIEWPORTS[this.viewport].viewport);
      }
    }
    this.assertClean(`step ${stepName}`);
  }

  /** Screenshot the page as laid out now, to test-results/<journey>-<size>-<step>.png, and run axe on it. */
  private async look(size: ViewportName, stepName: string): Promise<void> {
    const t1 = Date.now();
    await this.page.screenshot({ path: screenshotPath(this.name, size, stepName), fullPage: true });
    const t2 = Date.now();
    const violations = await runAxe(this.page);
    if (process.env.E2E_TIMING) console.log(`${this.name}/${size}/${stepName}: screenshot ${t2 - t1} ms, axe ${Date.now() - t2} ms`);
    if (violations.length) this.axeReport.push({ step: `${size}-${stepName}`, url: this.path(), violations });
    const blocking = violations.filter((v) => v.impact && BLOCKING_IMPACTS.includes(v.impact));
    if (blocking.length) {
      throw new Error(`axe: serious or critical violations on ${this.path()} (${this.name}, ${size}, step ${stepName}):\n${formatViolations(blocking)}`);
    }
  }

  assertClean(when: string): void {
    if (this.problems.length) {
      const list = this.problems.splice(0).map((p) => `  - ${p}`).join('\n');
      throw new Error(`${this.name} (${this.viewport}), ${when}:\n${list}`);
    }
  }

  async close(failed: boolean): Promise<void> {
    if (failed) {
      await this.page.screenshot({ path: screenshotPath(this.name, this.viewport, 'failed'), fullPage: true }).catch(() => {});
    }
    if (this.axeReport.length) {
      writeFileSync(screenshotPath(this.name, this.viewport, 'axe').replace(/\.png$/, '.json'), JSON.stringify(this.axeReport, null, 2));
    }
    await this.context.close();
  }
}

function screenshotPath(journey: string, viewport: string, step: string): string {
  return path.join(inject('resultsDir'), `${slug(journey)}-${viewport}-${step}.png`);
}

type JourneyBody = (j: Journey) => Promise<void>;

/** Per viewport, why the journey is not run there yet (what is missing). */
export type SkipReasons = Partial<Record<ViewportName, string>>;

export interface JourneyOptions {
  /** Walk at both sizes, for a journey whose steps differ by size. By default it walks at the phone's and looks at both. */
  walkAtBothSizes?: boolean;
  /**
   * Walk at the desktop's size only, each checked page also seen at the phone's: for a journey
   * whose phone walk another journey does (payment: the phone's Swish is gift.e2e's).
   */
  walkAtDesktop?: boolean;
  skip?: SkipReasons;
}

function defineJourney(name: string, body: JourneyBody, opts: JourneyOptions): void {
  const sizes: ViewportName[] = opts.walkAtBothSizes ? ['phone', 'desktop'] : opts.walkAtDesktop ? ['desktop'] : ['phone'];
  const other = (size: ViewportName): ViewportName => (size === 'phone' ? 'desktop' : 'phone');
  describe(name, () => {
    for (const viewport of sizes) {
      const run = async () => {
        const alsoAt = opts.walkAtBothSizes ? null : other(viewport);
        const journey = await Journey.open(currentBrowser(), name, viewport, inject('baseURL'), alsoAt);
        let failed = true;
        try {
          await body(journey);
          journey.assertClean('at the end');
          failed = false;
        } finally {
          await journey.close(failed);
        }
      };
      const reason = opts.skip?.[viewport];
      if (reason !== undefined) test.skip(`${viewport} (skipped: ${reason})`, run);
      else test(opts.walkAtBothSizes ? viewport : `${viewport} (and each page at the ${other(viewport)}'s size)`, run);
    }
  });
}

/**
 * A journey in its own browser context: walked at the phone's size, each checked page also seen at
 * the desktop's; `walkAtBothSizes` walks it twice, once per size.
 */
export function journey(name: string, body: JourneyBody, opts: JourneyOptions = {}): void {
  defineJourney(name, body, opts);
}

/** A journey kept in the suite but not run, with the reason (what is missing) in its name. */
journey.skip = (name: string, reason: string, body: JourneyBody): void => {
  defineJourney(name, body, { walkAtBothSizes: true, skip: { phone: reason, desktop: reason } });
};
