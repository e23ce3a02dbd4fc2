import { useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { Voucher } from '../../../contract/voucher.ts';
import { usePageTitle } from '../../components/usePageTitle.ts';
import { VoucherCard } from '../../components/VoucherCard.tsx';
import { isRedeemableAtTill, sortVouchers, useGreetieVouchers, useVoucherList } from '../../components/vouchers.ts';
import * as css from './redeem.css.ts';
import { LoadFailed } from '../../components/LoadFailed.tsx';

/**
 * /redeem: the user's vouchers a till can redeem (InStore, still valid), to pick one.
 * /redeem/{greetieId}?voucher={voucherId}: a received greetie's vouchers, the chosen one first.
 * A pick opens the till screen (/redeem/voucher/{id}).
 */
export function RedeemPage() {
  const { id } = useParams();
  return id ? <FromGreetie key={id} greetieId={id} /> : <Pick />;
}

function Pick() {
  const { t } = useTranslation('redeem');
  usePageTitle(t('list.title'));
  const list = useVoucherList();
  const [now] = useState(() => new Date());
  const redeemable = list.data ? sortVouchers(list.data, now).filter((v) => isRedeemableAtTill(v, now)) : null;
  return (
    <div className={css.page}>
      <h1 id="page-title" className={css.title} tabIndex={-1}>
        {t('list.title')}
      </h1>
      {list.status === 'failed' ? (
        <LoadFailed title={t('list.failedTitle')} message={list.error?.message} retry={list.retry} />
      ) : redeemable === null ? (
        <Loading text={t('list.loading')} />
      ) : redeemable.length === 0 ? (
        <>
          <p className={css.muted}>{t('list.empty')}</p>
          <Link to="/voucher" className={css.back}>
            {t('list.toVouchers')}
          </Link>
        </>
      ) : (
        <>
          <p className={css.intro}>{t('list.intro')}</p>
          <VoucherList vouchers={redeemable} now={now} />
        </>
      )}
    </div>
  );
}

function FromGreetie({ greetieId }: { greetieId: string }) {
  const { t } = useTranslation('redeem');
  usePageTitle(t('greetie.title'));
  const [params] = useSearchParams();
  const chosenId = params.get('voucher');
  const vouchers = useGreetieVouchers(greetieId);
  const [now] = useState(() => new Date());
  const ordered = vouchers.data ? sortVouchers(vouchers.data, now).sort((a, b) => Number(b.id === chosenId) - Number(a.id === chosenId)) : null;
  return (
    <div className={css.page}>
      <h1 id="page-title" className={css.title} tabIndex={-1}>
        {t('greetie.title')}
      </h1>
      {vouchers.status === 'failed' ? (
        vouchers.error?.code === 'GREETIE_NOT_FOUND' || vouchers.error?.code === 'FORBIDDEN' ? (
          <LoadFailed title={t('greetie.notFoundTitle')} message={t('greetie.notFoundText')} />
        ) : (
          <LoadFailed title={t('greetie.failedTitle')} message={vouchers.error?.message} retry={vouchers.retry} />
        )
      ) : ordered === null ? (
        <Loading text={t('greetie.loading')} />
      ) : ordered.length === 0 ? (
        <p className={css.muted}>{t('greetie.none')}</p>
      ) : (
        <>
          <p className={css.intro}>{t('greetie.intro')}</p>
          <VoucherList vouchers={ordered} now={now} chosenId={chosenId} />
        </>
      )}
    </div>
  );
}

function VoucherList({ vouchers, now, chosenId = null }: { vouchers: Voucher[]; now: Date; chosenId?: string | null }) {
  const { t } = useTranslation('redeem');
  return (
    <ul className={css.list}>
      {vouchers.map((v) => (
        <li key={v.id}>
          <VoucherCard
            voucher={v}
            now={now}
            to={isRedeemableAtTill(v, now) ? `/redeem/voucher/${v.id}` : `/voucher/${v.id}`}
            extra={v.id === chosenId ? <span className={css.chosen}>{t('greetie.chosen')}</span> : undefined}
          />
        </li>
      ))}
    </ul>
  );
}

/** While nothing is kept to show: the words for screen readers, and a quiet placeholder. */
export function Loading({ text }: { text: string }) {
  return (
    <p role="status" aria-busy="true" className={css.muted}>
      {text}
    </p>
  );
}
