import { useCallback, useEffect, useRef } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { isUuid } from '../../../contract/common.ts';
import { STEPS, type ComposeStep } from '../../../machines/compose/draft.ts';
import { useSessionUser } from '../../components/session.ts';
import { usePageTitle } from '../../components/usePageTitle.ts';
import { button, buttonSecondary, visuallyHidden } from '../../components/ui.css.ts';
import { useCompose, type ComposeView } from './useCompose.ts';
import { useStepAddress } from './useStepAddress.ts';
import { MediaStep } from './MediaStep.tsx';
import { ContentStep } from './ContentStep.tsx';
import { GiftsStep } from './GiftsStep.tsx';
import { RecipientStep } from './RecipientStep.tsx';
import { ReviewStep } from './ReviewStep.tsx';
import { PaymentFlow } from './payment/PaymentPanel.tsx';
import { deviceOf } from './payment/usePayment.ts';
import { Receipt } from './payment/Receipt.tsx';
import { SoldOutAlert } from './soldOut.tsx';
import * as css from './greetie.css.ts';

/**
 * /greetie/new/{step}: making a greetie, one step at a time (the compose machine, machines/compose.ts).
 * `?draft={id}` continues a draft; `?productId=…&amount=…` starts one with that gift. Each step has
 * its address and the draft's id joins it once the draft exists, so the browser's back goes to the
 * step before and a reload continues at the same step (useStepAddress.ts).
 */
export function GreetieNewPage() {
  const { t } = useTranslation('greetie');
  const [params] = useSearchParams();
  const user = useSessionUser();
  const compose = useCompose();
  const { screen } = compose;
  // Once it is paid (the receipt) or sent, the page is no longer about making it.
  const pageTitle = screen === 'sent' || screen === 'paid' ? t('new.doneTitle') : t('new.title');
  usePageTitle(pageTitle);

  // What the address asks to open (read once, as the page opens).
  const opening = useCallback(() => {
    const draft = params.get('draft');
    const productId = params.get('productId');
    const amount = Number(params.get('amount'));
    return {
      draftId: draft || null,
      gift: productId && isUuid(productId) ? { productId, ...(Number.isInteger(amount) && amount > 0 ? { amount } : {}) } : null,
      sender: user ? { id: user.id, name: user.name } : null,
      device: deviceOf(),
    };
  }, [params, user]);
  useStepAddress(compose, opening);

  // Focus follows the step: its heading, so a screen reader hears where the person is.
  const heading = useRef<HTMLHeadingElement>(null);
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    heading.current?.focus();
  }, [screen]);

  const stepIndex = STEPS.indexOf(screen as ComposeStep);
  return (
    <section className={css.page} aria-labelledby="page-title">
      <h1 id="page-title" className={css.title}>
        {pageTitle}
      </h1>
      {stepIndex >= 0 && <Stepper current={stepIndex} />}
      {stepIndex >= 0 && <SaveStatus compose={compose} />}
      <Screen compose={compose} heading={heading} />
    </section>
  );
}

function Stepper({ current }: { current: number }) {
  const { t } = useTranslation('greetie');
  return (
    <nav aria-label={t('new.stepsLabel')}>
      <ol className={css.stepper}>
        {STEPS.map((s, i) => (
          <li
            key={s}
            className={`${css.stepItem} ${i < current ? css.stepDone : ''} ${i === current ? css.stepCurrent : ''}`}
            aria-current={i === current ? 'step' : undefined}
          >
            <span className={visuallyHidden}>{t('new.stepOf', { n: i + 1, count: STEPS.length })} </span>
            {t(`steps.${s}`)}
          </li>
        ))}
      </ol>
    </nav>
  );
}

