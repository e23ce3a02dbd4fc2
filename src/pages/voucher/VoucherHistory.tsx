import { useTranslation } from 'react-i18next';
import type { Voucher } from '../../../contract/voucher.ts';
import { useBalanceText, usedInParts } from '../../components/VoucherCard.tsx';
import { formatDateTime } from '../../format/dates.ts';
import { formatKr } from '../../format/money.ts';
import * as css from './voucher.css.ts';

/**
 * An in-store value voucher's balance ("Kvar: 200 kr av 349 kr") and its uses, newest first: when
 * (in Stockholm, date-fns with the person's language), how much, and "Ångrad" for one the till
 * undid (its amount went back on the balance). A fixed voucher is used whole, and a Code or Charity
 * voucher is marked used whole: nothing here for them.
 */
export function VoucherHistory({ voucher: v }: { voucher: Voucher }) {
  const { t, i18n } = useTranslation('voucher');
  const balance = useBalanceText(v);
  if (!usedInParts(v)) return null;
  const newestFirst = [...v.redemptions].sort((a, b) => Date.parse(b.redeemedAt) - Date.parse(a.redeemedAt) || b.id.localeCompare(a.id));
  return (
    <>
      {balance && (
        <p className={css.balance} data-testid="voucher-balance">
          {balance}
        </p>
      )}
      <section className={css.history} aria-labelledby="history-title">
        <h2 id="history-title" className={css.sectionTitle}>
          {t('details.history.title')}
        </h2>
        {newestFirst.length === 0 ? (
          <p className={css.muted}>{t('details.history.empty')}</p>
        ) : (
          <ol className={css.historyList} aria-labelledby="history-title">
            {newestFirst.map((r) => (
              <li key={r.id} className={r.undone ? `${css.historyItem} ${css.historyUndone}` : css.historyItem}>
                <time dateTime={r.redeemedAt}>{formatDateTime(r.redeemedAt, i18n.language)}</time>
                <span className={css.historyAmount}>
                  {r.undone ? <s>{formatKr(r.amount)}</s> : formatKr(r.amount)}
                  {r.undone && <span className={css.undoneBadge}>{t('details.history.undone')}</span>}
                </span>
              </li>
            ))}
          </ol>
        )}
      </section>
    </>
  );
}
