import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Type } from 'typebox';
import type { FastifyInstance } from 'fastify';
import { createTestApp, testConfig, type TestApp } from '../helpers.ts';
import { loggerOptions } from '../../../server/app.ts';
import { badRequest } from '../../../server/errors.ts';
import { swishTestEnv } from '../payment/test-ca.ts';

/** Error answers must have exactly the shape of API.md, with a JSON content type. */
function expectErrorBody(res: { headers: Record<string, unknown>; json: () => unknown }, code: string) {
  expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
  const body = res.json() as Record<string, unknown>;
  expect(body.code).toBe(code);
  expect(typeof body.message).toBe('string');
  expect(body.message).not.toBe('');
  expect(Object.keys(body).every((k) => ['message', 'code', 'details'].includes(k))).toBe(true);
  expect(JSON.stringify(body)).not.toMatch(/at .*\.(ts|js):\d+/); // never a stack trace
  return body;
}

describe('one error handler for the whole API', () => {
  let t: TestApp;
  const logLines: string[] = [];

  beforeAll(async () => {
    const stream = new Writable({
      write(chunk, _enc, cb) {
        logLines.push(chunk.toString());
        cb();
      },
    });
    t = await createTestApp({
      logger: { ...(loggerOptions(testConfig()) as object), level: 'info', stream } as never,
      extend: (app: FastifyInstance) => {
        app.post(
          '/api/_test/echo',
          {
            schema: {
              body: Type.Object({ name: Type.String({ minLength: 1 }), age: Type.Integer({ minimum: 0 }) }, { additionalProperties: false }),
            },
          },
          async (req) => req.body,
        );
        app.get('/api/_test/boom', async () => {
          throw new Error('database exploded at /srv/secret/path.ts:12');
        });
        app.get('/api/_test/bad', async () => {
          throw badRequest('VALIDATION_FAILED');
        });
      },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('malformed JSON → 400 INVALID_JSON, in Swedish by default', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/_test/echo', headers: { 'content-type': 'application/json' }, payload: '{"name": ' });
    expect(res.statusCode).toBe(400);
    expect(expectErrorBody(res, 'INVALID_JSON').message).toBe('Innehållet är inte giltig JSON.');
  });

  it('speaks English when Accept-Language prefers it', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/_test/echo',
      headers: { 'content-type': 'application/json', 'accept-language': 'en-GB,en;q=0.9,sv;q=0.5' },
      payload: '{oops',
    });
    expect(res.statusCode).toBe(400);
    expect(expectErrorBody(res, 'INVALID_JSON').message).toBe('The body is not valid JSON.');
  });

  it('wrong content type → 415', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/_test/echo', headers: { 'content-type': 'text/xml' }, payload: '<a/>' });
    expect(res.statusCode).toBe(415);
    expectErrorBody(res, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('oversized body → 413', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/_test/echo',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024), age: 1 }),
    });
    expect(res.statusCode).toBe(413);
    expectErrorBody(res, 'PAYLOAD_TOO_LARGE');
  });

  it('empty JSON body → 400', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/_test/echo', headers: { 'content-type': 'application/json' }, payload: '' });
    expect(res.statusCode).toBe(400);
    expectErrorBody(res, 'EMPTY_BODY');
  });

  it('validation failure → 400 naming the fields, never echoing values', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/_test/echo', payload: { name: '', age: -1, secret: 'hunter2' } });
    expect(res.statusCode).toBe(400);
    const body = expectErrorBody(res, 'VALIDATION_FAILED');
    expect(body.message).toBe('Några uppgifter saknas eller är felaktiga.');
    expect(Array.isArray(body.details)).toBe(true);
    expect((body.details as { field: string }[])[0]!.field).toMatch(/^body/);
    expect(res.body).not.toContain('hunter2');
  });

  it('a valid request still works', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/_test/echo', payload: { name: 'Anna', age: 30 } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ name: 'Anna', age: 30 });
  });

  it('unknown route under /api → JSON 404, for any method, never the SPA', async () => {
    for (const method of ['GET', 'POST', 'DELETE', 'PUT'] as const) {
      const res = await t.app.inject({ method, url: '/api/does-not-exist' });
      expect(res.statusCode).toBe(404);
      expectErrorBody(res, 'ROUTE_NOT_FOUND');
    }
    const bare = await t.app.inject({ method: 'GET', url: '/api' });
    expect(bare.statusCode).toBe(404);
    expectErrorBody(bare, 'ROUTE_NOT_FOUND');
  });

  it('a route error passes its own status and code', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/_test/bad' });
    expect(res.statusCode).toBe(400);
    expectErrorBody(res, 'VALIDATION_FAILED');
  });

  it('an internal failure → 500 with a generic message, details only in the log', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/_test/boom' });
    expect(res.statusCode).toBe(500);
    const body = expectErrorBody(res, 'INTERNAL_ERROR');
    expect(res.body).not.toContain('exploded');
    expect(body.message).toBe('Något gick fel hos oss. Försök igen om en stund.');
    expect(logLines.join('')).toContain('exploded');
  });

  it('gives every answer a request id, keeping a well-formed one from the caller', async () => {
    const mine = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': 'abc12345-trace' } });
    expect(mine.headers['x-request-id']).toBe('abc12345-trace');
    const generated = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': 'evil\u0000id' } });
    expect(String(generated.headers['x-request-id'])).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('never logs tokens or codes: not the Authorization header, not query values', async () => {
    logLines.length = 0;
    await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh?token=eyJhbGciOiJIUzI1NiJ9.SECRETACCESS&refreshToken=SECRETREFRESH',
      headers: { authorization: 'Bearer SECRETBEARER' },
    });
    await t.app.inject({ method: 'POST', url: '/api/_test/echo', payload: { name: 'SECRETBODY', age: 'x' } });
    const log = logLines.join('');
    expect(log).toContain('/api/auth/refresh?token=[redacted]&refreshToken=[redacted]');
    for (const secret of ['SECRETACCESS', 'SECRETREFRESH', 'SECRETBEARER', 'SECRETBODY']) expect(log).not.toContain(secret);
  });

  it('sends security headers, including a Content-Security-Policy for the SPA', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("style-src 'self';"); // style attributes: own origin only
    expect(csp).toContain("style-src-elem 'self' 'unsafe-inline'"); // Radix's scroll lock <style>
    expect(csp).not.toMatch(/script-src[^;]*unsafe/);
    expect(csp).not.toMatch(/https?:\/\//); // nothing from another origin
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
  });
});

