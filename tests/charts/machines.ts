import { discoverMachines, readChart, type CoverageReport, type MachineChart, type MachineCoverage } from '../../charts/chart.ts';

/**
 * For the tests: every machine in machines/ and a flow's children in its folder, read as a chart
 * from its code (found at build time, like the model tests find them), and the committed path
 * report, docs/coverage/paths/<machine>.json (regenerate with test:paths). The /flows page reads
 * neither: it loads the generated chart and paths of the machine it shows (decision 142).
 */
const modules = import.meta.glob(['../../machines/*.ts', '../../machines/*/*.ts'], { eager: true });

export const charts: MachineChart[] = discoverMachines(modules).map((m) => readChart(m.machine, m.id));

const reports = import.meta.glob<MachineCoverage>(['../../docs/coverage/paths/*.json', '!**/index.json'], { eager: true, import: 'default' });

export const coverage: CoverageReport = { machines: Object.values(reports).sort((a, b) => a.id.localeCompare(b.id)) };
