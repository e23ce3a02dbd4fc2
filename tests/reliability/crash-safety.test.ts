import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LONG, say } from './common.ts';
import { postgresPid, startServer, stopServer, type ServerProcess } from './server-process.ts';
import { isAlive } from '../../server/process.ts';
import { removeDataDir } from '../../server/db/datadir.ts';

/**
 * Crash safety (docs/decisions/061-reliability-suite.md): the real server on its own DATA_DIR
 * with the embedded PostgreSQL takes a burst of writes; it is killed with SIGKILL mid-burst (no
 * shutdown code runs; its PostgreSQL is left running as an orphan); it is started again on the
 * same DATA_DIR (server/db/embedded.ts must stop the leftover and take the directory over); then
 * every write that was acknowledged with 200 must be there and usable.
 *
 * The write: POST /api/auth/verificationcode, which commits a verification and its SMS (the
 * sandbox outbox is a table) before answering. "There and usable" is checked through the API:
 * the SMS is in the outbox and logging in with its code and the acknowledged token succeeds.
 * Each request comes from its own number and its own address (X-Forwarded-For, with the server
 * set up as behind a proxy: TRUST_PROXY=on), as a crowd of real users would, so the per-number and
 * per-IP limits stay out of the way without a test-only switch.
 */
const BEHIND_PROXY = { TRUST_PROXY: 'on' };
const dataDir = mkdtempSync(path.join(tmpdir(), 'greetie-crash-'));
const servers: ServerProcess[] = [];

afterAll(async () => {
  for (const s of servers) await stopServer(s).catch(() => {});
  const pid = postgresPid(dataDir);
  if (pid && isAlive(pid)) process.kill(pid, 'SIGKILL');
  removeDataDir(dataDir);
});

const KILL_AFTER = LONG ? 400 : 120;
const CONCURRENCY = 16;

function numberFor(i: number): string {
  return `+46702${String(i).padStart(6, '0')}`;
}

function ipFor(i: number): string {
  return `10.77.${(i >> 8) & 255}.${i & 255}`;
}

describe('kill -9 during a burst of writes', () => {
  it('every acknowledged write survives the crash and a restart on the same DATA_DIR', { timeout: 180_000 }, async () => {
    const first = await startServer({ dataDir, env: BEHIND_PROXY });
    servers.push(first);
    const pgBefore = postgresPid(dataDir);
    expect(pgBefore, 'the embedded PostgreSQL is running').toBeDefined();

    const acked: { mobileNumber: string; token: string }[] = [];
    let next = 0;
    let killed = false;
    let failedAfterKill = 0;
    const worker = async () => {
      while (!killed || next < KILL_AFTER + CONCURRENCY * 4) {
        const i = next++;
        if (killed && i > KILL_AFTER + CONCURRENCY * 4) break;
        const mobileNumber = numberFor(i);
        try {
          const res = await fetch(`${first.baseUrl}/api/auth/verificationcode`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-forwarded-for': ipFor(i) },
            body: JSON.stringify({ mobileNumber }),
          });
          if (res.status === 200) {
            const { token } = (await res.json()) as { token: string };
            acked.push({ mobileNumber, token });
          } else {
            throw new Error(`unexpected ${res.status}: ${await res.text()}`);
          }
        } catch (err) {
          if (!killed) throw err;
          failedAfterKill += 1;
          if (failedAfterKill > CONCURRENCY * 2) break;
        }
        if (!killed && acked.length >= KILL_AFTER) {
          killed = true;
          first.child.kill('SIGKILL'); // mid-burst: the other workers' requests are in flight
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    await first.exited;
    expect(killed).toBe(true);
    const orphan = postgresPid(dataDir);
    say(`crash safety: ${acked.length} writes acknowledged, server killed with SIGKILL; PostgreSQL left running: ${orphan && isAlive(orphan) ? `yes (pid ${orphan})` : 'no'}`);

    const second = await startServer({ dataDir, env: BEHIND_PROXY });
    servers.push(second);
    const pgAfter = postgresPid(dataDir);
    expect(pgAfter && isAlive(pgAfter)).toBe(true);
    if (orphan && orphan !== pgAfter) expect(isAlive(orphan), 'the orphaned PostgreSQL was stopped').toBe(false);

    // Every acknowledged write is there: its SMS is in the outbox, and its code logs in.
    const missing: string[] = [];
    for (const [n, w] of acked.entries()) {
      const sms = await fetch(`${second.baseUrl}/api/sandbox/sms?to=${encodeURIComponent(w.mobileNumber)}`);
      const list = (await sms.json()) as { to: string; body: string }[];
      const code = list.map((m) => /\b(\d{6})\b/.exec(m.body)?.[1]).find(Boolean);
      if (!code) {
        missing.push(`${w.mobileNumber}: no SMS`);
        continue;
      }
      // Logging in with every one would be slow for nothing: every tenth, and the last ones.
      if (n % 10 !== 0 && n < acked.length - CONCURRENCY) continue;
      const login = await fetch(`${second.baseUrl}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': ipFor(100_000 + n) },
        body: JSON.stringify({ token: w.token, code, deviceId: '00000000-0000-0000-0000-000000000000' }),
      });
      if (login.status !== 200) missing.push(`${w.mobileNumber}: login answered ${login.status} ${await login.text()}`);
    }
    expect(missing, `acknowledged writes lost or broken after the crash:\n${second.output()}`).toEqual([]);

    // A clean stop leaves nothing running.
    await stopServer(second);
    expect(second.child.exitCode).toBe(0);
    const left = postgresPid(dataDir);
    expect(left !== undefined && isAlive(left), 'PostgreSQL stopped with the server').toBe(false);
  });
});
