import { useEffect, useRef, type KeyboardEvent } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { eventLabel, type Chart } from '../../../charts/chart.ts';
import { leafStates, type JourneyState, type JourneyStep, type JourneyTab } from './journey.ts';
import * as css from './flows.css.ts';

/**
 * The journey across tabs: each app tab ('Flik 2 · /greetie/new') with its running actors by
 * machine, and the timeline of the transitions they took. A step is selected with a click, or
 * from the keyboard (arrow keys, Home, End within the timeline; 'Ett steg bakåt' / 'framåt');
 * the page then shows that machine with the step's states highlighted. 'Följ live' lets go.
 */
export function Journey({
  journey,
  charts,
  selected,
  onSelect,
}: {
  journey: JourneyState;
  charts: readonly Chart[];
  /** The selected step's seq, or null while following live. */
  selected: number | null;
  onSelect: (seq: number | null) => void;
}) {
  const { t } = useTranslation('flows');
  const list = useRef<HTMLOListElement>(null);
  const { steps, tabs } = journey;
  const index = selected === null ? -1 : steps.findIndex((s) => s.seq === selected);
  const tabOf = (id: string) => tabs.find((x) => x.id === id);
  const tabLabel = (tab: JourneyTab | undefined, page?: string) => t('tabLabel', { number: tab?.number ?? '?', page: page ?? tab?.page ?? '' });
  const chartOf = (machineId: string) => charts.find((c) => c.root === machineId);

  // Following live, the newest step stays in view.
  useEffect(() => {
    if (selected === null && list.current) list.current.scrollTop = list.current.scrollHeight;
  }, [selected, steps.length]);

  const select = (i: number, focus: boolean) => {
    const step = steps[Math.max(0, Math.min(steps.length - 1, i))];
    if (!step) return;
    onSelect(step.seq);
    if (focus) list.current?.querySelector<HTMLButtonElement>(`[data-seq="${step.seq}"]`)?.focus();
  };
  const onKeyDown = (e: KeyboardEvent<HTMLButtonElement>, i: number) => {
    const to: Record<string, number> = { ArrowUp: i - 1, ArrowLeft: i - 1, ArrowDown: i + 1, ArrowRight: i + 1, Home: 0, End: steps.length - 1 };
    const next = to[e.key];
    if (next === undefined) return;
    e.preventDefault();
    select(next, true);
  };

  const stepText = (step: JourneyStep) => {
    const chart = chartOf(step.machineId);
    const event = eventLabel(step.event, chart?.actorNames);
    const what =
      step.event === 'xstate.init'
        ? t('stepStarted')
        : step.status === 'stopped' || step.event === 'xstate.stop'
          ? t('stepStopped')
          : step.status === 'done'
            ? t('stepDone', { event })
            : step.status === 'error'
              ? t('stepFailed', { event })
              : event;
    return { what, where: leafStates(step.states, step.machineId).join(', ') || step.machineId };
  };
  const current = index >= 0 ? steps[index] : undefined;

  // Running actors per tab, by machine id.
  const actorsByTab = new Map<string, { machineId: string; states: string[]; systemId?: string; actorId: string }[]>();
  for (const a of Object.values(journey.actors)) actorsByTab.set(a.tabId, [...(actorsByTab.get(a.tabId) ?? []), a]);

  return (
    <section className={css.journey} aria-labelledby="journey-title">
      <h2 id="journey-title" className={css.journeyTitle}>
        {t('journeyTitle')}
      </h2>
      <p className={css.journeyIntro}>{t('journeyIntro')}</p>
      {tabs.length === 0 ? (
        <p>{t('journeyNoTabs')}</p>
      ) : (
        <ul className={css.tabList} aria-label={t('tabsLabel')}>
          {tabs.map((tab) => {
            const actors = (actorsByTab.get(tab.id) ?? []).sort((a, b) => a.machineId.localeCompare(b.machineId));
            return (
              <li key={tab.id}>
                <strong>{tabLabel(tab)}</strong>
                {tab.closed && ` (${t('tabClosed')})`}
                {actors.length > 0 && (
                  <ul className={css.actorList}>
                    {actors.map((a) => {
                      const chart = chartOf(a.machineId);
                      return (
                        <li key={a.actorId}>
                          {chart ? <Link to={`?machine=${encodeURIComponent(chart.id)}`}>{a.machineId}</Link> : a.machineId}:{' '}
                          <code>{leafStates(a.states, a.machineId).join(', ')}</code>
                        </li>
                      );
                    })}
                  </ul>
                )}
              </li>
            );
          })}
        </ul>
      )}
      <h3 className={css.journeyTitle}>{t('timeline')}</h3>
      {steps.length === 0 ? (
        <p>{t('timelineEmpty')}</p>
      ) : (
        <>
          <div className={css.buttonGroup}>
            <button type="button" className={css.smallButton} onClick={() => select(index < 0 ? steps.length - 1 : index - 1, false)} disabled={index === 0}>
              {t('stepBack')}
            </button>
            <button type="button" className={css.smallButton} onClick={() => select(index + 1, false)} disabled={index < 0 || index >= steps.length - 1}>
              {t('stepForward')}
            </button>
            <button type="button" className={css.smallButton} onClick={() => onSelect(null)} disabled={index < 0}>
              {t('followLive')}
            </button>
          </div>
          <p className={css.linkStatus} role="status">
            {current
              ? t('showingStep', { step: index + 1, count: steps.length, tab: tabLabel(tabOf(current.tabId), current.page), machine: current.machineId, ...stepText(current) })
              : t('following', { count: steps.length })}
          </p>
          <ol ref={list} className={css.timeline} aria-label={t('timelineLabel')}>
            {steps.map((step, i) => {
              const { what, where } = stepText(step);
              return (
                <li key={step.seq}>
                  <button
                    type="button"
                    className={css.timelineStep}
                    data-seq={step.seq}
                    aria-current={i === index ? 'step' : undefined}
                    // One tab stop for the whole timeline (the selected step, else the newest); arrows move within it.
                    tabIndex={i === (index >= 0 ? index : steps.length - 1) ? 0 : -1}
                    onClick={() => onSelect(step.seq)}
                    onKeyDown={(e) => onKeyDown(e, i)}
                  >
                    <span className={css.stepMeta}>
                      {new Date(step.at).toLocaleTimeString('sv-SE')} · {tabLabel(tabOf(step.tabId), step.page)}
                    </span>
                    <span>
                      <strong>{step.machineId}</strong>: {what}
                      {step.repeat > 1 && ` ${t('repeat', { count: step.repeat })}`} → <code>{where}</code>
                    </span>
                  </button>
                </li>
              );
            })}
          </ol>
        </>
      )}
    </section>
  );
}
