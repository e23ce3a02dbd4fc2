/**
 * What the app's modules remember for the life of a page: the late-loaded actors' code and the
 * roots they were handed to, the reads a route starts before its page asks (taken once), the
 * caches of what a page load asks only once, the API client's bearer token. A browser forgets it
 * all by loading a new page.
 *
 * A module that keeps such memory at module level says here how to forget it
 * (`forgetOnNewPage`). The client tests share their workers' loaded modules from one file to the
 * next (vitest `isolate: false`, decision 146); tests/client/setup.ts calls `forgetPageMemory()`
 * after each test, so no test reads what another one left behind. Only modules that have loaded
 * have anything to forget. Caches of what never changes in a page's life (the bundled strings,
 * a chart built from its generated file) are not listed: what they answer does not depend on who
 * asked first.
 */

const forgets = new Set<() => void>();

/** Registers how a module forgets its page-long memory (call at the module's top level). */
export function forgetOnNewPage(forget: () => void): void {
  forgets.add(forget);
}

/** Tests: every loaded module forgets what it remembered, as on a new page. */
export function forgetPageMemory(): void {
  for (const forget of forgets) forget();
}
