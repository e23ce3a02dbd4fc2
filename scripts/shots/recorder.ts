/**
 * The pictures' camera for `npm run flows:shots` (scripts/flows-shots.ts): a phone-sized page of
 * the real app that knows which states its machines are in, because it listens to the app's own
 * /flows channel (src/app/flowsBridge.ts reports every running actor's active states to a viewer
 * that says hello), and takes one picture per state when the state is really active.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import type { Browser, BrowserContext, Locator, Page, Route } from 'playwright-core';
import { shotFile } from '../../charts/shots.ts';
import { pageOf } from '../../src/inspect.ts';

/** The phone the pictures are taken at: the journeys' phone (tests/e2e/harness/journey.ts). */
export const PHONE = { width: 390, height: 844 };

/** A picture's budget; WebP at 390 × 844 is usually a third of it. */
const MAX_BYTES = 60_000;

interface ActorState {
  machineId: string;
  states: string[];
  status: string;
  at: number;
  seq: number;
}

interface SnapshotMessage {
  type: 'actor.snapshot';
  actorId: string;
  machineId: string;
  states: string[];
  status: string;
  at: number;
}

export interface Picture {
  /** Relative to docs/flows/shots/. */
  file: string;
  /** The page it shows (pathname and query). */
  page: string;
  bytes: number;
}

/** What every driver adds up to: per machine id, per state path, its picture. */
export class Album {
  readonly pictures = new Map<string, Map<string, Picture>>();
  constructor(readonly dir: string) {}

  has(machine: string, statePath: string): boolean {
    return this.pictures.get(machine)?.has(statePath) ?? false;
  }

  put(machine: string, statePath: string, picture: Picture): void {
    const byState = this.pictures.get(machine) ?? new Map<string, Picture>();
    this.pictures.set(machine, byState);
    if (!byState.has(statePath)) byState.set(statePath, picture);
  }
}

/**
 * One phone-sized browser context with the channel's viewer in every document. `shoot()` waits
 * until a machine is in a state, lets the page settle, checks the state is still active and
 * pictures the screen.
 */
export class Camera {
  private readonly actors = new Map<string, ActorState>();
  private seq = 0;
  private readonly gates = new Set<() => void>();
  readonly log: string[] = [];

  private constructor(
    readonly album: Album,
    readonly context: BrowserContext,
    readonly page: Page,
    readonly baseURL: string,
  ) {}

  static async open(browser: Browser, album: Album, baseURL: string): Promise<Camera> {
    const context = await browser.newContext({
      viewport: PHONE,
      isMobile: true,
      hasTouch: true,
      deviceScaleFactor: 1,
      baseURL,
      locale: 'sv-SE',
      timezoneId: 'Europe/Stockholm',
      reducedMotion: 'reduce',
      serviceWorkers: 'block',
    });
    context.setDefaultTimeout(15_000);
    context.setDefaultNavigationTimeout(20_000);
    const page = await context.newPage();
    const camera = new Camera(album, context, page, baseURL);
    await context.exposeBinding('__shotsSnapshot', (_source, m: SnapshotMessage | { type: 'document' }) => camera.receive(m));
    // The viewer /flows's live view is (src/pages/flows/useLive.ts), in the page itself: a second
    // BroadcastChannel of the same name in the same document hears the app's.
    await context.addInitScript(() => {
      // A new document: the actors of the one before went with it (the router's own moves keep the document).
      if (window === window.top) void (window as unknown as { __shotsSnapshot: (m: unknown) => void }).__shotsSnapshot({ type: 'document' });
      const channel = new BroadcastChannel('greetie-flows');
      const hello = { type: 'viewer.hello', viewerId: 'flows-shots' };
      channel.onmessage = (e: MessageEvent<{ type?: string }>) => {
        if (e.data?.type === 'app.hello') channel.postMessage(hello);
        if (e.data?.type === 'actor.snapshot') void (window as unknown as { __shotsSnapshot: (m: unknown) => void }).__shotsSnapshot(e.data);
      };
      channel.postMessage(hello);
    });
    return camera;
  }

  private receive(m: SnapshotMessage | { type: 'document' }): void {
    this.seq += 1;
    if (m.type === 'document') return this.actors.clear();
    // A machine that reached a final state ('done') still shows it; a stopped one is gone.
    if (m.status !== 'active' && m.status !== 'done') this.actors.delete(m.actorId);
    else this.actors.set(m.actorId, { machineId: m.machineId, states: m.states, status: m.status, at: m.at, seq: this.seq });
  }

  /** The paths (below the root) an actor is in. */
  private static paths(actor: ActorState, machine: string): string[] {
    return actor.states.filter((id) => id.startsWith(`${machine}.`)).map((id) => id.slice(machine.length + 1));
  }

  /**
   * The newest running actor of `machine` in `statePath` (any state, without one). A page may run
   * several actors of one machine (the sandbox's two outboxes).
   */
  private actorIn(machine: string, statePath?: string): ActorState | undefined {
    let best: ActorState | undefined;
    for (const a of this.actors.values()) {
      if (a.machineId !== machine || (statePath !== undefined && !Camera.paths(a, machine).includes(statePath))) continue;
      if (!best || a.seq > best.seq) best = a;
    }
    return best;
  }

