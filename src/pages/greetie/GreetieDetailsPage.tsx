import { useCallback, useState, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import * as Dialog from '@radix-ui/react-dialog';
import type { Greetie } from '../../../contract/greetie.ts';
import { useLoader } from '../../components/useLoader.ts';
import { useSessionUser } from '../../components/session.ts';
import { usePageTitle } from '../../components/usePageTitle.ts';
import { button, buttonSecondary } from '../../components/ui.css.ts';
import { deleteGreetie } from '../../api/greetie.ts';
import { formatDateTime } from '../../format/dates.ts';
import { formatKr } from '../../format/money.ts';
import { GreetieCard } from './GreetieCard.tsx';
import { greetieLoader } from './loaders.ts';
import { deliveryFactOf, statusLabelOf } from './status.ts';
import { PaymentPanel } from './payment/PaymentPanel.tsx';
import { SenderActions } from './SenderActions.tsx';
import { ThanksNote } from './ThanksNote.tsx';
import { useGreetieActions } from './useGreetieActions.ts';
import * as css from './greetie.css.ts';

/**
 * /greetie/details/{id}: status, content, gifts; a draft or one awaiting payment can be deleted
 * (after a confirmation). Where the Swish app sends the payer back: a greetie with gifts picks its
 * latest payment up (the payment machine, resumed) — still open: it waits for Swish's answer;
 * paid: the receipt; declined and the rest: what happened and a way to try again.
 */
export function GreetieDetailsPage() {
  const { id = '' } = useParams();
  // Read again once a payment shown here is paid: the greetie is scheduled now.
  const [version, setVersion] = useState(0);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return <Details key={`${id}:${version}`} id={id} reload={reload} />;
}

const deletable = (g: Greetie) => g.status === 'draft' || g.status === 'awaitingPayment';
/** Paid for: its receipt (from the payment panel) lists the gifts. */
const paid = (g: Greetie) => g.gifts.length > 0 && !deletable(g);

function Details({ id, reload }: { id: string; reload: () => void }) {
  const { t } = useTranslation('greetie');
  const { status, data, error, retry } = useLoader(greetieLoader, { id });
  const me = useSessionUser();
  usePageTitle(t('details.title'));
  const back = (
    <Link to="/greetie/list" className={css.lead}>
      ← {t('details.back')}
    </Link>
  );
  if (status === 'loading') {
    return (
      <section className={css.page} aria-busy="true" aria-labelledby="page-title">
        {back}
        <h1 id="page-title" className={css.title}>
          {t('details.title')}
        </h1>
        <p role="status">{t('details.loading')}</p>
        <div className={css.skeleton} />
      </section>
    );
  }
  if (status === 'notFound' || status === 'failed' || !data) {
    return (
      <section className={css.page} aria-labelledby="page-title">
        {back}
        <div role={status === 'failed' ? 'alert' : undefined} className={status === 'failed' ? css.alert : css.notice}>
          <h1 id="page-title" className={css.alertTitle}>
            {status === 'failed' ? t('details.failed') : t('details.notFound')}
          </h1>
          {status === 'failed' && (
            <>
              <p>{error?.message}</p>
              <button type="button" className={button} onClick={retry}>
                {t('new.retry')}
              </button>
            </>
          )}
        </div>
      </section>
    );
  }
  // The payment (and its receipt) is the sender's: GET …/payment answers anyone else 404.
  const mine = data.sender.id !== null && data.sender.id === me?.id;
  return <Loaded greetie={data} mine={mine} back={back} reload={reload} />;
}

function Loaded({ greetie, mine, back, reload }: { greetie: Greetie; mine: boolean; back: ReactNode; reload: () => void }) {
  const { t, i18n } = useTranslation('greetie');
  const navigate = useNavigate();
  // The sender's actions keep the greetie as the server last answered it.
  const actions = useGreetieActions(greetie);
  const g = actions.greetie;
  const delivery = deliveryFactOf(g);
  return (
    <article className={css.page} aria-labelledby="page-title">
      {back}
      <h1 id="page-title" className={css.title}>
        {t('details.title')}
      </h1>
      <p>
        <span className={css.status}>{t(`status.${statusLabelOf(g)}`)}</span>
      </p>
      <GreetieCard media={g.media} content={g.content} message={g.message} />
      <dl className={css.facts}>
        <dt>{t('review.to')}</dt>
        <dd>{g.recipient ? (g.recipient.name ? `${g.recipient.name} (${g.recipient.mobileNumber})` : g.recipient.mobileNumber) : t('list.noRecipient')}</dd>
        <dt>{t('details.from')}</dt>
        <dd>{g.sender.id === null ? t('list.formerUser') : (g.sender.name ?? t('list.someone'))}</dd>
        <dt>{t(delivery.label)}</dt>
        <dd>{delivery.at ? formatDateTime(delivery.at, i18n.language) : t(delivery.when ?? 'review.now')}</dd>
      </dl>
      {g.thanks && <ThanksNote thanks={g.thanks} recipientName={g.recipient?.name ?? null} />}
      {mine && g.gifts.length > 0 && (
        <PaymentPanel
          greetieId={g.id}
          mode="resume"
          onBack={() => navigate(`/greetie/new?draft=${g.id}`)}
          onPaid={g.status === 'awaitingPayment' ? reload : undefined}
          receiptLinks={false}
        />
      )}
      {mine && paid(g) ? null : (
        <>
          <h2>{t('review.gifts')}</h2>
          {g.gifts.length === 0 ? (
            <p className={css.notice}>{t('review.noGifts')}</p>
          ) : (
            <>
              <ul className={css.list}>
                {g.gifts.map((gift, i) => (
                  <li key={`${gift.productId}-${i}`} className={css.row}>
                    <div>
                      <p className={css.rowTitle}>{gift.productName}</p>
                      <p className={css.rowMeta}>{gift.merchantName}</p>
                    </div>
                    <span>{formatKr(gift.amount)}</span>
                  </li>
                ))}
              </ul>
              <p className={css.total}>{t('gifts.total', { total: formatKr(g.total) })}</p>
            </>
          )}
        </>
      )}
      <div className={css.actions}>
        {g.status === 'draft' && (
          <Link className={button} to={`/greetie/new?draft=${g.id}`}>
            {t('details.continue')}
          </Link>
        )}
        {deletable(g) && <DeleteButton id={g.id} />}
      </div>
      {mine && <SenderActions actions={actions} reload={reload} />}
    </article>
  );
}

function DeleteButton({ id }: { id: string }) {
  const { t } = useTranslation('greetie');
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const confirm = async () => {
    setBusy(true);
    setFailure(null);
    try {
      await deleteGreetie(id);
      setOpen(false);
      navigate('/greetie/list', { replace: true });
    } catch (e) {
      setFailure((e as { userMessage?: string }).userMessage ?? String(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger asChild>
        <button type="button" className={buttonSecondary}>
          {t('details.delete')}
        </button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className={css.dialogOverlay} />
        <Dialog.Content className={css.dialog}>
          <Dialog.Title className={css.dialogTitle}>{t('details.deleteTitle')}</Dialog.Title>
          <Dialog.Description>{t('details.deleteText')}</Dialog.Description>
          {failure && (
            <p role="alert" className={css.fieldError}>
              {failure}
            </p>
          )}
          <div className={css.actions}>
            <Dialog.Close asChild>
              <button type="button" className={buttonSecondary}>
                {t('details.keep')}
              </button>
            </Dialog.Close>
            <button type="button" className={`${button} ${css.danger}`} disabled={busy} onClick={() => void confirm()}>
              {t('details.confirmDelete')}
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