function SaveStatus({ compose }: { compose: ComposeView }) {
  const { t } = useTranslation('greetie');
  if (compose.soldOut.failed) return <SoldOutAlert compose={compose} />;
  if (compose.save === 'failed') {
    return (
      <div role="alert" className={css.alert}>
        <p className={css.alertTitle}>{t('save.failed')}</p>
        <p>{compose.saveFailure?.message}</p>
        <button type="button" className={button} onClick={compose.retrySave}>
          {t('save.retry')}
        </button>
      </div>
    );
  }
  // A field not filled in right yet (its step says which): no fault, saved once it is.
  const text = !compose.draftId ? '' : compose.save === 'saved' ? t('save.saved') : compose.save === 'invalid' ? t('save.invalid') : t('save.saving');
  return (
    <p role="status" className={css.saveStatus} data-save={compose.save}>
      {text}
    </p>
  );
}

function Screen({ compose, heading }: { compose: ComposeView; heading: React.RefObject<HTMLHeadingElement | null> }) {
  const { t } = useTranslation('greetie');
  const { screen, draftId } = compose;
  const title = (key: string) => (
    <h2 ref={heading} className={css.stepTitle} tabIndex={-1}>
      {t(key)}
    </h2>
  );
  switch (screen) {
    case 'opening':
    case 'loading':
    case 'alreadyPaid':
      // (Already paid: its own page, with the receipt, replaces this one: useStepAddress.ts.)
      return (
        <div aria-busy="true">
          <p role="status">{t('new.loading')}</p>
          <div className={css.skeleton} />
        </div>
      );
    case 'loadFailed':
    case 'createFailed':
      return (
        <div role="alert" className={css.alert}>
          <h2 ref={heading} className={css.alertTitle} tabIndex={-1}>
            {t(screen === 'loadFailed' ? 'new.loadFailed' : 'new.createFailed')}
          </h2>
          <p>{compose.failure?.message}</p>
          {screen === 'createFailed' ? (
            // Starting from a product that is gone or sold out: the greetie can go on without it.
            <div className={css.actions}>
              <button type="button" className={buttonSecondary} onClick={compose.withoutGift}>
                {t('new.withoutGift')}
              </button>
              <button type="button" className={button} onClick={compose.retry}>
                {t('new.retry')}
              </button>
            </div>
          ) : (
            <button type="button" className={button} onClick={compose.retry}>
              {t('new.retry')}
            </button>
          )}
        </div>
      );
    case 'notFound':
      return (
        <div className={css.notice}>
          {title('new.notFound')}
          <p>{t('new.notFoundText')}</p>
          <Link className={button} to="/greetie/list">
            {t('new.toList')}
          </Link>
        </div>
      );
    case 'notEditable':
      return (
        <div className={css.notice}>
          {title('new.notEditable')}
          <p>{t('new.notEditableText')}</p>
          <Link className={button} to={`/greetie/details/${draftId ?? ''}`}>
            {t('new.toDetails')}
          </Link>
        </div>
      );
    case 'media':
      return <MediaStep compose={compose} title={title('media.title')} />;
    case 'content':
      return <ContentStep compose={compose} title={title('content.title')} />;
    case 'gifts':
      return <GiftsStep compose={compose} title={title('gifts.title')} soldOut={compose.soldOut.productIds} />;
    case 'recipient':
      return <RecipientStep compose={compose} title={title('recipient.title')} />;
    case 'review':
      return <ReviewStep compose={compose} title={title('review.title')} />;
    case 'payment':
      // The review handed over to the payment machine compose invokes (machines/payment.ts).
      return compose.paymentActor && <PaymentFlow actor={compose.paymentActor} greetieId={draftId ?? ''} mode="start" onBack={compose.back} />;
    case 'paid':
      return <Receipt greetieId={draftId ?? ''} payment={compose.payment} heading={heading} links />;
    case 'sent':
      return (
        <div className={css.notice}>
          {title('sent.title')}
          <p>{compose.draft.deliverAt ? t('sent.later') : t('sent.now')}</p>
          <div className={css.actions}>
            <Link className={button} to={`/greetie/details/${draftId ?? ''}`}>
              {t('sent.details')}
            </Link>
            <Link className={buttonSecondary} to="/greetie/list">
              {t('new.toList')}
            </Link>
          </div>
        </div>
      );
  }
}
