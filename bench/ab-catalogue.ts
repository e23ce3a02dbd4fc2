/**
 * `node --import tsx bench/ab-catalogue.ts <rootA> [rootB] [rounds] [seconds]`: two checkouts'
 * servers (A, e.g. a copy of main; B, this one by default) against the same ceiling, for the three
 * catalogue reads, on a shared machine (decision 153).
 *
 * Each server is `node --import tsx server/main.ts` of its checkout with `npm start`'s defaults
 * (LOG_LEVEL info, its log to a file) on an embedded PostgreSQL of its own. Per read: A's answer
 * is captured and replayed by the bench's ceiling (bench/ceiling-server.ts, a process of its own),
 * a warm-up second each, then `rounds` rounds of A, B and the ceiling, the order of A and B
 * swapped every round so neither always follows the other. The reads are measured in the order
 * given by AB_ORDER (default list,id,products), so an order effect shows by changing it.
 * Prints each round and the medians: req/s and the share of the same round's ceiling, and the CPU
 * time per request of each process (from /proc; the servers' idle use taken off): on a machine shared with other work the req/s
 * follow the neighbours, the CPU a request costs much less, and the ceiling's CPU per request over
 * ours is the share the same code would reach on an idle machine (both then run one core flat).
 * AB_ENV_A / AB_ENV_B='K=V …' add settings to one side.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../server/net.ts';
import { removeDataDir } from '../server/db/datadir.ts';
import { capture, ceilingServer, load, median, type Endpoint } from './api.ts';
import { ROOT, cpuSeconds, envPairs, startSource, type SourceServer } from './server.ts';

const [rootA, rootB = ROOT, roundsArg = '5', secondsArg = '5'] = process.argv.slice(2);
if (!rootA) throw new Error('usage: ab-catalogue.ts <rootA> [rootB] [rounds] [seconds]');
const ROUNDS = Number(roundsArg);
const SECONDS = Number(secondsArg);
const CONNECTIONS = 50;
const order = (process.env.AB_ORDER ?? 'list,id,products').split(',');

async function main(): Promise<void> {
  const work = mkdtempSync(path.join(os.tmpdir(), 'greetie-ab-'));
  const servers: { name: string; s: SourceServer; dataDir: string }[] = [];
  try {
    for (const [name, root, env] of [
      ['A', path.resolve(rootA!), process.env.AB_ENV_A],
      ['B', path.resolve(rootB), process.env.AB_ENV_B],
    ] as const) {
      const dataDir = path.join(work, `data-${name}`);
      const s = await startSource({ port: await freePort(), dataDir, staticDir: path.join(work, 'no-spa'), logFile: path.join(work, `server-${name}.log`), root, env: envPairs(env) });
      servers.push({ name, s, dataDir });
    }
    const [a, b] = servers.map((x) => x.s.baseUrl) as [string, string];
    const [first] = (await (await fetch(`${a}/api/merchant`)).json()) as { id: string }[];
    const eps: Record<string, Endpoint> = {
      list: { name: 'GET /api/merchant', method: 'GET', path: '/api/merchant' },
      id: { name: 'GET /api/merchant/{id}', method: 'GET', path: `/api/merchant/${first!.id}` },
      products: { name: 'GET /api/merchant/{id}/products', method: 'GET', path: `/api/merchant/${first!.id}/products` },
    };
    console.log(`A ${rootA}, B ${rootB}; ${ROUNDS} rounds × ${SECONDS} s at ${CONNECTIONS} connections; load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
    const [pidA, pidB] = servers.map((x) => x.s.child.pid!) as [number, number];
    // What each server uses with no request at all (the delivery worker's and the periodic jobs'
    // polls): taken off its CPU per request, which at a few hundred req/s it would swamp.
    const [ia0, ib0] = [cpuSeconds(pidA), cpuSeconds(pidB)];
    await new Promise((r) => setTimeout(r, 5000));
    const idle: Record<number, number> = { [pidA]: (cpuSeconds(pidA) - ia0) / 5, [pidB]: (cpuSeconds(pidB) - ib0) / 5 };
    console.log(`idle CPU: A ${(idle[pidA]! * 1000).toFixed(0)} ms/s, B ${(idle[pidB]! * 1000).toFixed(0)} ms/s`);
    const timed = async (url: string, pid: number, ep: Endpoint, opts: { connections: number; durationS: number }) => {
      const cpu0 = cpuSeconds(pid);
      const t0 = performance.now();
      const r = await load(url, ep, opts);
      const busy = cpuSeconds(pid) - cpu0 - (idle[pid] ?? 0) * ((performance.now() - t0) / 1000);
      return { ...r, cpuUs: (Math.max(0, busy) / Math.max(1, r.requests)) * 1e6 };
    };
    for (const key of order) {
      const ep = eps[key]!;
      const ceiling = await ceilingServer(await capture(a, ep));
      const opts = { connections: CONNECTIONS, durationS: SECONDS };
      try {
        for (const url of [a, b, ceiling.url]) await load(url, ep, { connections: CONNECTIONS, durationS: 1 });
        const ra: number[] = [];
        const rb: number[] = [];
        const rc: number[] = [];
        const sa: number[] = [];
        const sb: number[] = [];
        const ca: number[] = [];
        const cb: number[] = [];
        const cc: number[] = [];
        let p99 = { a: 0, b: 0 };
        for (let r = 0; r < ROUNDS; r++) {
          const pair = r % 2 === 0 ? (['a', 'b'] as const) : (['b', 'a'] as const);
          const got: Record<string, Awaited<ReturnType<typeof timed>>> = {};
          for (const side of pair) got[side] = await timed(side === 'a' ? a : b, side === 'a' ? pidA : pidB, ep, opts);
          const c = await timed(ceiling.url, ceiling.pid, ep, opts);
          ca.push(got.a!.cpuUs);
          cb.push(got.b!.cpuUs);
          cc.push(c.cpuUs);
          ra.push(got.a!.reqPerSec);
          rb.push(got.b!.reqPerSec);
          rc.push(c.reqPerSec);
          sa.push(got.a!.reqPerSec / c.reqPerSec);
          sb.push(got.b!.reqPerSec / c.reqPerSec);
          p99 = { a: Math.max(p99.a, got.a!.p99), b: Math.max(p99.b, got.b!.p99) };
          const bad = got.a!.non2xx + got.a!.errors + got.b!.non2xx + got.b!.errors;
          const us = (x: number) => `${x.toFixed(0)} µs`;
          console.log(`  ${ep.name} round ${r + 1}: A ${ra.at(-1)!.toFixed(0)} req/s ${us(got.a!.cpuUs)}, B ${rb.at(-1)!.toFixed(0)} ${us(got.b!.cpuUs)}, ceiling ${c.reqPerSec.toFixed(0)} ${us(c.cpuUs)}${bad ? `, non-2xx/errors ${bad}` : ''} (load ${os.loadavg()[0]!.toFixed(2)})`);
        }
        const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
        console.log(
          `${ep.name}: A ${median(ra).toFixed(0)} req/s (${pct(median(sa))}, p99 ${p99.a} ms), B ${median(rb).toFixed(0)} req/s (${pct(median(sb))}, p99 ${p99.b} ms), ceiling ${median(rc).toFixed(0)}; B/A ${(median(rb) / median(ra)).toFixed(3)}`,
        );
        console.log(
          `  CPU per request: A ${median(ca).toFixed(1)} µs, B ${median(cb).toFixed(1)} µs, ceiling ${median(cc).toFixed(1)} µs; ceiling/A ${pct(median(cc) / median(ca))}, ceiling/B ${pct(median(cc) / median(cb))}`,
        );
      } finally {
        await ceiling.close();
      }
    }
    console.log(`load average at the end ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  } finally {
    for (const x of servers) {
      x.s.child.kill('SIGTERM');
      await x.s.exited;
      removeDataDir(x.dataDir);
    }
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error('ab-catalogue failed:', err);
  process.exit(1);
});
