import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { resolveTarget } from '../server/admin/connection.ts';
import { connect, ensureDatabase, migrateToLatest } from '../server/db/index.ts';
import { encodeCursor } from '../server/merchant/rules.ts';
import { freePort } from '../server/net.ts';
import { measureAgainstCeiling, type Endpoint, type EndpointResult } from './api.ts';
import { fillLargeCatalogue } from './catalogue-data.ts';
import { startSource } from './server.ts';

/**
 * Search as the catalogue grows (issue 28): 10 000 merchants and 100 000 products in a database of
 * their own (not the demo data: `greetie_search_bench` beside it, in the same embedded PostgreSQL),
 * filled by the same generator as the search EXPLAIN tests (bench/catalogue-data.ts), served by a
 * second server process of the bench's build (`node --import tsx server/main.ts`, production
 * defaults, DATABASE_URL pointing at it). Then autocannon (the bench's process) at
 * BENCH_CONNECTIONS, BENCH_ROUNDS rounds alternating with the ceiling as the API figures are, on:
 * - the first page of `GET /api/merchant/v2?q=ka` (two letters: too short for a trigram, the name
 *   index walked in page order) and `?q=fika` (a word, matching product names): as served, so
 *   from the catalogue cache after the first request, which is what a popular search costs;
 * - the next page of `q=ka` through `nextCursor` (pages of 10: its 21 hits fit one page of 24), as
 *   served (cached the same way);
 * - next pages from 500 different places in the list (cursors of random merchants, `q=fika`): a
 *   person paging from anywhere. Until decision 151 each cursor was a cache key of its own and ran
 *   the query; now the search's hits are held and each cursor finds its page among them (every
 *   cursor between the same two hits is one cached page).
 * The gate is p99 ≤ 20 ms on each; a miss fails the bench.
 */

export const SEARCH_BENCH_DATABASE = 'greetie_search_bench';

export interface SearchBenchResult {
  available: true;
  merchants: number;
  products: number;
  prepareSeconds: number;
  results: EndpointResult[];
}

export async function benchSearch(
  dataDir: string,
  staticDir: string,
  opts: { merchants: number; connections: number; rounds: number; durationS: number; log: (s: string) => void },
): Promise<SearchBenchResult> {
  const t0 = performance.now();
  const target = resolveTarget({ DATA_DIR: dataDir });
  if (target.kind !== 'running') throw new Error(`the bench's server is not running its database (${target.kind})`);
  const url = await ensureDatabase(target.url, SEARCH_BENCH_DATABASE);
  const handle = connect(url, { max: 2 });
  let merchants: number;
  let products: number;
  let keysets: { name: string; id: string }[];
  try {
    await migrateToLatest(handle.db);
    await fillLargeCatalogue(handle.db, opts.merchants);
    const { rows } = await sql<{ m: number; p: number }>`SELECT (SELECT count(*) FROM merchant)::int AS m, (SELECT count(*) FROM product)::int AS p`.execute(handle.db);
    merchants = rows[0]!.m;
    products = rows[0]!.p;
    const { rows: ks } = await sql<{ name: string; id: string }>`SELECT name, id FROM merchant WHERE active ORDER BY random() LIMIT 500`.execute(handle.db);
    keysets = ks;
  } finally {
    await handle.close();
  }
  const prepareSeconds = (performance.now() - t0) / 1000;
  opts.log(`  search: ${merchants} merchants, ${products} products in ${SEARCH_BENCH_DATABASE}, made in ${prepareSeconds.toFixed(1)} s`);

  const work = mkdtempSync(path.join(tmpdir(), 'greetie-search-bench-'));
  const server = await startSource({ port: await freePort(), dataDir: path.join(work, 'data'), staticDir, logFile: path.join(work, 'server.log'), env: { DATABASE_URL: url } });
  const results: EndpointResult[] = [];
  try {
    const first = async (query: string) => (await (await fetch(`${server.baseUrl}/api/merchant/v2?${query}`)).json()) as { items: unknown[]; nextCursor: string | null };
    // The next page of the two-letter search; its 21 hits fit one page of 24, so pages of 10.
    const ka = await first('q=ka&limit=10');
    const next = ka.nextCursor ? { query: `q=ka&limit=10&cursor=${ka.nextCursor}` } : undefined;
    let n = 0;
    const endpoints: (Endpoint | { name: string; unavailable: string })[] = [
      { name: 'GET /api/merchant/v2?q=ka (first page)', method: 'GET', path: '/api/merchant/v2?q=ka' },
      { name: 'GET /api/merchant/v2?q=fika (first page)', method: 'GET', path: '/api/merchant/v2?q=fika' },
      next
        ? { name: 'GET /api/merchant/v2?q=ka&limit=10&cursor= (its next page)', method: 'GET', path: `/api/merchant/v2?${next.query}` }
        : { name: 'GET /api/merchant/v2?q=ka&limit=10&cursor= (its next page)', unavailable: `q=ka has no second page of 10 (${ka.items.length} hits)` },
      {
        name: 'GET /api/merchant/v2?q=fika&cursor= (500 places)',
        method: 'GET',
        path: `/api/merchant/v2?q=fika&cursor=${encodeCursor(keysets[0]!)}`,
        setupRequest: (req) => ({ ...req, path: `/api/merchant/v2?q=fika&cursor=${encodeCursor(keysets[n++ % keysets.length]!)}` }),
      },
    ];
    for (const ep of endpoints) {
      if ('unavailable' in ep) {
        results.push({ endpoint: ep.name, available: false, why: ep.unavailable });
        continue;
      }
      opts.log(`  ${ep.name}: ${opts.rounds} rounds × (server ${opts.durationS}s, ceiling ${opts.durationS}s) at ${opts.connections} connections`);
      const result = await measureAgainstCeiling(server.baseUrl, ep, opts);
      results.push(result);
      const sum = result.summary;
      if (!sum) continue;
      opts.log(`    ${sum.reqPerSec.toFixed(0)} req/s (ceiling ${sum.ceilingReqPerSec.toFixed(0)}), p50 ${sum.p50.toFixed(1)} ms, p99 ${sum.p99} ms (ceiling ${sum.ceilingP99} ms), non-2xx/errors ${sum.non2xx}`);
    }
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
    rmSync(work, { recursive: true, force: true });
  }
  return { available: true, merchants, products, prepareSeconds, results };
}
