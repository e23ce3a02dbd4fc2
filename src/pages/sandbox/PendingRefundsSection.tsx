import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { RefundOutcome } from '../../../machines/sandboxRefunds.ts';
import { buttonSecondary } from '../../components/ui.css.ts';
import { formatDate } from '../../format/dates.ts';
import { formatKr } from '../../format/money.ts';
import { useSandboxRefunds } from './useSandboxRefunds.ts';
import * as css from './sandbox.css.ts';
import { answers } from './payments.css.ts';

const OUTCOMES: readonly RefundOutcome[] = ['paid', 'error'];

/**
 * The sandbox's pending refunds (GET /api/sandbox/refunds, read again every few seconds and on
 * request) with Swish's two answers: Återbetald, Fel. An answer goes through the sandbox provider
 * and its callback (/greetie/refundCallBack), exactly as Swish's would.
 */
export function PendingRefundsSection() {
  const { t, i18n } = useTranslation('sandbox');
  const headingId = useId();
  const { screen, refunds, notice, refresh, settle } = useSandboxRefunds();

  const said =
    notice?.kind === 'settled'
      ? t('refunds.settled', { amount: formatKr(notice.amount), outcome: t(`refunds.outcomes.${notice.outcome}`) })
      : notice?.kind === 'failed'
        ? t('refunds.settleFailed', { message: notice.failure.message })
        : '';
  const shown = screen === 'showing' || screen === 'settling';

  return (
    <section className={css.section} aria-labelledby={headingId}>
      <div className={css.header}>
        <h2 id={headingId} className={css.h2}>
          {t('refunds.title')}
        </h2>
        <button type="button" className={buttonSecondary} onClick={refresh}>
          {t('refunds.refresh')}
        </button>
      </div>
      <p className={css.muted}>{t('refunds.intro')}</p>
      <p role="status" className={notice?.kind === 'failed' ? css.error : css.muted}>
        {said}
      </p>
      {screen === 'loading' && <p className={css.muted}>{t('refunds.loading')}</p>}
      {screen === 'failed' && (
        <p className={css.error} role="alert">
          {t('refunds.error')}
        </p>
      )}
      {shown && refunds.length === 0 && <p className={css.muted}>{t('refunds.empty')}</p>}
      {shown && refunds.length > 0 && (
        <ol className={css.list} aria-label={t('refunds.list')}>
          {refunds.map((r) => (
            <li key={r.id} className={css.message}>
              <p className={css.body}>
                <strong>{formatKr(r.amount)}</strong>
              </p>
              <p className={css.meta}>
                <span>
                  {t('refunds.greetie')}: <code>{r.greetieId.slice(0, 8)}</code>
                </span>
                <span>
                  {t('refunds.createdAt')}: <time dateTime={r.createdAt}>{formatDate(r.createdAt, i18n.language, 'd MMMM yyyy HH:mm:ss')}</time>
                </span>
              </p>
              <div role="group" aria-label={t('refunds.actions', { amount: formatKr(r.amount) })} className={answers}>
                {OUTCOMES.map((outcome) => (
                  <button key={outcome} type="button" className={buttonSecondary} disabled={screen === 'settling'} onClick={() => settle(r, outcome)}>
                    {t(`refunds.outcomes.${outcome}`)}
                  </button>
                ))}
              </div>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
