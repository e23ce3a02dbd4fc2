import { useEffect, useRef, useState, type FormEvent, type RefObject } from 'react';
import { Link, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { Voucher } from '../../../contract/voucher.ts';
import type { Failure } from '../../../contract/errors.ts';
import { usePageTitle } from '../../components/usePageTitle.ts';
import { button, buttonSecondary } from '../../components/ui.css.ts';
import { isExpired, useSelectedVoucher } from '../../components/vouchers.ts';
import { formatDate } from '../../format/dates.ts';
import { formatKr } from '../../format/money.ts';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import { Loading } from './RedeemPage.tsx';
import { useRedeem } from './useRedeem.ts';
import { RedeemedCard } from '../../components/till/RedeemedCard.tsx';
import { AmountField } from '../../components/till/AmountField.tsx';
import { isAmountFailure } from '../../../machines/redeem.ts';
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
  return (
    <div className={css.page}>
      {v.data !== null ? (
        <TillFlow voucher={v.data} />
      ) : v.status === 'failed' ? (
        <>
          <BackToVoucher id={id} />
          <LoadFailed
            title={t('error.notFound')}
            message={v.error?.code === 'VOUCHER_NOT_FOUND' ? undefined : v.error?.message}
            retry={v.error?.code === 'VOUCHER_NOT_FOUND' ? undefined : v.retry}
          />
        </>
      ) : (
        <>
          <BackToVoucher id={id} />
          <h1 id="page-title" className={css.title} tabIndex={-1}>
            {t('till.title')}
          </h1>
          <Loading text={t('till.loading')} />
        </>
      )}
    </div>
  );
}

function BackToVoucher({ id }: { id: string }) {
  const { t } = useTranslation('redeem');
  return (
    <Link to={`/voucher/${id}`} className={css.back}>
      ← {t('till.back')}
    </Link>
  );
}

/** The loaded voucher at the till: the form, then "Inlöst" with 'Ångra' for 10 minutes. */
function TillFlow({ voucher }: { voucher: Voucher }) {
  const redeem = useRedeem(voucher);
  switch (redeem.screen) {
    case 'ready':
    case 'busy':
      return (
        <>
          <BackToVoucher id={voucher.id} />
          <VoucherFace voucher={redeem.voucher} />
          <TillForm redeem={redeem} />
        </>
      );
    case 'undone':
      return <Undone redeem={redeem} />;
    default:
      return <Redeemed redeem={redeem} />;
  }
}

