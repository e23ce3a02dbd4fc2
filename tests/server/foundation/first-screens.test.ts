import { readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtDist, createTestApp, testConfig, type TestApp } from '../helpers.ts';

/**
 * index.html as the server answers it (decision 094): the entry's stylesheets inlined,
 * the app's scripts at low fetch priority, and '/', '/merchant' and '/auth/jwt/login' with their
 * first screen (the Swedish strings) in an inert layer; every other client route gets the page
 * without one. A built tree in miniature: the repo's index.html with what Vite puts into its head.
 */

const INDEX = path.resolve(import.meta.dirname, '../../../index.html');
const sv = (ns: string) => JSON.parse(readFileSync(path.resolve(import.meta.dirname, `../../../locales/sv/${ns}.json`), 'utf8'));
const CSS = '.x{color:red}@font-face{font-family:Quicksand;src:url(/assets/quicksand-latin-400-normal-Ab1.woff2)format("woff2")}';

let t: TestApp;

beforeAll(async () => {
  const built = readFileSync(INDEX, 'utf8')
    .replace('<script type="module" src="/src/main.tsx"></script>', '')
    .replace(
      '</head>',
      '<script type="module" crossorigin src="/assets/index-Ab1.js"></script>\n<link rel="modulepreload" crossorigin href="/assets/jsx-Ab1.js">\n<link rel="stylesheet" crossorigin href="/assets/index-Ab1.css">\n</head>',
    );
  const dir = builtDist({ 'index.html': built, 'assets/index-Ab1.css': CSS, 'assets/index-Ab1.js': 'export {};' });
  t = await createTestApp({ config: { ...testConfig(), staticDir: dir } });
});
afterAll(async () => {
  await t.close();
});

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
const layer = (html: string) => /<div id="boot-page"[^>]*>[\s\S]*?<\/div>\s*<\/body>/.exec(html)?.[0];

describe('the page every client route gets', () => {
  it('has the entry stylesheet inlined where its link was, and no stylesheet link', async () => {
    const res = await get('/voucher/list');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toContain(`<style data-href="/assets/index-Ab1.css">${CSS}</style>`);
    expect(res.body).not.toMatch(/<link[^>]*rel="stylesheet"/);
    expect(res.body).not.toContain('id="boot-page"');
  });

  it('asks for the app\'s scripts at low priority, and has no inline script, handler or style attribute', async () => {
    for (const url of ['/', '/merchant', '/auth/jwt/login', '/something']) {
      const { body } = await get(url);
      if (url === '/something') expect(body, url).toContain('<script type="module" fetchpriority="low" crossorigin src="/assets/index-Ab1.js">');
      else {
        // A page with its first screen in the HTML asks for the app after painting it (decision
        // 152): public/boot.js imports the entry in the next frame.
        expect(body, url).not.toContain('href="/assets/index-Ab1.js"');
        expect(body, url).not.toContain('<script type="module" fetchpriority="low" crossorigin src="/assets/index-Ab1.js">');
        // The entry's static imports with it, after the paint (decision 156): boot.js preloads them.
        expect(body, url).toContain('<script type="module" fetchpriority="low" src="/boot.js?entry=/assets/index-Ab1.js&amp;preload=/assets/jsx-Ab1.js"></script>');
        expect(body, url).not.toContain('<link rel="modulepreload"');
      }
      if (url === '/something') expect(body, url).toContain('<link rel="modulepreload" fetchpriority="low" crossorigin href="/assets/jsx-Ab1.js">');
      expect(body, url).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
      expect(body, url).not.toMatch(/\son\w+=/i);
      expect(body, url).not.toMatch(/\sstyle=/i);
    }
  });

  it('is sent brotli or gzip as the browser accepts, the same page either way', async () => {
    const plain = (await get('/merchant')).body;
    const br = await get('/merchant', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.rawPayload).toString('utf8')).toBe(plain);
    const gz = await get('/merchant', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString('utf8')).toBe(plain);
  });
});

describe('the first screens', () => {
  it("puts the landing page's hero into '/', in Swedish, in an inert layer hidden from assistive technology", async () => {
    const res = await get('/');
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const html = layer(res.body)!;
    expect(html).toMatch(/^<div id="boot-page" class="boot-page" data-route="landing" inert aria-hidden="true">/);
    const landing = sv('landing').landing;
    expect(html).toContain(`<h1 class="bp-hero-title">${landing.title}</h1>`);
    expect(html).toContain(landing.lead);
    expect(html).toContain(landing.ctaSend);
    // Its CSS is in the head, with Quicksand under its own name from the built files.
    expect(res.body).toMatch(/<style>@font-face\{font-family:"Quicksand Boot";[^}]*font-weight:400;font-display:optional;src:url\(\/assets\/quicksand-latin-400-normal-Ab1\.woff2\)/);
    expect(res.body.indexOf('.boot-page{')).toBeLessThan(res.body.indexOf('</head>'));
  });

  it("puts the catalogue's title, lead and filters into /merchant (and /merchant/list), with no merchant in it", async () => {
    const list = sv('merchant').list;
    for (const url of ['/merchant', '/merchant/list', '/merchant?q=bio']) {
      const html = layer((await get(url)).body)!;
      expect(html, url).toContain('data-route="merchant"');
      expect(html, url).toContain(`<h1 class="bp-merchants-title">${list.title}</h1>`);
      expect(html, url).toContain(list.lead);
      expect(html, url).toContain(list.loading);
      expect(html, url).not.toContain('/merchants/');
    }
  });

  it("puts the login card into /auth/jwt/login whatever the query, with no field a person could type into before the page is there", async () => {
    const login = sv('auth').login;
    const res = await get('/auth/jwt/login?returnTo=%2Fvoucher');
    const html = layer(res.body)!;
    expect(html).toContain('data-route="login"');
    expect(html).toContain(`<h1 class="bp-login-title">${login.title}</h1>`);
    expect(html).toContain(login.intro);
    // The layer is inert: its field and button only show where the page's own will be.
    expect(html).toMatch(/^<div id="boot-page"[^>]* inert /);
    expect(res.body).not.toContain('returnTo');
  });

  it('gives every other path, and the greetie view without a frame, the page without a first screen', async () => {
    for (const url of ['/start', '/merchant/details/00000000-0000-0000-0000-000000000000', '/my/profile', '/greetie/view/unknown-ref-that-is-long-enough', '/404']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).not.toContain('id="boot-page"');
      expect(res.body, url).toContain('<style data-href="/assets/index-Ab1.css">');
    }
  });

  it('keeps the security headers every page has', async () => {
    const [first, other] = [await get('/'), await get('/voucher')];
    for (const h of ['content-security-policy', 'x-content-type-options', 'x-frame-options', 'referrer-policy', 'cross-origin-opener-policy']) {
      expect(first.headers[h], h).toBeDefined();
      expect(first.headers[h], h).toBe(other.headers[h]);
    }
    expect(String(first.headers['content-security-policy'])).toMatch(/script-src 'self'(;|$)/);
  });
});
