import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { Voucher } from '../../contract/voucher.ts';
import { formatDate } from '../format/dates.ts';
import { formatKr } from '../format/money.ts';
import { isExpired } from './vouchers.ts';
import { addressLine } from './MerchantPlace.tsx';
import * as css from './voucherCard.css.ts';

/** The line under a voucher: until when it is valid, or when it was used (or expired). */
export function useVoucherStatusText(v: Voucher, now: Date): string {
  const { t, i18n } = useTranslation('voucher');
  const lang = i18n.language;
  if (v.isRedeemed && v.redeemedAt) {
    const key = v.source === 'InStore' ? 'card.redeemedOn' : v.source === 'Code' ? 'card.usedOn' : 'card.givenOn';
    return t(key, { date: formatDate(v.redeemedAt, lang) });
  }
  if (v.expiresAt === null) return '';
  if (isExpired(v, now)) return t('card.expiredOn', { date: formatDate(v.expiresAt, lang) });
  return t('card.validUntil', { date: formatDate(v.expiresAt, lang) });
}

/** A voucher used in parts at the till: an in-store voucher of a min/max product. */
export const usedInParts = (v: Voucher): boolean => v.kind === 'value' && v.source === 'InStore';

/** What is left of a voucher used in parts, not used up: "Kvar: 200 kr av 349 kr"; '' for any other. */
export function useBalanceText(v: Voucher): string {
  const { t } = useTranslation('voucher');
  if (!usedInParts(v) || v.isRedeemed) return '';
  return t('card.balance', { balance: formatKr(v.balance), amount: formatKr(v.amount) });
}

/**
 * A voucher in a list: the merchant's logo and name, the product and what it is, who it is from,
 * where it is used, the amount, and until when it is valid (and for a value voucher what is left
 * of it); a used or expired one is greyed with its date. A link when `to` is given.
 */
export function VoucherCard({ voucher: v, now, to, extra }: { voucher: Voucher; now: Date; to?: string; extra?: ReactNode }) {
  const { t } = useTranslation('voucher');
  const status = useVoucherStatusText(v, now);
  const balance = useBalanceText(v);
  const spent = v.isRedeemed || isExpired(v, now);
  const content = (
    <>
      <img src={v.merchant.logoUrl} alt="" width={56} height={56} className={spent ? `${css.logo} ${css.logoSpent}` : css.logo} loading="lazy" />
      <span className={css.body}>
        <span className={css.merchant}>{v.merchant.name}</span>
        <span className={css.product}>{v.product.name}</span>
        {v.product.description && <span className={css.description}>{v.product.description}</span>}
        {v.senderName && <span className={css.meta}>{t('card.from', { name: v.senderName })}</span>}
        {v.source === 'InStore' && v.merchant.address && <span className={css.meta}>{addressLine(v.merchant.address)}</span>}
        <span className={spent ? css.metaSpent : css.meta}>{status}</span>
        {balance && <span className={css.balance}>{balance}</span>}
        {extra}
      </span>
      <span className={spent ? `${css.amount} ${css.amountSpent}` : css.amount}>{formatKr(v.amount)}</span>
    </>
  );
  const className = spent ? `${css.card} ${css.spent}` : css.card;
  return to ? (
    <Link to={to} className={className} data-redeemed={v.isRedeemed || undefined}>
      {content}
    </Link>
  ) : (
    <div className={className} data-redeemed={v.isRedeemed || undefined}>
      {content}
    </div>
  );
}
