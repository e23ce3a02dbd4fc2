import '@testing-library/jest-dom/vitest';
import { afterEach, vi } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
import { loadAllLocales } from '../../src/i18n.ts';
import { forgetPageMemory } from '../../src/pageMemory.ts';

// The app loads a page's strings with its route (src/i18n.ts); tests render any page in any
// language at once, so every language's every namespace is loaded before them.
await loadAllLocales();

// Lazily loaded route chunks are transformed on first import; on a busy 2-core machine that can
// take longer than Testing Library's 1 s default. Waiting longer changes no assertion: a test
// still fails when what it waits for never appears.
configure({ asyncUtilTimeout: 5000 });

/**
 * The client project runs its files in shared workers (`isolate: false`, decision 146): one jsdom
 * window and one set of loaded modules serve file after file. So after each test everything a
 * test can leave behind is put back as a new page in a new tab would have it: the modules' page
 * memory (src/pageMemory.ts), the storages and cookies, the address, <html> and <head>, the
 * stand-ins tests put on window, document, navigator and URL, and the timers.
 */
interface Pristine {
  href: string;
  /** Own properties a test may define or assign, as jsdom has them (absent: undefined). */
  props: [target: object, key: PropertyKey, descriptor: PropertyDescriptor | undefined][];
}
const PRISTINE = Symbol.for('greetie.tests.pristineWindow');
const holder = globalThis as unknown as Record<symbol, Pristine | undefined>;
const STOOD_IN: [object, PropertyKey[]][] = [
  [window, ['matchMedia', 'scrollTo', 'scrollY', 'ResizeObserver', 'hacked']],
  [globalThis, ['ResizeObserver']],
  [document, ['visibilityState', 'execCommand']],
  [navigator, ['clipboard', 'serviceWorker']],
  [URL, ['createObjectURL', 'revokeObjectURL']],
  [Element.prototype, ['scrollIntoView', 'hasPointerCapture', 'setPointerCapture', 'releasePointerCapture']],
];
// Taken once per worker, by the first file, before any test has run there.
const pristine = (holder[PRISTINE] ??= {
  href: location.href,
  props: STOOD_IN.flatMap(([target, keys]) => keys.map((key) => [target, key, Object.getOwnPropertyDescriptor(target, key)] as Pristine['props'][number])),
});

function putBackStandIns(): void {
  for (const [target, key, descriptor] of pristine.props) {
    if (descriptor) Object.defineProperty(target, key, descriptor);
    else if (Object.prototype.hasOwnProperty.call(target, key)) Reflect.deleteProperty(target, key);
  }
}

function forgetCookies(): void {
  for (const cookie of document.cookie.split(';')) {
    const name = cookie.split('=')[0]!.trim();
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  }
}

function emptyDocument(): void {
  document.body.replaceChildren();
  for (const el of [document.documentElement, document.body]) for (const { name } of [...el.attributes]) el.removeAttribute(name);
  // vanilla-extract puts a module's styles in <style> once, when the module loads: they stay.
  for (const el of [...document.head.children]) if (el.tagName !== 'STYLE') el.remove();
  document.title = '';
}

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  forgetPageMemory();
  sessionStorage.clear();
  localStorage.clear();
  forgetCookies();
  emptyDocument();
  putBackStandIns();
  if (location.href !== pristine.href) history.replaceState(null, '', pristine.href);
});
