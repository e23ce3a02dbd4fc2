import { useTranslation } from 'react-i18next';
import { buttonSecondary } from '../../components/ui.css.ts';
import { formatKr } from '../../format/money.ts';
import { useRefund } from './useRefund.ts';
import * as css from './greetie.css.ts';

/** The text for each screen (the refund's "error" is the failed screen). */
const TEXT = { loading: 'loading', pending: 'pending', slow: 'slow', paid: 'paid', failed: 'error' } as const;

/**
 * Where the money of a cancelled greetie is, in plain Swedish (machines/refund.ts through
 * useRefund), kept up to date while the refund is on its way. Announced as a status; a read that
 * failed is an alert with 'Försök igen'.
 */
export function RefundStatus({ greetieId }: { greetieId: string }) {
  const { t } = useTranslation('greetie');
  const { screen, refund, failure, check, retry } = useRefund(greetieId);
  if (screen === 'none') return null;
  const amount = formatKr(refund?.amount ?? 0);
  if (screen === 'loadFailed') {
    return (
      <div className={css.notice}>
        <p role="alert" className={css.fieldError}>
          {t('actions.refund.loadFailed')} {failure?.message}
        </p>
        <button type="button" className={buttonSecondary} onClick={retry}>
          {t('actions.refund.retry')}
        </button>
      </div>
    );
  }
  const text = t(`actions.refund.${TEXT[screen]}`, { amount });
  return (
    <div className={css.notice}>
      <p role="status">{text}</p>
      {(screen === 'slow' || screen === 'failed') && (
        <button type="button" className={buttonSecondary} onClick={check}>
          {t('actions.refund.check')}
        </button>
      )}
    </div>
  );
}
