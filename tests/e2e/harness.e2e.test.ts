import { expect, inject, test } from 'vitest';
import { Journey, connectBrowser, currentBrowser } from './harness/journey.ts';

/**
 * The journeys are only as good as their watchers. This serves a deliberately broken page from the
 * app's own origin (intercepted in the browser, under the app's real CSP) and checks that a
 * journey step fails on each fault and names it.
 */

connectBrowser();

const BROKEN_PAGE = `<!doctype html>
<html lang="sv"><head><meta charset="utf-8"><title>Trasig</title></head>
<body><main>
  <h1>Trasig sida</h1>
  <input type="text">
  <img src="https://other-origin.invalid/tracker.png" alt="">
  <script>window.inline = true;</script>
  <script src="/__e2e/throws.js"></script>
</main></body></html>`;

test('a step fails on a console error, an uncaught exception, a CSP violation, another origin and an axe violation', async () => {
  const baseURL = inject('baseURL');
  const j = await Journey.open(currentBrowser(), 'harness self-test', 'desktop', baseURL);
  try {
    const csp = (await fetch(new URL('/', baseURL))).headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    await j.context.route(/\/__e2e\/broken$/, (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', headers: { 'content-security-policy': csp }, body: BROKEN_PAGE }),
    );
    await j.context.route(/\/__e2e\/throws\.js$/, (route) =>
      route.fulfill({ status: 200, contentType: 'text/javascript', body: 'throw new Error("boom from the self-test")' }),
    );
    await j.context.route(/other-origin\.invalid/, (route) => route.abort());

    await j.page.goto('/__e2e/broken');
    const failure = await j.check('broken page').then(
      () => null,
      (err: Error) => err.message,
    );
    expect(failure).toMatch(/axe: serious or critical violations/);
    expect(failure).toMatch(/\blabel \(critical\)/);
    expect(failure).toContain('input');

    // axe failed the step first; the watchers' findings are still waiting for the next check.
    const problems = j.problems.join('\n');
    expect(problems).toMatch(/request to another origin: GET https:\/\/other-origin\.invalid\/tracker\.png/);
    expect(problems).toMatch(/CSP violation on \/__e2e\/broken: script-src-elem blocked inline/);
    expect(problems).toMatch(/console error on \/__e2e\/broken: .*Content Security Policy/);
    expect(problems).toMatch(/uncaught exception on \/__e2e\/broken: boom from the self-test/);
    expect(() => j.assertClean('at the end')).toThrow(/harness self-test \(desktop\), at the end/);
    expect(j.problems).toEqual([]);
  } finally {
    await j.close(false);
  }
});
