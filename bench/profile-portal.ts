/**
 * `node --import tsx bench/profile-portal.ts [redemptions] [seconds]`: where a merchant portal
 * read spends its time (issue 26 "Speed"; decision 123). Starts the real server (`node --import
 * tsx server/main.ts`, embedded PostgreSQL, default settings) on a fresh DATA_DIR, makes the
 * bench's portal merchant (bench/portal.ts `preparePortal`, default 100 000 redemptions), then
 * loads each of the three portal endpoints with autocannon at 50 connections for `seconds` (10)
 * and prints for each: req/s and latencies, node and PostgreSQL CPU per request, transactions and
 * WAL fsyncs per request (pg_stat_database, pg_stat_io), and what the server's connections were
 * doing, sampled every 20 ms from pg_stat_activity (active, idle, idle in transaction; the wait
 * events of the active ones), and the statements per request (pg_stat_statements).
 * PROFILE=1 runs node under --cpu-prof and prints bench/profile.ts's summary of the profile.
 * PROFILE_ENV='K=V …' passes settings to the server (DATABASE_POOL_SIZE=…); PROFILE_ROOT=<dir>
 * runs the server of another checkout (an A/B: the code before a change, on the same machine
 * minutes apart); PROFILE_ACTIVITY=0 leaves the pg_stat_activity sampler out. PostgreSQL's CPU
 * per request leaves out the profiler's own two connections (decision 127: at a few hundred
 * requests a second the sampler alone was a large share of it). Not part of `npm run bench`.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import autocannon from 'autocannon';
import { cpuSeconds, profileServer } from './server.ts';
import { preparePortal } from './portal.ts';
import { summariseProfile } from './profile.ts';

async function main(): Promise<void> {
  const redemptions = Number(process.argv[2] ?? 100_000);
  const seconds = Number(process.argv[3] ?? 10);
  // pg_stat_statements on (a restart loads it), with planning time per statement.
  const server = await profileServer('portal');
  await server.withStatements();
  const { dataDir, child, baseUrl: base } = server;
  const stats = await server.connectStats();
  const sampler = await server.connectStats();
  const windows: { from: number; to: number }[] = [];
  try {
    const { rows: settings } = await stats.query<{ name: string; setting: string }>(
      `SELECT name, setting FROM pg_settings WHERE name IN ('synchronous_commit', 'fsync', 'max_connections', 'shared_buffers', 'wal_sync_method')`,
    );
    console.log(`PostgreSQL: ${settings.map((s) => `${s.name}=${s.setting}`).join(', ')}`);
    const prepared = await preparePortal(base, dataDir, { redemptions });
    console.log(`${redemptions} redemptions over ${prepared.vouchers} vouchers made in ${prepared.prepareSeconds.toFixed(1)} s; load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
    if (process.env.PROFILE_EXPLAIN === '1') {
      // The plans of the portal's queries as the server runs them (the rows the bench made).
      const { openDatabase } = await import('../server/admin/connection.ts');
      const q = await import('../server/portal/queries.ts');
      const database = await openDatabase({ DATA_DIR: dataDir });
      try {
        const id = prepared.merchantId;
        const day = (d: Date) => d.toLocaleDateString('sv-SE', { timeZone: 'Europe/Stockholm' });
        const year = { from: day(new Date(Date.now() - 365 * 86_400_000)), to: day(new Date(Date.now() + 86_400_000)) };
        const owner = await database.db.selectFrom('merchant_staff').select('user_id').where('merchant_id', '=', id).where('user_id', 'is not', null).executeTakeFirstOrThrow();
        const userId = owner.user_id!;
        const plans = {
          summary: q.portalSummaryQuery(userId, id, { from: null, to: null }, new Date()).compile(database.db),
          'summary, a year': q.portalSummaryQuery(userId, id, year, new Date()).compile(database.db),
          'first page': q.portalPageQuery(database.db, userId, id, { from: null, to: null }, undefined, 50).compile(database.db),
        };
        for (const [name, c] of Object.entries(plans)) {
          const { rows } = await database.db.executeQuery<{ 'QUERY PLAN': string }>({ ...c, sql: `EXPLAIN (ANALYZE, BUFFERS) ${c.sql}` });
          console.log(`\n${name}:\n${rows.map((r) => r['QUERY PLAN']).join('\n')}`);
        }
      } finally {
        await database.close();
      }
    }
    const counters = async () => {
      const { rows } = await stats.query<{ commits: string; syncs: string | null }>(
        `SELECT (SELECT xact_commit FROM pg_stat_database WHERE datname = 'greetie') AS commits,
                (SELECT sum(fsyncs) FROM pg_stat_io WHERE object = 'wal') AS syncs`,
      );
      return { commits: Number(rows[0]!.commits), syncs: Number(rows[0]!.syncs ?? 0) };
    };
    // The profiler's own backends (the counters and the sampler) are not the server's work.
    const pgCpu = () => server.pgCpu([stats, sampler]);
    const activity = process.env.PROFILE_ACTIVITY !== '0';
    for (const ep of prepared.endpoints) {
      await autocannon({ url: base + ep.path, connections: 50, duration: 1, headers: ep.headers });
      await stats.query('SELECT pg_stat_statements_reset()');
      const c0 = await counters();
      const [node0, pg0] = [cpuSeconds(child.pid!), pgCpu()];
      // What the server's own connections are doing (not ours), every 20 ms during the load.
      const seen = new Map<string, number>();
      let samples = 0;
      let sampling = activity;
      const sampling$ = (async () => {
        while (sampling) {
          const { rows } = await sampler.query<{ state: string | null; wait: string | null; n: number }>(
            `SELECT state, CASE WHEN state = 'active' THEN coalesce(wait_event_type || ':' || wait_event, 'on CPU') END AS wait, count(*)::int AS n
               FROM pg_stat_activity
              WHERE datname = 'greetie' AND backend_type = 'client backend' AND pid <> pg_backend_pid() AND pid <> ${(stats as unknown as { processID: number }).processID}
                AND query NOT ILIKE 'LISTEN%'
              GROUP BY 1, 2`,
          );
          samples++;
          for (const r of rows) {
            const k = r.state === 'active' ? `active (${r.wait})` : (r.state ?? '?');
            seen.set(k, (seen.get(k) ?? 0) + r.n);
          }
          await new Promise((r) => setTimeout(r, 20));
        }
      })();
      const w = { from: Number(process.hrtime.bigint() / 1000n), to: 0 };
      const r = await autocannon({ url: base + ep.path, connections: 50, duration: seconds, headers: ep.headers });
      w.to = Number(process.hrtime.bigint() / 1000n);
      windows.push(w);
      sampling = false;
      await sampling$;
      const [node1, pg1] = [cpuSeconds(child.pid!), pgCpu()];
      const c1 = await counters();
      const n = r.requests.total;
      const per = (s: number) => `${((s / n) * 1e6).toFixed(0)} µs`;
      console.log(`\n${ep.name} (load average ${os.loadavg()[0]!.toFixed(2)}):`);
      console.log(`  ${(n / r.duration).toFixed(0)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, max ${r.latency.max} ms; non-2xx ${r.non2xx}, errors ${r.errors}`);
      console.log(`  CPU per request: node ${per(node1 - node0)}, PostgreSQL ${per(pg1 - pg0)} (node ${(node1 - node0).toFixed(2)} s, PostgreSQL ${(pg1 - pg0).toFixed(2)} s of ${r.duration} s)`);
      console.log(`  transactions ${((c1.commits - c0.commits) / n).toFixed(2)} per request, WAL fsyncs ${((c1.syncs - c0.syncs) / n).toFixed(3)} per request`);
      if (samples > 0) console.log(`  the server's connections, mean over ${samples} samples:`);
      for (const [k, v] of [...seen].sort((a, b) => b[1] - a[1])) console.log(`    ${(v / samples).toFixed(2).padStart(6)}  ${k}`);
      const { rows: st } = await stats.query<{ calls: string; plans: string; exec: number; plan: number; query: string }>(
        `SELECT calls, plans, total_exec_time / calls * 1000 AS exec, CASE WHEN plans > 0 THEN total_plan_time / plans * 1000 ELSE 0 END AS plan, query
           FROM pg_stat_statements
          WHERE calls >= ${Math.floor(n / 4)} ORDER BY calls DESC, total_exec_time DESC LIMIT 10`,
      );
      console.log(`  statements (calls per request, plans per call, plan µs per plan, exec µs per call):`);
      for (const q of st)
        console.log(
          `    ${(Number(q.calls) / n).toFixed(2)}×  plans ${(Number(q.plans) / Number(q.calls)).toFixed(2)}  plan ${q.plan.toFixed(0).padStart(5)} µs  exec ${q.exec.toFixed(0).padStart(5)} µs  ${q.query.replace(/\s+/g, ' ').slice(0, 100)}`,
        );
    }
  } finally {
    await sampler.end().catch(() => {});
    await stats.end().catch(() => {});
    const kept = await server.finish();
    if (kept && windows.length > 0) {
      const p = JSON.parse(readFileSync(kept, 'utf8')) as Parameters<typeof summariseProfile>[0];
      console.log(`\nprofile of all three loads:\n${summariseProfile(p, 30, { from: windows[0]!.from, to: windows.at(-1)!.to })}`);
      console.log(`\nprofile kept at ${kept}`);
    }
  }
}

main().catch((err: unknown) => {
  console.error('profile failed:', err);
  process.exit(1);
});
