/**
 * `node --import tsx bench/profile.ts [path] [seconds]`: where one API read spends its time.
 * `path` may be `/api/merchant/{id}` (the first merchant), `/api/auth/my` (signed in first, the
 * token in every request) or `POST /api/auth/verificationcode` (a fresh number and
 * X-Forwarded-For each, the server with TRUST_PROXY=on as in `npm run bench`; decision 093).
 * Starts the real server (`node --cpu-prof --import tsx server/main.ts`, embedded PostgreSQL,
 * default settings: LOG_LEVEL info to a file) on a fresh DATA_DIR, loads `path` (default
 * /api/merchant) with autocannon at 50 connections, stops it with SIGTERM (V8 writes the profile
 * on the way out) and prints the self time by function and by package/folder, and the inclusive
 * time of a few frames worth knowing. PROFILE_ENV='LOG_LEVEL=warn' to profile other settings.
 * PROFILE_CEILING=1 then profiles the bench's ceiling (bench/ceiling-server.ts, its own process)
 * replaying the same answer under the same load, and prints its summary beside ours.
 * Not part of `npm run bench` (a profile slows the server); see docs/decisions/064.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { freePort } from '../server/net.ts';
import { removeDataDir } from '../server/db/datadir.ts';
import { ROOT, cpuSeconds, envPairs, postgresPids, startSource } from './server.ts';
import { codeRequest, signIn } from './auth.ts';
import { capture, ceilingServer } from './api.ts';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  startTime: number;
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

function area(url: string): string {
  if (!url) return '(native/V8)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm !== -1) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0]}`;
  const rel = url.replace(/^file:\/\//, '').replace(ROOT, '');
  return rel.split('/').slice(0, 2).join('/');
}

/** Now on the clock V8's profiles use (monotonic microseconds, the same in every process). */
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

/**
 * `window`: the load's start and end (monotonicUs()); only the samples in it count. Without it,
 * from the first to the last sample with a route handler of ours on the stack.
 */
export function summariseProfile(p: Profile, top = 25, window?: { from: number; to: number }): string {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  // Only the load: from the first to the last sample with a route handler of ours on the stack
  // (start-up, module compilation and shutdown are not what a read costs). A routes.ts frame
  // under avvio is the route being registered at start-up, not handled: it does not count (it
  // let the schema compilation of start-up into the window; decision 093).
  const handles = (id: number) => {
    let route = false;
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const url = byId.get(cur)!.callFrame.url;
      if (/\/node_modules\/avvio\//.test(url)) return false;
      if (/\/server\/[^/]+\/routes\.ts/.test(url)) route = true;
    }
    return route;
  };
  let first = p.samples.findIndex(handles);
  let last = p.samples.findLastIndex(handles);
  if (window) {
    // The exact load, by the samples' timestamps (V8 and process.hrtime share the clock): the
    // handler heuristic also lets in the warm-up and, when few requests are answered, start-up.
    let at = p.startTime;
    const times = p.timeDeltas.map((dt) => (at += dt));
    first = times.findIndex((t) => t >= window.from);
    last = times.findLastIndex((t) => t <= window.to);
  }
  if (first === -1 || last < first) [first, last] = [0, p.samples.length - 1];
  const self = new Map<number, number>();
  let total = 0;
  for (let i = first; i <= last; i++) {
    const dt = p.timeDeltas[i] ?? 0;
    self.set(p.samples[i]!, (self.get(p.samples[i]!) ?? 0) + dt);
    total += dt;
  }
  const byFn = new Map<string, number>();
  const byArea = new Map<string, number>();
  // Inclusive time of named frames (counted once per sample even when recursive).
  const marks: Record<string, RegExp> = {
    'pino + sonic-boom (request log line: serialize, redact, write)': /node_modules\/(pino|sonic-boom|@pinojs)\//,
    'node:http response write (socket)': /node:_http_outgoing/,
    'pg + kysely (queries)': /node_modules\/(pg|pg-protocol|kysely)\//,
    '@fastify/helmet + helmet (security headers)': /node_modules\/(helmet|@fastify\/helmet)\//,
    'fastify (routing, hooks, reply)': /node_modules\/fastify\//,
    'server/ (our code)': /\/server\//,
    'ajv + fast-json-stringify (validation, serialization)': /node_modules\/(ajv|fast-json-stringify)\//,
    'the catalogue cache (version query included)': /\/server\/merchant\/cache\.ts/,
    'jose (JWT verification)': /node_modules\/jose\//,
    'server/auth/ (sign-in code)': /\/server\/auth\//,
    'node:internal/crypto (HMAC, random, hash)': /node:internal\/crypto\//,
  };
  const inclusive = new Map<string, number>();
  for (const [id, t] of self) {
    const n = byId.get(id)!;
    const name = n.callFrame.functionName || '(anonymous)';
    const key = `${name}  ${n.callFrame.url.replace(/^file:\/\//, '').replace(ROOT, '')}:${n.callFrame.lineNumber + 1}`;
    byFn.set(key, (byFn.get(key) ?? 0) + t);
    const a = area(n.callFrame.url);
    byArea.set(a, (byArea.get(a) ?? 0) + t);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const url = byId.get(cur)!.callFrame.url;
      for (const [label, re] of Object.entries(marks)) {
        if (!seen.has(label) && re.test(url)) {
          seen.add(label);
          inclusive.set(label, (inclusive.get(label) ?? 0) + t);
        }
      }
    }
  }
  const pct = (t: number) => `${((t / total) * 100).toFixed(1).padStart(5)} %`;
  const lines = [`sampled during the load: ${(total / 1e6).toFixed(2)} s`, '', 'self time by package / folder:'];
  for (const [k, t] of [...byArea].sort((a, b) => b[1] - a[1]).slice(0, 20)) lines.push(`  ${pct(t)}  ${k}`);
  lines.push('', 'inclusive time (a frame anywhere on the stack):');
  for (const [k, t] of [...inclusive].sort((a, b) => b[1] - a[1])) lines.push(`  ${pct(t)}  ${k}`);
  lines.push('', `self time, top ${top} functions:`);
  for (const [k, t] of [...byFn].sort((a, b) => b[1] - a[1]).slice(0, top)) lines.push(`  ${pct(t)}  ${k}`);
  return lines.join('\n');
}

