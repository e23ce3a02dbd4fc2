import { useId } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { GreetieView, ViewGift } from '../../../../machines/greetieView.ts';
import { button, buttonSecondary } from '../../../components/ui.css.ts';
import { formatDateTime } from '../../../format/dates.ts';
import { formatKr } from '../../../format/money.ts';
import * as css from './view.css.ts';

/** How long one gift waits after the one before it to pop in. */
const STAGGER_MS = 120;

/**
 * The gifts once revealed, with what this person can do: a visitor signs in to receive them
 * (returnTo brings them back here), the recipient opens each in Mina gåvor or redeems it, the
 * sender sees what they gave. Names and amounts only: never a phone number or a code.
 */
export function GiftReveal({ view, returnTo }: { view: GreetieView; returnTo: string }) {
  const { t } = useTranslation('view');
  const ids = useId();
  const count = view.gifts.length;
  if (count === 0) return null;
  const heading =
    view.role === 'recipient' ? t('gifts.yours', { count }) : view.role === 'sender' ? t('gifts.given', { count }) : t('gifts.inside', { count });
  return (
    <section className={css.gifts} aria-labelledby={`${ids}-gifts`}>
      <h2 id={`${ids}-gifts`} className={css.giftsTitle}>
        {heading}
      </h2>
      <ul className={css.giftList}>
        {view.gifts.map((g, i) => (
          <GiftItem key={g.key} gift={g} index={i} greetieId={view.id} actions={view.role === 'recipient'} />
        ))}
      </ul>
      {view.role === 'visitor' && (
        <div className={css.signIn}>
          <Link className={button} to={`/auth/jwt/login?returnTo=${encodeURIComponent(returnTo)}`}>
            {t('signIn.button')}
          </Link>
          <p className={css.hint}>{t('signIn.hint')}</p>
        </div>
      )}
      {view.role === 'other' && <p className={`${css.hint} ${css.signIn}`}>{t('other.hint')}</p>}
    </section>
  );
}

function GiftItem({ gift, index, greetieId, actions }: { gift: ViewGift; index: number; greetieId: string; actions: boolean }) {
  const { t, i18n } = useTranslation('view');
  const nameId = useId();
  return (
    <li className={gift.isRedeemed ? `${css.gift} ${css.giftRedeemed}` : css.gift} style={{ animationDelay: `${index * STAGGER_MS}ms` }}>
      <div>
        <p id={nameId} className={css.giftName}>
          {gift.productName}
        </p>
        <p className={css.giftMeta}>
          {t('gifts.from', { merchant: gift.merchantName })} · {formatKr(gift.amount)}
        </p>
        {gift.isRedeemed && gift.redeemedAt && <p className={css.giftMeta}>{t('gifts.redeemed', { date: formatDateTime(gift.redeemedAt, i18n.language) })}</p>}
      </div>
      {actions && gift.voucherId && (
        <div className={css.giftActions}>
          <Link className={buttonSecondary} to={`/voucher/${encodeURIComponent(gift.voucherId)}`} aria-describedby={nameId}>
            {t('gifts.open')}
          </Link>
          {!gift.isRedeemed && (
            <Link
              className={button}
              to={`/redeem/${encodeURIComponent(greetieId)}?voucher=${encodeURIComponent(gift.voucherId)}`}
              aria-describedby={nameId}
            >
              {t('gifts.redeem')}
            </Link>
          )}
        </div>
      )}
    </li>
  );
}
