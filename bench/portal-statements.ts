/**
 * `node --import tsx bench/portal-statements.ts [redemptions] [calls] [rounds]`: PostgreSQL's own
 * CPU per portal read, statement by statement (issue 26 "Speed"; decision 150). Makes the bench's
 * portal merchant (bench/portal.ts `preparePortal`) on the real server's embedded PostgreSQL, then
 * on ONE connection of its own runs each statement `calls` times in a row as a named prepared
 * statement (as the server sends it) and reads that backend's utime + stime from /proc before and
 * after: the CPU PostgreSQL spends per call (parse-free Bind/Execute, the implicit transaction, the
 * plan, the rows), which hardly depends on the machine's load, unlike req/s and p99. Beside the
 * server's statements (queries.ts, as compiled there) it runs `SELECT 1` (the fixed cost of a round
 * trip's statement) and the variants in `VARIANTS` below, so a change can be weighed before it is
 * made. Rounds alternate the statements (noise shows as the spread). STMT_BASE=<checkout> adds that
 * checkout's summary and first page (an A/B on the same data; STMT_VARIANTS=0 leaves the variants
 * out, STMT_WHATIF=1 adds the what-ifs below). Not part of `npm run bench`.
 */
import os from 'node:os';
import { cpuSeconds, profileServer } from './server.ts';
import { preparePortal } from './portal.ts';

async function main(): Promise<void> {
  const redemptions = Number(process.argv[2] ?? 100_000);
  const calls = Number(process.argv[3] ?? 1000);
  const rounds = Number(process.argv[4] ?? 3);
  const server = await profileServer('statements');
  const client = await server.connectStats();
  try {
    const prepared = await preparePortal(server.baseUrl, server.dataDir, { redemptions });
    const { openDatabase } = await import('../server/admin/connection.ts');
    const q = await import('../server/portal/queries.ts');
    const database = await openDatabase({ DATA_DIR: server.dataDir });
    const id = prepared.merchantId;
    const { rows: owner } = await client.query<{ user_id: string }>(`SELECT user_id FROM merchant_staff WHERE merchant_id = $1 AND user_id IS NOT NULL`, [id]);
    const userId = owner[0]!.user_id;
    const day = (d: Date) => d.toLocaleDateString('sv-SE', { timeZone: 'Europe/Stockholm' });
    const year = { from: day(new Date(Date.now() - 365 * 86_400_000)), to: day(new Date(Date.now() + 86_400_000)) };
    const open = { from: null, to: null };
    const compiled = (c: { sql: string; parameters: readonly unknown[] }) => ({ text: c.sql, values: [...c.parameters] });
    const statements: Record<string, { text: string; values: unknown[] }> = {
      'SELECT 1': { text: 'SELECT 1', values: [] },
      summary: compiled(q.portalSummaryQuery(userId, id, open, new Date()).compile(database.db)),
      'summary, a year': compiled(q.portalSummaryQuery(userId, id, year, new Date()).compile(database.db)),
      'first page': compiled(q.portalPageQuery(database.db, userId, id, open, undefined, 50).compile(database.db)),
    };
    if (process.env.STMT_BASE) {
      // Another checkout's statements (an A/B in one process and one database: this checkout's schema).
      const b = (await import(`${process.env.STMT_BASE}/server/portal/queries.ts`)) as typeof q;
      statements['summary (base)'] = compiled(b.portalSummaryQuery(userId, id, open, new Date()).compile(database.db));
      statements['summary, a year (base)'] = compiled(b.portalSummaryQuery(userId, id, year, new Date()).compile(database.db));
      statements['first page (base)'] = compiled(b.portalPageQuery(database.db, userId, id, open, undefined, 50).compile(database.db));
    }
    // `via` is 'code' or 'qr' (a CHECK): quoted by hand instead of to_json (weighed, not used).
    const page = statements['first page']!;
    statements['first page, via quoted by hand'] = { ...page, text: page.text.replace('to_json(p.via)::text', `'"' || p.via || '"'`) };
    if (process.env.STMT_VARIANTS !== '0') for (const [name, text] of Object.entries(VARIANTS)) statements[name] = { text, values: [userId, id] };
    await database.close();
    if (process.env.STMT_WHATIF === '1') {
      for (const ddl of WHATIF) await client.query(ddl);
      for (const [name, text] of Object.entries(WHATIF_VARIANTS)) statements[name] = { text, values: [userId, id] };
    }
    const pid = (client as unknown as { processID: number }).processID;
    const results = new Map<string, number[]>();
    for (let round = 0; round < rounds; round++) {
      for (const [name, s] of Object.entries(statements)) {
        const named = { name: `b${Object.keys(statements).indexOf(name)}`, text: s.text, values: s.values };
        for (let i = 0; i < 20; i++) await client.query(named);
        const c0 = cpuSeconds(pid);
        const t0 = performance.now();
        for (let i = 0; i < calls; i++) await client.query(named);
        const wall = (performance.now() - t0) / calls;
        const cpu = ((cpuSeconds(pid) - c0) / calls) * 1e6;
        results.set(name, [...(results.get(name) ?? []), cpu]);
        console.log(`round ${round + 1}  ${name.padEnd(34)} PostgreSQL ${cpu.toFixed(0).padStart(5)} µs CPU per call, wall ${(wall * 1000).toFixed(0).padStart(5)} µs (load average ${os.loadavg()[0]!.toFixed(2)})`);
      }
    }
    console.log('\nmedian of the rounds:');
    for (const [name, v] of results) console.log(`  ${name.padEnd(34)} ${[...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!.toFixed(0).padStart(5)} µs   (${v.map((x) => x.toFixed(0)).join(' / ')})`);
  } finally {
    await client.end().catch(() => {});
    await server.finish();
  }
}

