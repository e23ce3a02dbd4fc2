import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { PortalMerchant, PortalRedemption } from '../../../contract/portal.ts';
import { downloadSettlementCsv } from '../../api/portal.ts';
import { toFailure } from '../../api/errors.ts';
import { button, buttonSecondary } from '../../components/ui.css.ts';
import { formatDateTime, MAX_DATE_INPUT, MIN_DATE_INPUT } from '../../format/dates.ts';
import { formatKr } from '../../format/money.ts';
import { saveFile, settlementFileName } from './download.ts';
import { dayAfter, dayBefore, dayOrNull } from './period.ts';
import { usePortalRedemptions } from './usePortalRedemptions.ts';
import * as css from './portal.css.ts';

type Download = { kind: 'idle' } | { kind: 'busy' } | { kind: 'done'; name: string } | { kind: 'failed'; message: string };

/**
 * The redemptions at the merchant (machines/portalRedemptions.ts through usePortalRedemptions):
 * a period (from, up to and including; Europe/Stockholm days), newest first, 'Visa fler' while
 * the Link header says there is more. The owner downloads the period's settlement file.
 */
export function Redemptions({ merchant }: { merchant: PortalMerchant }) {
  const { t } = useTranslation('portal');
  const view = usePortalRedemptions(merchant.id);
  const { screen, items, hasMore, period, failure } = view;
  const ids = useId();
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [invalid, setInvalid] = useState(false);
  const [download, setDownload] = useState<Download>({ kind: 'idle' });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const first = dayOrNull(from);
    const last = dayOrNull(to);
    if (first && last && last < first) {
      setInvalid(true);
      return;
    }
    setInvalid(false);
    setDownload({ kind: 'idle' });
    view.choosePeriod({ from: first, to: last ? dayAfter(last) : null });
  };

  const downloadCsv = async () => {
    setDownload({ kind: 'busy' });
    const name = settlementFileName(merchant.name, period.from, period.to ? dayBefore(period.to) : null);
    try {
      const blob = await downloadSettlementCsv(merchant.id, { from: period.from ?? undefined, to: period.to ?? undefined });
      saveFile(blob, name);
      setDownload({ kind: 'done', name });
    } catch (error) {
      setDownload({ kind: 'failed', message: toFailure(error).message });
    }
  };

  return (
    <section aria-labelledby="redemptions-title">
      <h2 id="redemptions-title" className={css.sectionTitle}>
        {t('redemptions.title')}
      </h2>
      <form className={css.filters} onSubmit={submit} aria-label={t('redemptions.filterTitle')} noValidate>
        <div className={css.field}>
          <label htmlFor={`${ids}-from`} className={css.label}>
            {t('redemptions.from')}
          </label>
          <input id={`${ids}-from`} type="date" lang="sv-SE" className={css.input} value={from} min={MIN_DATE_INPUT} max={MAX_DATE_INPUT} onChange={(e) => setFrom(e.target.value)} />
        </div>
        <div className={css.field}>
          <label htmlFor={`${ids}-to`} className={css.label}>
            {t('redemptions.to')}
          </label>
          <input
            id={`${ids}-to`}
            type="date"
            lang="sv-SE"
            className={css.input}
            value={to}
            min={MIN_DATE_INPUT}
            max={MAX_DATE_INPUT}
            aria-invalid={invalid || undefined}
            aria-describedby={invalid ? `${ids}-invalid` : undefined}
            onChange={(e) => setTo(e.target.value)}
          />
        </div>
        <button type="submit" className={buttonSecondary}>
          {t('redemptions.show')}
        </button>
        {invalid && (
          <p id={`${ids}-invalid`} role="alert" className={css.error}>
            {t('redemptions.toBeforeFrom')}
          </p>
        )}
      </form>

      {merchant.role === 'owner' && (
        <div className={css.actions}>
          <button type="button" className={buttonSecondary} onClick={() => void downloadCsv()} disabled={download.kind === 'busy'}>
            {download.kind === 'busy' ? t('redemptions.downloading') : t('redemptions.download')}
          </button>
        </div>
      )}
      <div aria-live="polite">
        {download.kind === 'done' && <p className={css.status}>{t('redemptions.downloaded', { name: download.name })}</p>}
      </div>
      {download.kind === 'failed' && (
        <p role="alert" className={css.error}>
          {t('redemptions.downloadFailed')} {download.message}
        </p>
      )}

      {screen === 'loading' && (
        <p role="status" className={css.status}>
          {t('redemptions.loading')}
        </p>
      )}
      {screen === 'showing' && items.length === 0 && <p className={css.status}>{t('redemptions.empty')}</p>}
      {items.length > 0 && (
        <ul className={css.list} aria-labelledby="redemptions-title" data-testid="redemption-list">
          {items.map((r) => (
            <Row key={r.id} r={r} />
          ))}
        </ul>
      )}
      {screen === 'loadingMore' && (
        <p role="status" className={css.status}>
          {t('redemptions.loadingMore')}
        </p>
      )}
      {screen === 'failed' && (
        <div role="alert">
          <p className={css.error}>
            {t('redemptions.errorTitle')} {failure?.message}
          </p>
          <button type="button" className={button} onClick={view.retry}>
            {t('redemptions.retry')}
          </button>
        </div>
      )}
      {screen === 'showing' && hasMore && (
        <div className={css.actions}>
          <button type="button" className={button} onClick={view.showMore}>
            {t('redemptions.more')}
          </button>
        </div>
      )}
    </section>
  );
}

function Row({ r }: { r: PortalRedemption }) {
  const { t, i18n } = useTranslation('portal');
  const via = r.via === 'qr' ? t('redemptions.viaQr') : t('redemptions.viaCode');
  return (
    <li className={r.undone ? `${css.row} ${css.rowUndone}` : css.row} data-testid="redemption-row" data-undone={r.undone || undefined}>
      <p className={css.rowProduct}>
        {r.productName}
        {r.undone && <span className={css.badge}>{t('redemptions.undone')}</span>}
      </p>
      <p className={r.undone ? `${css.rowAmount} ${css.struck}` : css.rowAmount}>{formatKr(r.amount)}</p>
      <p className={css.rowMeta}>
        <time dateTime={r.redeemedAt}>{formatDateTime(r.redeemedAt, i18n.language)}</time> · {via}
      </p>
    </li>
  );
}
