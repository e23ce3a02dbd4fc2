/**
 * `node --import tsx bench/portal-tail.ts [endpoints] [rounds] [seconds]`: where a portal read's
 * p99 tail comes from (issue 26 "Speed"; decision 155). The real server (bench/server.ts
 * `profileServer`, embedded PostgreSQL, production defaults) with bench/portal-tail-probe.mjs
 * loaded (every GC and the event loop's delay per 100 ms, to a file), the bench's merchant
 * (`preparePortal`), then for each endpoint (`page`, `summary`, `year`; default `page`) what
 * `npm run bench` does: a warm-up second against the server and the ceiling, then `rounds` (5)
 * rounds of `seconds` (5) alternating server and ceiling at 50 connections. During the server's
 * rounds it keeps every request's end time and latency (autocannon's 'response' event) and
 * samples pg_stat_activity every 50 ms (the server's backends' state and wait events, autovacuum
 * workers, the portal fold's statements) and every 500 ms pg_stat_user_tables / _indexes and the
 * checkpointer. It prints the latency distribution, whether the slow requests (> 50 ms) come
 * evenly or in bursts, and what was happening when they did. PROFILE_ENV, PROFILE_NODE_ARGS and PROFILE_ROOT as in
 * bench/profile-portal.ts (an A/B of another checkout's server). Not part of `npm run bench`.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import type pg from 'pg';
import { openDatabase } from '../server/admin/connection.ts';
import { capture, ceilingServer, load, type Endpoint } from './api.ts';
import { profileServer } from './server.ts';
import { preparePortal } from './portal.ts';

const SLOW_MS = 50;
const loadavg = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');

interface Req { end: number; ms: number }
interface Gc { gc: string; at: number; ms: number }
interface Eld { at: number; maxMs: number; p99Ms: number; newSpaceMb: number }
interface Act { at: number; active: number; waits: Record<string, number>; autovacuum: string[]; fold: boolean }
interface TableRow { at: number; relname: string; n_dead_tup: number; n_mod_since_analyze: number; autovacuum_count: number; autoanalyze_count: number; n_tup_ins: number; n_tup_del: number; n_tup_upd: number }
interface Extra { at: number; checkpoints: number; buffersWritten: number; idxScan: number; idxTupRead: number; idxTupFetch: number }

function pct(xs: number[], p: number): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
}

async function main(): Promise<void> {
  const which = (process.argv[2] ?? 'page').split(',');
  const rounds = Number(process.argv[3] ?? 5);
  const seconds = Number(process.argv[4] ?? 5);
  const probeFile = path.join(os.tmpdir(), `greetie-portal-tail-${process.pid}.jsonl`);
  const probe = new URL('./portal-tail-probe.mjs', import.meta.url).pathname;
  // The first server round of each endpoint is also sampled by V8's heap profiler (what node allocates per request).
  const heapFile = path.join(os.tmpdir(), `greetie-portal-tail-heap-${process.pid}.json`);
  process.env.PROFILE_ENV = `${process.env.PROFILE_ENV ?? ''} PORTAL_TAIL_PROBE=${probeFile} PORTAL_TAIL_HEAP=${heapFile}`;
  process.env.PROFILE_NODE_ARGS = `${process.env.PROFILE_NODE_ARGS ?? ''} --import=${probe}`;
  const server = await profileServer('portal-tail');
  const { dataDir, baseUrl } = server;
  const stats = await server.connectStats();
  const sampler = await server.connectStats();
  try {
    const prepared = await preparePortal(baseUrl, dataDir, { redemptions: 100_000 });
    console.log(`load average ${loadavg()} after making the merchant (${prepared.prepareSeconds.toFixed(1)} s); ${prepared.settled ? `settled (${prepared.settled.passes} vacuum pass(es), dead rows left ${prepared.settled.dead})` : 'NOT settled (BENCH_PORTAL_SETTLE=0)'}`);
    await planCosts(stats, dataDir, prepared.merchantId);
    const byName: Record<string, Endpoint> = { summary: prepared.endpoints[0]!, year: prepared.endpoints[1]!, page: prepared.endpoints[2]! };
    for (const key of which) {
      const ep = byName[key]!;
      const captured = await capture(baseUrl, ep);
      const ceiling = await ceilingServer(captured);
      const reqs: Req[] = [];
      const acts: Act[] = [];
      const tables: TableRow[] = [];
      const extras: Extra[] = [];
      const windows: { from: number; to: number; p50: number; p99: number; reqPerSec: number; ceilingP50?: number; ceilingP99?: number; ceilingReqPerSec?: number }[] = [];
      let sampling = true;
      const activity$ = (async () => {
        while (sampling) {
          const { rows } = await sampler.query<{ backend_type: string; state: string | null; wait: string | null; query: string }>(
            `SELECT backend_type, state, coalesce(wait_event_type || ':' || wait_event, 'on CPU') AS wait, left(query, 120) AS query
               FROM pg_stat_activity
              WHERE pid <> pg_backend_pid() AND pid <> ${(stats as unknown as { processID: number }).processID}
                AND (backend_type LIKE 'autovacuum%' OR (datname = 'greetie' AND backend_type = 'client backend' AND state = 'active'))`,
          );
          const a: Act = { at: Date.now(), active: 0, waits: {}, autovacuum: [], fold: false };
          for (const r of rows) {
            if (r.backend_type === 'autovacuum worker') a.autovacuum.push(r.query);
            else if (r.backend_type === 'client backend') {
              a.active++;
              a.waits[r.wait ?? '?'] = (a.waits[r.wait ?? '?'] ?? 0) + 1;
              if (/portal_open_delta/.test(r.query)) a.fold = true;
            }
          }
          acts.push(a);
          await new Promise((r) => setTimeout(r, 50));
        }
      })();
      const tables$ = (async () => {
        while (sampling) {
          const at = Date.now();
          const { rows } = await stats.query<TableRow>(
            `SELECT relname, n_dead_tup::int, n_mod_since_analyze::int, autovacuum_count::int, autoanalyze_count::int, n_tup_ins::int, n_tup_del::int, n_tup_upd::int
               FROM pg_stat_user_tables WHERE relname IN ('voucher_redemption', 'mobile_user', 'merchant_staff', 'portal_open', 'portal_open_delta', 'portal_day', 'voucher', 'greetie')`,
          );
          for (const r of rows) tables.push({ ...r, at });
          const { rows: x } = await stats.query<{ checkpoints: number; buffers: number; scan: number; read: number; fetch: number }>(
            `SELECT (SELECT (num_timed + num_requested)::int FROM pg_stat_checkpointer) AS checkpoints,
                    (SELECT buffers_written::int FROM pg_stat_checkpointer) + (SELECT buffers_clean::int FROM pg_stat_bgwriter) AS buffers,
                    i.idx_scan::int AS scan, i.idx_tup_read::int AS read, i.idx_tup_fetch::int AS fetch
               FROM pg_stat_user_indexes i WHERE i.indexrelname = 'voucher_redemption_merchant_page'`,
          );
          if (x[0]) extras.push({ at, checkpoints: x[0].checkpoints, buffersWritten: x[0].buffers, idxScan: x[0].scan, idxTupRead: x[0].read, idxTupFetch: x[0].fetch });
          await new Promise((r) => setTimeout(r, 500));
        }
      })();
      try {
        await load(baseUrl, ep, { connections: 50, durationS: 1 });
        await load(ceiling.url, ep, { connections: 50, durationS: 1 });
        for (let i = 0; i < rounds; i++) {
          const from = Date.now();
          const heap = i === 0 && process.env.PORTAL_TAIL_HEAP_SAMPLE !== '0';
          if (heap) server.child.kill('SIGWINCH');
          const before = reqs.length;
          const r = await new Promise<autocannon.Result>((resolve, reject) => {
            const inst = autocannon({ url: baseUrl, connections: 50, duration: seconds, pipelining: 1, requests: [{ method: ep.method, path: ep.path, headers: ep.headers }] }, (err, res) =>
              err ? reject(err as Error) : resolve(res),
            );
            inst.on('response', (_c: unknown, _s: number, _b: number, ms: number) => reqs.push({ end: Date.now(), ms }));
          });
          if (heap) {
            server.child.kill('SIGWINCH');
            await new Promise((r) => setTimeout(r, 1500));
            if (existsSync(heapFile)) {
              const h = JSON.parse(readFileSync(heapFile, 'utf8')) as { total: number; sites: [string, number][] };
              const n = reqs.length - before;
              console.log(`\n${key}: node allocated ≈ ${(h.total / n / 1024).toFixed(1)} kB per request in round 1 (V8 sampling heap profiler, ${n} requests); the largest sites (kB per request):`);
              for (const [site, bytes] of h.sites.slice(0, 25)) console.log(`  ${(bytes / n / 1024).toFixed(2).padStart(7)}  ${site}`);
              rmSync(heapFile);
            }
          }
          const c = await load(ceiling.url, ep, { connections: 50, durationS: seconds });
          windows.push({ from, to: from + seconds * 1000, p50: r.latency.p50, p99: r.latency.p99, reqPerSec: r.requests.total / r.duration, ceilingP50: c.p50, ceilingP99: c.p99, ceilingReqPerSec: c.reqPerSec });
        }
      } finally {
        sampling = false;
        await Promise.all([activity$, tables$]);
        await ceiling.close();
      }
      report(key, windows, reqs, acts, tables, extras, probeFile);
    }
  } finally {
    await sampler.end().catch(() => {});
    await stats.end().catch(() => {});
    await server.finish();
    rmSync(probeFile, { force: true });
  }
}

/** Whether JIT could run: the portal statements' estimated total cost beside `jit_above_cost`. */
async function planCosts(stats: pg.Client, dataDir: string, merchantId: string): Promise<void> {
  const q = await import('../server/portal/queries.ts');
  const database = await openDatabase({ DATA_DIR: dataDir });
  try {
    const db = database.db;
    const { user_id: userId } = await db.selectFrom('merchant_staff').select('user_id').where('merchant_id', '=', merchantId).where('user_id', 'is not', null).executeTakeFirstOrThrow();
    const open = { from: null, to: null };
    const statements = {
      summary: q.portalSummaryQuery(userId!, merchantId, open, new Date()).compile(db),
      'first page': q.portalPageQuery(db, userId!, merchantId, open, undefined, 50).compile(db),
    };
    const { rows: settings } = await stats.query<{ name: string; setting: string }>(`SELECT name, setting FROM pg_settings WHERE name IN ('jit', 'jit_above_cost')`);
    const costs: string[] = [];
    for (const [name, c] of Object.entries(statements)) {
      const { rows } = await stats.query<{ 'QUERY PLAN': [{ Plan: { 'Total Cost': number } }] }>(`EXPLAIN (FORMAT JSON) ${c.sql}`, [...c.parameters]);
      costs.push(`${name} ${rows[0]!['QUERY PLAN'][0].Plan['Total Cost'].toFixed(1)}`);
    }
    console.log(`plans' estimated total cost: ${costs.join(', ')}; ${settings.map((x) => `${x.name}=${x.setting}`).join(', ')}`);
  } finally {
    await database.close();
  }
}

