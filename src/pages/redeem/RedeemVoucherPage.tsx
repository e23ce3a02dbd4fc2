import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { Voucher } from '../../../contract/voucher.ts';
import type { Failure } from '../../../contract/errors.ts';
import { usePageTitle } from '../../components/usePageTitle.ts';
import { button } from '../../components/ui.css.ts';
import { isExpired, useSelectedVoucher } from '../../components/vouchers.ts';
import { formatDate } from '../../format/dates.ts';
import { formatKr } from '../../format/money.ts';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import { Loading } from './RedeemPage.tsx';
import { useRedeem } from './useRedeem.ts';
import * as css from './redeem.css.ts';

/**
 * /redeem/voucher/{id}: the till screen. The customer shows the voucher; the staff type the
 * merchant code ('Handlarkod') and press 'Lös in'; then a large "Inlöst" that moves and shows the
 * time now, ticking, so a screenshot of an old one cannot pass for it.
 */
export function RedeemVoucherPage() {
  const { id = '' } = useParams();
  return <Till key={id} id={id} />;
}

function Till({ id }: { id: string }) {
  const { t } = useTranslation('redeem');
  usePageTitle(t('till.title'));
  const v = useSelectedVoucher(id);
  const redeem = useRedeem(id);
  return (
    <div className={css.page}>
      {redeem.screen !== 'redeemed' && (
        <Link to={`/voucher/${id}`} className={css.back}>
          ← {t('till.back')}
        </Link>
      )}
      {redeem.screen === 'redeemed' && redeem.voucher ? (
        <Redeemed voucher={redeem.voucher} />
      ) : v.status === 'failed' ? (
        <LoadFailed
          title={t('error.notFound')}
          message={v.error?.code === 'VOUCHER_NOT_FOUND' ? undefined : v.error?.message}
          retry={v.error?.code === 'VOUCHER_NOT_FOUND' ? undefined : v.retry}
        />
      ) : v.data === null ? (
        <>
          <h1 id="page-title" className={css.title} tabIndex={-1}>
            {t('till.title')}
          </h1>
          <Loading text={t('till.loading')} />
        </>
      ) : (
        <>
          <VoucherFace voucher={v.data} />
          <TillForm voucher={v.data} busy={redeem.screen === 'busy'} error={redeem.failure} submit={redeem.submit} />
        </>
      )}
    </div>
  );
}

/** What the customer shows: whose, what, how much. */
function VoucherFace({ voucher: v }: { voucher: Voucher }) {
  const { t } = useTranslation('redeem');
  return (
    <section className={css.voucher} aria-labelledby="page-title">
      <img src={v.merchant.logoUrl} alt="" width={64} height={64} className={css.voucherLogo} />
      <p className={css.voucherMerchant}>{v.merchant.name}</p>
      <h1 id="page-title" className={css.voucherProduct} tabIndex={-1}>
        {v.product.name}
      </h1>
      <p className={css.voucherAmount}>{formatKr(v.amount)}</p>
      <p className={css.customer}>{t('till.customer')}</p>
    </section>
  );
}

/** The till's own words for the refusals it expects (redeem.json `error.*`); any other shows the server's message. */
const wordingByCode = {
  MERCHANT_CODE_REQUIRED: 'missingCode',
  MERCHANT_CODE_MALFORMED: 'malformedCode',
  MERCHANT_CODE_WRONG: 'wrongCode',
  VOUCHER_ALREADY_REDEEMED: 'alreadyRedeemed',
  VOUCHER_EXPIRED: 'expired',
  VOUCHER_NOT_FOUND: 'notFound',
} as const satisfies Partial<Record<Failure['code'], string>>;

const hasWording = (code: Failure['code']): code is keyof typeof wordingByCode => Object.hasOwn(wordingByCode, code);

