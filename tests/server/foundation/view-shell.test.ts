import { readFileSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactUrl } from '../../../server/app.ts';
import { viewShellTemplate } from '../../../server/spa/viewShell.ts';
import { createSpaPages } from '../../../server/spa/shell.ts';
import { builtDist, createTestApp, testConfig, type TestApp } from '../helpers.ts';

/**
 * GET /greetie/view/{refId} (decision 090): index.html with the delivered greetie's first
 * frame (a preload and a sized image in the static shell), and nothing else about it; anything
 * else gets the plain index.html. Runs the repo's own index.html on real PostgreSQL.
 */

const INDEX = path.resolve(import.meta.dirname, '../../../index.html');
const key = (ext: string) => `${randomBytes(16).toString('base64url')}.${ext}`;
const ref = () => randomBytes(16).toString('base64url');

const SENDER = { number: '+46701112233', name: 'Anna-Karin Sändare' };
const RECIPIENT = { number: '+46704445566', name: 'Lisa Mottagare' };
const MESSAGE = 'Grattis på födelsedagen, hemliga hälsningen!';

let t: TestApp;
let plain: string;

beforeAll(async () => {
  const dir = builtDist({ 'index.html': readFileSync(INDEX) });
  // The plain page is index.html as the server answers every client route (decision 094).
  plain = createSpaPages(dir).plain.html;
  t = await createTestApp({ config: { ...testConfig(), staticDir: dir } });
});
afterAll(async () => {
  await t.close();
});

type File = { role: 'media' | 'thumbnail' | 'overlay'; kind: 'photo' | 'video'; key: string };

/** A greetie as the compose flow leaves it, with its files (in this order) and a status. */
async function greetie(status: string, files: File[]): Promise<{ id: string; refId: string }> {
  const db = t.db.db;
  const { rows: users } = await sql<{ id: string }>`
    INSERT INTO mobile_user (mobile_number, name, created_at)
    VALUES (${`+4670${randomBytes(3).readUIntBE(0, 3) % 10_000_000}`.padEnd(12, '0')}, ${SENDER.name}, now()) RETURNING id`.execute(db);
  const refId = ref();
  const { rows } = await sql<{ id: string }>`
    INSERT INTO greetie (ref_id, sender_id, recipient_number, recipient_name, message, content, status, delivered_at)
    VALUES (${refId}, ${users[0]!.id}, ${RECIPIENT.number}, ${RECIPIENT.name}, ${MESSAGE},
            '[]'::jsonb, ${status},
            ${status === 'delivered' ? new Date() : null})
    RETURNING id`.execute(db);
  const id = rows[0]!.id;
  let at = Date.now() - 60_000;
  for (const f of files) {
    await sql`
      INSERT INTO media_file (greetie_id, role, kind, storage_key, content_type, size, created_at)
      VALUES (${id}, ${f.role}, ${f.kind}, ${f.key}, ${f.kind === 'video' && f.role === 'media' ? 'video/mp4' : 'image/jpeg'}, 1000, ${new Date((at += 1000))})`.execute(db);
  }
  return { id, refId };
}

const get = (url: string) => t.app.inject({ method: 'GET', url });
const viewedAt = async (id: string) =>
  (await sql<{ viewed_at: Date | null }>`SELECT viewed_at FROM greetie WHERE id = ${id}`.execute(t.db.db)).rows[0]!.viewed_at;

/** The first frame's URL in the answer: the preload's and the shell image's, which must agree. */
function frameOf(html: string): string | undefined {
  const preload = /<link rel="preload" as="image" fetchpriority="high" href="([^"]+)"/.exec(html)?.[1];
  const img = /<div id="boot-frame"[^>]*>.*?<img id="boot-frame-img" src="([^"]+)" width="1080" height="1350" alt="" fetchpriority="high" \/>/s.exec(html)?.[1];
  expect(preload).toBe(img);
  return preload;
}

