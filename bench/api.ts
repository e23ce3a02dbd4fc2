import http from 'node:http';
import autocannon from 'autocannon';

/**
 * API throughput against a ceiling. The ceiling is a bare node:http server on the same machine
 * that answers every request with the bytes the real server gave for that endpoint (status,
 * headers, body) straight from memory: no routing, no validation, no database, no logging. The
 * two are measured alternately, round by round, with the same autocannon settings, so both see
 * the same machine state.
 */
export interface Endpoint {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Per-request changes (a fresh number and caller for each code request). */
  setupRequest?: (req: autocannon.Request) => autocannon.Request;
}

export interface Sample {
  reqPerSec: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  requests: number;
}

export interface EndpointResult {
  endpoint: string;
  available: boolean;
  why?: string;
  server?: Sample[];
  ceiling?: Sample[];
  summary?: { reqPerSec: number; p50: number; p99: number; ceilingReqPerSec: number; ceilingP50: number; ceilingP99: number; ratio: number; non2xx: number };
}

interface Captured {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

const HOP = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/** One request to the real server; its answer is what the ceiling replays. */
export async function capture(baseUrl: string, ep: Endpoint): Promise<Captured> {
  let headers = { ...(ep.headers ?? {}) };
  let body = ep.body;
  if (ep.setupRequest) {
    const r = ep.setupRequest({ method: ep.method, path: ep.path, headers, body } as autocannon.Request);
    headers = (r.headers as Record<string, string>) ?? headers;
    body = (r.body as string | undefined) ?? body;
  }
  const res = await fetch(baseUrl + ep.path, { method: ep.method, headers, body });
  const out: Record<string, string> = {};
  res.headers.forEach((v, k) => {
    if (!HOP.has(k)) out[k] = v;
  });
  return { status: res.status, headers: out, body: Buffer.from(await res.arrayBuffer()) };
}

/** The ceiling: a bare node:http server replaying `c` for every request. */
export async function ceilingServer(c: Captured): Promise<{ url: string; close(): Promise<void> }> {
  const headers = { ...c.headers, 'content-length': String(c.body.length) };
  const srv = http.createServer((req, res) => {
    // Read (and drop) the request body, as the real server must.
    req.resume();
    req.on('end', () => {
      res.writeHead(c.status, headers);
      res.end(c.body);
    });
  });
  srv.keepAliveTimeout = 72_000;
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const addr = srv.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => srv.close(() => r())) };
}

export async function load(baseUrl: string, ep: Endpoint, opts: { connections: number; durationS: number }): Promise<Sample> {
  const res = await autocannon({
    url: baseUrl,
    connections: opts.connections,
    duration: opts.durationS,
    pipelining: 1,
    requests: [
      {
        method: ep.method,
        path: ep.path,
        headers: ep.headers,
        body: ep.body,
        ...(ep.setupRequest ? { setupRequest: ep.setupRequest } : {}),
      },
    ],
  });
  return {
    reqPerSec: res.requests.total / res.duration,
    p50: res.latency.p50,
    p99: res.latency.p99,
    non2xx: res.non2xx,
    errors: res.errors,
    requests: res.requests.total,
  };
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

export function summarise(server: Sample[], ceiling: Sample[]): NonNullable<EndpointResult['summary']> {
  const reqPerSec = mean(server.map((s) => s.reqPerSec));
  const ceilingReqPerSec = mean(ceiling.map((s) => s.reqPerSec));
  return {
    reqPerSec,
    p50: mean(server.map((s) => s.p50)),
    // The worse round: a target on p99 should not pass on the lucky round.
    p99: Math.max(...server.map((s) => s.p99)),
    ceilingReqPerSec,
    ceilingP50: mean(ceiling.map((s) => s.p50)),
    ceilingP99: Math.max(...ceiling.map((s) => s.p99)),
    ratio: ceilingReqPerSec > 0 ? reqPerSec / ceilingReqPerSec : 0,
    non2xx: server.reduce((a, s) => a + s.non2xx + s.errors, 0),
  };
}