/** Candidate statements ($1 the user, $2 the merchant), weighed beside the server's own. */
const VARIANTS: Record<string, string> = {
  'page: rows only, joins': `SELECT r.id, r.voucher_id, p.name, r.amount, r.redeemed_at, r.via, r.undone_at IS NOT NULL AS undone
     FROM voucher_redemption r JOIN voucher v ON v.id = r.voucher_id JOIN product p ON p.id = v.product_id
    WHERE r.merchant_id = $2 AND $1::uuid IS NOT NULL ORDER BY r.redeemed_at DESC, r.id DESC LIMIT 51`,
  'page: rows only, no joins': `SELECT r.id, r.voucher_id, r.amount, r.redeemed_at, r.via, r.undone_at IS NOT NULL AS undone
     FROM voucher_redemption r
    WHERE r.merchant_id = $2 AND $1::uuid IS NOT NULL ORDER BY r.redeemed_at DESC, r.id DESC LIMIT 51`,
  'page: one pass, joins': `SELECT (SELECT true FROM mobile_user u WHERE u.id = $1::uuid) AS signed_in,
      (SELECT s.role FROM merchant_staff s WHERE s.user_id = $1::uuid AND s.merchant_id = $2) AS role, x.*
     FROM (SELECT coalesce(string_agg('{"id":"' || r.id || '","voucherId":"' || r.voucher_id || '","productName":' || to_json(r.name)::text ||
                     ',"amount":' || r.amount || ',"redeemedAt":"' || to_char(r.redeemed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') ||
                     '","via":' || to_json(r.via)::text || ',"undone":' || r.undone || '}', ',' ORDER BY r.redeemed_at DESC, r.id DESC) FILTER (WHERE r.n <= 50), '') AS items,
                  max(r.n) AS n
             FROM (SELECT r.id, r.voucher_id, p.name, r.amount, r.redeemed_at, r.via, r.undone_at IS NOT NULL AS undone, row_number() OVER () AS n
                     FROM voucher_redemption r JOIN voucher v ON v.id = r.voucher_id JOIN product p ON p.id = v.product_id
                    WHERE r.merchant_id = $2 ORDER BY r.redeemed_at DESC, r.id DESC LIMIT 51) r) x`,
  'page: one pass, no joins': `SELECT (SELECT true FROM mobile_user u WHERE u.id = $1::uuid) AS signed_in,
      (SELECT s.role FROM merchant_staff s WHERE s.user_id = $1::uuid AND s.merchant_id = $2) AS role, x.*
     FROM (SELECT coalesce(string_agg('{"id":"' || r.id || '","voucherId":"' || r.voucher_id || '","productName":"x"' ||
                     ',"amount":' || r.amount || ',"redeemedAt":"' || to_char(r.redeemed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') ||
                     '","via":' || to_json(r.via)::text || ',"undone":' || r.undone || '}', ',' ORDER BY r.redeemed_at DESC, r.id DESC) FILTER (WHERE r.n <= 50), '') AS items,
                  max(r.n) AS n
             FROM (SELECT r.id, r.voucher_id, r.amount, r.redeemed_at, r.via, r.undone_at IS NOT NULL AS undone, row_number() OVER () AS n
                     FROM voucher_redemption r
                    WHERE r.merchant_id = $2 ORDER BY r.redeemed_at DESC, r.id DESC LIMIT 51) r) x`,
  'summary: gate only': `SELECT (SELECT true FROM mobile_user u WHERE u.id = $1::uuid) AS signed_in,
      (SELECT s.role FROM merchant_staff s WHERE s.user_id = $1::uuid AND s.merchant_id = $2) AS role`,
  'summary: portal_day only': `SELECT coalesce(sum(d.issued_count), 0)::int, coalesce(sum(d.redeemed_amount), 0)::int FROM portal_day d WHERE d.merchant_id = $2 AND $1::uuid IS NOT NULL`,
  'summary: portal_open + delta only': `SELECT coalesce(sum(o.n) FILTER (WHERE o.day > current_date), 0), coalesce(sum(o.amount) FILTER (WHERE o.day < current_date), 0)
     FROM (SELECT p.expires_day, p.open_count, p.open_amount FROM portal_open p WHERE p.merchant_id = $2
           UNION ALL SELECT p.expires_day, p.open_count, p.open_amount FROM portal_open_delta p WHERE p.merchant_id = $2) AS o (day, n, amount)
    WHERE $1::uuid IS NOT NULL`,
};

