import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import type { Config } from '../../../server/config.ts';
import { loggerOptions, requestLineWriter } from '../../../server/plugins/logging.ts';

/**
 * The request line written from a template (decision 162) is the line pino's `info` writes, byte
 * for byte but for the time, through the same stream; a logger set up otherwise gets pino's own.
 */
function capture(): { lines: string[]; stream: pino.DestinationStream } {
  const lines: string[] = [];
  return { lines, stream: { write: (l: string) => void lines.push(l) } };
}

/** The request line's own logger as server/plugins/logging.ts makes it: the app's, without redaction. */
function lineLogger(stream: pino.DestinationStream | pino.MultiStreamRes, extra: pino.LoggerOptions = {}, level = 'info'): pino.Logger {
  const opts = { ...(loggerOptions({ logLevel: level } as Config) as pino.LoggerOptions), ...extra };
  return pino(opts, stream).child({}, { redact: [] });
}

const untimed = (l: string) => l.replace(/"time":\d+/, '"time":0');

const cases: [string, string, string, number, number][] = [
  ['4f0c9d9e-1c1e-4a43-9a53-7b5f0d3f8c11', 'GET', '/api/merchant', 200, 0.04],
  ['caller.id-12345678', 'HEAD', '/api/merchant/4D0E1A2B-0000-4000-8000-000000000005/products', 304, 12.345],
  ['4f0c9d9e-1c1e-4a43-9a53-7b5f0d3f8c11', 'POST', '/api/auth/refresh?refreshToken=secret&x="y"', 401, 3],
  ['4f0c9d9e-1c1e-4a43-9a53-7b5f0d3f8c11', 'GET', '/greetie/view/ABCDEF/more', 200, 1.05],
];

describe('the request line (decision 162)', () => {
  it('is pino\'s own line, byte for byte but for the time, without going through info', () => {
    const ours = capture();
    const theirs = capture();
    const lineA = lineLogger(ours.stream);
    const lineB = lineLogger(theirs.stream);
    const write = requestLineWriter(lineA);
    const info = vi.spyOn(lineA, 'info');
    for (const [id, method, url, status, ms] of cases) {
      write(id, method, url, status, ms);
      lineB.info({ reqId: id, req: { id, method, url }, res: { statusCode: status }, responseTime: Math.round(ms * 10) / 10 }, 'request completed');
    }
    expect(info).not.toHaveBeenCalled();
    expect(ours.lines.map(untimed)).toEqual(theirs.lines.map(untimed));
    expect(ours.lines[2]).toContain('"url":"/api/auth/refresh?refreshToken=[redacted]&x=[redacted]"');
    expect(ours.lines[2]).not.toContain('secret');
  });

  it('goes through a multistream as pino sends it: every stream at or below info, none above', () => {
    const low = capture();
    const high = capture();
    const write = requestLineWriter(lineLogger(pino.multistream([{ level: 'trace', stream: low.stream }, { level: 'warn', stream: high.stream }]), {}, 'trace'));
    write('4f0c9d9e-1c1e-4a43-9a53-7b5f0d3f8c11', 'GET', '/api/merchant', 200, 1);
    expect(low.lines).toHaveLength(1);
    expect(high.lines).toHaveLength(0);
  });

  it('writes nothing when the level is above info', () => {
    const out = capture();
    requestLineWriter(lineLogger(out.stream, {}, 'warn'))('id-12345678', 'GET', '/api/merchant', 200, 1);
    expect(out.lines).toEqual([]);
  });

  it('falls back to pino\'s info when the logger is set up otherwise (a formatter here)', () => {
    const out = capture();
    const line = lineLogger(out.stream, { formatters: { log: (o: Record<string, unknown>) => ({ ...o, extra: 1 }) } });
    const info = vi.spyOn(line, 'info');
    requestLineWriter(line)('id-12345678', 'GET', '/api/merchant', 200, 1);
    expect(info).toHaveBeenCalledTimes(1);
    expect(JSON.parse(out.lines[0]!)).toMatchObject({ extra: 1, reqId: 'id-12345678', msg: 'request completed' });
  });

  it("falls back to the logger's info when it is not pino's (Fastify's `logger: false`, a test's)", () => {
    const info = vi.fn();
    const plain = { info, isLevelEnabled: () => true } as unknown as pino.Logger;
    requestLineWriter(plain)('id-12345678', 'GET', '/api/merchant', 200, 1);
    expect(info).toHaveBeenCalledWith({ reqId: 'id-12345678', req: { id: 'id-12345678', method: 'GET', url: '/api/merchant' }, res: { statusCode: 200 }, responseTime: 1 }, 'request completed');
  });
});

// A stream pino writes to through node's Writable keeps working too (the tests' loggers).
it('writes to a Writable stream', () => {
  const chunks: string[] = [];
  const w = new Writable({ write: (c: Buffer, _e, cb) => (chunks.push(c.toString()), cb()) });
  requestLineWriter(lineLogger(w as unknown as pino.DestinationStream))('id-12345678', 'GET', '/api/merchant', 200, 1);
  expect(JSON.parse(chunks.join(''))).toMatchObject({ level: 30, reqId: 'id-12345678', req: { id: 'id-12345678', method: 'GET', url: '/api/merchant' }, res: { statusCode: 200 }, responseTime: 1 });
});
