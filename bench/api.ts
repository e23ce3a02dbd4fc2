import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

/**
 * API throughput against a ceiling. The ceiling is a bare node:http server on the same machine,
 * in a process of its own, that answers every request with the bytes the real server gave for that endpoint (status,
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

export interface Captured {
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

/**
 * The ceiling: a bare node:http server replaying `c` for every request, in a process of its own
 * (bench/ceiling-server.ts) so it never shares an event loop with autocannon, which runs in this
 * one. `pid` is that process, so a test can hold the bench to it. `nodeArgs`: node's own flags for
 * it (bench/profile.ts gives `--cpu-prof` to profile the ceiling beside the server).
 */
export async function ceilingServer(c: Captured, opts: { nodeArgs?: string[] } = {}): Promise<{ url: string; pid: number; close(): Promise<void> }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'greetie-ceiling-'));
  const file = path.join(dir, 'answer.json');
  writeFileSync(file, JSON.stringify({ status: c.status, headers: c.headers, bodyBase64: c.body.toString('base64') }));
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), '--import', 'tsx', fileURLToPath(new URL('./ceiling-server.ts', import.meta.url)), file], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the ceiling server exited (${code}) before it listened`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const [line = ''] = out.split('\n');
      if (out.includes('\n')) resolve((JSON.parse(line) as { port: number }).port);
    });
  });
  child.removeAllListeners('exit');
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    close: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
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
export const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length === 0 ? 0 : sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/**
 * Rounds alternate (server, ceiling, server, …), so round i of each saw the same machine. The
 * ratio is the median of the rounds' own ratios: one round spoilt by a neighbour's burst moves it
 * less than a mean would. req/s are medians too; p99 is the worst round's, so a target on it does
 * not pass on the lucky round.
 */
export function summarise(server: Sample[], ceiling: Sample[]): NonNullable<EndpointResult['summary']> {
  const ratios = server.map((s, i) => (ceiling[i] && ceiling[i].reqPerSec > 0 ? s.reqPerSec / ceiling[i].reqPerSec : 0));
  return {
    reqPerSec: median(server.map((s) => s.reqPerSec)),
    p50: mean(server.map((s) => s.p50)),
    p99: Math.max(...server.map((s) => s.p99)),
    ceilingReqPerSec: median(ceiling.map((s) => s.reqPerSec)),
    ceilingP50: mean(ceiling.map((s) => s.p50)),
    ceilingP99: Math.max(...ceiling.map((s) => s.p99)),
    ratio: median(ratios),
    non2xx: server.reduce((a, s) => a + s.non2xx + s.errors, 0),
  };
}

/**
 * One endpoint against its ceiling: the real answer captured (it must be 200), a warm-up second
 * each, then `rounds` alternating rounds (server, ceiling, server, …) with the same settings.
 */
export async function measureAgainstCeiling(baseUrl: string, ep: Endpoint, opts: { connections: number; rounds: number; durationS: number }): Promise<EndpointResult> {
  const captured = await capture(baseUrl, ep);
  if (captured.status !== 200) return { endpoint: ep.name, available: false, why: `answered ${captured.status}: ${captured.body.toString().slice(0, 200)}` };
  const ceiling = await ceilingServer(captured);
  const s: Sample[] = [];
  const c: Sample[] = [];
  try {
    await load(baseUrl, ep, { connections: opts.connections, durationS: 1 });
    await load(ceiling.url, ep, { connections: opts.connections, durationS: 1 });
    for (let r = 0; r < opts.rounds; r++) {
      s.push(await load(baseUrl, ep, { connections: opts.connections, durationS: opts.durationS }));
      c.push(await load(ceiling.url, ep, { connections: opts.connections, durationS: opts.durationS }));
    }
  } finally {
    await ceiling.close();
  }
  return { endpoint: ep.name, available: true, server: s, ceiling: c, summary: summarise(s, c) };
}
