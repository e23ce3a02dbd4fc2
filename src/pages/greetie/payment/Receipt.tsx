import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Trans, useTranslation } from 'react-i18next';
import type { Payment } from '../../../../contract/payment.ts';
import { useLoader } from '../../../components/useLoader.ts';
import { PRIVACY_PATH, TERMS_PATH, useSeller } from '../../../components/seller.ts';
import { button, buttonSecondary } from '../../../components/ui.css.ts';
import { formatDateTime } from '../../../format/dates.ts';
import { formatKr } from '../../../format/money.ts';
import { greetieLoader } from '../loaders.ts';
import * as greetieCss from '../greetie.css.ts';
import * as css from './payment.css.ts';

/**
 * The receipt of a paid greetie: what was bought (each gift with its merchant, product and
 * amount), the total with the validity and the right of withdrawal, the seller, when the
 * recipient gets it, and the terms. The greetie is read
 * again, so its status and delivery time are as the server has them now.
 */
export function Receipt({
  greetieId,
  payment,
  heading,
  links,
}: {
  greetieId: string;
  payment: Payment | null;
  heading: React.RefObject<HTMLHeadingElement | null>;
  links: boolean;
}) {
  const { t, i18n } = useTranslation('payment');
  const greetie = useLoader(greetieLoader, { id: greetieId });
  const seller = useSeller().data;
  const g = greetie.data;
  const language = i18n.language;
  const [saving, setSaving] = useState<'idle' | 'saving' | 'failed'>('idle');
  // pdf-lib comes with the click, never with the page (decision 117).
  const save = async () => {
    if (!g || !payment) return;
    setSaving('saving');
    try {
      const { downloadReceipt } = await import('./receiptPdf.ts');
      await downloadReceipt({
        labels: {
          title: t('receipt.heading'),
          orderNumber: t('receipt.orderNumber'),
          date: t('receipt.paidAt'),
          seller: t('receipt.seller'),
          recipient: t('receipt.recipient'),
          bought: t('receipt.bought'),
          total: t('receipt.total'),
          paidWith: t('receipt.method'),
        },
        orderNumber: payment.orderNumber,
        paidAt: formatDateTime(payment.updatedAt, language),
        seller: seller ? `${seller.name}, ${t('receipt.orgNumber', { number: seller.orgNumber })}` : null,
        recipient: g.recipient ? (g.recipient.name ? `${g.recipient.name} (${g.recipient.mobileNumber})` : g.recipient.mobileNumber) : null,
        items: g.gifts.map((gift) => ({ name: gift.productName, merchant: gift.merchantName, amount: formatKr(gift.amount) })),
        total: formatKr(payment.amount),
        paymentMethod: 'Swish',
      });
      setSaving('idle');
    } catch {
      setSaving('failed');
    }
  };
  return (
    <section className={css.panel} aria-labelledby={`${greetieId}-receipt-title`} data-payment="paid">
      <div className={css.success} role="status">
        <h2 id={`${greetieId}-receipt-title`} ref={heading} className={greetieCss.stepTitle} tabIndex={-1}>
          {t('receipt.title')}
        </h2>
      </div>
      {greetie.status === 'loading' && <p role="status">{t('receipt.loading')}</p>}
      {(greetie.status === 'failed' || greetie.status === 'notFound') && (
        <div role="alert" className={greetieCss.alert}>
          <p className={greetieCss.alertTitle}>{t('receipt.failed')}</p>
          <p>{greetie.error?.message}</p>
          {greetie.status === 'failed' && (
            <button type="button" className={button} onClick={greetie.retry}>
              {t('retry')}
            </button>
          )}
        </div>
      )}
      {g && (
        <article className={css.receipt} aria-label={t('receipt.heading')}>
          <h3 className={css.receiptHeading}>{t('receipt.heading')}</h3>
          <dl className={greetieCss.facts}>
            {payment && (
              <>
                <dt>{t('receipt.orderNumber')}</dt>
                <dd data-order-number>{payment.orderNumber}</dd>
                <dt>{t('receipt.paidAt')}</dt>
                <dd>
                  <time dateTime={payment.updatedAt}>{formatDateTime(payment.updatedAt, language)}</time> · {t('receipt.paidWith')}
                </dd>
              </>
            )}
            {seller && (
              <>
                <dt>{t('receipt.seller')}</dt>
                <dd>
                  {seller.name}, {t('receipt.orgNumber', { number: seller.orgNumber })}
                </dd>
              </>
            )}
            {g.recipient && (
              <>
                <dt>{t('receipt.recipient')}</dt>
                <dd>{g.recipient.name ? `${g.recipient.name} (${g.recipient.mobileNumber})` : g.recipient.mobileNumber}</dd>
              </>
            )}
          </dl>
          <h4 className={css.receiptHeading}>{t('receipt.bought')}</h4>
          <ul className={greetieCss.list}>
            {g.gifts.map((gift, i) => (
              <li key={`${gift.productId}-${i}`} className={greetieCss.row}>
                <div>
                  <p className={greetieCss.rowTitle}>{gift.productName}</p>
                  <p className={greetieCss.rowMeta}>{gift.merchantName}</p>
                </div>
                <span>{formatKr(gift.amount)}</span>
              </li>
            ))}
          </ul>
          <p className={css.receiptTotal}>
            <span>{t('receipt.total')}</span>
            <span>{formatKr(payment?.amount ?? g.total)}</span>
          </p>
          {g.gifts.length > 0 && (
            <>
              <p className={css.receiptTerms}>{t('receipt.validity')}</p>
              <p className={css.receiptTerms}>
                <Trans ns="payment" i18nKey="receipt.withdrawal" components={{ terms: <Link to={TERMS_PATH} /> }} />
              </p>
            </>
          )}
          <h4 className={css.receiptHeading}>{t('receipt.delivery')}</h4>
          <p className={css.text}>
            {g.deliveredAt
              ? t('receipt.delivered', { when: formatDateTime(g.deliveredAt, language) })
              : g.deliverAt && Date.parse(g.deliverAt) > Date.now()
                ? t('receipt.deliverAt', { when: formatDateTime(g.deliverAt, language) })
                : t('receipt.deliverNow')}
          </p>
          {payment && (
            <p className={css.text}>
              <button type="button" className={buttonSecondary} onClick={() => void save()} disabled={saving === 'saving'}>
                {saving === 'saving' ? t('receipt.saving') : t('receipt.save')}
              </button>
              {saving === 'failed' && <span role="alert"> {t('receipt.saveFailed')}</span>}
            </p>
          )}
          <p className={css.legal}>
            <Link to={TERMS_PATH}>{t('receipt.terms')}</Link>
            <Link to={PRIVACY_PATH}>{t('receipt.privacy')}</Link>
          </p>
        </article>
      )}
      {links && (
        <div className={greetieCss.actions}>
          <Link className={buttonSecondary} to="/greetie/list">
            {t('receipt.list')}
          </Link>
          <Link className={button} to={`/greetie/details/${greetieId}`}>
            {t('receipt.details')}
          </Link>
        </div>
      )}
    </section>
  );
}
