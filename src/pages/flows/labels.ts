import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { Chart, ChartState } from '../../../charts/chart.ts';
import { chartTitle, labelTexts, stateLabel, type ChartLabels } from '../../../charts/labels.ts';

/**
 * The charts' names in the app's language (locales/<lang>/flows.json, `charts`), read straight
 * from the loaded bundle: the state paths hold dots, which i18next's keys cannot. A missing name
 * falls back to a readable form of the code name (charts/labels.ts).
 */
export function useChartLabels() {
  const { i18n } = useTranslation('flows');
  const language = i18n.language;
  return useMemo(() => {
    const bundle = (i18n.getResourceBundle(language, 'flows') ?? i18n.getResourceBundle('sv', 'flows')) as { charts?: ChartLabels } | undefined;
    const labels = bundle?.charts;
    return {
      title: (chart: Pick<Chart, 'id'>) => chartTitle(labels, chart),
      state: (chart: Pick<Chart, 'id' | 'root'>, state: Pick<ChartState, 'id' | 'key'>) => stateLabel(labels, chart, state),
      texts: (chart: Pick<Chart, 'id' | 'root'>) => labelTexts(chart, labels),
    };
  }, [i18n, language]);
}
