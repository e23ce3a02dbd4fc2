import { useId } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { GreetieView, ViewGift } from '../../../../machines/greetieView.ts';
import { button, buttonSecondary } from '../../../components/ui.css.ts';
import { formatDateTime } from '../../../format/dates.ts';
import { formatKr } from '../../../format/money.ts';
import { isRedeemableAtTill, useGreetieVouchers } from '../../../components/vouchers.ts';
import { giftsOfVouchers } from './load.ts';
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
      {view.role === 'recipient' ? <OwnGifts view={view} /> : <GiftList gifts={view.gifts} greetieId={view.id} />}
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

/**
 * The recipient's own vouchers, from the app's voucher store (the greetie open now): a redeem on
 * the till screen shows here without a reload. Until the store has them, the names the greetie
 * came with.
 */
function OwnGifts({ view }: { view: GreetieView }) {
  // Opened by the page as soon as it knew whose greetie it is (GreetieViewPage): read here.
  const own = useGreetieVouchers(view.id, { open: false });
  if (!own.data) return <GiftList gifts={view.gifts} greetieId={view.id} />;
  // 'Lös in' is for the till: an InStore voucher, not redeemed and not expired.
  const now = new Date();
  const atTill = new Set(own.data.filter((v) => isRedeemableAtTill(v, now)).map((v) => v.id));
  return <GiftList gifts={giftsOfVouchers(own.data, true)} greetieId={view.id} atTill={atTill} />;
}

function GiftList({ gifts, greetieId, atTill }: { gifts: readonly ViewGift[]; greetieId: string; atTill?: ReadonlySet<string> }) {
  return (
    <ul className={css.giftList}>
      {gifts.map((g, i) => (
        // By place: the names the greetie came with and the store's vouchers are the same gifts.
        <GiftItem key={i} gift={g} index={i} greetieId={greetieId} redeemable={g.voucherId !== null && (atTill?.has(g.voucherId) ?? false)} />
      ))}
    </ul>
  );
}

function GiftItem({ gift, index, greetieId, redeemable }: { gift: ViewGift; index: number; greetieId: string; redeemable: boolean }) {
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
      {gift.voucherId && (
        <div className={css.giftActions}>
          <Link className={buttonSecondary} to={`/voucher/${encodeURIComponent(gift.voucherId)}`} aria-describedby={nameId}>
            {t('gifts.open')}
          </Link>
          {redeemable && (
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