function report(key: string, windows: { from: number; to: number; p50: number; p99: number; reqPerSec: number; ceilingP50?: number; ceilingP99?: number; ceilingReqPerSec?: number }[], reqs: Req[], acts: Act[], tables: TableRow[], extras: Extra[], probeFile: string): void {
  const inWin = (t: number) => windows.some((w) => t >= w.from && t <= w.to + 500);
  console.log(`\n== ${key} (load average ${loadavg()})`);
  for (const [i, w] of windows.entries())
    console.log(`  round ${i + 1}: server ${w.reqPerSec.toFixed(0)} req/s p50 ${w.p50} p99 ${w.p99} ms | ceiling ${w.ceilingReqPerSec?.toFixed(0)} req/s p50 ${w.ceilingP50} p99 ${w.ceilingP99} ms`);
  const ms = reqs.map((r) => r.ms);
  console.log(`  all server rounds: ${reqs.length} requests, p50 ${pct(ms, 50).toFixed(1)} p90 ${pct(ms, 90).toFixed(1)} p99 ${pct(ms, 99).toFixed(1)} p99.9 ${pct(ms, 99.9).toFixed(1)} max ${Math.max(...ms).toFixed(1)} ms`);
  const slow = reqs.filter((r) => r.ms > SLOW_MS);
  // Evenly spread or in bursts: slow requests per 100 ms bin (by end time).
  const bins = new Map<number, { n: number; slow: number; max: number }>();
  for (const r of reqs) {
    const b = Math.floor(r.end / 100);
    const x = bins.get(b) ?? { n: 0, slow: 0, max: 0 };
    x.n++;
    if (r.ms > SLOW_MS) x.slow++;
    x.max = Math.max(x.max, r.ms);
    bins.set(b, x);
  }
  const slowBins = [...bins.values()].filter((b) => b.slow > 0);
  const burst = [...bins.values()].filter((b) => b.slow >= 10).reduce((a, b) => a + b.slow, 0);
  console.log(`  slow (> ${SLOW_MS} ms): ${slow.length} (${((slow.length / reqs.length) * 100).toFixed(2)} %), in ${slowBins.length} of ${bins.size} 100-ms bins; ${burst} of them in bins with ≥ 10 slow`);
  const worst = [...bins.entries()].sort((a, b) => b[1].slow - a[1].slow).slice(0, 8);
  // What the process did: GC pauses and event-loop delay.
  const probe = existsSync(probeFile) ? readFileSync(probeFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Gc | (Eld & { eld: true })) : [];
  const gcs = probe.filter((p): p is Gc => 'gc' in p && inWin(p.at));
  const elds = probe.filter((p): p is Eld & { eld: true } => 'eld' in p && inWin(p.at));
  const byKind = new Map<string, number[]>();
  for (const g of gcs) byKind.set(g.gc, [...(byKind.get(g.gc) ?? []), g.ms]);
  const total = windows.length * (windows[0] ? windows[0].to - windows[0].from : 0);
  for (const [k, xs] of byKind)
    console.log(`  node GC ${k}: ${xs.length} (${((xs.length / total) * 1000).toFixed(1)}/s), median ${pct(xs, 50).toFixed(2)} ms, max ${Math.max(...xs).toFixed(2)} ms, ${((xs.reduce((a, b) => a + b, 0) / total) * 100).toFixed(1)} % of the time`);
  const scavenges = byKind.get('scavenge')?.length ?? 0;
  const young = pct(elds.map((e) => e.newSpaceMb), 50);
  console.log(`  ${((scavenges / Math.max(1, reqs.length)) * 1000).toFixed(2)} scavenges per 1 000 requests; young generation (new space) ${young.toFixed(1)} MB: ≈ ${((scavenges * young * 1e3) / Math.max(1, reqs.length)).toFixed(0)} kB allocated per request`);
  const eldMax = elds.map((e) => e.maxMs);
  console.log(`  event-loop delay per 100 ms: median of the maxima ${pct(eldMax, 50).toFixed(1)} ms, p99 ${pct(eldMax, 99).toFixed(1)} ms, max ${Math.max(0, ...eldMax).toFixed(1)} ms; windows with max > 20 ms: ${eldMax.filter((x) => x > 20).length} of ${eldMax.length}`);
  // PostgreSQL: active backends, waits, autovacuum, the fold, checkpoints.
  const actsIn = acts.filter((a) => inWin(a.at));
  const waits = new Map<string, number>();
  for (const a of actsIn) for (const [k, v] of Object.entries(a.waits)) waits.set(k, (waits.get(k) ?? 0) + v);
  console.log(`  PostgreSQL, ${actsIn.length} samples every 50 ms: active backends mean ${(actsIn.reduce((s, a) => s + a.active, 0) / Math.max(1, actsIn.length)).toFixed(2)}, max ${Math.max(0, ...actsIn.map((a) => a.active))}; waits ${[...waits].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${(v / Math.max(1, actsIn.length)).toFixed(2)}`).join(', ')}`);
  const av = actsIn.filter((a) => a.autovacuum.length > 0);
  console.log(`  autovacuum workers seen in ${av.length} samples${av.length ? `: ${[...new Set(av.flatMap((a) => a.autovacuum))].join(' | ')}` : ''}; fold statements seen in ${actsIn.filter((a) => a.fold).length} samples`);
  const first = extras.find((e) => inWin(e.at));
  const last = [...extras].reverse().find((e) => inWin(e.at));
  if (first && last)
    console.log(`  checkpoints ${last.checkpoints - first.checkpoints}, buffers written ${last.buffersWritten - first.buffersWritten}; page index: scans ${last.idxScan - first.idxScan}, entries read ${last.idxTupRead - first.idxTupRead}, heap fetches ${last.idxTupFetch - first.idxTupFetch}`);
  const rel = new Map<string, TableRow[]>();
  for (const t of tables.filter((t) => inWin(t.at))) rel.set(t.relname, [...(rel.get(t.relname) ?? []), t]);
  for (const [name, rs] of rel) {
    const a = rs[0]!;
    const b = rs.at(-1)!;
    const changed = b.autovacuum_count - a.autovacuum_count + (b.autoanalyze_count - a.autoanalyze_count) + (b.n_tup_ins - a.n_tup_ins) + (b.n_tup_del - a.n_tup_del) + (b.n_tup_upd - a.n_tup_upd);
    console.log(`  ${name}: dead ${a.n_dead_tup}→${b.n_dead_tup}, mod since analyze ${a.n_mod_since_analyze}→${b.n_mod_since_analyze}, autovacuums +${b.autovacuum_count - a.autovacuum_count}, autoanalyzes +${b.autoanalyze_count - a.autoanalyze_count}, ins/upd/del +${b.n_tup_ins - a.n_tup_ins}/${b.n_tup_upd - a.n_tup_upd}/${b.n_tup_del - a.n_tup_del}${changed ? '' : ' (quiet)'}`);
  }
  // The worst bins, with what was going on in them (±100 ms).
  console.log(`  the 8 bins with the most slow requests (bin start, requests, slow, max ms | GC ms in ±100 ms | loop delay max | active backends | autovacuum):`);
  for (const [b, x] of worst) {
    const t0 = b * 100 - 100;
    const t1 = b * 100 + 200;
    const g = gcs.filter((p) => p.at >= t0 && p.at <= t1);
    const e = elds.filter((p) => p.at >= t0 && p.at <= t1 + 100);
    const a = actsIn.filter((p) => p.at >= t0 && p.at <= t1);
    const w = windows.findIndex((w) => b * 100 >= w.from && b * 100 <= w.to + 500);
    console.log(
      `    round ${w + 1} +${((b * 100 - (windows[w]?.from ?? 0)) / 1000).toFixed(1)} s: ${x.n} req, ${x.slow} slow, max ${x.max.toFixed(0)} | GC ${g.map((p) => `${p.gc} ${p.ms.toFixed(1)}`).join(', ') || '-'} | ELD ${Math.max(0, ...e.map((p) => p.maxMs)).toFixed(0)} | active ${a.map((p) => p.active).join('/') || '-'} | ${[...new Set(a.flatMap((p) => p.autovacuum))].join(', ') || '-'}`,
    );
  }
  // Slow requests that overlap a GC pause or a loop stall.
  const near = (r: Req, t: number, d: number) => t + d >= r.end - r.ms && t <= r.end;
  const bigGc = gcs.filter((g) => g.ms >= 5);
  const stalls = elds.filter((e) => e.maxMs > 20);
  console.log(
    `  of the slow requests: ${slow.filter((r) => bigGc.some((g) => near(r, g.at, g.ms))).length} overlap a GC pause ≥ 5 ms (${bigGc.length} such pauses), ${slow.filter((r) => stalls.some((e) => near(r, e.at - 100, 100))).length} a 100-ms window whose loop delay max > 20 ms, ${slow.filter((r) => actsIn.some((a) => a.autovacuum.length > 0 && near(r, a.at, 50))).length} an autovacuum sample`,
  );
}

main().catch((err: unknown) => {
  console.error('portal-tail failed:', err);
  process.exit(1);
});