describe('GET /greetie/view/{refId}: the first frame in index.html', () => {
  it("puts a delivered photo greetie's small copy into the head (preload) and the static shell (sized image), the URL the page's first <img> gets from byRef", async () => {
    const thumb = key('jpg');
    const g = await greetie('delivered', [
      { role: 'media', kind: 'photo', key: key('jpg') },
      { role: 'thumbnail', kind: 'photo', key: thumb },
      { role: 'overlay', kind: 'photo', key: key('png') },
    ]);
    const res = await get(`/greetie/view/${g.refId}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(frameOf(res.body)).toBe(`/api/media/${thumb}`);
    // The preload comes early in the head, before the app's own files; the frame sits outside #root.
    expect(res.body.indexOf('rel="preload" as="image"')).toBeLessThan(res.body.indexOf('<title>'));
    expect(res.body.indexOf('id="boot-frame"')).toBeGreaterThan(res.body.indexOf('<div id="root">'));
    expect(res.body).toMatch(/<div id="boot-frame" class="boot-frame" aria-hidden="true">/);
    // The view's layout has no header: the static shell's is left out; the rest of index.html stays.
    expect(res.body).not.toContain('class="boot-header"');
    expect(res.body).toContain('<div id="root">');
    expect(res.body).toContain('<script type="module" fetchpriority="low" src="/src/main.tsx"></script>');
    // Reading the page does not mark it viewed (the page's byRef read does).
    expect(await viewedAt(g.id)).toBeNull();

    const byRef = await get(`/api/greetie/byRef?refId=${g.refId}`);
    expect(byRef.statusCode).toBe(200);
    expect(byRef.json().media.thumbnailUrl).toBe(frameOf(res.body));
  });

  it('carries nothing personal: no names, numbers, message, ids or other files; no inline script', async () => {
    const media = key('jpg');
    const overlay = key('png');
    const g = await greetie('delivered', [
      { role: 'media', kind: 'photo', key: media },
      { role: 'thumbnail', kind: 'photo', key: key('jpg') },
      { role: 'overlay', kind: 'photo', key: overlay },
    ]);
    const res = await get(`/greetie/view/${g.refId}`);
    for (const secret of [SENDER.name, 'Anna-Karin', RECIPIENT.name, 'Lisa', RECIPIENT.number, RECIPIENT.number.slice(3), MESSAGE, 'Grattis', 'hemliga', g.id, media, overlay]) {
      expect(res.body, secret).not.toContain(secret);
    }
    // What was added is the preload and the frame: two tags with the one URL, no script.
    const scripts = (s: string) => s.match(/<script\b/g)?.length ?? 0;
    expect(scripts(res.body)).toBe(scripts(plain));
    expect(res.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(res.body).not.toMatch(/\son\w+=/i);
    expect(res.body).not.toMatch(/\sstyle=/i);
  });

  it('is private (no shared cache keeps it) and has the same security headers as every page', async () => {
    const g = await greetie('delivered', [{ role: 'media', kind: 'photo', key: key('jpg') }]);
    const res = await get(`/greetie/view/${g.refId}`);
    const other = await get('/merchant');
    expect(res.headers['cache-control']).toBe('private, no-cache');
    expect(other.headers['cache-control']).toBe('no-cache');
    for (const h of ['content-security-policy', 'x-content-type-options', 'x-frame-options', 'referrer-policy', 'cross-origin-opener-policy', 'cross-origin-resource-policy']) {
      expect(res.headers[h], h).toBeDefined();
      expect(res.headers[h], h).toBe(other.headers[h]);
    }
    // The CSP lets the frame in: images from the app's own origin, inline <style> elements.
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toMatch(/img-src 'self'/);
    expect(csp).toMatch(/style-src-elem 'self' 'unsafe-inline'/);
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(res.headers['x-request-id']).toBeDefined();
  });

  it('uses the photo itself when it has no small copy, a video its poster, and nothing for a video without one', async () => {
    const photo = key('jpg');
    const a = await greetie('delivered', [{ role: 'media', kind: 'photo', key: photo }]);
    expect(frameOf((await get(`/greetie/view/${a.refId}`)).body)).toBe(`/api/media/${photo}`);

    const poster = key('jpg');
    const b = await greetie('delivered', [
      { role: 'media', kind: 'video', key: key('mp4') },
      { role: 'thumbnail', kind: 'photo', key: poster },
    ]);
    expect(frameOf((await get(`/greetie/view/${b.refId}`)).body)).toBe(`/api/media/${poster}`);

    const c = await greetie('delivered', [{ role: 'media', kind: 'video', key: key('mp4') }]);
    const res = await get(`/greetie/view/${c.refId}`);
    expect(res.body).toBe(plain);
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('takes the latest file of each role, as the greetie answers do', async () => {
    const newer = key('jpg');
    const g = await greetie('delivered', [
      { role: 'media', kind: 'photo', key: key('jpg') },
      { role: 'thumbnail', kind: 'photo', key: key('jpg') },
      { role: 'media', kind: 'photo', key: key('jpg') },
      { role: 'thumbnail', kind: 'photo', key: newer },
    ]);
    expect(frameOf((await get(`/greetie/view/${g.refId}`)).body)).toBe(`/api/media/${newer}`);
  });

  it('answers the plain index.html for an unknown ref, a malformed one, a greetie not delivered, one without media, and ?byId=true', async () => {
    const draft = await greetie('draft', [{ role: 'media', kind: 'photo', key: key('jpg') }]);
    const scheduled = await greetie('scheduled', [{ role: 'media', kind: 'photo', key: key('jpg') }]);
    const failed = await greetie('deliveryFailed', [{ role: 'media', kind: 'photo', key: key('jpg') }]);
    const bare = await greetie('delivered', []);
    const delivered = await greetie('delivered', [{ role: 'media', kind: 'photo', key: key('jpg') }]);
    const urls = [
      `/greetie/view/${ref()}`,
      '/greetie/view/abc',
      `/greetie/view/${'a'.repeat(150)}`,
      "/greetie/view/x'%22%3Cscript%3E",
      `/greetie/view/${draft.refId}`,
      `/greetie/view/${scheduled.refId}`,
      `/greetie/view/${failed.refId}`,
      `/greetie/view/${bare.refId}`,
      `/greetie/view/${delivered.id}?byId=true`,
      `/greetie/view/${delivered.refId}?byId=true`,
    ];
    for (const url of urls) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.body, url).toBe(plain);
    }
    // The same ref without byId: the frame (and a trailing slash is the same page).
    expect(frameOf((await get(`/greetie/view/${delivered.refId}/`)).body)).toMatch(/^\/api\/media\//);
    // Nothing was marked viewed by any of it.
    for (const g of [draft, scheduled, failed, bare, delivered]) expect(await viewedAt(g.id)).toBeNull();
  });

  it('answers HEAD like GET, without a body', async () => {
    const g = await greetie('delivered', [{ role: 'media', kind: 'photo', key: key('jpg') }]);
    const res = await t.app.inject({ method: 'HEAD', url: `/greetie/view/${g.refId}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-cache');
    expect(res.body).toBe('');
  });
});

describe('the template and the logs', () => {
  it('index.html has the places the frame goes, and its critical CSS styles the frame', () => {
    const render = viewShellTemplate(plain);
    expect(render).not.toBeNull();
    const html = render!('/api/media/a"b<c>&d.jpg');
    // The URL is an attribute value, escaped.
    expect(html).toContain('href="/api/media/a&quot;b&lt;c&gt;&amp;d.jpg"');
    for (const cls of ['.boot-frame{', '.boot-frame-page{', '.boot-stage{', '.boot-stage img{']) expect(plain).toContain(cls);
    expect(viewShellTemplate('<html><body></body></html>')).toBeNull();
  });

  it("never logs a greetie's ref from the recipient's link", () => {
    expect(redactUrl('/greetie/view/gJrJd_3cnNTi7Sjl9pxDYA')).toBe('/greetie/view/[redacted]');
    expect(redactUrl('/greetie/view/gJrJd_3cnNTi7Sjl9pxDYA?byId=true')).toBe('/greetie/view/[redacted]?byId=[redacted]');
    expect(redactUrl('/merchant/list')).toBe('/merchant/list');
  });
});
