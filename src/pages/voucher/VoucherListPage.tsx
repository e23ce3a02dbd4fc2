import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Voucher } from '../../../contract/voucher.ts';
import { usePageTitle } from '../../components/usePageTitle.ts';
import { VoucherCard } from '../../components/VoucherCard.tsx';
import { isActive, sortVouchers, useVoucherList } from '../../components/vouchers.ts';
import * as css from './voucher.css.ts';
import { LoadFailed } from '../../components/LoadFailed.tsx';

/**
 * /voucher and /voucher/list, "Mina gåvor": the user's vouchers, the ones still to use first, the
 * used and expired ones greyed below with their date. The list comes from the app's voucher store,
 * so a voucher redeemed at the till shows here as redeemed at once.
 */
export function VoucherListPage() {
  const { t } = useTranslation('voucher');
  usePageTitle(t('list.title'));
  const list = useVoucherList();
  const [now] = useState(() => new Date());
  return (
    <div className={css.page}>
      <h1 id="page-title" className={css.title} tabIndex={-1}>
        {t('list.title')}
      </h1>
      {list.status === 'failed' ? (
        <LoadFailed title={t('list.failedTitle')} message={list.error?.message} retry={list.retry} />
      ) : list.data === null ? (
        <Loading text={t('list.loading')} />
      ) : list.data.length === 0 ? (
        <section className={css.empty} aria-labelledby="empty-title">
          <h2 id="empty-title" className={css.emptyTitle}>
            {t('list.emptyTitle')}
          </h2>
          <p className={css.emptyText}>{t('list.emptyText')}</p>
        </section>
      ) : (
        <Lists vouchers={list.data} now={now} />
      )}
    </div>
  );
}

function Lists({ vouchers, now }: { vouchers: Voucher[]; now: Date }) {
  const { t } = useTranslation('voucher');
  const sorted = sortVouchers(vouchers, now);
  const active = sorted.filter((v) => isActive(v, now));
  const spent = sorted.filter((v) => !isActive(v, now));
  return (
    <>
      <p className={css.intro}>{t('list.intro')}</p>
      {active.length > 0 && <Section id="active" title={t('list.activeTitle')} vouchers={active} now={now} />}
      {spent.length > 0 && <Section id="spent" title={t('list.usedTitle')} vouchers={spent} now={now} />}
    </>
  );
}

function Section({ id, title, vouchers, now }: { id: string; title: string; vouchers: Voucher[]; now: Date }) {
  const { t } = useTranslation('voucher');
  return (
    <section aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className={css.sectionTitle}>
        {title} <span className={css.muted}>({t('list.count', { count: vouchers.length })})</span>
      </h2>
      <ul className={css.list}>
        {vouchers.map((v) => (
          <li key={v.id}>
            <VoucherCard voucher={v} now={now} to={`/voucher/${v.id}`} />
          </li>
        ))}
      </ul>
    </section>
  );
}

/** While nothing is kept to show: placeholders, and the words for screen readers. */
export function Loading({ text }: { text: string }) {
  return (
    <div aria-busy="true">
      <p role="status" className={css.muted}>
        {text}
      </p>
      <ul className={css.list} aria-hidden="true">
        <li className={css.skeleton} />
        <li className={css.skeleton} />
      </ul>
    </div>
  );
}
