import { useEffect, useState } from 'react';
import { fromChartData, type Chart, type ChartIndex, type CoverageFigures, type MachineCoverage } from '../../../charts/chart.ts';
import chartIndexJson from '../../../docs/flows/charts/index.json';
import coverageIndexJson from '../../../docs/coverage/paths/index.json';
import { chartFile, chartFileNow, pathsFile, pathsFileNow } from './early.ts';

/**
 * What /flows shows of the machines, from the files `npm run flows` and `npm run test:paths`
 * generate (decision 142): the list (docs/flows/charts/index.json and the coverage figures of
 * docs/coverage/paths/index.json, small, in the page's chunk), and each machine's chart and test
 * paths, loaded only when the machine is shown (the asked one beside the page's chunk: early.ts).
 * The page never imports the machines' code.
 */

export const machines: ChartIndex = chartIndexJson;

const figures = new Map((coverageIndexJson as { machines: CoverageFigures[] }).machines.map((m) => [m.id, m]));

/** A machine's coverage figures for the list (undefined: not in the report). */
export function coverageFiguresOf(id: string): CoverageFigures | undefined {
  return figures.get(id);
}

export interface MachineData {
  chart: Chart;
  /** Its test paths and coverage; undefined when the report does not have it yet. */
  coverage: MachineCoverage | undefined;
}

const made = new Map<string, MachineData>();
const charts = new Map<string, Chart>();

/** The machine's chart if its file has arrived (one object per machine). */
function chartNow(id: string): Chart | undefined {
  const known = charts.get(id);
  if (known) return known;
  const data = chartFileNow(id);
  if (!data || data === 'pending') return undefined;
  const chart = fromChartData(data);
  charts.set(id, chart);
  return chart;
}

/** The machine's chart and paths if both have arrived (one object per machine, so what depends on it is stable). */
export function machineDataNow(id: string): MachineData | undefined {
  const known = made.get(id);
  if (known) return known;
  const chart = chartNow(id);
  const coverage = pathsFileNow(id);
  if (!chart || coverage === 'pending') return undefined;
  const out = { chart, coverage };
  made.set(id, out);
  return out;
}

/** Loads the machine's chart and paths (undefined: no such machine). */
export async function loadMachineData(id: string): Promise<MachineData | undefined> {
  await Promise.all([chartFile(id), pathsFile(id)]);
  return machineDataNow(id);
}

export type MachineState = { status: 'loading' } | { status: 'ready'; data: MachineData } | { status: 'failed' };

/** The shown machine's data: at once when it has arrived, else once loaded. */
export function useMachineData(id: string | undefined): MachineState {
  const now = id ? machineDataNow(id) : undefined;
  const [failed, setFailed] = useState<string>();
  const [, setLoaded] = useState(0);
  useEffect(() => {
    if (!id || now) return;
    let live = true;
    loadMachineData(id).then(
      (data) => live && (data ? setLoaded((n) => n + 1) : setFailed(id)),
      () => live && setFailed(id),
    );
    return () => {
      live = false;
    };
  }, [id, now]);
  if (now) return { status: 'ready', data: now };
  return failed === id ? { status: 'failed' } : { status: 'loading' };
}

/** Every machine's chart, loaded after the shown one is drawn (the approvals and the journey need them all); undefined until then. */
export function useAllCharts(ready: boolean): readonly Chart[] | undefined {
  const [charts, setCharts] = useState<readonly Chart[]>();
  useEffect(() => {
    if (!ready || charts) return;
    let live = true;
    Promise.all(machines.map((m) => chartFile(m.id).then(() => chartNow(m.id)))).then(
      (all) => live && setCharts(all.filter((c): c is Chart => c !== undefined)),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [ready, charts]);
  return charts;
}
