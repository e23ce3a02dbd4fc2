import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtDist, createTestApp, testConfig, type TestApp } from '../helpers.ts';

/** A built SPA in miniature: index.html and one hashed asset with its pre-compressed copies. */
function fixtureDist(): string {
  const html = '<!doctype html><html lang="sv"><div id="root"></div></html>';
  const js = 'console.log("greetie");'.repeat(100);
  return builtDist({
    'index.html': html,
    'index.html.br': brotliCompressSync(html),
    'assets/index-AbC123.js': js,
    'assets/index-AbC123.js.br': brotliCompressSync(js),
    'assets/index-AbC123.js.gz': gzipSync(js),
    'favicon.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
  });
}

describe('serving the SPA', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { ...testConfig(), staticDir: fixtureDist() } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('serves index.html at / without caching', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toContain('<div id="root">');
  });

  it('gives index.html to every non-/api path that is not a file, so client routes work on reload', async () => {
    for (const url of ['/merchant/list', '/greetie/view/abc?byId=true', '/auth/jwt/login', '/something/unknown']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
    }
  });

  it('serves hashed assets immutable, brotli or gzip as the browser accepts', async () => {
    const br = await t.app.inject({ method: 'GET', url: '/assets/index-AbC123.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers.vary).toMatch(/accept-encoding/i);

    const gz = await t.app.inject({ method: 'GET', url: '/assets/index-AbC123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');

    const plain = await t.app.inject({ method: 'GET', url: '/assets/index-AbC123.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toContain('greetie');
  });

  it('answers 404 for a missing asset instead of index.html', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/assets/index-gone.js' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/application\/json/);
  });

  it('keeps /api answers JSON even with the SPA present', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('ROUTE_NOT_FOUND');
  });

  it('puts the Content-Security-Policy on the page itself', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/merchant' });
    expect(String(res.headers['content-security-policy'])).toContain("script-src 'self'");
  });
});
