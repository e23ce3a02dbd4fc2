import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toFlowDoc } from '../../charts/mermaid.ts';
import { reportFiles, toReport } from './harness/report.ts';
import { loadModels } from './harness/load.ts';
import { coverageGaps } from './harness/model.ts';
import { runOnMachine } from './harness/run.ts';
import { runOnUi } from './harness/runUi.tsx';
import type { UiBinding } from './harness/types.ts';

/**
 * Model-based tests generated from every machine in machines/ (and a flow's children in its folder): no per-machine code here. A new
 * machine is picked up as it lands; its hooks (tests/model/hooks/<id>.ts) give payload samples
 * and its UI binding (tests/model/ui/<id>.tsx) says how the user drives and sees it.
 */
const models = loadModels(
  // A flow's child machines live in its folder (machines/compose/autosave.ts).
  import.meta.glob(['../../machines/*.ts', '../../machines/*/*.ts'], { eager: true }),
  import.meta.glob('./hooks/*.ts', { eager: true }),
);
// UI bindings load lazily: one that cannot load (its page is not written yet) fails only its own
// UI tests, never the machine-level ones.
const bindings = new Map(
  Object.entries(import.meta.glob<{ default: UiBinding }>('./ui/*.tsx')).map(([file, load]) => [/([^/]+)\.tsx$/.exec(file)![1]!, load]),
);

it('finds the machines', () => {
  expect(models.length).toBeGreaterThan(0);
});

// The committed report and flow docs are what testers, product owners and /flows read: they must
// say what the machines say now.
it('docs/coverage/paths/ is up to date: a file per machine and the index (npm run test:paths writes them)', () => {
  const dir = join(process.cwd(), 'docs/coverage/paths');
  const wanted = reportFiles(toReport(models));
  const extra = (existsSync(dir) ? readdirSync(dir) : []).filter((f) => !wanted.has(f));
  expect(extra, 'docs/coverage/paths/ holds files of machines that are gone: run npm run test:paths').toEqual([]);
  for (const [file, text] of wanted) {
    const path = join(dir, file);
    expect(existsSync(path), `docs/coverage/paths/${file} is missing: run npm run test:paths`).toBe(true);
    expect(JSON.parse(readFileSync(path, 'utf8')), `docs/coverage/paths/${file} is stale: run npm run test:paths`).toEqual(JSON.parse(text));
  }
});

it.each(models.map((m) => [m.id, m] as const))('docs/flows/%s.md is up to date (npm run flows writes it)', (id, model) => {
  const file = join(process.cwd(), 'docs/flows', `${id}.md`);
  expect(existsSync(file), `docs/flows/${id}.md is missing: run npm run flows`).toBe(true);
  expect(readFileSync(file, 'utf8'), `docs/flows/${id}.md is stale: run npm run flows`).toBe(toFlowDoc(model.chart, model.file));
});

describe.each(models.map((m) => [m.id, m] as const))('machine %s', (id, model) => {
  it('has generated paths covering every state and transition', () => {
    expect(coverageGaps([model]).join('\n')).toBe('');
  });

  const binding = bindings.get(id);
  describe.each(model.paths.map((p, i) => [`${i + 1}. ${p.description}`, p] as const))('path %s', (_name, path) => {
    it('machine: a real actor follows it (fake actors, simulated clock)', async () => {
      await runOnMachine(model, path);
    });
    if (binding) {
      it('ui: the user can take it and sees each state', async (ctx) => {
        const ui = (await binding()).default;
        const reason = ui.skip?.(path);
        if (reason) ctx.skip(`machine level only: ${reason}`);
        await runOnUi(model, ui, path);
      });
    } else {
      it.todo(`ui: no UI binding yet (tests/model/ui/${id}.tsx)`);
    }
  });
});
