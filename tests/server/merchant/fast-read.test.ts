import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import pg from 'pg';
import Fastify, { type FastifyInstance } from 'fastify';
import { buildApp, loggerOptions } from '../../../server/app.ts';
import { demoMerchants } from '../../../server/merchant/seed.ts';
import { createTestDb, testConfig, type TestDb } from '../helpers.ts';

/**
 * The catalogue's fast path (server/merchant/fast-read.ts, decision 157): a cached read answered
 * before Fastify's pipeline must be the answer Fastify gives, byte for byte but for Date, and
 * everything it does not handle must reach Fastify. Two apps on one database, over real sockets:
 * `fast` (as in production) and `plain` (every request through Fastify).
 */
interface Side {
  app: FastifyInstance;
  port: number;
  lines: Record<string, unknown>[];
  /** URLs of the requests that reached Fastify's onRequest hooks. */
  fastify: string[];
  /** Set by a test: close() waits in a preClose hook until it settles, calling `entered` first. */
  hold?: { entered(): void; until: Promise<void> };
}

async function start(db: TestDb, fastRead: boolean): Promise<Side> {
  const lines: Record<string, unknown>[] = [];
  const fastify: string[] = [];
  const stream = { write: (l: string) => void lines.push(JSON.parse(l) as Record<string, unknown>) };
  const app = await buildApp(testConfig(), {
    db: db.db,
    databaseUrl: db.url,
    catalogueFastRead: fastRead,
    logger: { ...(loggerOptions(testConfig()) as object), level: 'info', stream } as never,
  });
  app.addHook('onRequest', (req, _reply, done) => {
    fastify.push(req.url);
    done();
  });
  const side = { app, port: 0, lines, fastify } as Side;
  app.addHook('preClose', async () => {
    side.hold?.entered();
    await side.hold?.until;
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  side.port = (app.server.address() as net.AddressInfo).port;
  return side;
}

/** One request on a fresh connection (`Connection: close`); the whole answer as it came, bytes. */
function raw(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.on('error', reject);
    socket.write(request);
  });
}

const request = (method: string, path: string, headers: Record<string, string> = {}) =>
  `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${Object.entries({ 'x-request-id': 'fast-read-test-0001', ...headers })
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}Connection: close\r\n\r\n`;
const withoutDate = (answer: string) => answer.replace(/\r\ndate: [^\r]*/i, '');

