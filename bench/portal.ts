import { sql, type Kysely } from 'kysely';
import { openDatabase } from '../server/admin/connection.ts';
import type { Database } from '../server/db/schema.ts';
import { foldPortalOpen } from '../server/portal/fold.ts';
import { upsertStaff } from '../server/portal/queries.ts';
import { measureAgainstCeiling, type Endpoint, type EndpointResult } from './api.ts';
import { signInWithNumber } from './auth.ts';

/**
 * The merchant portal at 100 000 redemptions (issue 26 "Speed"; decision 113): a merchant of its
 * own in the bench's database (not the demo data) with BENCH_PORTAL_REDEMPTIONS redemptions
 * (100 000) over a tenth as many value vouchers issued over the last year (10 redemptions each,
 * one in ten undone, a cancelled greetie in 500, the oldest vouchers expired), its owner signed in
 * over HTTP; then autocannon (in the bench's process; the server is its own process) on the
 * summary without a period, the summary over the last year (the most rows of the rollup a period
 * reads), and the first page of redemptions, each alternating round by round with the ceiling
 * (bare node:http replaying the same answer) as the API figures are.
 */

export interface PortalBenchResult {
  available: true;
  merchantId: string;
  redemptions: number;
  vouchers: number;
  prepareSeconds: number;
  /** What settling the loaded tables left (undefined: measured straight after the load). */
  settled: Settled | undefined;
  /** The summary's redeemed figures equal the redemptions counted one by one. */
  correct: boolean;
  results: EndpointResult[];
}

export interface PreparedPortal {
  merchantId: string;
  vouchers: number;
  prepareSeconds: number;
  /** The owner's access token. */
  token: string;
  /** The redemptions not undone, counted one by one in SQL. */
  expected: { count: number; amount: number };
  /** The summary, the summary over the last year, the first page of redemptions. */
  endpoints: Endpoint[];
  /** What settling the loaded tables left (undefined: not settled; `settle: false` or BENCH_PORTAL_SETTLE=0). */
  settled: Settled | undefined;
}

/**
 * The bench merchant with `redemptions` redemptions written straight into the server's database
 * (see above), its owner signed in, and the three endpoints to load. Also used by
 * bench/profile-portal.ts.
 */
