/**
 * npm run test:paths — generates the model-based test paths of every machine in machines/ and
 * writes the path-coverage report: docs/coverage/paths/<machine>.json (one small file per machine,
 * what /flows loads for the machine it shows) and paths/index.json (every machine's figures), paths.md, paths.html. Exits 1, naming
 * the machine and what is missing, when any state or transition is not covered. The paths are
 * then run (machine and UI) by tests/model/machines.test.tsx.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadModels } from '../tests/model/harness/load.ts';
import { coverageGaps } from '../tests/model/harness/model.ts';
import { reportFiles, toHtml, toMarkdown, toReport } from '../tests/model/harness/report.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

async function importAll(dir: string): Promise<Record<string, unknown>> {
  const files = readdirSync(join(root, dir)).filter((f) => /\.ts$/.test(f) && !/\.test\.ts$/.test(f) && !f.endsWith('.d.ts'));
  const entries = await Promise.all(files.map(async (f) => [`${dir}/${f}`, await import(pathToFileURL(join(root, dir, f)).href)] as const));
  return Object.fromEntries(entries);
}

const started = Date.now();
// A flow's child machines live in its folder (machines/compose/autosave.ts).
const folders = readdirSync(join(root, 'machines'), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => `machines/${d.name}`);
const machineModules = Object.assign({}, await importAll('machines'), ...(await Promise.all(folders.map(importAll))));
const models = loadModels(machineModules, await importAll('tests/model/hooks'));
const out = join(root, 'docs/coverage');
// The folder is written afresh, so a machine that is gone leaves no file behind.
rmSync(join(out, 'paths'), { recursive: true, force: true });
mkdirSync(join(out, 'paths'), { recursive: true });
for (const [file, text] of reportFiles(toReport(models))) writeFileSync(join(out, 'paths', file), text);
writeFileSync(join(out, 'paths.md'), toMarkdown(models));
writeFileSync(join(out, 'paths.html'), toHtml(models));

for (const m of models) {
  console.log(
    `${m.id.padEnd(16)} states ${m.states.covered}/${m.states.total}  transitions ${m.transitions.covered}/${m.transitions.total}  paths ${m.paths.length}  (explored ${m.explored} states)`,
  );
  for (const n of m.notes) console.log(`  note: ${n}`);
}
const gaps = coverageGaps(models);
console.log(`Wrote docs/coverage/paths/*.json, paths.md, paths.html in ${Date.now() - started} ms.`);
if (gaps.length) {
  console.error('\nPath coverage is incomplete:');
  for (const g of gaps) console.error(`  ✗ ${g}`);
  process.exit(1);
}
