import { useTranslation } from 'react-i18next';
import { button, buttonSecondary } from '../../components/ui.css.ts';
import type { ComposeView } from './useCompose.ts';
import * as css from './greetie.css.ts';

/** Back and Next at the bottom of a step. */
export function StepActions({ compose, canGoOn = true, next }: { compose: ComposeView; canGoOn?: boolean; next?: React.ReactNode }) {
  const { t } = useTranslation('greetie');
  const first = compose.screen === 'media';
  return (
    <div className={css.actions}>
      {first ? (
        <span />
      ) : (
        <button type="button" className={buttonSecondary} onClick={compose.back}>
          {t('nav.back')}
        </button>
      )}
      {next ?? (
        <button type="button" className={button} disabled={!canGoOn} onClick={compose.next}>
          {t('nav.next')}
        </button>
      )}
    </div>
  );
}
