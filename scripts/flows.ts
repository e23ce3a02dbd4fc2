/**
 * npm run flows — writes docs/flows/<machine>.md for every machine in machines/: a Mermaid
 * stateDiagram-v2 and the descriptions of its states and transitions, docs/flows/<machine>.changes.md:
 * what changed since the chart was approved (docs/flows/approved/, `npm run flows:approve`), plus docs/flows/README.md,
 * docs/flows/layouts/<machine>.json: the chart laid out by ELK in both directions, which /flows
 * draws as it is (decision 121), and docs/flows/charts/<machine>.json: the chart itself as data, with
 * docs/flows/charts/index.json listing the machines, so /flows loads only the machine it shows and never
 * the machines' code (decision 142).
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chartFile, chartIndexFile, readChart, type ChartIndex } from '../charts/chart.ts';
import { toFlowDoc } from '../charts/mermaid.ts';
import { layoutBoth } from '../charts/layout.ts';
import { labelTexts, type ChartLabels } from '../charts/labels.ts';
import { diffDoc, snapshot, type Approval } from '../charts/diff.ts';
import { loadMachines, root } from './machines.ts';

const out = join(root, 'docs/flows');
mkdirSync(join(out, 'layouts'), { recursive: true });
// Written afresh, so a machine that is gone leaves no chart behind.
rmSync(join(out, 'charts'), { recursive: true, force: true });
mkdirSync(join(out, 'charts'), { recursive: true });
const listed: ChartIndex = [];
const labels = (lang: string) => (JSON.parse(readFileSync(join(root, 'locales', lang, 'flows.json'), 'utf8')) as { charts?: ChartLabels }).charts;
const [sv, en] = [labels('sv'), labels('en')];
const index = ['# Flöden', '', 'En sida per maskin i machines/, skapad av `npm run flows`. Den levande, interaktiva versionen är appens sida /flows (med sandlådan på).', ''];
for (const m of await loadMachines()) {
  const chart = readChart(m.machine, m.id);
  writeFileSync(join(out, `${m.id}.md`), toFlowDoc(chart, m.file));
  writeFileSync(join(out, 'charts', `${m.id}.json`), chartFile(chart));
  listed.push({ id: chart.id, title: chart.title, root: chart.root });
  const approvedFile = join(out, 'approved', `${m.id}.json`);
  const approval = existsSync(approvedFile) ? (JSON.parse(readFileSync(approvedFile, 'utf8')) as Approval) : undefined;
  writeFileSync(join(out, `${m.id}.changes.md`), diffDoc(m.id, approval, snapshot(chart)));
  const layouts = await layoutBoth(chart, labelTexts(chart, sv, en));
  writeFileSync(join(out, 'layouts', `${m.id}.json`), `${JSON.stringify(layouts)}\n`);
  index.push(`- [${chart.title}](${m.id}.md) ([ändringar sedan godkännandet](${m.id}.changes.md))${chart.description ? `: ${chart.description}` : ''}`);
  console.log(`docs/flows/${m.id}.md`);
}
writeFileSync(join(out, 'README.md'), `${index.join('\n')}\n`);
writeFileSync(join(out, 'charts', 'index.json'), chartIndexFile(listed));
