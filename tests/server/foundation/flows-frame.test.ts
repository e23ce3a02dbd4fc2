// @vitest-environment jsdom
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import chartIndex from '../../../docs/flows/charts/index.json';
import { stateLabel } from '../../../charts/labels.ts';
import { flowsFrame, readFrameData, readFrameTexts, type FrameData, type FrameLanguage } from '../../../server/spa/flowsFrame.ts';
import { builtDist, createTestApp, testConfig, type TestApp } from '../helpers.ts';

/**
 * /flows?machine=… carries its chart's first frame in the HTML (server/spa/flowsFrame.ts, decision
 * 154): every machine, in either language, its states and transitions as Diagram.tsx draws them;
 * nothing for an unknown machine, an address that selects something, or with the sandbox off.
 * That the markup is Diagram's own: tests/client/flows/frame-markup.test.tsx.
 */

const doc = (html: string) => new DOMParser().parseFromString(html, 'text/html');

describe('flowsFrame', () => {
  const languages: FrameLanguage[] = ['sv', 'en'];
  for (const { id } of chartIndex) {
    it(`draws ${id} in both directions, in Swedish and in English`, () => {
      const data = readFrameData(id);
      expect(data, id).toBeDefined();
      for (const language of languages) {
        const texts = readFrameTexts(language);
        const { markup, css } = flowsFrame(data!, texts, language);
        const d = doc(markup);
        const layer = d.getElementById('boot-page')!;
        expect(layer.hasAttribute('inert')).toBe(true);
        expect(layer.getAttribute('aria-hidden')).toBe('true');
        const svgs = [...d.querySelectorAll('svg[role="group"]')];
        expect(svgs.map((s) => s.id)).toEqual(['flows-frame-right', 'flows-frame-down']);
        for (const [svg, dir] of [[svgs[0]!, 'RIGHT'], [svgs[1]!, 'DOWN']] as const) {
          const layout = data!.layouts[dir];
          expect(svg.querySelectorAll('g.state').length).toBe(layout.states.length);
          expect(svg.querySelectorAll('g.edge').length).toBe(layout.edges.length);
          expect(svg.getAttribute('viewBox')).toBe(`0 0 ${layout.width} ${layout.height}`);
          // The labels in the asked language.
          const first = data!.chart.states.find((s) => s.id === layout.states[0]!.id)!;
          const label = stateLabel(texts.labels, data!.chart, first);
          expect(svg.querySelector(`g[data-state-id="${first.id}"] text`)?.textContent).toContain(label);
        }
        expect(css).toContain('@container flows-frame');
        expect(css).not.toMatch(/<\/?style/i);
      }
    });
  }

  it('escapes the labels, names and descriptions as HTML', () => {
    const data = readFrameData('payment')!;
    const state = data.chart.states.find((s) => s.id === data.layouts.RIGHT.states[0]!.id)!;
    const evil = '<img src=x onerror=alert(1)>&"';
    const chart = { ...data.chart, states: data.chart.states.map((s) => (s === state ? { ...s, description: evil } : s)) };
    const texts = readFrameTexts('sv');
    const labels = { ...texts.labels, payment: { ...texts.labels?.payment, title: evil, states: { ...texts.labels?.payment?.states } } };
    const tampered: FrameData = { ...data, chart };
    const { markup } = flowsFrame(tampered, { ...texts, labels }, 'sv');
    expect(markup).not.toContain('<img');
    expect(markup).toContain('&lt;img src=x onerror=alert(1)&gt;&amp;&quot;');
    const d = doc(markup);
    expect(d.querySelector('img')).toBeNull();
    expect(d.querySelector('h2')?.textContent).toBe(evil);
    expect(d.querySelector(`#flows-frame-right g[data-state-id="${state.id}"] title`)?.textContent).toContain(evil);
  });

  it('has no frame for a machine without a chart or layout', () => {
    expect(readFrameData('nosuch')).toBeUndefined();
  });
});

const manifest = {
  'index.html': { file: 'assets/index-E1.js', isEntry: true },
  'src/pages/flows/routes.tsx': { file: 'assets/routes-F1.js', imports: ['index.html'] },
  'docs/flows/charts/payment.json': { file: 'assets/payment-C1.js' },
  'docs/flows/charts/auth.json': { file: 'assets/auth-C2.js' },
};
const INDEX =
  '<!doctype html><html lang="sv"><head><script type="module" crossorigin src="/assets/index-E1.js"></script></head>' +
  '<body><div id="root"></div></body></html>';

const dist = () => builtDist({ 'index.html': INDEX, '.vite/manifest.json': JSON.stringify(manifest) });

describe('GET /flows and the first frame', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { ...testConfig(), staticDir: dist() } });
  });
  afterAll(async () => {
    await t.close();
  });
  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } });

  it("puts a known machine's chart after #root, in Swedish, its CSS in <head>, without a script", async () => {
    const res = await get('/flows?machine=payment');
    expect(res.statusCode).toBe(200);
    const body = res.body;
    expect(body.indexOf('id="boot-page"')).toBeGreaterThan(body.indexOf('<div id="root">'));
    expect(body.indexOf('@container flows-frame')).toBeLessThan(body.indexOf('</head>'));
    const d = doc(body);
    expect(d.querySelector('#boot-page h1')?.textContent).toBe('Flöden');
    expect(d.querySelector('#boot-page h2')?.textContent).toBe('Betalning');
    expect(d.querySelectorAll('#boot-page svg[role="group"] g.state').length).toBeGreaterThan(0);
    // No inline script, no handler, no style attribute (the CSP allows none of them).
    expect([...d.querySelectorAll('script')].every((s) => s.hasAttribute('src'))).toBe(true);
    expect(body).not.toMatch(/\son[a-z]+=/i);
    expect(body).not.toMatch(/\sstyle=/i);
    // The modulepreloads and the sandbox's answer stay.
    expect(body).toContain('<link rel="modulepreload" crossorigin href="/assets/routes-F1.js">');
    expect(body).toContain('<meta name="greetie-sandbox" content="on">');
    // The entry fetched at once, started after the frame is painted (public/boot.js).
    expect(body).toContain('<script type="module" src="/boot.js?entry=/assets/index-E1.js"></script>');
    expect(body).toContain('<link rel="modulepreload" crossorigin href="/assets/index-E1.js">');
  });

  it('has no frame for an unknown, odd or missing machine, or an address that selects something', async () => {
    for (const url of [
      '/flows',
      '/flows?machine=nosuch',
      '/flows?machine=../../etc',
      '/flows?machine=payment&machine=auth',
      '/flows?machine=payment&state=payment.paid',
      '/flows?machine=payment&transition=x',
      '/flows?machine=payment&path=2',
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).not.toContain('boot-page');
      expect(res.body, url).toContain('<script type="module" crossorigin src="/assets/index-E1.js"></script>');
    }
  });

  it('has no frame with the sandbox off (the page is "Sidan finns inte")', async () => {
    const off = await createTestApp({ config: { ...testConfig(), sandbox: false, staticDir: dist() } });
    try {
      const res = await off.app.inject({ method: 'GET', url: '/flows?machine=payment', headers: { 'accept-encoding': 'identity' } });
      expect(res.body).not.toContain('boot-page');
    } finally {
      await off.close();
    }
  });
});
