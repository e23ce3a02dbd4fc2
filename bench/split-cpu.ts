/**
 * `node --import tsx bench/split-cpu.ts [path,path…] [rounds] [seconds]`: our server (`npm start`'s
 * defaults, log to a file) and the bench's ceiling replaying its answer, alternating, at 50
 * connections: req/s and the CPU per request of each process split into user and kernel (system)
 * time, from /proc (decision 162). Where the two differ tells whether the difference is in our
 * JavaScript (user) or in what we ask of the kernel (system: the socket writes, the log's writes).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../server/net.ts';
import { removeDataDir } from '../server/db/datadir.ts';
import { capture, ceilingServer, load, median } from './api.ts';
import { envPairs, startSource } from './server.ts';

function times(pid: number): { user: number; sys: number } {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return { user: Number(f[11]) / 100, sys: Number(f[12]) / 100 };
}

const targets = (process.argv[2] ?? '/api/merchant/{id}').split(',');
const ROUNDS = Number(process.argv[3] ?? 3);
const SECONDS = Number(process.argv[4] ?? 4);

async function main(): Promise<void> {
  const work = mkdtempSync(path.join(os.tmpdir(), 'greetie-split-'));
  const dataDir = path.join(work, 'data');
  const s = await startSource({ port: await freePort(), dataDir, staticDir: path.join(work, 'no-spa'), logFile: path.join(work, 'server.log'), env: envPairs(process.env.SPLIT_ENV), root: process.env.SPLIT_ROOT || undefined });
  try {
   for (const target of targets) {
    let url = target;
    if (url.includes('{id}')) {
      const [first] = (await (await fetch(`${s.baseUrl}/api/merchant`)).json()) as { id: string }[];
      url = url.replace('{id}', first!.id);
    }
    const ep = { name: url, method: 'GET' as const, path: url };
    const captured = await capture(s.baseUrl, ep);
    console.log(`${url}: ${captured.status}, body ${captured.body.length} bytes`);
    const ceiling = await ceilingServer(captured);
    const rows: Record<string, number[]> = { ours: [], ceiling: [], oursUser: [], oursSys: [], ceilUser: [], ceilSys: [] };
    try {
      await load(s.baseUrl, ep, { connections: 50, durationS: 1 });
      await load(ceiling.url, ep, { connections: 50, durationS: 1 });
      for (let r = 0; r < ROUNDS; r++) {
        for (const [side, base, pid] of [['ours', s.baseUrl, s.child.pid!], ['ceil', ceiling.url, ceiling.pid]] as const) {
          const t0 = times(pid);
          const x = await load(base, ep, { connections: 50, durationS: SECONDS });
          const t1 = times(pid);
          const u = ((t1.user - t0.user) / x.requests) * 1e6;
          const k = ((t1.sys - t0.sys) / x.requests) * 1e6;
          rows[side === 'ours' ? 'ours' : 'ceiling']!.push(x.reqPerSec);
          rows[`${side}User`]!.push(u);
          rows[`${side}Sys`]!.push(k);
          console.log(`round ${r + 1} ${side.padEnd(4)} ${x.reqPerSec.toFixed(0).padStart(6)} req/s  user ${u.toFixed(1)} µs  system ${k.toFixed(1)} µs  load ${os.loadavg()[0]!.toFixed(2)}`);
        }
      }
    } finally {
      await ceiling.close();
    }
    const m = (k: string) => median(rows[k]!).toFixed(1);
    console.log(`${target} medians: ours ${m('ours')} req/s, user ${m('oursUser')} + system ${m('oursSys')} µs; ceiling ${m('ceiling')} req/s, user ${m('ceilUser')} + system ${m('ceilSys')} µs`);
   }
  } finally {
    s.child.kill('SIGTERM');
    await s.exited;
    removeDataDir(dataDir);
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
