/**
 * npm run flows:approve <machine> [<machine> …] — records each machine's chart as it is now as
 * approved, in docs/flows/approved/<machine>.json (commit it), and rewrites its
 * docs/flows/<machine>.changes.md. `--all` approves every machine. /flows and the changes docs
 * compare the chart with this file (charts/diff.ts).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readChart } from '../charts/chart.ts';
import { approvalOf, diffDoc, snapshot } from '../charts/diff.ts';
import { loadMachines, root } from './machines.ts';

const args = process.argv.slice(2);
const machines = await loadMachines();
const wanted = args.includes('--all') ? machines.map((m) => m.id) : args;
const unknown = wanted.filter((id) => !machines.some((m) => m.id === id));
if (!wanted.length || unknown.length) {
  console.error(`${unknown.length ? `no such machine: ${unknown.join(', ')}\n` : ''}usage: npm run flows:approve <machine> [<machine> …] | --all\nmachines: ${machines.map((m) => m.id).join(', ')}`);
  process.exit(2);
}

function commit(): { id: string; dirty: boolean } | undefined {
  try {
    const git = (...a: string[]) => execFileSync('git', a, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    return { id: git('rev-parse', 'HEAD'), dirty: git('status', '--porcelain', '--', 'machines').length > 0 };
  } catch {
    return undefined; // not a git checkout: the date alone
  }
}

const at = commit();
const today = new Date().toISOString().slice(0, 10);
mkdirSync(join(root, 'docs/flows/approved'), { recursive: true });
for (const m of machines.filter((x) => wanted.includes(x.id))) {
  const chart = readChart(m.machine, m.id);
  const approval = approvalOf(chart, today, at);
  writeFileSync(join(root, 'docs/flows/approved', `${m.id}.json`), `${JSON.stringify(approval, null, 2)}\n`);
  writeFileSync(join(root, 'docs/flows', `${m.id}.changes.md`), diffDoc(m.id, approval, snapshot(chart)));
  console.log(`docs/flows/approved/${m.id}.json: ${approval.states.length} states, ${approval.transitions.length} transitions approved`);
}