describe('analytics and the CSP', () => {
  it('allows the analytics origins only when a measurement id is configured', async () => {
    const withGa = await createTestApp({ env: { VITE_ANALYTICS_ID: 'G-TEST123' } });
    try {
      const csp = String((await withGa.app.inject({ method: 'GET', url: '/api/health' })).headers['content-security-policy']);
      expect(csp).toMatch(/script-src 'self' https:\/\/www\.googletagmanager\.com/);
      expect(csp).toMatch(/connect-src 'self' https:\/\/\*\.google-analytics\.com/);
    } finally {
      await withGa.close();
    }
  });
});

describe('the OpenAPI document', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('is published at /api/openapi.json, with the error body schema', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\.1/);
    expect(doc.paths['/api/health'].get).toBeDefined();
    expect(JSON.stringify(doc.components.schemas)).toContain('ErrorBody');
  });

  it('has a reader at /api/docs', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toMatch(/swagger/i);
  });

  it('/api/sandbox says the sandbox is on, and is gone when SANDBOX=off', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/sandbox' })).json()).toEqual({ enabled: true });
    const off = await createTestApp({ env: { SANDBOX: 'off', SMS_PROVIDER: '46elks', ELKS_USERNAME: 'u', ELKS_PASSWORD: 'p', ...(await swishTestEnv()) } });
    try {
      const res = await off.app.inject({ method: 'GET', url: '/api/sandbox' });
      expect(res.statusCode).toBe(404);
      expectErrorBody(res, 'ROUTE_NOT_FOUND');
    } finally {
      await off.close();
    }
  });
});
