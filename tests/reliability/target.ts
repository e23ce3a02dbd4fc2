import http from 'node:http';
import type { FastifyInstance } from 'fastify';

/** One request as the suite builds it: everything explicit, nothing added behind its back. */
export interface Req {
  method: string;
  /** Path and query, already encoded the way it goes on the wire. */
  url: string;
  headers?: Record<string, string>;
  payload?: string | Buffer;
  /** The caller's address (inject only), so per-IP limits see many callers, as in real life. */
  remoteAddress?: string;
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export type Send = (req: Req) => Promise<Answer>;

/** The real app, in process (light-my-request). */
export function injectTarget(app: FastifyInstance): Send {
  return async (req) => {
    const res = await app.inject({
      method: req.method as 'GET',
      url: req.url,
      headers: req.headers ?? {},
      ...(req.payload !== undefined ? { payload: req.payload } : {}),
      remoteAddress: req.remoteAddress ?? '127.0.0.1',
    });
    return { status: res.statusCode, headers: res.headers as Answer['headers'], body: res.body };
  };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

/** A spawned server over real HTTP. */
export function httpTarget(baseUrl: string): Send {
  const base = new URL(baseUrl);
  return (req) =>
    new Promise<Answer>((resolve, reject) => {
      const r = http.request(
        {
          host: base.hostname,
          port: base.port,
          method: req.method,
          path: req.url,
          // The server trusts its proxy: the caller's address travels as X-Forwarded-For.
          // A body always goes with its length (Node frames GET bodies only when told to).
          headers: {
            ...(req.remoteAddress ? { 'x-forwarded-for': req.remoteAddress } : {}),
            ...(req.payload !== undefined ? { 'content-length': String(Buffer.byteLength(req.payload)) } : {}),
            ...(req.headers ?? {}),
          },
          agent,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', reject);
        },
      );
      r.on('error', reject);
      if (req.payload !== undefined) r.end(req.payload);
      else r.end();
    });
}

export function json<T = unknown>(a: Answer): T {
  return JSON.parse(a.body) as T;
}

/** A compact description of a request for failure messages (the body cut to a readable length). */
export function describeReq(req: Req): string {
  const body = req.payload === undefined ? '' : String(req.payload);
  const shown = body.length > 300 ? `${body.slice(0, 300)}… (${body.length} chars)` : body;
  return `${req.method} ${req.url.length > 300 ? req.url.slice(0, 300) + '…' : req.url}\nheaders: ${JSON.stringify(req.headers ?? {})}\nbody: ${shown}`;
}
