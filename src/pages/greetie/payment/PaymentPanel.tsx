import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { button, buttonSecondary, errorText, formHint, formInput, formLabel } from '../../../components/ui.css.ts';
import { formatKr } from '../../../format/money.ts';
import { useSessionUser } from '../../../components/session.ts';
import * as greetieCss from '../greetie.css.ts';
import { WithdrawalConsent } from '../WithdrawalConsent.tsx';
import { Receipt } from './Receipt.tsx';
import { usePayment, usePaymentActor, type PaymentActor, type PaymentScreen, type PaymentView } from './usePayment.ts';
import * as css from './payment.css.ts';

/**
 * Paying for a greetie with Swish (the payment machine, machines/payment.ts), run on its own: the
 * greetie's details page picks it up where it stands ('resume', where the Swish app sends the
 * payer back). `onBack` returns to the review; `onPaid` lets the page read the greetie again once
 * it is paid.
 */
export function PaymentPanel({
  greetieId,
  mode,
  ...rest
}: {
  greetieId: string;
  mode: 'start' | 'resume';
  onBack: () => void;
  onPaid?: () => void;
  /** Whether the receipt links to the greetie's details (not on the details page itself). */
  receiptLinks?: boolean;
}) {
  const actor = usePaymentActor(greetieId);
  return <PaymentFlow actor={actor} greetieId={greetieId} mode={mode} {...rest} />;
}

/**
 * The payment's screens for a running payment actor: the details page's own, or the one compose
 * invokes when the review hands over ('start').
 */
export function PaymentFlow({
  actor,
  greetieId,
  mode,
  onBack,
  onPaid,
  receiptLinks = true,
}: {
  actor: PaymentActor;
  greetieId: string;
  mode: 'start' | 'resume';
  onBack: () => void;
  onPaid?: () => void;
  receiptLinks?: boolean;
}) {
  const view = usePayment(actor, mode);
  const { screen } = view;

  // Focus follows the screen: its heading, so a screen reader hears what happened.
  const heading = useRef<HTMLHeadingElement>(null);
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    heading.current?.focus();
  }, [screen]);

  useEffect(() => {
    if (screen === 'paid') onPaid?.();
  }, [screen, onPaid]);

  if (screen === 'none' || screen === 'opening') return null;
  if (screen === 'paid') return <Receipt greetieId={greetieId} payment={view.payment} heading={heading} links={receiptLinks} />;
  return (
    <section className={css.panel} aria-labelledby={`${greetieId}-payment-title`} data-payment={screen}>
      <Screen view={view} screen={screen} heading={heading} titleId={`${greetieId}-payment-title`} onBack={onBack} />
    </section>
  );
}

type Heading = React.RefObject<HTMLHeadingElement | null>;

function Screen({ view, screen, heading, titleId, onBack }: { view: PaymentView; screen: PaymentScreen; heading: Heading; titleId: string; onBack: () => void }) {
  const { t } = useTranslation('payment');
  const title = (text: string, inAlert = false) => (
    <h2 id={titleId} ref={heading} className={inAlert ? greetieCss.alertTitle : greetieCss.stepTitle} tabIndex={-1}>
      {text}
    </h2>
  );
  // Trying again is a new payment: it needs the withdrawal consent (handed over from the review;
  // on the details page ticked here first).
  const consentBox = useRef<HTMLInputElement>(null);
  const retry = () => {
    view.retry();
    if (!view.consented) consentBox.current?.focus();
  };
  const retryOrBack = (
    <>
      {view.asksConsent && (
        <WithdrawalConsent ref={consentBox} checked={view.consented} missing={view.consentMissing} onChange={view.consentTo} />
      )}
      <div className={greetieCss.actions}>
        <button type="button" className={buttonSecondary} onClick={onBack}>
          {t('back')}
        </button>
        <button type="button" className={button} onClick={retry}>
          {t('retry')}
        </button>
      </div>
    </>
  );
  switch (screen) {
    case 'starting':
    case 'checking':
      return (
        <>
          {title(t('title'))}
          <div className={css.waiting} aria-busy="true">
            <span className={css.spinner} aria-hidden="true" />
            <p role="status" className={css.text}>
              {t(screen)}
            </p>
          </div>
        </>
      );
    case 'awaitingPayer':
      return (
        <>
          {title(t('title'))}
          {view.payment && <p className={css.amount}>{t('toPay', { amount: formatKr(view.payment.amount) })}</p>}
          {view.device === 'phone' ? <PhoneView view={view} /> : <DesktopView view={view} />}
          <ReadFailed show={view.readFailed} />
          <Cancel onBack={onBack} />
        </>
      );
    case 'readingResult': {
      const payer = view.payment?.payerAlias;
      const appUrl = view.payment?.appUrl;
      return (
        <>
          {title(t('title'))}
          {view.payment && <p className={css.amount}>{t('toPay', { amount: formatKr(view.payment.amount) })}</p>}
          <div className={css.waiting}>
            <span className={css.spinner} aria-hidden="true" />
            <div role="status">
              <p className={css.text}>
                <strong>{t('reading.title')}</strong>
              </p>
              <p className={css.text}>{payer ? t('reading.payer', { number: payer }) : t('reading.app')}</p>
            </div>
          </div>
          <ReadFailed show={view.readFailed} />
          <div className={greetieCss.actions}>
            {appUrl && view.device === 'phone' && (
              <a className={button} href={appUrl}>
                <SwishMark />
                {t('reading.openAgain')}
              </a>
            )}
            <button type="button" className={buttonSecondary} onClick={view.changePayment}>
              {t('otherWay')}
            </button>
          </div>
          <Cancel onBack={onBack} />
        </>
      );
    }
    case 'declined':
    case 'cancelled':
    case 'expired':
    case 'failed':
      return (
        <div role="alert" className={greetieCss.alert}>
          {title(t(`outcome.${screen}.title`), true)}
          <p>{t(`outcome.${screen}.text`)}</p>
          {retryOrBack}
        </div>
      );
    case 'startFailed':
    case 'checkFailed':
      return (
        <div role="alert" className={greetieCss.alert}>
          {title(t(`outcome.${screen}.title`), true)}
          <p>{view.failure?.message}</p>
          {screen === 'startFailed' ? (
            retryOrBack
          ) : (
            <button type="button" className={button} onClick={view.retry}>
              {t('retry')}
            </button>
          )}
        </div>
      );
    default:
      return null;
  }
}

