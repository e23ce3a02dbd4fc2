/**
 * `node --import tsx bench/ab-flows.ts <other checkout> <its dist> <this dist> [rounds] [machines]`:
 * the bench's cold /flows?machine=… draw (bench/flows.ts: navigation → the frame after the chart's
 * first state, 1400 × 900, a new context each load) for two checkouts at once, their loads
 * alternating (A, B, A, B …), so a shared machine's changing load falls on both alike (decision
 * 149). Each checkout's own server (bench/server.ts of each) serves its own built dist
 * (`npx vite build --outDir <dir>`). Prints each side's median and worst and the median of the
 * paired differences. Not part of `npm run bench`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { launchOptions } from '../tests/e2e/harness/browser.ts';
import { removeDataDir } from '../server/db/datadir.ts';
import { drawFlowsOnce, median } from './flows.ts';

type ServerModule = typeof import('./server.ts');

async function main(): Promise<void> {
  const [otherRoot, otherDist, ownDist] = process.argv.slice(2, 5);
  if (!otherRoot || !otherDist || !ownDist) throw new Error('usage: bench/ab-flows.ts <other checkout> <its dist> <this dist> [rounds] [machines]');
  const rounds = Number(process.argv[5] ?? 5);
  const machines = (process.argv[6] ?? 'payment,compose,auth').split(',');
  const work = mkdtempSync(path.join(os.tmpdir(), 'greetie-ab-flows-'));
  const sides: { name: string; mod: ServerModule; dist: string }[] = [
    { name: 'A (other)', mod: (await import(path.resolve(otherRoot, 'bench/server.ts'))) as ServerModule, dist: otherDist },
    { name: 'B (this)', mod: await import('./server.ts'), dist: ownDist },
  ];
  const servers = [];
  for (const [i, s] of sides.entries()) {
    const dataDir = path.join(work, `data-${i}`);
    servers.push({ ...s, dataDir, served: await s.mod.serve({ dataDir, staticDir: s.dist, env: { TRUST_PROXY: 'on' } }) });
  }
  const browser = await chromium.launch(launchOptions());
  const ms: number[][] = sides.map(() => []);
  try {
    const draw = (baseUrl: string, machine: string) => drawFlowsOnce(browser, baseUrl, machine);
    // One load each first, not counted (the servers' first answers).
    for (const s of servers) await draw(s.served.baseUrl, machines[0]!);
    for (let r = 0; r < rounds; r++) {
      for (const machine of machines) {
        // Which side goes first alternates too.
        const order = (r + machines.indexOf(machine)) % 2 ? [1, 0] : [0, 1];
        const got: number[] = [];
        for (const i of order) got[i] = await draw(servers[i]!.served.baseUrl, machine);
        got.forEach((v, i) => ms[i]!.push(v));
        console.log(`${machine} round ${r + 1}: A ${got[0]} ms, B ${got[1]} ms (load ${os.loadavg()[0]!.toFixed(1)})`);
      }
    }
    console.log(`\n${ms[0]!.length} loads each; load average ${os.loadavg().map((x) => x.toFixed(2)).join(', ')}`);
    sides.forEach((s, i) => console.log(`  ${s.name}: median ${median(ms[i]!)} ms, worst ${Math.max(...ms[i]!)} ms`));
    console.log(`  B − A, paired: median ${median(ms[1]!.map((b, i) => b - ms[0]![i]!))} ms`);
  } finally {
    await browser.close();
    for (const s of servers) {
      await s.mod.stop(s.served);
      removeDataDir(s.dataDir);
    }
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
