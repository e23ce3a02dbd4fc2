/**
 * npm run flows — writes docs/flows/<machine>.md for every machine in machines/: a Mermaid
 * stateDiagram-v2 and the descriptions of its states and transitions, plus docs/flows/README.md,
 * and docs/flows/layouts/<machine>.json: the chart laid out by ELK in both directions, which /flows
 * draws as it is (decision 121).
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { discoverMachines, readChart } from '../charts/chart.ts';
import { toFlowDoc } from '../charts/mermaid.ts';
import { layoutBoth } from '../charts/layout.ts';
import { labelTexts, type ChartLabels } from '../charts/labels.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// Every machine in machines/, and a flow's child machines in its folder (machines/compose/autosave.ts).
const dirs = ['machines', ...readdirSync(join(root, 'machines'), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => `machines/${d.name}`)];
const files = dirs.flatMap((dir) => readdirSync(join(root, dir)).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.endsWith('.d.ts')).map((f) => `${dir}/${f}`));
const modules = Object.fromEntries(await Promise.all(files.map(async (f) => [f, await import(pathToFileURL(join(root, f)).href)] as const)));
const out = join(root, 'docs/flows');
mkdirSync(join(out, 'layouts'), { recursive: true });
const labels = (lang: string) => (JSON.parse(readFileSync(join(root, 'locales', lang, 'flows.json'), 'utf8')) as { charts?: ChartLabels }).charts;
const [sv, en] = [labels('sv'), labels('en')];
const index = ['# Flöden', '', 'En sida per maskin i machines/, skapad av `npm run flows`. Den levande, interaktiva versionen är appens sida /flows (med sandlådan på).', ''];
for (const m of discoverMachines(modules)) {
  const chart = readChart(m.machine, m.id);
  writeFileSync(join(out, `${m.id}.md`), toFlowDoc(chart, m.file));
  const layouts = await layoutBoth(chart, labelTexts(chart, sv, en));
  writeFileSync(join(out, 'layouts', `${m.id}.json`), `${JSON.stringify(layouts)}\n`);
  index.push(`- [${chart.title}](${m.id}.md)${chart.description ? `: ${chart.description}` : ''}`);
  console.log(`docs/flows/${m.id}.md`);
}
writeFileSync(join(out, 'README.md'), `${index.join('\n')}\n`);
