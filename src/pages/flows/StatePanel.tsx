import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Chart, ChartState } from '../../../charts/chart.ts';
import { statePath } from '../../../charts/labels.ts';
import type { DiagramMarks, Selection } from './Diagram.tsx';
import { isBackground } from './background.ts';
import { useChartLabels } from './labels.ts';
import { pictureOf } from './shots.ts';
import * as css from './flows.css.ts';

/**
 * The selected state, announced (a labelled region that speaks its changes): its label and code
 * name, its description, the ways in and out (each other end a button that selects it), the test
 * paths through it, and the slot for a picture of the page in that state.
 */
export function StatePanel({
  chart,
  selection,
  onSelect,
  uncovered,
  covering,
}: {
  chart: Chart;
  selection: Selection;
  onSelect: (s: Selection) => void;
  uncovered: DiagramMarks['coverage'];
  covering: ReactNode;
}) {
  const { t } = useTranslation('flows');
  const labels = useChartLabels();
  const state = selection?.kind === 'state' ? chart.states.find((s) => s.id === selection.id) : undefined;
  const byId = new Map(chart.states.map((s) => [s.id, s]));
  const stateButton = (id: string) => {
    const s = byId.get(id);
    if (!s || s.id === chart.root) return <span>{t('wholeMachine')}</span>;
    return (
      <button type="button" className={css.linkButton} onClick={() => onSelect({ kind: 'state', id })}>
        {labels.state(chart, s)}
      </button>
    );
  };

  return (
    <section className={css.details} role="region" aria-label={t('panelLabel')} aria-live="polite">
      {state ? selected(state) : <p>{t('selectHint')}</p>}
    </section>
  );

  function selected(state: ChartState) {
    const into = chart.transitions.filter((tr) => tr.targets.includes(state.id) && tr.source !== state.id);
    const out = chart.transitions.filter((tr) => tr.source === state.id);
    const parent = state.parent ? byId.get(state.parent) : undefined;
    const startsHere = parent?.initial === state.id;
    return (
      <>
        <h3 className={css.panelTitle}>
          {t('state')} {labels.state(chart, state)}
        </h3>
        <p className={css.codeName}>
          {t('codeName')} <code>{state.id}</code>
        </p>
        <p>{state.description ?? t('noDescription')}</p>
        {state.invokes.length > 0 && <p>{t('runs', { actors: state.invokes.map((i) => i.src).join(', ') })}</p>}
        {uncovered?.uncoveredStates.has(state.id) && <p role="alert">{t('stateUncovered')}</p>}
        <h4 className={css.coveringTitle}>{t('waysIn')}</h4>
        {into.length === 0 && !startsHere ? (
          <p>{t('noWaysIn')}</p>
        ) : (
          <ul className={css.coveringList}>
            {startsHere && parent && <li>{parent.id === chart.root ? t('startsMachine') : t('startsIn', { parent: labels.state(chart, parent) })}</li>}
            {into.map((tr) => (
              <li key={tr.key}>
                {stateButton(tr.source)} <code>{tr.label}</code>
              </li>
            ))}
          </ul>
        )}
        <h4 className={css.coveringTitle}>{t('waysOut')}</h4>
        {out.length === 0 ? (
          <p>{state.type === 'final' ? t('finalNoWayOut') : t('noWaysOut')}</p>
        ) : (
          <ul className={css.coveringList}>
            {out.map((tr) => (
              <li key={tr.key}>
                <code>{tr.label}</code> → {tr.targets.length ? tr.targets.map((id) => <span key={id}>{stateButton(id)} </span>) : t('stays')}
              </li>
            ))}
          </ul>
        )}
        {covering}
        {picture(state)}
      </>
    );
  }

  /** The page in that state at phone size (`npm run flows:shots`), or why there is none. */
  function picture(state: ChartState) {
    const path = statePath(chart, state.id);
    const shot = pictureOf(chart.id, path);
    if (!shot) {
      return (
        <figure className={css.picture}>
          <p>{isBackground(chart.id, path) ? t('noPage') : t('noPicture')}</p>
        </figure>
      );
    }
    return (
      <figure className={css.shot}>
        <img
          className={css.shotImage}
          src={shot.url}
          width={shot.width}
          height={shot.height}
          loading="lazy"
          decoding="async"
          alt={t('pictureAlt', { machine: labels.title(chart), state: labels.state(chart, state) })}
        />
        <figcaption className={css.codeName}>{t('pictureCaption', { page: shot.page })}</figcaption>
      </figure>
    );
  }
}
