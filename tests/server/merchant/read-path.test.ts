import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import fastifyHelmet from '@fastify/helmet';
import pino from 'pino';
import { helmetOptions, loggerOptions, mayCarryNumbers } from '../../../server/app.ts';
import { lazyRequestLogger } from '../../../server/plugins/logging.ts';
import { Type } from 'typebox';
import { createTestApp, testConfig, type TestApp } from '../helpers.ts';

/**
 * What the catalogue read path no longer does per request must not change what an answer says
 * (docs/decisions/064-catalogue-read-path.md): the security headers computed once at start are
 * exactly the ones @fastify/helmet sets per request for the same options, on every kind of
 * answer; every request still gets its request id and its one log line; a non-finite number is
 * still refused where Ajv can make one.
 */
const HOP = new Set(['date', 'connection', 'keep-alive', 'content-length', 'content-type', 'etag', 'cache-control', 'x-request-id', 'transfer-encoding', 'vary', 'link']);

async function helmetReference(env: Record<string, string>) {
  const ref = Fastify();
  await ref.register(fastifyHelmet, helmetOptions(testConfig(env)));
  ref.get('/x', async () => ({ ok: true }));
  await ref.ready();
  const res = await ref.inject({ method: 'GET', url: '/x' });
  await ref.close();
  return Object.fromEntries(Object.entries(res.headers).filter(([k]) => !HOP.has(k)));
}

describe('security headers, computed once', () => {
  for (const [label, env] of [
    ['defaults', {}],
    ['https with analytics', { PUBLIC_URL: 'https://greetie.example', VITE_ANALYTICS_ID: 'G-TEST12345' }],
  ] as const) {
    it(`are @fastify/helmet's own headers on every kind of answer (${label})`, async () => {
      const expected = await helmetReference(env);
      expect(Object.keys(expected)).toEqual(expect.arrayContaining(['content-security-policy', 'x-content-type-options', 'x-frame-options', 'referrer-policy']));
      const t = await createTestApp({ env });
      try {
        for (const url of ['/api/health', '/api/merchant', '/api/merchant/v2?q=cafe', '/api/nothing-here', '/api/merchant/not-a-uuid']) {
          const res = await t.app.inject({ method: 'GET', url });
          const got = Object.fromEntries(Object.entries(res.headers).filter(([k]) => !HOP.has(k)));
          expect(got, url).toEqual(expected);
        }
        // Swagger UI still relaxes style-src on its own pages only.
        const docs = await t.app.inject({ method: 'GET', url: '/api/docs/static/index.html' });
        expect(String(docs.headers['content-security-policy'])).toContain("style-src 'self' 'unsafe-inline'");
        expect(String(docs.headers['content-security-policy'])).toContain("script-src 'self'");
      } finally {
        await t.close();
      }
    });
  }
});

describe('per-request work on a catalogue read', () => {
  let t: TestApp;
  const lines: Record<string, unknown>[] = [];
  beforeAll(async () => {
    // The app's own logger settings (serializers, redaction), at info as in production.
    const stream = { write: (l: string) => void lines.push(JSON.parse(l) as Record<string, unknown>) };
    t = await createTestApp({ logger: { ...(loggerOptions(testConfig()) as object), level: 'info', stream } as never });
  });
  afterAll(async () => {
    await t.close();
  });

  it('every answer has its request id and one "request completed" line with path, status and time', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/merchant', headers: { 'x-request-id': 'read-path-0001' } });
    expect(res.headers['x-request-id']).toBe('read-path-0001');
    await new Promise((r) => setTimeout(r, 20)); // onResponse runs once the answer is out
    const mine = lines.filter((l) => (l.req as { id?: string } | undefined)?.id === 'read-path-0001');
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ msg: 'request completed', req: { method: 'GET', url: '/api/merchant' }, res: { statusCode: 200 } });
    expect(typeof mine[0]!.responseTime).toBe('number');
  });

  it('runs the non-finite check only where a number can arrive: a body, or a number in the query or path schema (decision 135)', () => {
    const id = Type.Object({ id: Type.String({ format: 'uuid' }) });
    expect(mayCarryNumbers({ method: 'GET', schema: { params: id } })).toBe(false);
    expect(mayCarryNumbers({ method: 'GET' })).toBe(false);
    expect(mayCarryNumbers({ method: 'GET', schema: { querystring: Type.Object({ limit: Type.Optional(Type.Integer()) }) } })).toBe(true);
    expect(mayCarryNumbers({ method: 'GET', schema: { querystring: Type.Object({ at: Type.Union([Type.Number(), Type.Null()]) }) } })).toBe(true);
    expect(mayCarryNumbers({ method: ['GET', 'HEAD'], schema: { params: id } })).toBe(false);
    expect(mayCarryNumbers({ method: 'POST', schema: { params: id } })).toBe(true);
    expect(mayCarryNumbers({ method: 'DELETE' })).toBe(true);
    expect(mayCarryNumbers({ method: 'GET', schema: { querystring: { $ref: 'SomeQuery#' } } })).toBe(true);
  });

  it('a non-finite number is still refused in a query string and a body', async () => {
    const q = await t.app.inject({ method: 'GET', url: '/api/merchant/v2?limit=1e999' });
    expect(q.statusCode).toBe(400);
    const body = await t.app.inject({ method: 'POST', url: '/api/auth/verificationcode', headers: { 'content-type': 'application/json' }, payload: '{"mobileNumber": 1e999}' });
    expect(body.statusCode).toBe(400);
  });

  it("the request's own logger is made on first use, with the request id and the redaction of every other line (decision 153)", () => {
    const out: Record<string, unknown>[] = [];
    const stream = { write: (l: string) => void out.push(JSON.parse(l) as Record<string, unknown>) };
    const root = pino({ ...(loggerOptions(testConfig()) as pino.LoggerOptions), level: 'info' }, stream);
    let made = 0;
    const parent = { child: (...args: Parameters<typeof root.child>) => (made++, root.child(...args)) } as unknown as typeof root;
    const log = lazyRequestLogger(parent, { reqId: 'lazy-0001' }, {});
    expect(made).toBe(0);
    log.warn({ body: { token: 'SECRET' } }, 'careful');
    log.error('failed');
    log.debug('not at info');
    expect(made).toBe(1);
    expect(log.level).toBe('info');
    log.child({ part: 'x' }).warn('nested');
    expect(out).toEqual([
      expect.objectContaining({ level: 40, reqId: 'lazy-0001', msg: 'careful', body: { token: '[redacted]' } }),
      expect.objectContaining({ level: 50, reqId: 'lazy-0001', msg: 'failed' }),
      expect.objectContaining({ level: 40, reqId: 'lazy-0001', part: 'x', msg: 'nested' }),
    ]);
  });
});
