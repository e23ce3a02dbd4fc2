import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import { useLoader } from '../../components/useLoader.ts';
import { formatDate } from '../../format/dates.ts';
import { formatKr } from '../../format/money.ts';
import { periodsAt } from './period.ts';
import { portalSummaryLoader } from './portal.ts';
import * as css from './portal.css.ts';

/**
 * The merchant's figures (GET …/summary): redeemed today and this month (Europe/Stockholm days),
 * with how many; what is outstanding, in one plain line; what expired.
 */
export function Summary({ merchantId }: { merchantId: string }) {
  const { t, i18n } = useTranslation('portal');
  const [at] = useState(() => new Date());
  const [params] = useState(() => ({ merchantId, ...periodsAt(at) }));
  const { status, data, error, retry } = useLoader(portalSummaryLoader, params);
  const month = formatDate(at, i18n.language, 'LLLL');
  return (
    <section aria-labelledby="summary-title">
      <h2 id="summary-title" className={css.sectionTitle}>
        {t('summary.title')}
      </h2>
      {status === 'loading' && (
        <p role="status" className={css.status}>
          {t('summary.loading')}
        </p>
      )}
      {(status === 'failed' || status === 'notFound') && (
        <LoadFailed title={t('summary.errorTitle')} message={error?.message} retry={status === 'failed' ? retry : undefined} />
      )}
      {status === 'loaded' && data && (
        <ul className={css.cards}>
          <Card id="today" label={t('summary.today')} amount={data.today.redeemed.amount} note={t('summary.count', { count: data.today.redeemed.count })} />
          <Card id="month" label={t('summary.month', { month })} amount={data.month.redeemed.amount} note={t('summary.count', { count: data.month.redeemed.count })} />
          <Card
            id="outstanding"
            label={t('summary.outstanding')}
            amount={data.month.outstanding.amount}
            note={`${t('summary.count', { count: data.month.outstanding.count })}. ${t('summary.outstandingNote')}`}
          />
          <Card
            id="expired"
            label={t('summary.expired')}
            amount={data.month.expired.amount}
            note={`${t('summary.count', { count: data.month.expired.count })}. ${t('summary.expiredNote')}`}
          />
        </ul>
      )}
    </section>
  );
}

function Card({ id, label, amount, note }: { id: string; label: string; amount: number; note: string }) {
  return (
    <li className={css.card} data-testid={`summary-${id}`}>
      <p className={css.cardLabel}>
        {label}
      </p>
      <p className={css.cardAmount}>{formatKr(amount)}</p>
      <p className={css.cardNote}>{note}</p>
    </li>
  );
}
