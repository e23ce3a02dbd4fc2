import { useRef, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Trans, useTranslation } from 'react-i18next';
import { button, buttonSecondary } from '../../components/ui.css.ts';
import { PRIVACY_PATH, TERMS_PATH } from '../../components/seller.ts';
import { formatDateTime } from '../../format/dates.ts';
import { formatKr } from '../../format/money.ts';
import { deliveryProblem } from './deliverAt.ts';
import { GreetieCard } from './GreetieCard.tsx';
import { WithdrawalConsent } from './WithdrawalConsent.tsx';
import type { ComposeView } from './useCompose.ts';
import * as css from './greetie.css.ts';

/**
 * Step 5: the greetie as the recipient will see it, the gifts and the total; then payment or send.
 * With gifts, the withdrawal consent must be ticked first: 'Betala med Swish' without it starts
 * nothing, says so at the box and moves focus there.
 */
export function ReviewStep({ compose, title }: { compose: ComposeView; title: ReactNode }) {
  const { t, i18n } = useTranslation('greetie');
  const { draft, save, busy, sendFailed, overlayUploading } = compose;
  const hasGifts = draft.gifts.length > 0;
  // A delivery time that has passed since it was picked (a draft resumed later), or that the server
  // refused as past: said at the time, with the way back to change it; nothing is sent meanwhile.
  const past = (draft.deliverAt !== null && deliveryProblem(draft.deliverAt, new Date()) === 'past') || (sendFailed && compose.failure?.code === 'DELIVER_AT_PAST');
  const ready = save === 'saved' && !overlayUploading && !busy && !past;
  const consentBox = useRef<HTMLInputElement>(null);
  const submit = () => {
    compose.submit();
    if (hasGifts && !compose.consent) consentBox.current?.focus();
  };
  return (
    <div>
      {title}
      <GreetieCard media={draft.media} content={draft.content} message={draft.message} />
      <dl className={css.facts}>
        <dt>{t('review.to')}</dt>
        <dd>{draft.recipient.name.trim() ? `${draft.recipient.name.trim()} (${draft.recipient.mobileNumber})` : draft.recipient.mobileNumber}</dd>
        <dt>{t('review.when')}</dt>
        <dd>
          {draft.deliverAt ? formatDateTime(draft.deliverAt, i18n.language) : t('review.now')}
          {past && (
            <span id="review-past" role="alert" className={css.fieldError} style={{ display: 'block' }}>
              {t('recipient.problem.past')}{' '}
              <button type="button" className={css.linkButton} onClick={compose.back}>
                {t('review.changeTime')}
              </button>
            </span>
          )}
        </dd>
      </dl>
      <h3>{t('review.gifts')}</h3>
      {hasGifts ? (
        <ul className={css.list}>
          {draft.gifts.map((g, i) => (
            <li key={`${g.productId}-${i}`} className={css.row}>
              <div>
                <p className={css.rowTitle}>{g.productName}</p>
                <p className={css.rowMeta}>{g.merchantName}</p>
              </div>
              <span>{formatKr(g.amount)}</span>
            </li>
          ))}
        </ul>
      ) : (
        <p className={css.notice}>{t('review.noGifts')}</p>
      )}
      {hasGifts && <p className={css.total}>{t('gifts.total', { total: formatKr(compose.total) })}</p>}
      {hasGifts && (
        <p className={css.hint}>
          <Trans ns="payment" i18nKey="reviewTerms" components={{ terms: <Link to={TERMS_PATH} />, privacy: <Link to={PRIVACY_PATH} /> }} />
        </p>
      )}
      {hasGifts && <WithdrawalConsent ref={consentBox} checked={compose.consent} missing={compose.consentMissing} onChange={compose.consentTo} />}
      {sendFailed && !past && (
        <div role="alert" className={css.alert}>
          <p className={css.alertTitle}>{t('review.sendFailed')}</p>
          <p>{compose.failure?.message}</p>
        </div>
      )}
      <div className={css.actions}>
        <button type="button" className={buttonSecondary} disabled={busy} onClick={compose.back}>
          {t('nav.back')}
        </button>
        <button
          type="button"
          className={button}
          disabled={past || (!ready && !sendFailed)}
          aria-describedby={past ? 'review-past' : !ready && !sendFailed ? 'review-wait' : undefined}
          onClick={sendFailed ? compose.retry : submit}
        >
          {busy ? t('review.sending') : sendFailed ? t('new.retry') : hasGifts ? t('review.toPayment') : t('review.send')}
        </button>
      </div>
      {!ready && !busy && !sendFailed && !past && (
        <p id="review-wait" className={css.hint}>
          {t('review.waitForSave')}
        </p>
      )}
    </div>
  );
}