/** What the customer shows: whose, what it is, from whom, until when, how much (a value voucher: what is left of it). */
function VoucherFace({ voucher: v }: { voucher: Voucher }) {
  const { t, i18n } = useTranslation('redeem');
  return (
    <section className={css.voucher} aria-labelledby="page-title">
      <img src={v.merchant.logoUrl} alt="" width={64} height={64} className={css.voucherLogo} />
      <p className={css.voucherMerchant}>{v.merchant.name}</p>
      <h1 id="page-title" className={css.voucherProduct} tabIndex={-1}>
        {v.product.name}
      </h1>
      {v.product.description && <p className={css.customer}>{v.product.description}</p>}
      {v.senderName && <p className={css.customer}>{t('till.from', { name: v.senderName })}</p>}
      {v.expiresAt && <p className={css.customer}>{t('till.validUntil', { date: formatDate(v.expiresAt, i18n.language) })}</p>}
      <p className={css.voucherAmount}>{formatKr(v.kind === 'value' ? v.balance : v.amount)}</p>
      {v.kind === 'value' && v.balance !== v.amount && <p className={css.customer}>{t('till.balance', { balance: formatKr(v.balance), amount: formatKr(v.amount) })}</p>}
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
  AMOUNT_REQUIRED: 'amountRequired',
  AMOUNT_MALFORMED: 'amountMalformed',
  AMOUNT_TOO_SMALL: 'amountTooSmall',
  VOUCHER_BALANCE_TOO_LOW: 'balanceTooLow',
  IDEMPOTENCY_KEY_IN_PROGRESS: 'inProgress',
  NETWORK: 'network',
} as const satisfies Partial<Record<Failure['code'], string>>;

const hasWording = (code: Failure['code']): code is keyof typeof wordingByCode => Object.hasOwn(wordingByCode, code);

/** A refusal in the till's words, by its code; `balance` is what the phone's own "more than the balance" names. */
function useErrorText(error: Failure | null, balance: number): string | null {
  const { t, i18n } = useTranslation('redeem');
  if (!error) return null;
  if (error.code === 'VOUCHER_LOCKED') {
    return error.retryAt ? t('error.locked', { time: formatDate(error.retryAt, i18n.language, 'HH:mm') }) : t('error.lockedSoon');
  }
  if (error.code === 'AMOUNT_OVER_BALANCE') return t('error.overBalance', { balance: formatKr(balance) });
  if (hasWording(error.code)) return t(`error.${wordingByCode[error.code]}`);
  return t('error.unknown', { message: error.message }).trim();
}

type Redeem = ReturnType<typeof useRedeem>;

function TillForm({ redeem }: { redeem: Redeem }) {
  const { t, i18n } = useTranslation('redeem');
  const v = redeem.voucher;
  const busy = redeem.screen === 'busy';
  const isValue = v.kind === 'value';
  const [code, setCode] = useState('');
  const [now] = useState(() => new Date());
  const amountFailure = redeem.failure && isAmountFailure(redeem.failure) ? redeem.failure : null;
  const codeFailure = redeem.failure && !amountFailure ? redeem.failure : null;
  const codeErrorText = useErrorText(codeFailure, v.balance);
  const amountField = useRef<HTMLInputElement>(null);
  const codeField = useRef<HTMLInputElement>(null);
  // A refusal puts the staff back in its field, what was typed selected to type over.
  useEffect(() => {
    if (!redeem.failure) return;
    const field = isAmountFailure(redeem.failure) ? amountField.current : codeField.current;
    field?.focus();
    field?.select();
  }, [redeem.failure]);
  if (v.isRedeemed && v.redeemedAt) return <p className={css.notice}>{t('till.alreadyRedeemed', { date: formatDate(v.redeemedAt, i18n.language, 'd MMMM yyyy HH:mm') })}</p>;
  if (isExpired(v, now)) return <p className={css.notice}>{t('till.expired', { date: formatDate(v.expiresAt ?? '', i18n.language) })}</p>;
  if (v.source !== 'InStore') return <p className={css.notice}>{t('till.notInStore')}</p>;
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    redeem.submit(code);
  };
  return (
    <form className={css.staff} onSubmit={onSubmit} noValidate aria-labelledby="staff-title">
      <h2 id="staff-title" className={css.staffTitle}>
        {t('till.staffTitle')}
      </h2>
      {isValue && (
        <AmountField
          ref={amountField}
          id="redeem-amount"
          text={redeem.amountText}
          reading={redeem.amount}
          balance={v.balance}
          failure={amountFailure}
          onChange={redeem.setAmount}
        />
      )}
      <label htmlFor="merchant-code" className={css.label}>
        {t('till.codeLabel')}
      </label>
      <MerchantCodeInput
        ref={codeField}
        id="merchant-code"
        value={code}
        onChange={setCode}
        invalid={Boolean(codeErrorText)}
        describedBy={codeErrorText ? 'merchant-code-hint merchant-code-error' : 'merchant-code-hint'}
      />
      <p id="merchant-code-hint" className={css.muted}>
        {t('till.codeHint')}
      </p>
      {codeErrorText && (
        <p id="merchant-code-error" role="alert" className={css.error}>
          {codeErrorText}
        </p>
      )}
      <button type="submit" className={`${button} ${css.submit}`} disabled={busy} aria-disabled={busy || undefined}>
        {busy ? t('till.submitting') : t('till.submit')}
      </button>
    </form>
  );
}

/** The merchant's code as staff type it (letters and digits, no autocorrection): the till's and the undo's. */
function MerchantCodeInput(props: {
  ref: RefObject<HTMLInputElement | null>;
  id: string;
  value: string;
  onChange: (code: string) => void;
  invalid: boolean;
  describedBy: string | undefined;
}) {
  return (
    <input
      ref={props.ref}
      id={props.id}
      name="merchantCode"
      className={css.codeInput}
      value={props.value}
      onChange={(e) => props.onChange(e.target.value)}
      autoComplete="off"
      autoCapitalize="characters"
      autoCorrect="off"
      spellCheck={false}
      enterKeyHint="done"
      aria-invalid={props.invalid ? true : undefined}
      aria-describedby={props.describedBy}
    />
  );
}

