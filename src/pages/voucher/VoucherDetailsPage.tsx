import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import * as Dialog from '@radix-ui/react-dialog';
import type { Voucher } from '../../../contract/voucher.ts';
import type { Failure } from '../../../contract/errors.ts';
import { isDonatable } from '../../../machines/donate.ts';
import { useSessionUser } from '../../components/session.ts';
import { usePageTitle } from '../../components/usePageTitle.ts';
import { button, buttonSecondary } from '../../components/ui.css.ts';
import { useVoucherStatusText } from '../../components/VoucherCard.tsx';
import { isExpired, useSelectedVoucher } from '../../components/vouchers.ts';
import { formatDate } from '../../format/dates.ts';
import { formatKr } from '../../format/money.ts';
import { formatMobileNumber } from '../../format/phone.ts';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import { Loading } from './VoucherListPage.tsx';
import { DonateInstead, type DonatedState } from './DonateInstead.tsx';
import { VoucherHistory } from './VoucherHistory.tsx';
import { VoucherQrCode } from './VoucherQrCode.tsx';
import { MerchantPlace } from '../../components/MerchantPlace.tsx';
import * as css from './voucher.css.ts';

/**
 * /voucher/{id}: one voucher, and what to do with it by its kind. InStore: 'Lös in i butiken' (the
 * till screen). Code: the code, a copy button and 'Markera som använd'. Charity: the donation
 * certificate and 'Skänk gåvan', confirmed in a dialog. Marking used goes through the voucher
 * store, so every list shows it at once. An in-store value voucher shows its balance and its uses;
 * an unused in-store voucher offers 'Skänk värdet i stället' (DonateInstead), whose Charity
 * voucher then opens here in its place, saying what happened.
 */
export function VoucherDetailsPage() {
  const { id = '' } = useParams();
  return <Details key={id} id={id} />;
}

function Details({ id }: { id: string }) {
  const { t } = useTranslation('voucher');
  const v = useSelectedVoucher(id);
  usePageTitle(v.data ? v.data.product.name : t('details.loading'));
  return (
    <div className={css.page}>
      <Link to="/voucher" className={css.back}>
        ← {t('details.back')}
      </Link>
      {v.status === 'failed' ? (
        v.error?.code === 'VOUCHER_NOT_FOUND' ? (
          <LoadFailed title={t('details.notFoundTitle')} message={t('details.notFoundText')} />
        ) : (
          <LoadFailed title={t('details.failedTitle')} message={v.error?.message} retry={v.retry} />
        )
      ) : v.data === null ? (
        <>
          <h1 id="page-title" className={css.title} tabIndex={-1}>
            {t('details.loading')}
          </h1>
          <Loading text={t('details.loading')} />
        </>
      ) : (
        <VoucherView voucher={v.data} marking={v.marking} markError={v.markError} markUsed={v.markUsed} />
      )}
    </div>
  );
}

interface ViewProps {
  voucher: Voucher;
  marking: boolean;
  markError: Failure | null;
  markUsed: () => void;
}

function VoucherView(props: ViewProps) {
  const { t } = useTranslation('voucher');
  const { voucher: v } = props;
  const [now] = useState(() => new Date());
  const status = useVoucherStatusText(v, now);
  const spent = v.isRedeemed || isExpired(v, now);
  return (
    <article className={css.card} aria-labelledby="page-title">
      <div className={css.head}>
        <img src={v.merchant.logoUrl} alt="" width={72} height={72} className={css.logo} />
        <div>
          <p className={css.merchant}>{v.merchant.name}</p>
          <h1 id="page-title" className={css.product} tabIndex={-1}>
            {v.product.name}
          </h1>
        </div>
      </div>
      <span className={css.badge}>{t(`card.source.${v.source}`)}</span>
      {v.product.description && <p>{v.product.description}</p>}
      {v.senderName && <p className={css.muted}>{t('card.from', { name: v.senderName })}</p>}
      <p className={css.amount}>{formatKr(v.amount)}</p>
      <p className={spent ? css.statusSpent : css.status} data-testid="voucher-status">
        {status}
      </p>
      {v.source === 'InStore' && <MerchantPlace name={v.merchant.name} address={v.merchant.address} openingHours={v.merchant.openingHours} />}
      <Donated voucher={v} />
      <VoucherHistory voucher={v} />
      {v.source === 'InStore' && <InStore voucher={v} now={now} />}
      {v.source === 'Code' && <Code {...props} now={now} />}
      {v.source === 'Charity' && <Charity {...props} now={now} />}
    </article>
  );
}

function InStore({ voucher: v, now }: { voucher: Voucher; now: Date }) {
  const { t } = useTranslation('voucher');
  if (v.isRedeemed || isExpired(v, now)) return null;
  return (
    <>
      <VoucherQrCode voucherId={v.id} />
      <p className={css.muted}>{t('details.instore.text')}</p>
      <Link to={`/redeem/voucher/${v.id}`} className={`${button} ${css.wide}`}>
        {t('details.instore.redeem')}
      </Link>
      {isDonatable(v, now) && <DonateInstead voucher={v} />}
    </>
  );
}

/** A Charity voucher just given in place of an in-store voucher: says so, and takes the focus. */
function Donated({ voucher: v }: { voucher: Voucher }) {
  const { t } = useTranslation('voucher');
  const state = useLocation().state as Partial<DonatedState> | null;
  const ref = useRef<HTMLParagraphElement>(null);
  const from = v.source === 'Charity' ? state?.donatedFrom : undefined;
  useEffect(() => {
    if (from) ref.current?.focus();
  }, [from]);
  if (!from) return null;
  return (
    <p role="status" className={css.notice} ref={ref} tabIndex={-1}>
      {t('donate.done', { merchant: from.merchant, organisation: v.merchant.name })}
    </p>
  );
}

