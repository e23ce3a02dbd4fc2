/**
 * `node --import tsx bench/profile-redeem.ts [vouchers] [rate]`: where a redeem's time goes
 * (decision 034). Starts the real server (`node --import tsx server/main.ts`, embedded
 * PostgreSQL, default settings) on a fresh DATA_DIR, makes `vouchers` distinct vouchers the way
 * bench/redeem.ts does, then redeems half of them at 50 closed-loop connections (saturation) and
 * the other half at `rate`/s offered, evenly spaced (default 500), and prints for each: throughput, latencies
 * (also for the first second alone, where each merchant's first code check falls), node CPU and
 * PostgreSQL CPU per redeem, commits and WAL syncs per redeem (pg_stat_database, pg_stat_io).
 * PROFILE=1 runs node under --cpu-prof and keeps the profile (its path is printed; open it in Chrome
 * DevTools → Performance).
 * PROFILE_ENV='K=V …' passes settings to the server; PROFILE_ROOT=<dir> runs another checkout's
 * server (bench/server.ts `profileServer`). PROFILE_PARTIAL=1: value vouchers, half of
 * each taken (partial redemptions, as bench/redeem.ts `partial`). Not part of `npm run bench`.
 */
import os from 'node:os';
import autocannon from 'autocannon';
import type pg from 'pg';
import { cpuSeconds, profileServer } from './server.ts';
import { prepare, redeemAtRate } from './redeem.ts';

function pct(xs: number[], p: number): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
}