/** "Inlöst", what was taken and what is left, and for 10 minutes 'Ångra'. */
function Redeemed({ redeem }: { redeem: Redeem }) {
  const { t } = useTranslation('redeem');
  const v = redeem.voucher;
  const taken = redeem.redemption?.amount ?? v.amount;
  return (
    <>
      <RedeemedCard voucher={v} taken={taken} when={redeem.redemption?.redeemedAt ?? v.redeemedAt} />
      <UndoPanel redeem={redeem} taken={taken} />
      <Link to="/voucher" className={css.doneLink}>
        {t('done.toVouchers')}
      </Link>
    </>
  );
}

/** 'Ångra' while the 10 minutes last: the code again; afterwards, plainly why it is gone. */
function UndoPanel({ redeem, taken }: { redeem: Redeem; taken: number }) {
  const { t, i18n } = useTranslation('redeem');
  const [code, setCode] = useState('');
  const field = useRef<HTMLInputElement>(null);
  const asking = redeem.screen === 'undoAsk' || redeem.screen === 'undoBusy';
  const busy = redeem.screen === 'undoBusy';
  const failure = redeem.screen === 'undoAsk' ? redeem.failure : null;
  const worded = useErrorText(failure, redeem.voucher.balance);
  // No answer to the undo: press its own button again (the server undoes once whatever comes twice).
  const errorText = failure?.code === 'NETWORK' ? t('error.undoNetwork') : worded;
  useEffect(() => {
    if (redeem.screen !== 'undoAsk') return;
    field.current?.focus();
    field.current?.select();
  }, [redeem.screen, redeem.failure]);
  if (redeem.screen === 'closed') {
    return (
      <p className={css.notice} role="status" data-testid="undo-over">
        {redeem.failure?.code === 'ALREADY_UNDONE' ? t('done.alreadyUndone') : t('done.tooLate')}
      </p>
    );
  }
  const until = redeem.undoUntil ? formatDate(redeem.undoUntil, i18n.language, 'HH:mm') : '';
  if (!asking) {
    return (
      <section className={css.staff} aria-labelledby="undo-title">
        <h2 id="undo-title" className={css.staffTitle}>
          {t('done.undoTitle')}
        </h2>
        <p className={css.muted}>{t('done.undoUntil', { time: until })}</p>
        <button type="button" className={`${buttonSecondary} ${css.submit}`} onClick={redeem.undo}>
          {t('done.undo')}
        </button>
      </section>
    );
  }
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    redeem.confirmUndo(code);
  };
  return (
    <form className={css.staff} onSubmit={onSubmit} noValidate aria-labelledby="undo-title">
      <h2 id="undo-title" className={css.staffTitle}>
        {t('done.undoTitle')}
      </h2>
      <p className={css.muted}>{t('done.undoAsk', { taken: formatKr(taken) })}</p>
      <label htmlFor="undo-code" className={css.label}>
        {t('till.codeLabel')}
      </label>
      <MerchantCodeInput ref={field} id="undo-code" value={code} onChange={setCode} invalid={Boolean(errorText)} describedBy={errorText ? 'undo-code-error' : undefined} />
      {errorText && (
        <p id="undo-code-error" role="alert" className={css.error}>
          {errorText}
        </p>
      )}
      <button type="submit" className={`${button} ${css.submit}`} disabled={busy} aria-disabled={busy || undefined}>
        {busy ? t('done.undoing') : t('done.undoConfirm')}
      </button>
      <button type="button" className={`${buttonSecondary} ${css.submit}`} onClick={redeem.cancelUndo} disabled={busy}>
        {t('done.undoCancel')}
      </button>
    </form>
  );
}

/** Undone: the amount is back, the balance shown; the till can start again. */
function Undone({ redeem }: { redeem: Redeem }) {
  const { t } = useTranslation('redeem');
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const v = redeem.voucher;
  return (
    <>
      <section className={css.undone} aria-labelledby="page-title" data-testid="undone">
        <h1 id="page-title" ref={heading} className={css.title} tabIndex={-1}>
          {t('done.undoneTitle')}
        </h1>
        <p className={css.doneWhat} data-testid="undone-amounts">
          {t('done.undoneWhat', { taken: formatKr(redeem.redemption?.amount ?? v.amount), left: formatKr(v.balance) })}
        </p>
        <p className={css.muted}>{t('done.what', { product: v.product.name, merchant: v.merchant.name, amount: formatKr(v.amount) })}</p>
      </section>
      <button type="button" className={`${button} ${css.submit}`} onClick={redeem.again}>
        {t('done.again')}
      </button>
      <Link to="/voucher" className={css.doneLink}>
        {t('done.toVouchers')}
      </Link>
    </>
  );
}