/**
 * Says once the voucher is marked used after the person asked for it here, and puts the focus on
 * the words: the button that was pressed is gone by then.
 */
function useMarkedAnnouncement(v: Voucher, text: string) {
  const [asked, setAsked] = useState(false);
  const ref = useRef<HTMLParagraphElement>(null);
  const announce = asked && v.isRedeemed ? text : '';
  useEffect(() => {
    if (announce) ref.current?.focus();
  }, [announce]);
  return { announce, ask: () => setAsked(true), ref };
}

function MarkFailed({ error }: { error: Failure | null }) {
  const { t } = useTranslation('voucher');
  if (!error) return null;
  return (
    <p role="alert" className={css.error}>
      {t('details.markFailed', { message: error.message ?? '' }).trim()}
    </p>
  );
}

function Code({ voucher: v, marking, markError, markUsed, now }: ViewProps & { now: Date }) {
  const { t } = useTranslation('voucher');
  const [copied, setCopied] = useState<'copied' | 'failed' | null>(null);
  const marked = useMarkedAnnouncement(v, t('details.code.marked'));
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(v.code ?? '');
      setCopied('copied');
    } catch {
      setCopied('failed');
    }
  };
  const usable = !v.isRedeemed && !isExpired(v, now);
  return (
    <>
      {v.code && (
        <div className={css.codeBox}>
          <div>
            <p className={css.codeLabel} id="voucher-code-label">
              {t('details.code.label')}
            </p>
            <p className={css.code} aria-labelledby="voucher-code-label">
              {v.code}
            </p>
          </div>
          <button type="button" className={buttonSecondary} onClick={() => void copy()}>
            {t('details.code.copy')}
          </button>
        </div>
      )}
      <p role="status" className={copied === 'failed' ? css.error : css.live}>
        {copied === 'copied' ? t('details.code.copied') : copied === 'failed' ? t('details.code.copyFailed') : ''}
      </p>
      {usable && <p className={css.muted}>{t('details.code.text', { merchant: v.merchant.name })}</p>}
      {usable && (
        <div className={css.actions}>
          <button
            type="button"
            className={button}
            disabled={marking}
            aria-disabled={marking || undefined}
            onClick={() => {
              marked.ask();
              markUsed();
            }}
          >
            {marking ? t('details.code.marking') : t('details.code.markUsed')}
          </button>
        </div>
      )}
      <MarkFailed error={markError} />
      <p role="status" className={css.live} ref={marked.ref} tabIndex={-1}>
        {marked.announce}
      </p>
    </>
  );
}

function Charity({ voucher: v, marking, markError, markUsed, now }: ViewProps & { now: Date }) {
  const { t, i18n } = useTranslation('voucher');
  const user = useSessionUser();
  const [open, setOpen] = useState(false);
  const organisation = v.merchant.name;
  const amount = formatKr(v.amount);
  const marked = useMarkedAnnouncement(v, t('details.charity.given', { organisation }));
  const giver = user?.name ?? (user ? formatMobileNumber(user.mobileNumber) : '');
  const usable = !v.isRedeemed && !isExpired(v, now);
  return (
    <>
      <section className={css.certificate} aria-labelledby="certificate-title">
        <h2 id="certificate-title" className={css.certificateTitle}>
          {t('details.charity.certificateTitle')}
        </h2>
        <dl className={css.facts}>
          <dt className={css.factName}>{t('details.charity.organisation')}</dt>
          <dd className={css.factValue}>{organisation}</dd>
          <dt className={css.factName}>{t('details.charity.amount')}</dt>
          <dd className={css.factValue}>{amount}</dd>
          <dt className={css.factName}>{t('details.charity.giver')}</dt>
          <dd className={css.factValue}>{giver}</dd>
        </dl>
        {v.isRedeemed && v.redeemedAt && <p className={css.muted}>{t('card.givenOn', { date: formatDate(v.redeemedAt, i18n.language) })}</p>}
      </section>
      {usable && (
        <Dialog.Root open={open} onOpenChange={setOpen}>
          <Dialog.Trigger asChild>
            <button type="button" className={`${button} ${css.wide}`} disabled={marking} aria-disabled={marking || undefined}>
              {marking ? t('details.charity.giving') : t('details.charity.give')}
            </button>
          </Dialog.Trigger>
          <Dialog.Portal>
            <Dialog.Overlay className={css.dialogOverlay} />
            <Dialog.Content className={css.dialog}>
              <Dialog.Title className={css.dialogTitle}>{t('details.charity.confirmTitle', { organisation })}</Dialog.Title>
              <Dialog.Description className={css.dialogText}>{t('details.charity.confirmText', { organisation, amount })}</Dialog.Description>
              <div className={css.actions}>
                <Dialog.Close asChild>
                  <button type="button" className={buttonSecondary}>
                    {t('details.charity.cancel')}
                  </button>
                </Dialog.Close>
                <button
                  type="button"
                  className={button}
                  onClick={() => {
                    setOpen(false);
                    marked.ask();
                    markUsed();
                  }}
                >
                  {t('details.charity.confirm')}
                </button>
              </div>
            </Dialog.Content>
          </Dialog.Portal>
        </Dialog.Root>
      )}
      <MarkFailed error={markError} />
      <p role="status" className={css.live} ref={marked.ref} tabIndex={-1}>
        {marked.announce}
      </p>
    </>
  );
}