function useErrorText(error: Failure | null): string | null {
  const { t, i18n } = useTranslation('redeem');
  if (!error) return null;
  if (error.code === 'VOUCHER_LOCKED') {
    return error.retryAt ? t('error.locked', { time: formatDate(error.retryAt, i18n.language, 'HH:mm') }) : t('error.lockedSoon');
  }
  if (hasWording(error.code)) return t(`error.${wordingByCode[error.code]}`);
  return t('error.unknown', { message: error.message }).trim();
}

function TillForm({ voucher: v, busy, error, submit }: { voucher: Voucher; busy: boolean; error: Failure | null; submit: (code: string) => void }) {
  const { t, i18n } = useTranslation('redeem');
  const [code, setCode] = useState('');
  const [now] = useState(() => new Date());
  const errorText = useErrorText(error);
  const field = useRef<HTMLInputElement>(null);
  // A refusal puts the staff back in the field, the code selected to type over.
  useEffect(() => {
    if (!error) return;
    field.current?.focus();
    field.current?.select();
  }, [error]);
  if (v.isRedeemed && v.redeemedAt) return <p className={css.notice}>{t('till.alreadyRedeemed', { date: formatDate(v.redeemedAt, i18n.language, 'd MMMM yyyy HH:mm') })}</p>;
  if (isExpired(v, now)) return <p className={css.notice}>{t('till.expired', { date: formatDate(v.expiresAt ?? '', i18n.language) })}</p>;
  if (v.source !== 'InStore') return <p className={css.notice}>{t('till.notInStore')}</p>;
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    submit(code);
  };
  return (
    <form className={css.staff} onSubmit={onSubmit} noValidate aria-labelledby="staff-title">
      <h2 id="staff-title" className={css.staffTitle}>
        {t('till.staffTitle')}
      </h2>
      <label htmlFor="merchant-code" className={css.label}>
        {t('till.codeLabel')}
      </label>
      <input
        ref={field}
        id="merchant-code"
        name="merchantCode"
        className={css.codeInput}
        value={code}
        onChange={(e) => setCode(e.target.value)}
        autoComplete="off"
        autoCapitalize="characters"
        autoCorrect="off"
        spellCheck={false}
        enterKeyHint="done"
        aria-invalid={errorText ? true : undefined}
        aria-describedby={errorText ? 'merchant-code-hint merchant-code-error' : 'merchant-code-hint'}
      />
      <p id="merchant-code-hint" className={css.muted}>
        {t('till.codeHint')}
      </p>
      {errorText && (
        <p id="merchant-code-error" role="alert" className={css.error}>
          {errorText}
        </p>
      )}
      <button type="submit" className={`${button} ${css.submit}`} disabled={busy} aria-disabled={busy || undefined}>
        {busy ? t('till.submitting') : t('till.submit')}
      </button>
    </form>
  );
}

/** The time now, to the second, in Stockholm: ticks while shown. */
function useNow(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

function Redeemed({ voucher: v }: { voucher: Voucher }) {
  const { t, i18n } = useTranslation('redeem');
  const now = useNow();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const at = v.redeemedAt ? formatDate(v.redeemedAt, i18n.language, 'HH:mm:ss') : '';
  return (
    <>
      <section className={css.done} aria-labelledby="page-title" data-testid="redeemed">
        <span className={css.doneMark} aria-hidden="true">
          ✓
        </span>
        <h1 id="page-title" ref={heading} className={css.doneTitle} tabIndex={-1}>
          {t('done.title')}
        </h1>
        <p className={css.doneWhat}>{t('done.what', { product: v.product.name, merchant: v.merchant.name, amount: formatKr(v.amount) })}</p>
        {at && <p className={css.doneAt}>{t('done.at', { time: at })}</p>}
        <p className={css.clock}>
          <span className={css.clockLabel}>{t('done.now')}</span>
          <time dateTime={now.toISOString()} data-testid="live-clock">
            {formatDate(now, i18n.language, 'HH:mm:ss')}
          </time>
        </p>
        <p className={css.live}>{t('done.live')}</p>
      </section>
      <Link to="/voucher" className={css.doneLink}>
        {t('done.toVouchers')}
      </Link>
    </>
  );
}
