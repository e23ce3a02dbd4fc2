import { mkdtempSync, readFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { connect, type DatabaseHandle } from '../../server/db/index.ts';
import { answerProblems, LONG, runSeed, say } from './common.ts';
import { badRequestFor, strayRequest, type FuzzContext } from './arbitraries.ts';
import { makeChecker } from './checker.ts';
import { postgresPid, startServer, stopServer, type ServerProcess } from './server-process.ts';
import { isAlive } from '../../server/process.ts';
import { prepare } from './suite.ts';
import { httpTarget, type Req } from './target.ts';
import { clusterDirOf, readPostmaster, removeDataDir } from '../../server/db/datadir.ts';

/**
 * The long run only (`npm run test:reliability`): the same fuzzing as fuzz.test.ts, but over real
 * HTTP against the spawned production server (`node --import tsx server/main.ts`, embedded
 * PostgreSQL), so Node's HTTP parser, keep-alive and the process itself are in the loop. The
 * database checksum reads the server's own embedded database. At the end the process must still
 * be alive and answering, and stop cleanly.
 */
/** Bytes on a socket, as they are; the whole answer until the server closes or 3 s pass. */
function rawHttp(baseUrl: string, raw: string): Promise<string> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname, () => socket.write(raw));
    let out = '';
    socket.setTimeout(3000, () => socket.destroy());
    socket.on('data', (c: Buffer) => (out += c.toString('utf8')));
    socket.on('close', () => resolve(out));
    socket.on('error', reject);
  });
}

const SEED = runSeed();
/** The long run keeps going, 0 5xx over ≥ 100,000 requests to the real process. */
const TOTAL = Number(process.env.FUZZ_HTTP_RUNS) || 100_000;
/**
 * Of those, how many also get the database checksum ("a refused request changes nothing"),
 * spread over every operation: each operation's first share of requests. The checksum reads
 * every table, which the run keeps filling, so after every one of 100,000 requests it would cost
 * more than the requests; 10,000 is the count the long run checksummed before.
 */
const CHECKSUMMED = Math.min(TOTAL, Number(process.env.FUZZ_HTTP_CHECKSUMS) || 10_000);

describe.skipIf(!LONG)(`fuzzing the spawned server over HTTP (seed ${SEED})`, () => {
  let dataDir: string | undefined;
  let server: ServerProcess | undefined;
  let db: DatabaseHandle | undefined;

  afterAll(async () => {
    await db?.close();
    if (server) await stopServer(server).catch(() => {});
    if (!dataDir) return;
    const pid = postgresPid(dataDir);
    if (pid && isAlive(pid)) process.kill(pid, 'SIGKILL');
    removeDataDir(dataDir);
  });

  it('no 5xx, errors in shape, refused requests change nothing, and the process survives', { timeout: 7_200_000 }, async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'greetie-fuzz-http-'));
    // Behind a proxy (TRUST_PROXY=on): each fuzz request's X-Forwarded-For is its caller.
    server = await startServer({ dataDir, env: { TRUST_PROXY: 'on' }, timeoutMs: 240_000 });
    const port = readPostmaster(clusterDirOf(dataDir))?.port;
    const password = readFileSync(path.join(dataDir, 'pg-password'), 'utf8').trim();
    db = connect(`postgres://greetie:${encodeURIComponent(password)}@127.0.0.1:${port}/greetie`, { max: 2 });
    const send = httpTarget(server.baseUrl);
    const prepared = await prepare(send);
    const ctx: FuzzContext = { validTokens: prepared.users.map((u) => u.token), knownIds: prepared.knownIds, knownStrings: prepared.knownStrings };
    const perProperty = Math.ceil(TOTAL / (prepared.ops.length + 1));
    const checkedPerProperty = Math.ceil(CHECKSUMMED / (prepared.ops.length + 1));
    say(
      `reliability fuzz over HTTP: seed ${SEED} (replay: FUZZ_SEED=${SEED}); ${prepared.ops.length} operations × ${perProperty} + ${perProperty} stray ` +
        `(the first ${checkedPerProperty} of each with the database checksum)`,
    );
    const { check, checkAnswer, stats, summary } = await makeChecker(send, db.db);
    // Each property's first checkedPerProperty runs get the checksum too, the rest the answer checks.
    const checker = () => {
      let n = 0;
      return (req: Req) => (n++ < checkedPerProperty ? check(req) : checkAnswer(req));
    };
    const started = Date.now();
    try {
      for (const [i, op] of prepared.ops.entries()) {
        await fc.assert(
          fc.asyncProperty(badRequestFor(op, ctx), checker()),
          { seed: SEED + i + 1, numRuns: perProperty },
        );
      }
      await fc.assert(
        fc.asyncProperty(strayRequest, checker()),
        { seed: SEED, numRuns: perProperty },
      );
    } finally {
      const errors = [...stats.statuses].filter(([status]) => status >= 500).reduce((n, [, count]) => n + count, 0);
      say(`reliability fuzz over HTTP: ${summary()}; ${errors} answers 5xx; ${Math.round((Date.now() - started) / 1000)} s`);
    }
    // Every property ran to its count: the total asked for was sent (a 5xx would have stopped the run).
    expect(stats.sent).toBeGreaterThanOrEqual(TOTAL);
    // What Node's HTTP parser refuses before Fastify sees it: still the error shape.
    for (const raw of [
      'GET /api/health HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n',
      `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      'POST /api/auth/logout HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      'GARBAGE\r\n\r\n',
    ]) {
      const answer = await rawHttp(server.baseUrl, raw);
      const [head = '', body = ''] = answer.split('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
      const type = /content-type: ([^\r\n]+)/i.exec(head)?.[1] ?? '';
      expect(answerProblems({ status, headers: { 'content-type': type }, body }), `${JSON.stringify(raw.slice(0, 80))} → ${answer.slice(0, 300)}`).toEqual([]);
    }

    expect(server.child.exitCode, `the server exited:\n${server.output()}`).toBeNull();
    const health = await fetch(`${server.baseUrl}/api/health`);
    expect(health.status).toBe(200);
    await db.close();
    db = undefined;
    await stopServer(server);
    expect(server.child.exitCode).toBe(0);
  });
});
