import { expect } from 'vitest';
import { journey, connectBrowser } from './harness/journey.ts';

/**
 * The first screens the server paints from the HTML (decision 094): '/', '/merchant' and
 * '/auth/jwt/login' arrive with #boot-page, which the page takes away once its own render is in
 * place. The layer must lie exactly where the page draws the same things (or the hand-over would
 * jump): once the page is there, the route's layer is laid out again beside it (the same HTML, the
 * same CSS) and its title, lead and first control are compared with the page's own, box for box.
 */

connectBrowser();

const ROUTES: { path: string; heading: RegExp; pairs: [layer: string, page: string][] }[] = [
  { path: '/', heading: /Skicka en hälsning/, pairs: [['h1', 'main h1'], ['h1 + p', 'main h1 + p'], ['figure', 'main figure'], ['header', 'header']] },
  { path: '/merchant', heading: /^Handlare$/, pairs: [['h1', 'main h1'], ['h1 + p', 'main h1 + p'], ['form', 'main form'], ['header', 'header']] },
  { path: '/auth/jwt/login', heading: /^Logga in$/, pairs: [['h1', 'main h1'], ['form > p', 'main form > p'], ['input', 'main input']] },
];

journey('first screens', async (j) => {
  const { page } = j;
  for (const route of ROUTES) {
    await page.goto(route.path);
    await page.getByRole('heading', { level: 1, name: route.heading }).waitFor();
    // Handed over: the layer is gone once the page's own first screen is in place.
    await expect.poll(() => page.evaluate(() => document.getElementById('boot-page') === null)).toBe(true);
    const boxes = await page.evaluate(async ({ path, pairs }) => {
      const html = await (await fetch(path)).text();
      const layer = new DOMParser().parseFromString(html, 'text/html').getElementById('boot-page');
      if (!layer) return null;
      // Laid out in Quicksand (the same files under the app's name): the layer's own face is
      // `optional` and, on a loaded machine, may have been given up for this document.
      layer.style.fontFamily = getComputedStyle(document.body).fontFamily;
      document.body.append(layer);
      const r = (el: Element | null) => {
        if (!el) return null;
        const b = el.getBoundingClientRect();
        return [b.left, b.top + window.scrollY, b.width, b.height].map((n) => Math.round(n));
      };
      const out = pairs.map(([inLayer, inPage]) => ({ what: inLayer, layer: r(layer.querySelector(inLayer)), page: r(document.querySelector(`#root ${inPage}`)) }));
      layer.remove();
      return out;
    }, route);
    expect(boxes, route.path).not.toBeNull();
    for (const b of boxes!) {
      expect(b.layer, `${route.path} ${b.what}`).not.toBeNull();
      expect(b.layer, `${route.path} ${b.what}`).toEqual(b.page);
    }
    await j.check(`first screen ${route.path}`);
  }
});
