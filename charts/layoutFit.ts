import type { Chart } from './chart.ts';
import type { StoredLayout } from './layout.ts';

/** Whether a stored layout draws this chart: every state but the root and every drawn transition, nothing else. */
export function fitsChart(layout: StoredLayout, chart: Chart): boolean {
  const states = new Set(chart.states.filter((s) => s.id !== chart.root).map((s) => s.id));
  const keys = new Set(chart.transitions.filter((t) => t.source !== chart.root).map((t) => t.key));
  const laid = new Set(layout.states.map((s) => s.id));
  const edges = new Set(layout.edges.map((e) => e.key));
  return laid.size === states.size && [...states].every((s) => laid.has(s)) && edges.size === keys.size && [...keys].every((k) => edges.has(k));
}