export async function preparePortal(baseUrl: string, dataDir: string, opts: { redemptions: number; settle?: boolean }): Promise<PreparedPortal> {
  const t0 = performance.now();
  const vouchers = Math.ceil(opts.redemptions / 10);
  const { token, mobileNumber } = await signInWithNumber(baseUrl);
  const database = await openDatabase({ DATA_DIR: dataDir });
  let merchantId: string;
  let expected: { count: number; amount: number };
  let settled: Settled | undefined;
  try {
    const db = database.db;
    const { rows: m } = await sql<{ id: string }>`
      INSERT INTO merchant (name, logo_url, category, sources, code_hash)
      VALUES ('Bänkens Handel', 'https://example.invalid/logo.png', 'Bench', ARRAY['InStore'], 'bench-not-a-code')
      RETURNING id`.execute(db);
    merchantId = m[0]!.id;
    const { rows: p } = await sql<{ id: string }>`
      INSERT INTO product (merchant_id, name, source, min_amount, max_amount, valid_days)
      VALUES (${merchantId}, 'Presentkort', 'InStore', 10000, 100000, 300)
      RETURNING id`.execute(db);
    const productId = p[0]!.id;
    // Senders (a greetie needs one), the greeties (one voucher each, issued over the last year).
    await sql`
      INSERT INTO mobile_user (mobile_number)
      SELECT '+4672' || lpad(g::text, 7, '0') FROM generate_series(1, 200) AS g
      ON CONFLICT DO NOTHING`.execute(db);
    await sql`
      INSERT INTO greetie (ref_id, sender_id, recipient_number, status, total, created_at, updated_at, cancelled_at)
      SELECT 'benchportal' || lpad(g::text, 12, '0'), u.ids[1 + g % array_length(u.ids, 1)], '+4674' || lpad((g % 5000)::text, 7, '0'),
             CASE WHEN g % 500 = 0 THEN 'cancelled' ELSE 'delivered' END, 50000,
             now() - g * ${(365 * 86_400) / vouchers}::float8 * interval '1 second', now(), CASE WHEN g % 500 = 0 THEN now() END
        FROM generate_series(1, ${vouchers}) AS g
       CROSS JOIN (SELECT array_agg(id) AS ids FROM mobile_user WHERE mobile_number LIKE '+4672%') u`.execute(db);
    await sql`
      INSERT INTO greetie_gift (greetie_id, position, product_id, amount, created_at)
      SELECT g.id, 0, ${productId}, 50000, g.created_at FROM greetie g WHERE g.ref_id LIKE 'benchportal%'`.execute(db);
    // Issued as the payment does: every voucher in one statement (the rollup's triggers run).
    await sql`
      INSERT INTO voucher (greetie_id, gift_id, merchant_id, product_id, source, amount, expires_at, created_at)
      SELECT gg.greetie_id, gg.id, ${merchantId}, gg.product_id, 'InStore', gg.amount, gg.created_at + interval '300 days', gg.created_at
        FROM greetie_gift gg WHERE gg.product_id = ${productId}`.execute(db);
    // 10 redemptions of 10 kr per voucher, an hour apart; one in ten undone a minute later.
    await sql`
      INSERT INTO voucher_redemption (voucher_id, merchant_id, amount, via, redeemed_at, undone_at)
      SELECT v.id, v.merchant_id, 1000, CASE WHEN n % 3 = 0 THEN 'qr' ELSE 'code' END,
             least(v.created_at + make_interval(hours => n), now() - make_interval(secs => n)),
             CASE WHEN (v.r + n) % 10 = 0 THEN least(v.created_at + make_interval(hours => n), now() - make_interval(secs => n)) + interval '1 minute' END
        FROM (SELECT id, merchant_id, created_at, row_number() OVER (ORDER BY id) AS r FROM voucher WHERE merchant_id = ${merchantId}) v
       CROSS JOIN generate_series(1, 10) AS n
       LIMIT ${opts.redemptions}`.execute(db);
    await sql`
      UPDATE voucher v SET balance = v.amount - r.taken
        FROM (SELECT voucher_id, sum(amount)::int AS taken FROM voucher_redemption WHERE merchant_id = ${merchantId} AND undone_at IS NULL GROUP BY voucher_id) r
       WHERE r.voucher_id = v.id`.execute(db);
    await upsertStaff(db, merchantId, mobileNumber, 'owner');
    settled = (opts.settle ?? process.env.BENCH_PORTAL_SETTLE !== '0') ? await settle(db) : undefined;
    const { rows: e } = await sql<{ count: number; amount: number }>`
      SELECT count(*)::int AS count, coalesce(sum(amount), 0)::int AS amount FROM voucher_redemption WHERE merchant_id = ${merchantId} AND undone_at IS NULL`.execute(db);
    expected = e[0]!;
  } finally {
    await database.close();
  }
  const prepareSeconds = (performance.now() - t0) / 1000;
  const headers = { authorization: `Bearer ${token}` };
  const base = `/api/portal/merchants/${merchantId}`;
  const day = (d: Date) => d.toLocaleDateString('sv-SE', { timeZone: 'Europe/Stockholm' });
  const from = day(new Date(Date.now() - 365 * 86_400_000));
  const to = day(new Date(Date.now() + 86_400_000));
  const endpoints: Endpoint[] = [
    { name: 'GET /api/portal/merchants/{id}/summary', method: 'GET', path: `${base}/summary`, headers },
    { name: 'GET /api/portal/merchants/{id}/summary?from=&to= (a year)', method: 'GET', path: `${base}/summary?from=${from}&to=${to}`, headers },
    { name: 'GET /api/portal/merchants/{id}/redemptions (first page)', method: 'GET', path: `${base}/redemptions`, headers },
  ];
  return { merchantId, vouchers, prepareSeconds, token, expected, endpoints, settled };
}

/** What `settle` left: dead rows in the tables the portal reads, and how many vacuum passes it took. */
export interface Settled {
  dead: number;
  passes: number;
}