async function main(): Promise<void> {
  const target = process.argv[2] ?? '/api/merchant';
  const post = target.startsWith('POST ');
  const seconds = Number(process.argv[3] ?? 10);
  const work = mkdtempSync(path.join(os.tmpdir(), 'greetie-profile-'));
  const dataDir = path.join(work, 'data');
  const profDir = path.join(work, 'prof');
  const port = await freePort();
  const { child, exited, baseUrl: base } = await startSource({
    port,
    dataDir,
    staticDir: path.join(work, 'no-spa'),
    logFile: path.join(work, 'server.log'),
    nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profDir}`],
    env: { ...(post ? { TRUST_PROXY: 'on' } : {}), ...envPairs(process.env.PROFILE_ENV) },
  });
  let window: { from: number; to: number } | undefined;
  let ceilingWindow: { from: number; to: number } | undefined;
  const ceilingProfDir = path.join(work, 'ceiling-prof');
  try {
    let url = post ? target.slice(5) : target;
    if (url.includes('{id}')) {
      const [first] = (await (await fetch(`${base}/api/merchant`)).json()) as { id: string }[];
      url = url.replace('{id}', first!.id);
    }
    const requests: autocannon.Request[] = post
      ? [{ ...codeRequest, path: url }]
      : [{ method: 'GET', path: url, ...(url === '/api/auth/my' ? { headers: { authorization: `Bearer ${await signIn(base)}` } } : {}) }];
    const pgCpu = () => postgresPids(dataDir).reduce((a, pid) => a + cpuSeconds(pid), 0);
    // What the processes use with no request at all (workers polling, the profiler itself): at a
    // few hundred requests a second it is a visible part of the CPU per request.
    const [idleNode0, idlePg0] = [cpuSeconds(child.pid!), pgCpu()];
    await new Promise((r) => setTimeout(r, 5000));
    const idle = { node: (cpuSeconds(child.pid!) - idleNode0) / 5, pg: (pgCpu() - idlePg0) / 5 };
    await autocannon({ url: base, connections: 50, duration: 1, requests });
    const [node0, pg0] = [cpuSeconds(child.pid!), pgCpu()];
    window = { from: monotonicUs(), to: 0 };
    const r = await autocannon({ url: base, connections: 50, duration: seconds, requests });
    window.to = monotonicUs();
    const [node1, pg1] = [cpuSeconds(child.pid!), pgCpu()];
    const per = (s: number, n = r.requests.total) => `${((s / n) * 1e6).toFixed(0)} µs`;
    console.log(`${url}: ${(r.requests.total / r.duration).toFixed(0)} req/s under the profiler, p99 ${r.latency.p99} ms, non-2xx ${r.non2xx}, load average ${os.loadavg()[0]!.toFixed(2)}`);
    console.log(`CPU per request: node ${per(node1 - node0)}, PostgreSQL (all backends) ${per(pg1 - pg0)}`);
    const net = (used: number, idlePerS: number) => per(Math.max(0, used - idlePerS * r.duration));
    console.log(
      `  idle: node ${(idle.node * 1000).toFixed(0)} ms/s, PostgreSQL ${(idle.pg * 1000).toFixed(0)} ms/s; less idle: node ${net(node1 - node0, idle.node)}, PostgreSQL ${net(pg1 - pg0, idle.pg)}\n`,
    );
    if (process.env.PROFILE_CEILING === '1') {
      // The bench's ceiling (bench/ceiling-server.ts) replaying this answer, under the same
      // profiler and the same load, right after: what our process runs per request that it does not.
      const c = await capture(base, { name: url, method: post ? 'POST' : 'GET', path: url, headers: requests[0]!.headers as Record<string, string> | undefined });
      const ceiling = await ceilingServer(c, { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${ceilingProfDir}`] });
      try {
        await autocannon({ url: ceiling.url, connections: 50, duration: 1, requests });
        const c0 = cpuSeconds(ceiling.pid);
        ceilingWindow = { from: monotonicUs(), to: 0 };
        const cr = await autocannon({ url: ceiling.url, connections: 50, duration: seconds, requests });
        ceilingWindow.to = monotonicUs();
        const used = cpuSeconds(ceiling.pid) - c0;
        console.log(`the ceiling, same answer: ${(cr.requests.total / cr.duration).toFixed(0)} req/s under the profiler, p99 ${cr.latency.p99} ms; CPU per request ${per(used, cr.requests.total)}; load average ${os.loadavg()[0]!.toFixed(2)}\n`);
      } finally {
        await ceiling.close();
      }
    }
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
  const file = readdirSync(profDir).find((f) => /\.0\.\d+\.cpuprofile$/.test(f)) ?? readdirSync(profDir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error('no profile written');
  const kept = path.join(os.tmpdir(), `greetie-${path.basename(target).replace(/\W+/g, '_')}-${Date.now()}.cpuprofile`);
  const raw = readFileSync(path.join(profDir, file), 'utf8');
  console.log(summariseProfile(JSON.parse(raw) as Profile, 25, window));
  await import('node:fs').then((fs) => fs.writeFileSync(kept, raw));
  console.log(`\nprofile kept at ${kept} (open in Chrome DevTools → Performance)`);
  if (ceilingWindow) {
    // The ceiling's main thread (tsx's loader thread writes a profile of its own, `.0.` is the main one).
    const cfile = readdirSync(ceilingProfDir).find((f) => f.endsWith('.cpuprofile') && /\.0\.\d+\.cpuprofile$/.test(f));
    if (cfile) {
      const craw = readFileSync(path.join(ceilingProfDir, cfile), 'utf8');
      const ckept = kept.replace('.cpuprofile', '-ceiling.cpuprofile');
      console.log(`\n--- the ceiling ---\n${summariseProfile(JSON.parse(craw) as Profile, 25, ceilingWindow)}\n\nceiling profile kept at ${ckept}`);
      await import('node:fs').then((fs) => fs.writeFileSync(ckept, craw));
    }
  }
  removeDataDir(dataDir);
  rmSync(work, { recursive: true, force: true });
}

// `node --import tsx bench/profile.ts --summary <file.cpuprofile>`: the summary of a kept profile.
// Imported (bench/profile-portal.ts uses summariseProfile), it runs nothing.
const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
if (!isMain) {
  /* a module */
} else if (process.argv[2] === '--summary') console.log(summariseProfile(JSON.parse(readFileSync(process.argv[3]!, 'utf8')) as Profile));
else {
  main().catch((err: unknown) => {
    console.error('profile failed:', err);
    process.exit(1);
  });
}