  /** The state paths (below the root) `machine`'s newest actor is in now. */
  activePaths(machine: string): string[] {
    const actor = this.actorIn(machine);
    return actor ? Camera.paths(actor, machine) : [];
  }

  isIn(machine: string, statePath: string): boolean {
    return this.actorIn(machine, statePath) !== undefined;
  }

  /** Waits until an actor of `machine` is in `statePath`. */
  async waitFor(machine: string, statePath: string, timeout = 15_000): Promise<void> {
    const until = Date.now() + timeout;
    while (!this.isIn(machine, statePath)) {
      if (Date.now() > until) throw new Error(`${machine} did not reach ${statePath} within ${timeout} ms (it is in ${this.activePaths(machine).join(', ') || 'no state: not running'})`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /**
   * Waits for `machine` to be in `statePath`, lets the page settle (fonts, two frames, images),
   * and pictures the screen for that state and every other active state of the machine that has
   * no picture yet (a parent shares its child's). Skipped when the state has one already.
   */
  async shoot(machine: string, statePath: string, opts: { timeout?: number; settle?: number; show?: Locator } = {}): Promise<void> {
    await this.waitFor(machine, statePath, opts.timeout);
    if (this.album.has(machine, statePath)) return;
    // The part of a long page the machine draws, at the top of the screen.
    if (opts.show && (await opts.show.count()) > 0) {
      await opts.show.evaluate((el) => {
        el.scrollIntoView({ block: 'start' });
        // Below the sticky header.
        window.scrollBy(0, -80);
      });
    }
    await this.page.evaluate(() => document.fonts.ready.then(() => undefined));
    // Two frames drawn; a driver that stopped the page's clock (page.clock) stops its frames too.
    const frames = this.page.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))));
    await Promise.race([frames.catch(() => undefined), this.page.waitForTimeout(500)]);
    await this.page.waitForTimeout(opts.settle ?? 250);
    const png = await this.page.screenshot({ type: 'png' });
    // The machine moved while the page settled: the picture may show the next state.
    const after = this.actorIn(machine, statePath);
    if (!after) {
      throw new Error(`${machine} left ${statePath} before its picture was taken`);
    }
    const file = shotFile(machine, statePath);
    const bytes = await writeSmall(png, path.join(this.album.dir, file));
    const picture = { file, page: pageOfUrl(this.page.url()), bytes };
    this.album.put(machine, statePath, picture);
    for (const other of Camera.paths(after, machine)) this.album.put(machine, other, picture);
    this.log.push(`${machine}: ${statePath} (${(bytes / 1024).toFixed(1)} KB, ${picture.page})`);
    console.log(`  ✓ ${machine}: ${statePath}  ${(bytes / 1024).toFixed(1)} KB  ${picture.page}`);
  }

  /**
   * Holds the requests matching `pattern` until the returned function is called (the page then
   * stays in its waiting state long enough to be pictured).
   */
  async hold(pattern: string | RegExp): Promise<() => Promise<void>> {
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    this.gates.add(open);
    const handler = async (route: Route) => {
      await gate;
      await route.fallback().catch(() => undefined);
    };
    await this.page.route(pattern, handler);
    return async () => {
      open();
      this.gates.delete(open);
      await this.page.unroute(pattern, handler);
    };
  }

  /** Lets every held request go and takes every hold, error and rewrite away (after a step failed half-way). */
  async releaseAll(): Promise<void> {
    for (const open of this.gates) open();
    this.gates.clear();
    await this.page.unrouteAll({ behavior: 'ignoreErrors' });
  }

  /** Answers the requests matching `pattern` with `status` and the API's error shape, until the returned function is called. */
  async fail(pattern: string | RegExp, status = 500, code = 'INTERNAL'): Promise<() => Promise<void>> {
    const handler = (route: Route) =>
      route.fulfill({ status, contentType: 'application/json', body: JSON.stringify({ message: 'Något gick fel.', code }) });
    await this.page.route(pattern, handler);
    return () => this.page.unroute(pattern, handler);
  }

  async close(): Promise<void> {
    await this.context.close();
  }
}

/**
 * The page a picture shows, as the /flows channel names pages (src/inspect.ts): an id or token in
 * the path or the query reads `:id`, so the manifest says which page without whose, and stays the
 * same from one run to the next.
 */
function pageOfUrl(href: string): string {
  const url = new URL(href);
  for (const [key, value] of url.searchParams) if (pageOf(`/${value}`) !== `/${value}`) url.searchParams.set(key, ':id');
  return pageOf(url.pathname) + decodeURIComponent(url.search);
}

/** The screenshot as WebP within the budget: lower quality first, then a smaller picture. */
async function writeSmall(png: Buffer, file: string): Promise<number> {
  mkdirSync(path.dirname(file), { recursive: true });
  let out = Buffer.alloc(0);
  for (const [quality, width] of [
    [60, PHONE.width],
    [45, PHONE.width],
    [45, 300],
    [35, 240],
  ] as const) {
    out = await sharp(png).resize({ width }).webp({ quality, effort: 5 }).toBuffer();
    if (out.length <= MAX_BYTES) break;
  }
  writeFileSync(file, out);
  return out.length;
}
