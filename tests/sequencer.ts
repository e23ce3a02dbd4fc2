import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest, slowest first (seconds on the 2-core CI machine, from a full run).
 * Vitest orders files by the durations in its cache, which a clean clone does not have: it then
 * starts the largest files, and a 50-second file that starts last keeps one worker busy while the
 * other idles. Starting these first lets the many short files fill in beside them. A file missing
 * here only runs in Vitest's own order; keep the list to the slow ones.
 */
const SLOWEST_FIRST = [
  'tests/model/machines.test.tsx', // 51 s: every model path at UI level
  'tests/reliability/fuzz.test.ts', // 50 s
  'tests/server/foundation/lifecycle.test.ts', // 43 s: starts and stops server processes
  'tests/reliability/scale-out.test.ts', // 24 s: HAProxy and three processes
  'tests/server/foundation/embedded-root.test.ts', // 24 s
  'tests/server/payment/crash.test.ts', // 19 s
  'tests/server/delivery/processes.test.ts', // 17 s
  'tests/server/portal/indexes.test.ts', // 16 s
  'tests/reliability/crash-safety.test.ts', // 13 s
  // The browser journeys (their own run, tests/e2e/vitest.config.ts).
  'tests/e2e/flows.e2e.test.ts', // 99 s
  'tests/e2e/session.e2e.test.ts', // 59 s
  // One test, sender → recipient → till on phones (decision 130): 100 s in a full run at load
  // average 19, where session took 117 s and payment (desktop only now) 66 s.
  'tests/e2e/gift.e2e.test.ts',
  'tests/e2e/compose.e2e.test.ts', // one walk at the desktop since decision 146 (both sizes took 135 s at load ~19)
  'tests/e2e/payment.e2e.test.ts', // 50 s for two walks; one now
  'tests/e2e/visitor.e2e.test.ts', // 36 s
  'tests/e2e/my.e2e.test.ts', // 33 s
];

function rank(spec: TestSpecification): number {
  const at = SLOWEST_FIRST.findIndex((path) => spec.moduleId.endsWith(path));
  return at === -1 ? SLOWEST_FIRST.length : at;
}

export class SlowestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const inVitestOrder = await super.sort(files);
    // Array.prototype.sort is stable: files of equal rank keep Vitest's order.
    return inVitestOrder.sort((a, b) => rank(a) - rank(b));
  }
}
