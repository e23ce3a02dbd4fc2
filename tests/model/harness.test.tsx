import { describe, expect, it } from 'vitest';
import { discoverMachines } from '../../charts/chart.ts';
import * as counter from './fixtures/counter.ts';
import * as sample from './fixtures/sample.ts';
import { toFlowDoc, toMermaid } from '../../charts/mermaid.ts';
import sampleHooks from './fixtures/sample.hooks.ts';
import sampleUi from './fixtures/sample.ui.tsx';
import { buildModel, coverageGaps } from './harness/model.ts';
import { runOnMachine } from './harness/run.ts';
import { runOnUi } from './harness/runUi.tsx';
import { toReport } from './harness/report.ts';

// The harness itself, on a fixture machine with an invoke (done and error), a delay, guarded
// branches, an eventless transition and nested states.
const [found] = discoverMachines({ 'tests/model/fixtures/sample.ts': sample });

describe('model-based test harness', () => {
  const model = buildModel(found!, sampleHooks);

  it('counts every guarded branch, done/error of the invoked actor, the delay and the eventless transition', () => {
    expect(model.transitions.total).toBe(9);
    expect(model.states.total).toBe(7);
    const keys = model.chart.transitions.map((t) => t.key);
    expect(keys).toContain('sample.checking · xstate.done.actor.checkCode [isValid] → sample.accepted');
    expect(keys).toContain('sample.checking · xstate.error.actor.checkCode → sample.rejected');
    expect(keys).toContain('sample.locked · xstate.after.expiry.sample.locked → sample.editing');
    expect(keys).toContain('sample.rejected · (always) [tooManyAttempts] → sample.locked');
  });

  it('generates paths covering every state and transition when the hooks give payloads for each branch', () => {
    expect(model.states.uncovered).toEqual([]);
    expect(model.transitions.uncovered).toEqual([]);
    expect(coverageGaps([model])).toEqual([]);
  });

  it('fails loudly, naming the machine and the missing transitions, when payloads are missing', () => {
    const bare = buildModel(found!, undefined);
    const gaps = coverageGaps([bare]);
    expect(gaps).toHaveLength(1);
    expect(gaps[0]).toMatch(/^Machine "sample"/);
    expect(gaps[0]).toContain('sample.editing · user.type [isComplete] → sample.editing.complete');
    expect(bare.notes.join('\n')).toMatch(/user\.type threw .*payload sample/);
  });

  it('writes steps testers can read, from the descriptions of states and transitions', () => {
    const texts = model.paths.flatMap((p) => p.steps.map((s) => s.text));
    expect(texts).toContain('Start: Not all four digits yet.');
    expect(texts.some((t) => t.startsWith('checkCode misslyckades') && t.includes('The request failed.'))).toBe(true);
    const report = toReport([model]);
    expect(Object.keys(report.machines[0]!)).toEqual(['id', 'title', 'states', 'transitions', 'paths']);
  });

  it('falls back to state values when context makes the states endless, and says what to do', () => {
    const [c] = discoverMachines({ 'tests/model/fixtures/counter.ts': counter });
    const m = buildModel(c!, { limit: 50 });
    expect(m.notes.join('\n')).toMatch(/More than 50 distinct states.*serializeState/);
    expect(coverageGaps([m])).toEqual([]);
  });

  it('writes a Mermaid stateDiagram-v2 with every state and every transition, and the descriptions', () => {
    const mermaid = toMermaid(model.chart);
    expect(mermaid.split('\n')[0]).toBe('stateDiagram-v2');
    expect(mermaid).toContain('state editing {');
    expect(mermaid).toContain('checking --> accepted: checkCode klar [isValid]');
    expect(mermaid).toContain('locked --> editing: efter expiry');
    expect(mermaid).toContain('rejected --> locked: direkt [tooManyAttempts]');
    expect(mermaid.split('\n').filter((l) => l.includes(' --> ') && !l.includes('[*]'))).toHaveLength(model.transitions.total);
    const doc = toFlowDoc(model.chart, 'tests/model/fixtures/sample.ts');
    expect(doc).toContain('```mermaid');
    expect(doc).toContain('| `sample.locked` | Locked for a while after too many attempts. |');
  });

  describe.each(model.paths.map((p, i) => [`${i + 1}. ${p.description}`, p] as const))('path %s', (_name, path) => {
    it('machine: the actor follows it with fake actors and a simulated clock', async () => {
      await runOnMachine(model, path);
    });
    it('ui: the user sees each state', async () => {
      await runOnUi(model, sampleUi, path);
    });
  });
});
