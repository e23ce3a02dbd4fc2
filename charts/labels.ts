import { humanize, type Chart, type ChartState } from './chart.ts';

/**
 * The product's names for a chart and its states: locales/<lang>/flows.json, under `charts`,
 * keyed by machine id (the export name without `Machine`) and by the state's path below the
 * machine's root (`unauthenticated.loggingIn`). Descriptions stay in the machines. Pure, so the
 * page, `npm run flows` (which sizes the boxes for the longest label) and the tests share it.
 */

export interface ChartTexts {
  title?: string;
  states?: Record<string, string>;
}

/** The `charts` object of one language's flows.json. */
export type ChartLabels = Record<string, ChartTexts | undefined>;

/** A state's path below its machine's root: the key of its label. */
export function statePath(chart: Pick<Chart, 'root'>, stateId: string): string {
  return stateId === chart.root ? '' : stateId.startsWith(`${chart.root}.`) ? stateId.slice(chart.root.length + 1) : stateId;
}

/** A code name as words, only the first capitalised: `handingOver` → "Handing over". */
export function readable(code: string): string {
  const words = humanize(code);
  return words.charAt(0) + words.slice(1).toLowerCase();
}

/** The machine's title; without one, a readable form of its id ("Sms outbox"). */
export function chartTitle(labels: ChartLabels | undefined, chart: Pick<Chart, 'id'>): string {
  return labels?.[chart.id]?.title ?? readable(chart.id);
}

/** The state's short label; without one, a readable form of its code name ("Handing over"). */
export function stateLabel(labels: ChartLabels | undefined, chart: Pick<Chart, 'id' | 'root'>, state: Pick<ChartState, 'id' | 'key'>): string {
  return labels?.[chart.id]?.states?.[statePath(chart, state.id)] ?? readable(state.key);
}

/** What a language lacks: `<machine>` for a missing title, `<machine>: <state path>` for a state. */
export function missingLabels(labels: ChartLabels | undefined, charts: Pick<Chart, 'id' | 'root' | 'states'>[]): string[] {
  return charts.flatMap((c) => [
    ...(labels?.[c.id]?.title ? [] : [c.id]),
    ...c.states.filter((s) => s.id !== c.root && !labels?.[c.id]?.states?.[statePath(c, s.id)]).map((s) => `${c.id}: ${statePath(c, s.id)}`),
  ]);
}

/** A state's label in each of the given languages: what its box must hold. */
export function labelTexts(chart: Pick<Chart, 'id' | 'root'>, ...languages: (ChartLabels | undefined)[]) {
  return (state: Pick<ChartState, 'id' | 'key'>): string[] => languages.map((l) => stateLabel(l, chart, state));
}
