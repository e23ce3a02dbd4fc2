import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Voucher } from '../../../contract/voucher.ts';
import { formatDate } from '../../format/dates.ts';
import { formatKr } from '../../format/money.ts';
import * as css from './till.css.ts';

/** The time now, to the second: ticks while shown. */
function useNow(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/**
 * The large "Inlöst" of every till (the customer's phone at /redeem/voucher/{id}, and till mode
 * in the merchant portal): green, moving, with what was taken and what is left and the time now,
 * ticking, so a screenshot of an old one cannot pass for it. Its heading takes the focus when it
 * appears, so a screen reader says "Inlöst" at once.
 */
export function RedeemedCard({ voucher: v, taken, when }: { voucher: Voucher; taken: number; when: string | null }) {
  const { t, i18n } = useTranslation('redeem');
  const now = useNow();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const at = when ? formatDate(when, i18n.language, 'HH:mm:ss') : '';
  return (
    <section className={css.done} aria-labelledby="page-title" data-testid="redeemed">
      <span className={css.doneMark} aria-hidden="true">
        ✓
      </span>
      <h1 id="page-title" ref={heading} className={css.doneTitle} tabIndex={-1}>
        {t('done.title')}
      </h1>
      <p className={css.doneWhat}>{t('done.what', { product: v.product.name, merchant: v.merchant.name, amount: formatKr(v.amount) })}</p>
      <p className={css.doneTaken} data-testid="redeemed-amounts">
        {t('done.taken', { taken: formatKr(taken), left: formatKr(v.balance) })}
      </p>
      {at && <p className={css.doneAt}>{t('done.at', { time: at })}</p>}
      <p className={css.clock}>
        <span className={css.clockLabel}>{t('done.now')}</span>
        <time dateTime={now.toISOString()} data-testid="live-clock">
          {formatDate(now, i18n.language, 'HH:mm:ss')}
        </time>
      </p>
      <p className={css.live}>{t('done.live')}</p>
    </section>
  );
}
