import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Chart } from '../../../charts/chart.ts';
import type { ChartDiff, SnapState, SnapTransition } from '../../../charts/diff.ts';
import type { Selection } from './Diagram.tsx';
import { useChartLabels } from './labels.ts';
import * as css from './flows.css.ts';

type Kind = 'added' | 'changed' | 'removed';

/** The line and sign a kind of change has on the chart, for the legend. */
function Swatch({ kind }: { kind: Kind }) {
  return (
    <svg className={`${css.diffSwatch} ${kind}`} width={28} height={12} aria-hidden="true">
      <line x1={2} y1={6} x2={26} y2={6} />
    </svg>
  );
}

/**
 * "Visa ändringar": the key to what the chart marks, and the changes since approval as a list,
 * each part still on the chart a button that selects it.
 */
export function Changes({
  chart,
  diff,
  approvedAt,
  removedAtRoot,
  onSelect,
}: {
  chart: Chart;
  diff: ChartDiff;
  approvedAt: string;
  /** Removed parts with no state left on the chart to mark them on (the machine's root is not drawn). */
  removedAtRoot: number;
  onSelect: (s: Selection) => void;
}) {
  const { t } = useTranslation('flows');
  const labels = useChartLabels();
  const byId = new Map(chart.states.map((s) => [s.id, s]));
  const stateName = (id: string) => {
    const s = byId.get(id);
    return s && s.id !== chart.root ? labels.state(chart, s) : id === chart.root ? t('wholeMachine') : id;
  };
  const stateButton = (s: SnapState) => (
    <button type="button" className={css.linkButton} onClick={() => onSelect({ kind: 'state', id: s.id })}>
      {stateName(s.id)}
    </button>
  );
  const event = (e: string) => <code>{e || t('always')}</code>;
  const transitionText = (tr: SnapTransition, names = true) => (
    <>
      {names ? stateName(tr.source) : <code>{tr.source}</code>} · {event(tr.event)}
      {tr.guard && <> [{tr.guard}]</>} → {tr.targets.length ? tr.targets.map((x) => (names ? stateName(x) : x)).join(', ') : t('stays')}
    </>
  );
  const transitionButton = (tr: SnapTransition) => (
    <button type="button" className={css.linkButton} onClick={() => tr.key && onSelect({ kind: 'transition', key: tr.key })}>
      {transitionText(tr)}
    </button>
  );
  const list = (title: string, kind: Kind, items: ReactNode[]) =>
    items.length > 0 && (
      <>
        <h4>
          <Swatch kind={kind} /> {title} ({items.length})
        </h4>
        <ul className={css.changeList}>
          {items.map((item, i) => (
            <li key={i}>{item}</li>
          ))}
        </ul>
      </>
    );
  const sign = { added: '+', changed: 'Δ', removed: '−' } as const;
  return (
    <section className={css.changes} aria-labelledby="changes-title">
      <h3 id="changes-title">{t('changesTitle', { count: diff.count, date: approvedAt })}</h3>
      <ul className={css.legend} aria-label={t('changesLegend')}>
        {(['added', 'changed', 'removed'] as const).map((k) => (
          <li key={k}>
            <Swatch kind={k} /> {sign[k]} {t(k === 'added' ? 'diffAdded' : k === 'changed' ? 'diffChanged' : 'diffRemoved')}
          </li>
        ))}
      </ul>
      {removedAtRoot > 0 && <p>− {t('removedWhole', { count: removedAtRoot })}</p>}
      {list(t('statesAdded'), 'added', diff.states.added.map((s) => <>+ {stateButton(s)}</>))}
      {list(
        t('statesChanged'),
        'changed',
        diff.states.changed.map((c) => (
          <>
            Δ {stateButton(c.after)}:{' '}
            {c.changes
              .map((k) =>
                k === 'moved'
                  ? t('stateMoved', { from: c.before.id })
                  : k === 'type'
                    ? t('stateType', { from: c.before.type, to: c.after.type })
                    : t('stateInitial', { from: c.before.initial ?? '—', to: c.after.initial ? stateName(c.after.initial) : '—' }),
              )
              .join(', ')}
          </>
        )),
      )}
      {list(t('statesRemoved'), 'removed', diff.states.removed.map((s) => <>− <code>{s.id}</code></>))}
      {list(t('transitionsAdded'), 'added', diff.transitions.added.map((tr) => <>+ {transitionButton(tr)}</>))}
      {list(
        t('transitionsChanged'),
        'changed',
        diff.transitions.changed.map((c) => (
          <>
            Δ {transitionButton(c.after)}: {c.changes.map((k) => t(`changed_${k}`)).join(', ')} ({t('before')} {transitionText(c.before, false)})
          </>
        )),
      )}
      {list(t('transitionsRemoved'), 'removed', diff.transitions.removed.map((tr) => <>− {transitionText(tr, false)}</>))}
      {diff.renamedEvents.length > 0 && (
        <>
          <h4>{t('eventsRenamed')}</h4>
          <ul className={css.changeList}>
            {diff.renamedEvents.map((r) => (
              <li key={`${r.from}→${r.to}`}>
                <code>{r.from}</code> → <code>{r.to}</code>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