async function main(): Promise<void> {
  const count = Number(process.argv[2] ?? 2000);
  const rate = Number(process.argv[3] ?? 500);
  const server = await profileServer('redeem');
  let stats: pg.Client | undefined;
  // PROFILE_SQL=1: restart with pg_stat_statements loaded, to print each statement's time per call.
  const perStatement = process.env.PROFILE_SQL === '1';
  try {
    if (perStatement) await server.withStatements();
    const { child, baseUrl: base } = server;
    stats = await server.connectStats();
    const counters = async () => {
      const { rows } = await stats!.query<{ commits: string; syncs: string | null; writes: string | null }>(
        `SELECT (SELECT xact_commit FROM pg_stat_database WHERE datname = 'greetie') AS commits,
                (SELECT sum(fsyncs) FROM pg_stat_io WHERE object = 'wal') AS syncs,
                (SELECT sum(writes) FROM pg_stat_io WHERE object = 'wal') AS writes`,
      );
      return { commits: Number(rows[0]!.commits), syncs: Number(rows[0]!.syncs ?? 0), writes: Number(rows[0]!.writes ?? 0) };
    };

    const t0 = performance.now();
    const prepared = await prepare(base, count, { partial: process.env.PROFILE_PARTIAL === '1' });
    console.log(`${prepared.vouchers.length} vouchers over ${prepared.merchants} merchants made in ${((performance.now() - t0) / 1000).toFixed(1)} s; load average ${os.loadavg()[0]!.toFixed(2)}`);
    // What PostgreSQL does with no request (workers polling), and what the sign-in check alone
    // costs (GET /api/auth/my: the token and the user's row), to set beside a redeem's figures.
    {
      const pgCpu = () => server.pgCpu();
      const [n0, p0] = [cpuSeconds(child.pid!), pgCpu()];
      await new Promise((r) => setTimeout(r, 3000));
      const [n1, p1] = [cpuSeconds(child.pid!), pgCpu()];
      console.log(`idle 3 s: node ${(n1 - n0).toFixed(2)} s, PostgreSQL ${(p1 - p0).toFixed(2)} s of CPU`);
      const token = prepared.vouchers[0]!.token;
      const r = await autocannon({ url: `${base}/api/auth/my`, connections: 50, amount: 2000, headers: { authorization: `Bearer ${token}` } });
      const [n2, p2] = [cpuSeconds(child.pid!), pgCpu()];
      const per = (x: number) => `${((x / r.requests.total) * 1e6).toFixed(0)} µs`;
      console.log(`GET /api/auth/my ×${r.requests.total}: ${(r.requests.total / r.duration).toFixed(0)}/s, p99 ${r.latency.p99} ms; CPU per request node ${per(n2 - n1)}, PostgreSQL ${per(p2 - p1)}; load average ${os.loadavg()[0]!.toFixed(2)}`);
    }
    const queue = prepared.vouchers.map((v) => ({ v, k: Math.random() })).sort((a, b) => a.k - b.k).map((x) => x.v);
    const half = Math.floor(queue.length / 2);
    /** Closed loop with autocannon; its latencies also split at the first second (the cold checks). */
    const closedLoop = async (items: typeof queue) => {
      let next = 0;
      const lat: { at: number; ms: number }[] = [];
      const start = performance.now();
      const inst = autocannon({
        url: base,
        pipelining: 1,
        amount: items.length,
        connections: 50,
        requests: [
          {
            method: 'POST',
            path: '/api/voucher/redeem',
            setupRequest: (req) => {
              const v = items[next++ % items.length]!;
              return { ...req, headers: { 'content-type': 'application/json', authorization: `Bearer ${v.token}` }, body: JSON.stringify({ voucherId: v.voucherId, merchantCode: v.merchantCode, ...(v.amount === undefined ? {} : { amount: v.amount }) }) };
            },
          },
        ],
      });
      (inst as unknown as autocannon.Instance).on('response', (_c: unknown, _s: number, _b: number, ms: number) => lat.push({ at: performance.now() - start, ms }));
      const r = await inst;
      const first = lat.filter((x) => x.at < 1000).map((x) => x.ms);
      const rest = lat.filter((x) => x.at >= 1000).map((x) => x.ms);
      // autocannon's own duration ends on a whole-second tick: the last answer is the end.
      const seconds = Math.max(...lat.map((x) => x.at)) / 1000;
      return {
        n: r.requests.total,
        lines: [
          `${r.requests.total} redeems in ${seconds.toFixed(2)} s = ${(r.requests.total / seconds).toFixed(0)}/s; non-2xx ${r.non2xx}, errors ${r.errors}`,
          `latency ms: p50 ${r.latency.p50}, p90 ${r.latency.p90}, p99 ${r.latency.p99}, max ${r.latency.max}`,
          `first second (${first.length}): p50 ${pct(first, 50).toFixed(0)}, p99 ${pct(first, 99).toFixed(0)}, max ${pct(first, 100).toFixed(0)}; after it (${rest.length}): p50 ${pct(rest, 50).toFixed(0)}, p99 ${pct(rest, 99).toFixed(0)}, max ${pct(rest, 100).toFixed(0)}`,
        ],
      };
    };
    const runs: { name: string; go: () => Promise<{ n: number; lines: string[] }> }[] = [
      { name: 'saturation, 50 connections', go: () => closedLoop(queue.slice(0, half)) },
      {
        name: `offered ${rate}/s evenly, up to 100 connections (bench/redeem.ts redeemAtRate)`,
        go: async () => {
          const r = await redeemAtRate(base, queue.slice(half), { rate, connections: 100 });
          return {
            n: r.vouchers,
            lines: [
              `${r.vouchers} redeems in ${r.seconds.toFixed(2)} s = ${r.redeemsPerSec.toFixed(0)}/s served; non-2xx ${r.non2xx}, errors ${r.errors}`,
              `latency ms (from each request's due time): p50 ${r.p50}, p90 ${r.p90}, p99 ${r.p99}, max ${r.max}`,
            ],
          };
        },
      },
    ];
    for (const run of runs) {
      const pgCpu = () => server.pgCpu();
      if (perStatement) await stats.query('SELECT pg_stat_statements_reset()');
      const c0 = await counters();
      const [node0, pg0] = [cpuSeconds(child.pid!), pgCpu()];
      const start = performance.now();
      const { n, lines } = await run.go();
      const [node1, pg1] = [cpuSeconds(child.pid!), pgCpu()];
      const c1 = await counters();
      const per = (s: number) => `${((s / n) * 1e6).toFixed(0)} µs`;
      console.log(`\n${run.name} (load average ${os.loadavg()[0]!.toFixed(2)}):`);
      for (const l of lines) console.log(`  ${l}`);
      console.log(`  CPU per redeem: node ${per(node1 - node0)}, PostgreSQL ${per(pg1 - pg0)} (wall ${((performance.now() - start) / 1000).toFixed(2)} s, node ${(node1 - node0).toFixed(2)} s, PostgreSQL ${(pg1 - pg0).toFixed(2)} s)`);
      console.log(`  commits ${c1.commits - c0.commits} (${((c1.commits - c0.commits) / n).toFixed(2)} per redeem), WAL writes ${c1.writes - c0.writes}, WAL fsyncs ${c1.syncs - c0.syncs} (${((c1.syncs - c0.syncs) / n).toFixed(2)} per redeem)`);
      if (perStatement) {
        const { rows } = await stats.query<{ calls: string; plan: number; exec: number; query: string }>(
          `SELECT calls, total_plan_time / calls * 1000 AS plan, total_exec_time / calls * 1000 AS exec, query
             FROM pg_stat_statements WHERE calls >= ${Math.floor(n / 2)} ORDER BY total_exec_time + total_plan_time DESC LIMIT 12`,
        );
        for (const q of rows) console.log(`  ${q.calls}×  plan ${q.plan.toFixed(0)} µs, exec ${q.exec.toFixed(0)} µs  ${q.query.replace(/\s+/g, ' ').slice(0, 110)}`);
      }
    }
  } finally {
    await stats?.end().catch(() => {});
    const kept = await server.finish();
    if (kept) console.log(`\nprofile kept at ${kept}`);
  }
}

main().catch((err: unknown) => {
  console.error('profile failed:', err);
  process.exit(1);
});
