import { Fragment, type KeyboardEvent, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import type { Chart, ChartState, ChartTransition } from '../../../charts/chart.ts';
import type { Box, ChartLayout } from './layout.ts';
import { useChartLabels } from './labels.ts';
import * as css from './flows.css.ts';

export type Selection = { kind: 'state'; id: string } | { kind: 'transition'; key: string } | null;

export interface DiagramMarks {
  /** States to highlight as running now (live). */
  active: Set<string>;
  /** States of the current path step. */
  step: Set<string>;
  /** Transitions just taken (live) or taken by the current step. */
  taken: Set<string>;
  /** Coverage overlay; undefined when off. */
  coverage?: {
    uncoveredStates: Set<string>;
    uncoveredTransitions: Set<string>;
    /** The generated paths (numbered from 1) that take each transition, for its tooltip. */
    pathsByTransition?: ReadonlyMap<string, number[]>;
  };
  /** "Visa ändringar": state ids and transition keys added or changed since approval, and per state the parts removed there. */
  changes?: ChangeMarks;
}

export interface ChangeMarks {
  added: ReadonlySet<string>;
  changed: ReadonlySet<string>;
  removedAt: ReadonlyMap<string, number>;
}

/** The sign beside a part added (+) or changed (Δ) since approval, and a count of parts removed (−n); text besides colour and line. */
function ChangeBadge({ x, y, kind, removed, of }: { x: number; y: number; kind: 'added' | 'changed' | undefined; removed: number; of: string }) {
  const text = [kind === 'added' ? '+' : kind === 'changed' ? 'Δ' : '', removed ? `−${removed}` : ''].filter(Boolean).join(' ');
  if (!text) return null;
  const width = 10 + text.length * 7;
  return (
    // Beside the part's button, not in it: its sign is not part of the button's name (axe: label-content-name-mismatch).
    <g className={`diff-badge ${kind ?? 'removed'}`} data-for={of} aria-hidden="true">
      <rect x={x - width / 2} y={y - 9} width={width} height={18} rx={9} />
      <text x={x} y={y + 4} textAnchor="middle">
        {text}
      </text>
    </g>
  );
}

const activate = (fn: () => void) => (e: KeyboardEvent) => {
  if (e.key === 'Enter' || e.key === ' ') {
    e.preventDefault();
    fn();
  }
};

/**
 * The chart drawn as SVG from an ELK layout; states and transitions focusable and selectable.
 * `viewBox` is the part of the chart the frame shows (the frame's zoom and pan); `size` the
 * frame's size in pixels. Focusing a state or a transition reports its box, so the frame can
 * bring into view what the keyboard reached.
 */
export function Diagram({
  chart,
  layout: l,
  marks,
  selection,
  onSelect,
  viewBox,
  size,
  onFocusBox,
  svgRef,
}: {
  chart: Chart;
  layout: ChartLayout;
  marks: DiagramMarks;
  selection: Selection;
  onSelect: (s: Selection) => void;
  viewBox: Box;
  size: { width: number; height: number };
  onFocusBox?: (box: Box) => void;
  svgRef?: Ref<SVGSVGElement>;
}) {
  const { t } = useTranslation('flows');
  const labels = useChartLabels();
  const nameOf = (s: Pick<ChartState, 'id' | 'key'>) => labels.state(chart, s);
  const byId = new Map(chart.states.map((s) => [s.id, s]));
  const targetName = (id: string) => {
    const s = byId.get(id);
    return s ? nameOf(s) : id;
  };
  const title = labels.title(chart);
  const byKey = new Map(chart.transitions.map((tr) => [tr.key, tr]));
  const ch = marks.changes;
  const changeOf = (id: string) => (ch?.added.has(id) ? 'added' : ch?.changed.has(id) ? 'changed' : undefined);
  const changeText = (id: string) => {
    const kind = changeOf(id);
    const removed = ch?.removedAt.get(id) ?? 0;
    return [kind === 'added' ? t('diffAdded') : kind === 'changed' ? t('diffChanged') : '', removed ? t('diffRemovedHere', { count: removed }) : '']
      .filter(Boolean)
      .map((x) => ` (${x})`)
      .join('');
  };
  const stateLabel = (s: ChartState) =>
    `${t('state')} ${nameOf(s)}${s.type === 'final' ? ` (${t('final')})` : ''}${changeText(s.id)}: ${s.description ?? t('noDescription')}`;
  // The name starts with the text the chart shows on the edge (axe: label-content-name-mismatch).
  const transitionLabel = (tr: ChartTransition, shown: string) =>
    `${t('transition')} ${shown}, ${targetName(tr.source)} → ${tr.targets.map(targetName).join(', ') || t('stays')}${changeText(tr.key)}: ${tr.description ?? t('noDescription')}`;

  return (
    <svg
      ref={svgRef}
      className={css.svg}
      width={size.width}
      height={size.height}
      viewBox={`${viewBox.x} ${viewBox.y} ${viewBox.width} ${viewBox.height}`}
      data-chart-width={l.width}
      data-chart-height={l.height}
      role="group"
      aria-label={t('diagramLabel', { title })}
    >
      <defs>
        <marker id="flows-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
          <path d="M0,0 L10,5 L0,10 z" fill="currentColor" />
        </marker>
      </defs>
      {[...l.states]
        .sort((a, b) => a.depth - b.depth)
        .map((s) => {
          const st = s.state;
          const select = () => onSelect({ kind: 'state', id: st.id });
          const selected = selection?.kind === 'state' && selection.id === st.id;
          const cls = [
            'state',
            s.compound ? 'compound' : '',
            st.type,
            marks.coverage?.uncoveredStates.has(st.id) ? 'uncovered' : '',
            marks.active.has(st.id) ? 'active' : '',
            marks.step.has(st.id) ? 'step' : '',
            selected ? 'selected' : '',
            changeOf(st.id) ? `diff-${changeOf(st.id)}` : '',
          ].join(' ');
          const badge = <ChangeBadge x={s.x + s.width - 6} y={s.y + 2} kind={changeOf(st.id)} removed={ch?.removedAt.get(st.id) ?? 0} of={st.id} />;
          if (st.type === 'history') {
            return (
              <Fragment key={st.id}>
                <g data-state-id={st.id} className={cls} tabIndex={0} role="button" aria-pressed={selected} aria-label={stateLabel(st)} onClick={select} onKeyDown={activate(select)} onFocus={() => onFocusBox?.(s)}>
                  <title>{`${nameOf(st)} (${st.id})${st.description ? `: ${st.description}` : ''}`}</title>
                  <rect className="box" x={s.x} y={s.y} width={s.width} height={s.height} rx={s.width / 2} />
                  <text x={s.x + s.width / 2} y={s.y + s.height / 2 + 4} textAnchor="middle">
                    H
                  </text>
                </g>
                {badge}
              </Fragment>
            );
          }
          return (
            <Fragment key={st.id}>
            <g data-state-id={st.id} className={cls} tabIndex={0} role="button" aria-pressed={selected} aria-label={stateLabel(st)} onClick={select} onKeyDown={activate(select)} onFocus={() => onFocusBox?.(s)}>
              <title>{`${nameOf(st)} (${st.id})${st.description ? `: ${st.description}` : ''}`}</title>
              <rect className="box" x={s.x} y={s.y} width={s.width} height={s.height} rx={10} />
              {st.type === 'final' && <rect className="inner" x={s.x + 4} y={s.y + 4} width={s.width - 8} height={s.height - 8} rx={7} />}
              <text x={s.compound ? s.x + 12 : s.x + s.width / 2} y={s.compound ? s.y + 22 : s.y + s.height / 2 + 4} textAnchor={s.compound ? 'start' : 'middle'}>
                {nameOf(st)}
                {marks.coverage?.uncoveredStates.has(st.id) ? ' ⚠' : ''}
              </text>
            </g>
            {badge}
            </Fragment>
          );
        })}
      {/* Where each compound state (and the machine) starts: a dot and a short arrow. */}
      {l.states
        .filter((s) => s.state.parent && chart.states.find((p) => p.id === s.state.parent)?.initial === s.state.id)
        .map((s) => (
          <g key={`initial-${s.state.id}`} className="initial" aria-hidden="true">
            <circle cx={s.x - 14} cy={s.y + Math.min(20, s.height / 2)} r={4} />
            <path d={`M${s.x - 10},${s.y + Math.min(20, s.height / 2)} L${s.x - 1},${s.y + Math.min(20, s.height / 2)}`} markerEnd="url(#flows-arrow)" />
          </g>
        ))}
      {l.edges.map((e, i) => {
        const tr = byKey.get(e.key);
        if (!tr) return null;
        const cov = marks.coverage;
        const cls = [
          'edge',
          cov ? (cov.uncoveredTransitions.has(e.key) ? 'uncovered' : 'covered') : '',
          marks.taken.has(e.key) ? 'taken' : '',
          selection?.kind === 'transition' && selection.key === e.key ? 'selected' : '',
          changeOf(e.key) ? `diff-${changeOf(e.key)}` : '',
        ].join(' ');
        const d = e.points.map((p, j) => `${j ? 'L' : 'M'}${p.x},${p.y}`).join(' ');
        const select = () => onSelect({ kind: 'transition', key: e.key });
        return (
          <Fragment key={`${e.key}-${i}`}>
          <g
            data-transition-key={e.key}
            className={cls}
            tabIndex={0}
            role="button"
            aria-pressed={selection?.kind === 'transition' && selection.key === e.key}
            aria-label={transitionLabel(tr, e.label.text)}
            onClick={select}
            onKeyDown={activate(select)}
            onFocus={() => onFocusBox?.(e.label)}
          >
            <title>
              {tr.description ?? tr.label}
              {cov?.pathsByTransition?.get(e.key)?.length ? `\n${t('coveredByPaths', { paths: cov.pathsByTransition.get(e.key)!.join(', ') })}` : ''}
            </title>
            <path d={d} markerEnd="url(#flows-arrow)" />
            <rect className="label" x={e.label.x} y={e.label.y} width={e.label.width} height={e.label.height} rx={4} />
            <text x={e.label.x + 5} y={e.label.y + 13}>
              {cov?.uncoveredTransitions.has(e.key) ? '⚠ ' : ''}
              {e.label.text}
            </text>
          </g>
          <ChangeBadge x={e.label.x - 4} y={e.label.y + 2} kind={changeOf(e.key)} removed={0} of={e.key} />
          </Fragment>
        );
      })}
    </svg>
  );
}
