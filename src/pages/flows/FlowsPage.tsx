import { startTransition, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../../components/usePageTitle.ts';
import { afterEntrance } from '../../components/bootPage.ts';
import { container, visuallyHidden } from '../../components/ui.css.ts';
import { NotFoundPage } from '../../components/NotFoundPage.tsx';
import { pathsByTransition, type Chart, type MachineCoverage } from '../../../charts/chart.ts';
import type { DiagramMarks, Selection } from './Diagram.tsx';
import { ChartFrame } from './ChartFrame.tsx';
import { coverageFiguresOf, machines, useAllCharts, useMachineData } from './machineData.ts';
import { liveActors, useJourney, type LiveActor } from './useLive.ts';
import { Journey } from './Journey.tsx';
import type { JourneyStep } from './journey.ts';
import { createLoader } from '../../../machines/loader.ts';
import { useLoader } from '../../components/useLoader.ts';
import { fromCall } from '../../components/flow.ts';
import { forgetSandboxCheck, sandboxAnswer, sandboxKnownOn } from './early.ts';
import { useChartLabels } from './labels.ts';
import { StatePanel } from './StatePanel.tsx';
import { useApprovalStatuses, type ApprovalStatus } from './approvals.ts';
import { Changes } from './Changes.tsx';
import * as css from './flows.css.ts';

/** "Is the sandbox on?" as a loader, taking the answer the route asked for beside the page's chunk (early.ts). */
const sandboxLoader = createLoader<void, boolean>().provide({
  actors: { load: fromCall<boolean, { params: void }>(({ signal }) => sandboxAnswer(signal)) },
});

/**
 * /flows (sandbox on): every machine in machines/ (as `npm run flows` wrote it: machineData.ts) as a diagram for product owners, with live
 * highlighting from the app running in another tab, the path-coverage overlay and the generated
 * test paths, step by step. When the route's early check has answered by the time the page's code
 * runs, the viewer renders at once (decision 139).
 */
export function FlowsPage() {
  const [known] = useState(sandboxKnownOn);
  useEffect(() => {
    if (known) forgetSandboxCheck();
  }, [known]);
  return known ? <FlowViewer /> : <SandboxGate />;
}

function SandboxGate() {
  const { status, data } = useLoader(sandboxLoader, undefined);
  const { t } = useTranslation('flows');
  if (status !== 'loading' && !(status === 'loaded' && data)) return <NotFoundPage />;
  if (status === 'loading') {
    return (
      <p className={container} role="status">
        {t('checking')}
      </p>
    );
  }
  return <FlowViewer />;
}

type Reported = Pick<LiveActor, 'machineId' | 'states' | 'transitions'>;

function liveKeys(chart: Chart, actors: Reported[]): { active: Set<string>; taken: Set<string> } {
  const active = new Set<string>();
  const taken = new Set<string>();
  for (const a of actors) {
    if (a.machineId !== chart.root) continue;
    a.states.forEach((s) => active.add(s));
    for (const lt of a.transitions) {
      const match = chart.transitions.find(
        (tr) => tr.source === lt.source && tr.eventType === lt.eventType && tr.index === lt.index,
      );
      if (match) taken.add(match.key);
    }
  }
  return { active, taken };
}

export function FlowViewer() {
  const { t } = useTranslation('flows');
  usePageTitle(t('title'));
  const [params, setParams] = useSearchParams();
  const entry = machines.find((c) => c.id === params.get('machine')) ?? machines[0];
  const shown = useMachineData(entry?.id);
  const journey = useJourney();
  const live = liveActors(journey);
  // The timeline's selected step (null: following live). A step is live data, not something a
  // link can name, so it is kept here rather than in the address.
  const [pinnedSeq, setPinnedSeq] = useState<number | null>(null);
  const pinned = pinnedSeq === null ? undefined : journey.steps.find((s) => s.seq === pinnedSeq);
  const selectStep = (seq: number | null) => {
    setPinnedSeq(seq);
    const step = seq === null ? undefined : journey.steps.find((s) => s.seq === seq);
    const stepChart = step && machines.find((c) => c.root === step.machineId);
    if (stepChart && stepChart.id !== entry?.id) setParams({ machine: stepChart.id }, { replace: true });
  };

  const labels = useChartLabels();
  // What is not the chart (the parts below it, the journey, the approvals) comes after the chart
  // is drawn (or after 3 s whatever happens), in a transition the browser can paint between
  // (decision 139).
  const [drawn, setDrawn] = useState(false);
  // The chart the server drew in the HTML (#boot-page, decision 154) goes in the frame after the
  // page's own chart is in place and the page has entered; leaving the page first takes it too.
  const pageRef = useRef<HTMLElement>(null);
  useEffect(() => () => document.getElementById('boot-page')?.remove(), []);
  const chartDrawn = () => {
    const boot = document.getElementById('boot-page');
    if (boot && pageRef.current) afterEntrance(pageRef.current, [], () => boot.remove());
    startTransition(() => setDrawn(true));
  };
  useEffect(() => {
    const timer = setTimeout(chartDrawn, 3000);
    return () => clearTimeout(timer);
  }, []);
  // Every chart (for the approvals and the journey) loads once the shown one is drawn.
  const charts = useAllCharts(drawn || !entry);
  const approvals = useApprovalStatuses(charts ?? [], charts !== undefined);

  // In the source the chart comes first, then the machines and the journey: a phone opening a
  // machine's link sees its chart at once; a wider screen puts the list beside it.
  return (
    <section ref={pageRef} className={`${container} ${css.page}`} aria-labelledby="page-title" data-boot-page="">
      <h1 id="page-title" className={css.pageTitle}>
        {t('title')}
      </h1>
      <div className={css.layout}>
        <div className={css.mainArea}>
          {shown.status === 'ready' ? (
            <MachineView
              key={shown.data.chart.id}
              chart={shown.data.chart}
              cov={shown.data.coverage}
              live={live}
              pinned={pinned?.machineId === shown.data.chart.root ? pinned : undefined}
              approval={approvals?.get(shown.data.chart.id)}
              rest={drawn}
              onDrawn={chartDrawn}
            />
          ) : !entry ? (
            <p>{t('none')}</p>
          ) : shown.status === 'failed' ? (
            <p role="alert">{t('chartFailed')}</p>
          ) : (
            <p role="status">{t('drawing')}</p>
          )}
        </div>
        <nav aria-label={t('machines')} className={css.navArea}>
          <ul className={css.machineList}>
            {machines.map((c) => {
              const cov = coverageFiguresOf(c.id);
              const gaps = cov ? cov.states.total - cov.states.covered + (cov.transitions.total - cov.transitions.covered) : 0;
              const running = live.filter((a) => a.machineId === c.root).length;
              return (
                <li key={c.id}>
                  <Link to={`?machine=${encodeURIComponent(c.id)}`} className={css.machineLink} aria-current={c.id === entry?.id ? 'page' : undefined}>
                    <span>
                      {labels.title(c)}
                      {running > 0 && (
                        <span className={css.liveDot}>
                          {' '}● <span className={visuallyHidden}>{t('running', { count: running })}</span>
                        </span>
                      )}
                    </span>
                    <span className={gaps ? `${css.badge} ${css.badgeGap}` : css.badge}>
                      {cov ? `${cov.transitions.covered}/${cov.transitions.total}` : t('noReport')}
                    </span>
                    <ApprovalMark status={approvals?.get(c.id)} />
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>
        <div className={css.journeyArea}>
          {charts && <Journey journey={journey} charts={charts} selected={pinned ? pinned.seq : null} onSelect={selectStep} />}
          <p className={css.intro}>{t('intro')}</p>
        </div>
      </div>
    </section>
  );
}

/** Approved, changed since approval (with a count), or not approved yet: a sign and words. */
function ApprovalMark({ status }: { status: ApprovalStatus | undefined }) {
  const { t } = useTranslation('flows');
  if (!status) return null;
  if (status.kind === 'unapproved') return <span className={css.approvalMark}>○ {t('unapproved')}</span>;
  if (status.diff.count === 0) return <span className={css.approvalMark}>✓ {t('approved')}</span>;
  return <span className={`${css.approvalMark} ${css.approvalChanged}`}>Δ {t('changedSinceApproval', { count: status.diff.count })}</span>;
}

/** What a link names: the selected state or transition, the test path and its step (both from 1). */
function readLink(chart: Chart, params: URLSearchParams, paths: number) {
  const stateId = params.get('state');
  const transitionKey = params.get('transition');
  const selection: Selection =
    stateId && chart.states.some((s) => s.id === stateId)
      ? { kind: 'state', id: stateId }
      : transitionKey && chart.transitions.some((tr) => tr.key === transitionKey)
        ? { kind: 'transition', key: transitionKey }
        : null;
  const pathNumber = Number(params.get('path'));
  const pathIndex = Number.isInteger(pathNumber) && pathNumber >= 1 && pathNumber <= paths ? pathNumber - 1 : -1;
  const stepNumber = Number(params.get('step'));
  return { selection, pathIndex, step: Number.isInteger(stepNumber) && stepNumber >= 1 ? stepNumber - 1 : 0 };
}

/** The path steps that take a transition (or, for a state, first reach it), one per path. */
function coveringPaths(paths: { description: string; steps: { states: string[]; transitions: string[] }[] }[], target: Selection) {
  if (!target) return [];
  return paths.flatMap((p, i) => {
    const step = p.steps.findIndex((s) => (target.kind === 'transition' ? s.transitions.includes(target.key) : s.states.includes(target.id)));
    return step >= 0 ? [{ path: i, step, description: p.description }] : [];
  });
}


/** What the chart marks while the changes are shown: added and changed parts, and where removed ones were. */
function changeMarks(status: Extract<ApprovalStatus, { kind: 'approved' }>): NonNullable<DiagramMarks['changes']> {
  const { diff } = status;
  return {
    added: new Set([...diff.states.added.map((s) => s.id), ...diff.transitions.added.flatMap((tr) => (tr.key ? [tr.key] : []))]),
    changed: new Set([...diff.states.changed.map((c) => c.after.id), ...diff.transitions.changed.flatMap((c) => (c.after.key ? [c.after.key] : []))]),
    removedAt: status.removedAt,
  };
}

/** The first change the chart can show: an added or changed state or transition, else a state where parts were removed. */
function firstChange(status: Extract<ApprovalStatus, { kind: 'approved' }>, root: string): Selection {
  const { diff } = status;
  const state = diff.states.added[0] ?? diff.states.changed[0]?.after;
  if (state) return { kind: 'state', id: state.id };
  const transition = [...diff.transitions.added, ...diff.transitions.changed.map((c) => c.after)].find((tr) => tr.key);
  if (transition?.key) return { kind: 'transition', key: transition.key };
  const removedHere = [...status.removedAt.keys()].find((id) => id !== root);
  return removedHere ? { kind: 'state', id: removedHere } : null;
}

function MachineView({
  chart,
  cov,
  live,
  pinned,
  approval,
  rest = true,
  onDrawn,
}: {
  chart: Chart;
  cov: MachineCoverage | undefined;
  live: LiveActor[];
  pinned: JourneyStep | undefined;
  approval: ApprovalStatus | undefined;
  /** Whether to render what is below the chart (false until the chart is drawn). */
  rest?: boolean;
  onDrawn?: () => void;
}) {
  const { t } = useTranslation('flows');
  const labels = useChartLabels();
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const [showCoverage, setShowCoverage] = useState(true);
  const diff = approval?.kind === 'approved' && approval.diff.count > 0 ? approval : undefined;
  const [showChanges, setShowChanges] = useState(false);
  const changesShown = Boolean(diff && showChanges);
  // What "Visa ändringar" asks the chart to bring into view (n: each request, even of the same part).
  const [show, setShow] = useState<{ target: Selection; n: number }>();
  const showPart = (target: Selection) => setShow((prev) => ({ target, n: (prev?.n ?? 0) + 1 }));
  const [copied, setCopied] = useState<'copied' | 'failed' | null>(null);
  // The address holds what is selected (replaced, not pushed), so it can be copied at any time.
  const { selection, pathIndex, step: askedStep } = readLink(chart, params, cov?.paths.length ?? 0);
  const path = cov?.paths[pathIndex];
  const step = path ? Math.min(askedStep, path.steps.length - 1) : 0;
  const current = path?.steps[step];
  const mine = live.filter((a) => a.machineId === chart.root);

  const setLink = (change: { selection?: Selection; pathIndex?: number; step?: number }) => {
    const next = { selection, pathIndex, step, ...change };
    const out = new URLSearchParams({ machine: chart.id });
    if (next.selection?.kind === 'state') out.set('state', next.selection.id);
    if (next.selection?.kind === 'transition') out.set('transition', next.selection.key);
    if (next.pathIndex >= 0) {
      out.set('path', String(next.pathIndex + 1));
      if (next.step > 0) out.set('step', String(next.step + 1));
    }
    setCopied(null);
    setParams(out, { replace: true });
  };
  const setSelection = (s: Selection) => setLink({ selection: s });
  const setStep = (fn: (s: number) => number) => setLink({ step: fn(step) });
  const link = new URL(`${location.pathname}${location.search}`, window.location.origin).href;
  const copyLink = async () => {
    try {
      await navigator.clipboard.writeText(link);
      setCopied('copied');
    } catch {
      setCopied('failed');
    }
  };

  // The path's current step (its innermost state), else what is selected, is brought into view.
  const leaf = current?.states[current.states.length - 1];
  const pinnedLeaf = pinned?.states.filter((s) => !pinned.states.some((o) => o.startsWith(`${s}.`)))[0];
  const reveal: Selection = leaf ? { kind: 'state', id: leaf } : pinnedLeaf ? { kind: 'state', id: pinnedLeaf } : selection;

  const marks: DiagramMarks = useMemo(() => {
    // A step chosen on the timeline is shown instead of where the app is now.
    const l = liveKeys(chart, pinned ? [pinned] : mine);
    return {
      active: l.active,
      step: new Set(current?.states ?? []),
      taken: new Set([...(current?.transitions ?? []), ...(path ? [] : l.taken)]),
      // The changes replace the coverage overlay while shown: both mark parts with lines.
      changes: changesShown && diff ? changeMarks(diff) : undefined,
      coverage:
        showCoverage && cov && !changesShown
          ? { uncoveredStates: new Set(cov.states.uncovered), uncoveredTransitions: new Set(cov.transitions.uncovered), pathsByTransition: pathsByTransition(cov.paths) }
          : undefined,
    };
  }, [chart, mine, pinned, current, path, showCoverage, cov, changesShown, diff]);

  const selectedTransition = selection?.kind === 'transition' ? chart.transitions.find((tr) => tr.key === selection.key) : undefined;
  const rootTransitions = chart.transitions.filter((tr) => tr.source === chart.root);
  const covering = cov ? coveringPaths(cov.paths, selection) : [];
  // A covering path, a click away: the link selects the path at the step that takes the transition.
  const pathLink = (p: { path: number; step: number }) => {
    const q = new URLSearchParams({ machine: chart.id });
    if (selection?.kind === 'state') q.set('state', selection.id);
    if (selection?.kind === 'transition') q.set('transition', selection.key);
    q.set('path', String(p.path + 1));
    if (p.step > 0) q.set('step', String(p.step + 1));
    return `?${q.toString()}`;
  };
  const coveringList = selection && cov && (
    <>
      <h4 className={css.coveringTitle}>
        {selection.kind === 'transition' ? t('coveringTransition', { count: covering.length }) : t('coveringState', { count: covering.length })}
      </h4>
      {covering.length > 0 && (
        <ul className={css.coveringList}>
          {covering.map((p) => (
            <li key={p.path}>
              <Link to={pathLink(p)} replace aria-current={p.path === pathIndex ? 'true' : undefined}>
                {t('pathStep', { path: p.path + 1, step: p.step + 1 })}
              </Link>
              : {p.description}
            </li>
          ))}
        </ul>
      )}
    </>
  );

  const title = labels.title(chart);
  return (
    <div>
      <div className={css.machineHead}>
        <h2 className={css.machineTitle}>{title}</h2>
        {cov && (
          <span className={css.badge}>
            {t('coverageShort', { transitions: `${cov.transitions.covered}/${cov.transitions.total}` })}
          </span>
        )}
        {approval?.kind === 'approved' && !diff && <span className={css.badge}>✓ {t('approvedOn', { date: approval.approval.approvedAt })}</span>}
        {approval?.kind === 'unapproved' && <span className={css.badge}>○ {t('unapproved')}</span>}
        {diff && (
          <button
            type="button"
            className={css.smallButton}
            aria-pressed={showChanges}
            onClick={() => {
              // Turned on: the chart shows the first change (moving only if it is out of view).
              if (!showChanges) showPart(firstChange(diff, chart.root));
              setShowChanges(!showChanges);
            }}
          >
            Δ {t('showChanges')} ({diff.diff.count})
          </button>
        )}
      </div>
      <ChartFrame chart={chart} marks={marks} selection={selection} onSelect={setSelection} reveal={reveal} show={show} onDrawn={onDrawn} />
      {changesShown && diff && (
        <Changes
          chart={chart}
          diff={diff.diff}
          approvedAt={diff.approval.approvedAt}
          removedAtRoot={diff.removedAt.get(chart.root) ?? 0}
          onSelect={(s) => {
            // A change chosen in the list: selected (highlighted, its panel) and brought into view on the chart.
            setSelection(s);
            showPart(s);
          }}
        />
      )}
      {path && (
        <p className={css.stepText} aria-live="polite">
          {step + 1}. {current?.text}
        </p>
      )}
      {/* Below the chart: rendered once the chart is drawn (decision 139). */}
      {rest && (
        <>
        <div className={css.belowChart}>
          <StatePanel chart={chart} selection={selection} onSelect={setSelection} uncovered={marks.coverage} covering={coveringList} />
          <div>
            {chart.description && <p>{chart.description}</p>}
            {cov ? (
              <p>
                {t('coverageLine', {
                  states: `${cov.states.covered}/${cov.states.total}`,
                  transitions: `${cov.transitions.covered}/${cov.transitions.total}`,
                  paths: cov.paths.length,
                })}
              </p>
            ) : (
              <p role="alert">{t('noReportLong')}</p>
            )}
            <div className={css.toolbar}>
              <label>
                <input type="checkbox" checked={showCoverage} onChange={(e) => setShowCoverage(e.target.checked)} /> {t('showCoverage')}
              </label>
              {cov && cov.paths.length > 0 && (
                <label className={css.pathLabel}>
                  {t('path')}
                  <select className={css.select} value={pathIndex} onChange={(e) => setLink({ pathIndex: Number(e.target.value), step: 0 })}>
                    <option value={-1}>{t('noPath')}</option>
                    {cov.paths.map((p, i) => (
                      <option key={i} value={i} title={p.description}>
                        {i + 1}. {p.description.length > 90 ? `${p.description.slice(0, 89)}…` : p.description}
                      </option>
                    ))}
                  </select>
                </label>
              )}
              {path && (
                <>
                  <button type="button" className={css.smallButton} onClick={() => setStep((s) => Math.max(0, s - 1))} disabled={step === 0}>
                    {t('previous')}
                  </button>
                  <span>{t('stepOf', { step: step + 1, count: path.steps.length })}</span>
                  <button
                    type="button"
                    className={css.smallButton}
                    onClick={() => setStep((s) => Math.min(path.steps.length - 1, s + 1))}
                    disabled={step >= path.steps.length - 1}
                  >
                    {t('next')}
                  </button>
                </>
              )}
            </div>
            <ul className={css.legend} aria-label={t('legend')}>
              <li>● {pinned ? t('legendPinned') : t('legendActive')}</li>
              <li>▬ {t('legendStep')}</li>
              {showCoverage && <li>⚠ {t('legendUncovered')}</li>}
            </ul>
            <div className={css.toolbar}>
              <button type="button" className={css.smallButton} onClick={() => void copyLink()}>
                {t('copyLink')}
              </button>
              <span className={css.linkStatus} role="status">
                {copied === 'copied' && t('linkCopied')}
              </span>
              {copied === 'failed' && (
                <label className={css.pathLabel}>
                  {t('linkManual')}
                  <input className={css.select} readOnly value={link} onFocus={(e) => e.currentTarget.select()} />
                </label>
              )}
            </div>
            {selectedTransition && (
              <div className={css.details} aria-live="polite">
                <h3>
                  {t('transition')} <code>{selectedTransition.label}</code>
                </h3>
                <p>{selectedTransition.description ?? t('noDescription')}</p>
                <p>
                  <code>{selectedTransition.source}</code> → <code>{selectedTransition.targets.join(', ') || t('stays')}</code>
                  {selectedTransition.guard && <> ({t('guard', { guard: selectedTransition.guard })})</>}
                </p>
                {cov && (
                  <p role={cov.transitions.uncovered.includes(selectedTransition.key) ? 'alert' : undefined}>
                    {cov.transitions.uncovered.includes(selectedTransition.key) ? t('transitionUncovered') : t('transitionCovered')}
                  </p>
                )}
                {coveringList}
              </div>
            )}
          </div>
        </div>
        {rootTransitions.length > 0 && (
          <section>
            <h3>{t('everywhere')}</h3>
            <ul>
              {rootTransitions.map((tr) => (
                <li key={tr.key}>
                  <code>{tr.label}</code> → <code>{tr.targets.join(', ') || t('stays')}</code>: {tr.description ?? t('noDescription')}
                  {marks.coverage && (marks.coverage.uncoveredTransitions.has(tr.key) ? ` ⚠ ${t('transitionUncovered')}` : ` ✓ ${t('transitionCovered')}`)}
                </li>
              ))}
            </ul>
          </section>
        )}
        <section aria-live="polite">
          <h3>{t('liveTitle')}</h3>
          {mine.length === 0 ? (
            <p>{t('liveNone')}</p>
          ) : (
            <ul>
              {mine.map((a) => (
                <li key={a.actorId}>
                  {a.systemId ?? a.actorId} ({t('onPage', { page: a.page })}): <code>{a.states.filter((s) => s !== chart.root).join(', ')}</code>
                  {a.event && <> — {t('lastEvent', { event: a.event })}</>}
                </li>
              ))}
            </ul>
          )}
        </section>
        </>
      )}
    </div>
  );
}
