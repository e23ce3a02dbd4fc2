import coverageJson from '../../../docs/coverage/paths.json';
import { discoverMachines, readChart, type Chart, type CoverageReport } from '../../../charts/chart.ts';

/**
 * Every machine in machines/ and a flow's children in its folder (found at build time, like the tests find them) as a chart, with
 * its entry of docs/coverage/paths.json (imported at build time; regenerate with test:paths).
 */
const modules = import.meta.glob(['../../../machines/*.ts', '../../../machines/*/*.ts'], { eager: true });

export const charts: Chart[] = discoverMachines(modules).map((m) => readChart(m.machine, m.id));

export const coverage = coverageJson as CoverageReport;

export type MachineCoverage = CoverageReport['machines'][number];

export function coverageOf(id: string): MachineCoverage | undefined {
  return coverage.machines.find((m) => m.id === id);
}
