import type { Db } from '../../server/db/index.ts';
import { answerProblems } from './common.ts';
import { changedTables, snapshot, type Snapshot } from './db-snapshot.ts';
import { describeReq, type Req, type Send } from './target.ts';

/**
 * The fuzzer's check of one request: send it, then no 5xx, a non-2xx answer in the error shape,
 * and a refused request leaves the database as it was (whitelist in db-snapshot.ts).
 * Throws with the request and the answer, which fast-check then shrinks.
 */
export async function makeChecker(send: Send, db: Db) {
  let before: Snapshot = await snapshot(db);
  /** False after a request `checkAnswer` sent: it may have written, so `before` is stale. */
  let current = true;
  const stats = { sent: 0, checksummed: 0, statuses: new Map<number, number>() };
  const check = async (req: Req): Promise<void> => {
    if (!current) before = await snapshot(db);
    current = true;
    const a = await send(req);
    stats.sent += 1;
    stats.checksummed += 1;
    stats.statuses.set(a.status, (stats.statuses.get(a.status) ?? 0) + 1);
    const problems = answerProblems(a);
    const after = await snapshot(db);
    if (a.status < 200 || a.status >= 300) {
      const changed = changedTables(before, after);
      if (changed.length) problems.push(`refused with ${a.status} but changed table(s): ${changed.join(', ')}`);
    }
    before = after;
    if (problems.length) {
      throw new Error(`${problems.join('; ')}\n--- request ---\n${describeReq(req)}\n--- answer ---\n${a.status} ${a.body.slice(0, 400)}`);
    }
  };
  /**
   * The answer alone (no 5xx, errors in shape), without the database checksum: for the long HTTP
   * run, where a checksum of every table after each of 100,000 requests would grow with the
   * tables the run fills (fuzz-http.test.ts checksums a share of each operation's requests).
   */
  const checkAnswer = async (req: Req): Promise<void> => {
    current = false;
    const a = await send(req);
    stats.sent += 1;
    stats.statuses.set(a.status, (stats.statuses.get(a.status) ?? 0) + 1);
    const problems = answerProblems(a);
    if (problems.length) {
      throw new Error(`${problems.join('; ')}\n--- request ---\n${describeReq(req)}\n--- answer ---\n${a.status} ${a.body.slice(0, 400)}`);
    }
  };
  const summary = () =>
    `${stats.sent} requests (${stats.checksummed} with the database checksum); answers by status: ${[...stats.statuses]
      .sort((a, b) => a[0] - b[0])
      .map(([s, n]) => `${s}×${n}`)
      .join(' ')}`;
  return { check, checkAnswer, stats, summary };
}
