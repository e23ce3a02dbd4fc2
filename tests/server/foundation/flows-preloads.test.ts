import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunkFiles, type Manifest } from '../../../server/spa/preloads.ts';
import { builtDist, createTestApp, testConfig, type TestApp } from '../helpers.ts';

/**
 * GET /flows names the page's chunks and the asked machine's generated files as modulepreloads
 * (server/spa/preloads.ts, decision 148), from a build manifest in miniature shaped like Vite's.
 */

const manifest: Manifest = {
  'index.html': { file: 'assets/index-E1.js', isEntry: true, imports: ['_runtime-R1.js'] },
  '_runtime-R1.js': { file: 'assets/runtime-R1.js' },
  '_early-X1.js': { file: 'assets/early-X1.js', imports: ['_runtime-R1.js'] },
  '_shared-S1.js': { file: 'assets/shared-S1.js', imports: ['index.html'] },
  'src/pages/flows/routes.tsx': { file: 'assets/routes-F1.js', imports: ['index.html', '_runtime-R1.js', '_shared-S1.js', '_early-X1.js'] },
  'src/pages/flows/early.ts': { file: 'assets/early-X1.js' },
  'docs/flows/charts/payment.json': { file: 'assets/payment-C1.js' },
  'docs/flows/layouts/payment.json': { file: 'assets/payment-L1.js' },
  'docs/coverage/paths/payment.json': { file: 'assets/payment-P1.js' },
  'docs/flows/charts/auth.json': { file: 'assets/auth-C2.js' },
  'locales/sv/flows.json': { file: 'assets/i18n.sv-flows-T1.js' },
  '_styled-Y1.js': { file: 'assets/styled-Y1.js', css: ['assets/styled-Y1.css'], imports: ['_shared-S1.js'] },
  'src/pages/other.tsx': { file: 'assets/other-O1.js', css: ['assets/other-O1.css'], imports: ['_styled-Y1.js', '_runtime-R1.js'] },
};

const INDEX =
  '<!doctype html><html lang="sv"><head><script type="module" crossorigin src="/assets/index-E1.js"></script>' +
  '<link rel="modulepreload" crossorigin href="/assets/runtime-R1.js"></head><body><div id="root"></div></body></html>';

const dist = (withManifest: boolean) =>
  builtDist({ 'index.html': INDEX, ...(withManifest ? { '.vite/manifest.json': JSON.stringify(manifest) } : {}) });

const preloads = (html: string) => [...html.matchAll(/<link rel="modulepreload"[^>]*href="\/([^"]+)"/g)].map((m) => m[1]);

describe('chunkFiles', () => {
  it("gives a module's file and its static imports once each, in order, without the entry", () => {
    expect(chunkFiles(manifest, ['src/pages/flows/routes.tsx', 'src/pages/flows/early.ts']).scripts).toEqual([
      'assets/routes-F1.js',
      'assets/runtime-R1.js',
      'assets/shared-S1.js',
      'assets/early-X1.js',
    ]);
    expect(chunkFiles(manifest, ['no/such/module.ts'])).toEqual({ scripts: [], styles: [] });
  });

  it('gives the stylesheets of the modules and their imports from the same walk', () => {
    expect(chunkFiles(manifest, ['src/pages/other.tsx'])).toEqual({
      scripts: ['assets/other-O1.js', 'assets/styled-Y1.js', 'assets/shared-S1.js', 'assets/runtime-R1.js'],
      styles: ['assets/other-O1.css', 'assets/styled-Y1.css'],
    });
  });
});

describe('GET /flows', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { ...testConfig(), staticDir: dist(true) } });
  });
  afterAll(async () => {
    await t.close();
  });
  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } });

  it("preloads the page's chunks and the asked machine's chart, layout and paths, once each, before </head>", async () => {
    const res = await get('/flows?machine=payment');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(preloads(res.body)).toEqual([
      'assets/runtime-R1.js',
      'assets/routes-F1.js',
      'assets/shared-S1.js',
      'assets/early-X1.js',
      'assets/i18n.sv-flows-T1.js',
      'assets/payment-C1.js',
      'assets/payment-L1.js',
      'assets/payment-P1.js',
      // With the chart's first frame (decision 154) the entry is started after its paint, and fetched at once.
      'assets/index-E1.js',
    ]);
    expect(res.body.indexOf('payment-P1.js')).toBeLessThan(res.body.indexOf('</head>'));
    expect(res.body).toContain('<script type="module" src="/boot.js?entry=/assets/index-E1.js">');
    // Everything at the browser's own priority.
    expect(res.body).not.toContain('fetchpriority="low"');
    expect(res.body).toContain('<div id="root">');
  });

  it("gives an unknown, odd or missing machine the page's chunks only", async () => {
    for (const url of ['/flows', '/flows?machine=nosuch', '/flows?machine=../../etc', '/flows?machine=payment&machine=auth', `/flows?machine=${'a'.repeat(5000)}`]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(preloads(res.body), url).toEqual(['assets/runtime-R1.js', 'assets/routes-F1.js', 'assets/shared-S1.js', 'assets/early-X1.js', 'assets/i18n.sv-flows-T1.js']);
    }
  });

  it('answers a machine with its own files, brotli as the browser accepts', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/flows?machine=auth', headers: { 'accept-encoding': 'br' } });
    expect(res.headers['content-encoding']).toBe('br');
    const { brotliDecompressSync } = await import('node:zlib');
    const html = brotliDecompressSync(res.rawPayload).toString('utf8');
    expect(preloads(html)).toContain('assets/auth-C2.js');
    expect(preloads(html)).not.toContain('assets/payment-C1.js');
  });

  it("says in the HTML that the sandbox is on, so the page need not ask (decision 149)", async () => {
    const res = await get('/flows?machine=payment');
    expect(res.body).toContain('<meta name="greetie-sandbox" content="on">');
    expect(res.body.indexOf('greetie-sandbox')).toBeLessThan(res.body.indexOf('</head>'));
  });

  it('does not serve the build manifest as a file', async () => {
    const res = await get('/.vite/manifest.json');
    expect(res.body).not.toContain('docs/flows/charts');
  });
});

describe('GET /flows with the sandbox off', () => {
  it('says nothing of a sandbox', async () => {
    const t = await createTestApp({ config: { ...testConfig(), sandbox: false, staticDir: dist(true) } });
    try {
      const res = await t.app.inject({ method: 'GET', url: '/flows?machine=payment', headers: { 'accept-encoding': 'identity' } });
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain('greetie-sandbox');
      expect(preloads(res.body)).toContain('assets/payment-C1.js');
    } finally {
      await t.close();
    }
  });
});

describe('GET /flows without a build manifest', () => {
  it('is the plain index.html', async () => {
    const t = await createTestApp({ config: { ...testConfig(), staticDir: dist(false) } });
    try {
      const res = await t.app.inject({ method: 'GET', url: '/flows?machine=payment' });
      expect(res.statusCode).toBe(200);
      expect(preloads(res.body)).toEqual(['assets/runtime-R1.js']);
    } finally {
      await t.close();
    }
  });
});