/** The tables the bench wrote and the portal's reads touch. */
const BENCH_TABLES = ['mobile_user', 'merchant_staff', 'greetie', 'greetie_gift', 'voucher', 'voucher_redemption', 'portal_day', 'portal_open', 'portal_open_delta'];

/**
 * The state a real merchant's tables are in, not the minute after a bulk load (decision 155): the
 * deltas folded (what the server's fold does within 10 s), then the whole database vacuumed and
 * analysed, and again for as long as a dead row is left (a snapshot taken before the load, e.g.
 * an autovacuum ANALYZE that started during it, keeps VACUUM from removing rows, which autovacuum
 * then removes inside the measured window). Without it the first minutes of the measurement
 * include autovacuum and autoanalyze of the just-loaded tables, the catalogue's vacuum after the
 * migrations, and the re-planning of every prepared statement each ANALYZE causes: work a real
 * merchant's reads do not share. BENCH_PORTAL_SETTLE=0 measures without it.
 */
async function settle(db: Kysely<Database>): Promise<Settled> {
  await foldPortalOpen(db);
  let passes = 0;
  let dead = 0;
  for (; passes < 10; passes++) {
    await sql.raw(passes === 0 ? 'VACUUM (ANALYZE)' : `VACUUM ${BENCH_TABLES.join(', ')}`).execute(db);
    const { rows } = await sql<{ dead: number }>`
      SELECT coalesce(sum(n_dead_tup), 0)::int AS dead FROM pg_stat_user_tables WHERE relname IN (${sql.join(BENCH_TABLES)})`.execute(db);
    dead = rows[0]!.dead;
    if (dead === 0) break;
    await new Promise((r) => setTimeout(r, 1000));
  }
  return { dead, passes: passes + 1 };
}

export async function benchPortal(
  baseUrl: string,
  dataDir: string,
  opts: { redemptions: number; connections: number; rounds: number; durationS: number; log: (s: string) => void },
): Promise<PortalBenchResult> {
  const { merchantId, vouchers, prepareSeconds, token, expected, endpoints, settled } = await preparePortal(baseUrl, dataDir, opts);
  opts.log(`  portal: a merchant with ${opts.redemptions} redemptions over ${vouchers} vouchers made in ${prepareSeconds.toFixed(1)} s`);
  opts.log(
    settled
      ? `  portal: settled as a real merchant's tables are (deltas folded, VACUUM (ANALYZE) of the database, ${settled.passes} pass(es); dead rows left ${settled.dead}); BENCH_PORTAL_SETTLE=0 measures straight after the load`
      : '  portal: NOT settled (BENCH_PORTAL_SETTLE=0): autovacuum and autoanalyze of the just-loaded tables fall inside the measurement',
  );
  const headers = { authorization: `Bearer ${token}` };

  const summary = (await (await fetch(baseUrl + endpoints[0]!.path, { headers })).json()) as { redeemed?: { count: number; amount: number } };
  const correct = summary.redeemed?.count === expected.count && summary.redeemed.amount === expected.amount;
  if (!correct) opts.log(`  portal: the summary's redeemed ${JSON.stringify(summary.redeemed)} is not the ${JSON.stringify(expected)} counted one by one`);

  const results: EndpointResult[] = [];
  for (const ep of endpoints) {
    opts.log(`  ${ep.name}: ${opts.rounds} rounds × (server ${opts.durationS}s, ceiling ${opts.durationS}s) at ${opts.connections} connections`);
    const result = await measureAgainstCeiling(baseUrl, ep, opts);
    results.push(result);
    const sum = result.summary;
    if (!sum) continue;
    opts.log(`    ${sum.reqPerSec.toFixed(0)} req/s (ceiling ${sum.ceilingReqPerSec.toFixed(0)}), p50 ${sum.p50} ms, p99 ${sum.p99} ms, non-2xx/errors ${sum.non2xx}`);
  }
  return { available: true, merchantId, redemptions: opts.redemptions, vouchers, prepareSeconds, settled, correct, results };
}
