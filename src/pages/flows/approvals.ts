import { useEffect, useState } from 'react';
import type { Chart } from '../../../charts/chart.ts';
import { diffCharts, removedAt, snapshot, type Approval, type ChartDiff } from '../../../charts/diff.ts';
import { forgetOnNewPage } from '../../pageMemory.ts';

/** A machine's chart against what was approved: none yet, or the approval and what changed since. */
export type ApprovalStatus = { kind: 'unapproved' } | { kind: 'approved'; approval: Approval; diff: ChartDiff; removedAt: Map<string, number> };

let loading: Promise<Map<string, Approval>> | undefined;
forgetOnNewPage(() => (loading = undefined));

function load(): Promise<Map<string, Approval>> {
  loading ??= import('./approved.ts').then(({ approvals }) => new Map(approvals.map((a) => [a.machine, a])));
  loading.catch(() => (loading = undefined));
  return loading;
}

export function approvalStatus(chart: Chart, approvals: ReadonlyMap<string, Approval>): ApprovalStatus {
  const approval = approvals.get(chart.id);
  if (!approval) return { kind: 'unapproved' };
  const now = snapshot(chart);
  const diff = diffCharts(approval, now);
  return { kind: 'approved', approval, diff, removedAt: removedAt(diff, approval, now) };
}

/**
 * Every chart's approval status, once the approvals have loaded (undefined until then, or when
 * they cannot load). They load when the browser is idle (within 2 s) after `ready` (the chart is
 * drawn): loading and comparing every chart is work the draw must not wait behind (decision 139).
 */
export function useApprovalStatuses(charts: readonly Chart[], ready = true): ReadonlyMap<string, ApprovalStatus> | undefined {
  const [statuses, setStatuses] = useState<ReadonlyMap<string, ApprovalStatus>>();
  useEffect(() => {
    if (!ready) return;
    let live = true;
    const start = () =>
      load().then(
        (approvals) => live && setStatuses(new Map(charts.map((c) => [c.id, approvalStatus(c, approvals)]))),
        () => undefined,
      );
    const idle = typeof requestIdleCallback === 'function' ? requestIdleCallback(() => void start(), { timeout: 2000 }) : undefined;
    const timer = idle === undefined ? setTimeout(() => void start(), 0) : undefined;
    return () => {
      live = false;
      if (idle !== undefined) cancelIdleCallback(idle);
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [charts, ready]);
  return statuses;
}