/** "Avbryt": back to the review, on every screen where the payment waits (nothing is paid). */
function Cancel({ onBack }: { onBack: () => void }) {
  const { t } = useTranslation('payment');
  return (
    <p className={css.text}>
      <button type="button" className={buttonSecondary} onClick={onBack}>
        {t('cancel')}
      </button>
    </p>
  );
}

/**
 * A neutral mark for Swish beside its button (drawn here, not Swish's artwork): two interlocking
 * arcs. Decorative: the button's text says what it does.
 */
function SwishMark() {
  return (
    <svg className={css.mark} viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
      <path d="M6 16.5a7 7 0 0 1 9.5-10.2" fill="none" stroke="currentColor" strokeWidth="2.6" strokeLinecap="round" />
      <path d="M18 7.5a7 7 0 0 1-9.5 10.2" fill="none" stroke="currentColor" strokeWidth="2.6" strokeLinecap="round" />
    </svg>
  );
}

/** "+46701234567" → "070-123 45 67", as a person writes it; anything else as it is. */
export function nationalMobile(e164: string | null | undefined): string {
  const m = /^\+46(7\d)(\d{3})(\d{2})(\d{2})$/.exec(e164 ?? '');
  return m ? `0${m[1]}-${m[2]} ${m[3]} ${m[4]}` : (e164 ?? '');
}

function ReadFailed({ show }: { show: boolean }) {
  const { t } = useTranslation('payment');
  return (
    <p className={css.note} aria-live="polite">
      {show ? t('readFailed') : ''}
    </p>
  );
}

/** A phone: the swish:// link opens the Swish app with the payment filled in. */
function PhoneView({ view }: { view: PaymentView }) {
  const { t } = useTranslation('payment');
  return (
    <>
      <p className={css.text}>{t('phone.text')}</p>
      <div className={greetieCss.actions}>
        {view.payment?.appUrl && (
          <a className={button} href={view.payment.appUrl} onClick={view.openedSwish}>
            <SwishMark />
            {t('phone.open')}
          </a>
        )}
        <button type="button" className={buttonSecondary} onClick={view.showQr}>
          {t('otherWay')}
        </button>
      </div>
    </>
  );
}

/**
 * A desktop: the QR code (our server's SVG, shown as an image so nothing in it can run) and a field
 * for the payer's Swish number, which sends the request to that Swish app instead.
 */
function DesktopView({ view }: { view: PaymentView }) {
  const { t } = useTranslation('payment');
  // The signed-in number, prefilled: on a desktop the payer is most often the sender.
  const signedIn = useSessionUser();
  const [number, setNumber] = useState(view.payerAlias ?? nationalMobile(signedIn?.mobileNumber));
  const fieldId = useId();
  const hintId = useId();
  const errorId = useId();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    view.submitPayer(number);
  };
  const qr = view.payment?.qrCode;
  return (
    <>
      <p className={css.text}>{t('desktop.text')}</p>
      {qr && <img className={css.qr} src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(qr)}`} alt={t('desktop.qrAlt')} width={260} height={260} />}
      <form className={css.payerForm} onSubmit={submit} noValidate>
        <p className={css.text}>{t('desktop.or')}</p>
        <div className={css.payerRow}>
          <div className={css.payerField}>
            <label htmlFor={fieldId} className={formLabel}>
              {t('desktop.payerLabel')}
            </label>
            <input
              id={fieldId}
              className={formInput}
              type="tel"
              inputMode="tel"
              autoComplete="tel"
              value={number}
              onChange={(e) => setNumber(e.target.value)}
              aria-invalid={view.payerInvalid || undefined}
              aria-describedby={view.payerInvalid ? `${hintId} ${errorId}` : hintId}
            />
            <p id={hintId} className={formHint}>
              {t('desktop.payerHint')}
            </p>
          </div>
          <button type="submit" className={button}>
            {t('desktop.send')}
          </button>
        </div>
        {view.payerInvalid && (
          <p id={errorId} role="alert" className={errorText}>
            {t('desktop.payerInvalid')}
          </p>
        )}
      </form>
      <div className={greetieCss.actions}>
        <button type="button" className={buttonSecondary} onClick={view.showAppButton}>
          {t('otherWay')}
        </button>
      </div>
    </>
  );
}