/** STMT_WHATIF=1: a stored product name, a stored item and a covering index, made here only to weigh them. */
const WHATIF = [
  `ALTER TABLE voucher_redemption ADD COLUMN w_name text, ADD COLUMN w_at text, ADD COLUMN w_item text`,
  `UPDATE voucher_redemption r SET w_name = p.name, w_at = to_char(r.redeemed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
          w_item = '{"id":"' || r.id || '","voucherId":"' || r.voucher_id || '","productName":' || to_json(p.name)::text || ',"amount":' || r.amount ||
                   ',"redeemedAt":"' || to_char(r.redeemed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '","via":' || to_json(r.via)::text || ',"undone":'
     FROM voucher v JOIN product p ON p.id = v.product_id WHERE v.id = r.voucher_id`,
  `CREATE INDEX w_cover ON voucher_redemption (merchant_id, redeemed_at DESC, id DESC) INCLUDE (voucher_id, w_name, amount, via, undone_at)`,
  `VACUUM ANALYZE voucher_redemption`,
];
const gateCols = `(SELECT true FROM mobile_user u WHERE u.id = $1::uuid) AS signed_in,
      (SELECT s.role FROM merchant_staff s WHERE s.user_id = $1::uuid AND s.merchant_id = $2) AS role`;
const cteShape = (rows: string, item: string) => `SELECT ${gateCols}, x.items, x.next_at, x.next_id
      FROM (WITH p AS (SELECT r.*, row_number() OVER (ORDER BY r.redeemed_at DESC, r.id DESC) AS n FROM (${rows}) r)
            SELECT (SELECT coalesce(string_agg(${item}, ',' ORDER BY p.n), '') FROM p WHERE p.n <= 50) AS items,
                   (SELECT to_char(p.redeemed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') FROM p WHERE p.n = 50 AND EXISTS (SELECT 1 FROM p WHERE p.n > 50)) AS next_at,
                   (SELECT p.id FROM p WHERE p.n = 50 AND EXISTS (SELECT 1 FROM p WHERE p.n > 50)) AS next_id) x`;
const fullItem = (name: string, at: string) => `'{"id":"' || p.id || '","voucherId":"' || p.voucher_id || '","productName":' || to_json(${name})::text ||
      ',"amount":' || p.amount || ',"redeemedAt":"' || ${at} || '","via":' || to_json(p.via)::text || ',"undone":' || p.undone || '}'`;
const WHATIF_VARIANTS: Record<string, string> = {
  'W page: stored name, covering': cteShape(
    `SELECT r.id, r.voucher_id, r.w_name, r.amount, r.redeemed_at, r.via, r.undone_at IS NOT NULL AS undone FROM voucher_redemption r WHERE r.merchant_id = $2 ORDER BY r.redeemed_at DESC, r.id DESC LIMIT 51`,
    fullItem('p.w_name', `to_char(p.redeemed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`),
  ),
  'W page: stored name + at text': cteShape(
    `SELECT r.id, r.voucher_id, r.w_name, r.w_at, r.amount, r.redeemed_at, r.via, r.undone_at IS NOT NULL AS undone FROM voucher_redemption r WHERE r.merchant_id = $2 ORDER BY r.redeemed_at DESC, r.id DESC LIMIT 51`,
    fullItem('p.w_name', 'p.w_at'),
  ),
  'W page: stored item': cteShape(
    `SELECT r.id, r.w_item, r.redeemed_at, r.undone_at IS NOT NULL AS undone FROM voucher_redemption r WHERE r.merchant_id = $2 ORDER BY r.redeemed_at DESC, r.id DESC LIMIT 51`,
    `p.w_item || p.undone || '}'`,
  ),
  'W rows: stored name, covering': `SELECT r.id, r.voucher_id, r.w_name, r.amount, r.redeemed_at, r.via, r.undone_at IS NOT NULL AS undone FROM voucher_redemption r WHERE r.merchant_id = $2 AND $1::uuid IS NOT NULL ORDER BY r.redeemed_at DESC, r.id DESC LIMIT 51`,
};

main().catch((err: unknown) => {
  console.error('portal-statements failed:', err);
  process.exit(1);
});