describe("the catalogue's fast path", () => {
  let db: TestDb;
  let fast: Side;
  let plain: Side;
  const cafe = demoMerchants[0]!;
  const paths = ['/api/merchant', `/api/merchant/${cafe.id}`, `/api/merchant/${cafe.id}/products`];
  const until = async (what: () => Promise<boolean>, ms = 5000) => {
    const end = Date.now() + ms;
    while (!(await what())) {
      if (Date.now() > end) throw new Error('timed out');
      await new Promise((r) => setTimeout(r, 10));
    }
  };

  beforeAll(async () => {
    db = await createTestDb();
    fast = await start(db, true);
    plain = await start(db, false);
    await until(async () => fast.app.catalogueCache.stats().mode === 'listening');
  });
  afterAll(async () => {
    for (const side of [fast, plain]) if (side?.app.server.listening) await side.app.close().catch(() => {});
    await db?.drop();
  });

  it('answers a cached read exactly as Fastify does: the three reads, 200 and 304, GET and HEAD, Swedish and English, any case of the id', async () => {
    // Both ways the fast path writes a body (decision 162): as text under 1 KiB, as bytes from it.
    const sizes = await Promise.all(paths.map(async (p) => Number(/\r\ncontent-length: (\d+)/.exec(await raw(plain.port, request('GET', p)))![1])));
    expect(sizes.some((n) => n < 1024) && sizes.some((n) => n >= 1024), `body sizes ${sizes.join(', ')}`).toBe(true);
    for (const path of [...paths, `/api/merchant/${cafe.id.toUpperCase()}/products`]) {
      // The first read is a miss: Fastify answers it and fills the cache.
      await raw(fast.port, request('GET', path));
      const seen = fast.fastify.length;
      const etag = /\r\netag: ([^\r]*)/.exec(await raw(plain.port, request('GET', path)))![1]!;
      for (const method of ['GET', 'HEAD']) {
        const variants: Record<string, string>[] = [{}, { 'if-none-match': etag }, { 'if-none-match': `"other", W/${etag}` }, { 'if-none-match': '"other"' }, { 'accept-language': 'en' }, { 'accept-language': 'sv-SE' }];
        for (const headers of variants) {
          const [a, b] = await Promise.all([raw(fast.port, request(method, path, headers)), raw(plain.port, request(method, path, headers))]);
          expect(withoutDate(a), `${method} ${path} ${JSON.stringify(headers)}`).toBe(withoutDate(b));
          expect(a).toMatch(headers['if-none-match']?.includes(etag) ? /^HTTP\/1\.1 304 / : /^HTTP\/1\.1 200 /);
        }
      }
      // None of those reached Fastify's pipeline on the fast side.
      expect(fast.fastify.length).toBe(seen);
    }
  });

  it("serves with the node:http settings Fastify's own server would have", async () => {
    const reference = Fastify();
    for (const key of ['keepAliveTimeout', 'requestTimeout', 'timeout', 'maxRequestsPerSocket', 'headersTimeout'] as const) expect(fast.app.server[key], key).toBe(reference.server[key]);
    await reference.close();
  });

  it('keeps a caller\'s request id or makes one, like Fastify', async () => {
    const made = await raw(fast.port, request('GET', '/api/merchant', { 'x-request-id': 'no' }));
    expect(made).toMatch(/\r\nx-request-id: [0-9a-f-]{36}\r\n/);
    expect(await raw(fast.port, request('GET', '/api/merchant', { 'x-request-id': 'caller-id-123' }))).toContain('\r\nx-request-id: caller-id-123\r\n');
  });

  it('writes the same request line as Fastify: the same fields, the same values but the id and the time', async () => {
    const id = 'fast-read-line-0001';
    const got = async (side: Side, method: string, headers: Record<string, string> = {}) => {
      await raw(side.port, request(method, paths[1]!, { 'x-request-id': id, ...headers }));
      await until(async () => side.lines.some((l) => l.reqId === id));
      const i = side.lines.findIndex((l) => l.reqId === id);
      const [line] = side.lines.splice(i, 1);
      return line!;
    };
    const seen = fast.fastify.length;
    for (const [method, headers] of [['GET', {}], ['HEAD', {}], ['GET', { 'if-none-match': '*' }]] as const) {
      const a = await got(fast, method, headers);
      const b = await got(plain, method, headers);
      expect(Object.keys(a)).toEqual(Object.keys(b));
      const rest = (l: Record<string, unknown>) => ({ ...l, time: 0, responseTime: 0 });
      expect(rest(a)).toEqual(rest(b));
      expect(a).toMatchObject({ level: 30, msg: 'request completed', reqId: id, req: { id, method, url: paths[1] } });
      expect(typeof a.responseTime).toBe('number');
    }
    expect(fast.fastify.length).toBe(seen);
  });

  it('leaves to Fastify what it does not handle: another path or method, a query, a trailing slash, a body, a conditional it does not support, an unknown id', async () => {
    for (const path of paths) await raw(fast.port, request('GET', path)); // all cached
    const cases: [string, string, Record<string, string>][] = [
      ['GET', '/api/merchant?x=1', {}],
      ['GET', '/api/merchant/', {}],
      ['GET', `/api/merchant/${cafe.id}/products/`, {}],
      ['GET', '/api/merchant/v2', {}],
      ['POST', '/api/merchant', { 'content-type': 'application/json', 'content-length': '2' }],
      ['DELETE', `/api/merchant/${cafe.id}`, {}],
      ['GET', '/api/merchant', { 'content-length': '0' }],
      ['GET', '/api/merchant', { 'if-modified-since': 'Tue, 01 Dec 2026 00:00:00 GMT' }],
      ['GET', '/api/merchant', { range: 'bytes=0-10' }],
      ['GET', `/api/merchant/${cafe.id.replace(/^./, '%30')}`, {}],
      ['GET', '/api/merchant/00000000-0000-4000-8000-000000000000', {}],
    ];
    for (const [method, path, headers] of cases) {
      const before = fast.fastify.length;
      const body = method === 'POST' ? '{}' : '';
      const [a, b] = await Promise.all([raw(fast.port, request(method, path, headers) + body), raw(plain.port, request(method, path, headers) + body)]);
      expect(fast.fastify.slice(before), `${method} ${path}`).toEqual([path]);
      expect(withoutDate(a).split('\r\n')[0]).toBe(withoutDate(b).split('\r\n')[0]);
    }
  });

  it('a write in another process empties the cache: the next read goes to Fastify and sees it, the one after is fast again', async () => {
    const path = `/api/merchant/${cafe.id}`;
    await raw(fast.port, request('GET', path));
    await raw(fast.port, request('GET', path));
    const other = new pg.Client({ connectionString: db.url });
    await other.connect();
    try {
      await other.query('UPDATE merchant SET name = $1 WHERE id = $2', ['Cafe Snabbvag', cafe.id]);
    } finally {
      await other.end();
    }
    await until(async () => (await raw(fast.port, request('GET', path))).includes('Cafe Snabbvag'));
    const before = fast.fastify.length;
    const [a, b] = await Promise.all([raw(fast.port, request('GET', path)), raw(plain.port, request('GET', path))]);
    expect(withoutDate(a)).toBe(withoutDate(b));
    expect(fast.fastify.length).toBe(before);
  });

  it('while the cache checks the version (its listening connection gone), every read goes to Fastify', async () => {
    const path = '/api/merchant';
    await raw(fast.port, request('GET', path));
    await sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'greetie listener'`.execute(db.db);
    await until(async () => fast.app.catalogueCache.stats().mode === 'checking');
    const before = fast.fastify.length;
    await raw(fast.port, request('GET', path));
    await raw(fast.port, request('GET', path));
    expect(fast.fastify.slice(before)).toEqual([path, path]);
    await until(async () => fast.app.catalogueCache.stats().mode === 'listening', 10_000);
  });

  it('once closing has begun, a request on an open keep-alive connection gets what Fastify gives it (503, Connection: close)', async () => {
    const path = `/api/merchant/${cafe.id}/products`;
    const answers: Record<string, { status: number; connection: string | undefined }> = {};
    for (const [name, side] of [['fast', fast], ['plain', plain]] as const) {
      await raw(side.port, request('GET', path)); // cached
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      const get = () =>
        new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
          http
            .get({ host: '127.0.0.1', port: side.port, path, agent }, (res) => {
              res.resume();
              res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection }));
            })
            .on('error', reject);
        });
      expect(await get()).toEqual({ status: 200, connection: 'keep-alive' });
      // Closing holds in a preClose hook while the keep-alive connection is still open.
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let entered!: () => void;
      const inPreClose = new Promise<void>((r) => (entered = r));
      side.hold = { entered, until: held };
      const closed = side.app.close();
      await inPreClose;
      answers[name] = await get();
      release();
      await closed;
      agent.destroy();
    }
    expect(answers.fast).toEqual(answers.plain);
    expect(answers.fast).toEqual({ status: 503, connection: 'close' });
  });
});
