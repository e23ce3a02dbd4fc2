import { useEffect, useRef, type FormEvent } from 'react';
import { Link, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { Failure } from '../../../../contract/errors.ts';
import { isAmountFailure } from '../../../../machines/redeem.ts';
import { usePageTitle } from '../../../components/usePageTitle.ts';
import { button, buttonSecondary, visuallyHidden } from '../../../components/ui.css.ts';
import { AmountField } from '../../../components/till/AmountField.tsx';
import { RedeemedCard } from '../../../components/till/RedeemedCard.tsx';
import * as tillCss from '../../../components/till/till.css.ts';
import { formatDate } from '../../../format/dates.ts';
import { formatKr } from '../../../format/money.ts';
import { Scanner } from './Scanner.tsx';
import { useTillMode } from './useTillMode.ts';
import * as css from './till.css.ts';

/**
 * /portal/{merchantId}/kassa: till mode. The staff scan the customer's voucher QR code with
 * their phone's camera ('Skanna kund'), or type the token printed under it; for a value voucher
 * they type the amount; 'Lös in' shows the till's large "Inlöst", with 'Ångra' for 10 minutes and
 * 'Skanna nästa'. Results are said in a live region; the focus follows the screen.
 */
export function TillModePage() {
  const { merchantId = '' } = useParams();
  return <TillMode key={merchantId} merchantId={merchantId} />;
}

type Till = ReturnType<typeof useTillMode>;

function TillMode({ merchantId }: { merchantId: string }) {
  const { t } = useTranslation('till');
  usePageTitle(t('title'));
  const till = useTillMode(merchantId);
  return (
    <div className={tillCss.page}>
      <Announcer till={till} />
      {till.screen === 'ready' || till.screen === 'scanning' || till.screen === 'lookingUp' ? (
        <Start till={till} merchantId={merchantId} />
      ) : till.screen === 'found' || till.screen === 'redeeming' ? (
        <Found till={till} />
      ) : till.screen === 'undone' ? (
        <Undone till={till} />
      ) : (
        <Redeemed till={till} />
      )}
    </div>
  );
}

/** What happened, said once to a screen reader (a polite live region): found, redeemed, undone. */
function Announcer({ till }: { till: Till }) {
  const { t } = useTranslation('till');
  const v = till.voucher;
  const taken = till.redemption?.amount ?? v?.amount ?? 0;
  const text =
    !v
      ? ''
      : till.screen === 'found'
        ? t('announce.found', { product: v.product.name, balance: formatKr(v.balance) })
        : till.screen === 'redeemed'
          ? t('announce.redeemed', { taken: formatKr(taken), left: formatKr(v.balance) })
          : till.screen === 'undone'
            ? t('announce.undone', { taken: formatKr(taken), left: formatKr(v.balance) })
            : '';
  return (
    <p role="status" className={visuallyHidden} data-testid="till-announce">
      {text}
    </p>
  );
}

/** Till mode's own words for the refusals it expects (till.json `error.*`); any other shows the server's message. */
const wordingByCode = {
  TOKEN_REQUIRED: 'tokenRequired',
  TOKEN_MALFORMED: 'tokenMalformed',
  TOKEN_EXPIRED: 'tokenExpired',
  TOKEN_NOT_FOUND: 'notFound',
  VOUCHER_NOT_IN_STORE: 'notInStore',
  VOUCHER_NOT_FOUND: 'notFound',
  NOT_FOUND: 'notFound',
  VOUCHER_ALREADY_REDEEMED: 'usedUp',
  VOUCHER_EXPIRED: 'expired',
  FORBIDDEN: 'forbidden',
  IDEMPOTENCY_KEY_IN_PROGRESS: 'inProgress',
  NETWORK: 'network',
} as const satisfies Partial<Record<Failure['code'], string>>;

const hasWording = (code: Failure['code']): code is keyof typeof wordingByCode => Object.hasOwn(wordingByCode, code);

function useFailureText(failure: Failure | null, where: 'start' | 'scan' | 'redeem' | 'undo'): string | null {
  const { t, i18n } = useTranslation('till');
  if (!failure) return null;
  if (failure.code === 'TOKEN_LOCKED') {
    return failure.retryAt ? t('error.locked', { time: formatDate(failure.retryAt, i18n.language, 'HH:mm') }) : t('error.lockedSoon');
  }
  if (failure.code === 'NETWORK') return t(`error.network.${where}`);
  if (failure.code === 'TOKEN_MALFORMED' && where === 'scan') return t('error.notOurs');
  if (hasWording(failure.code)) return t(`error.${wordingByCode[failure.code]}`);
  return t('error.unknown', { message: failure.message }).trim();
}

/** The start: 'Skanna kund' (or the camera running), and the token typed. */
function Start({ till, merchantId }: { till: Till; merchantId: string }) {
  const { t } = useTranslation('till');
  const scanning = till.screen === 'scanning';
  const busy = till.screen === 'lookingUp';
  const errorText = useFailureText(till.failure, scanning ? 'scan' : 'start');
  const field = useRef<HTMLInputElement>(null);
  // A refusal puts the staff back in the field, what was typed selected to type over.
  useEffect(() => {
    if (!till.failure || scanning) return;
    field.current?.focus();
    field.current?.select();
  }, [till.failure, scanning]);
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    till.lookup();
  };
  return (
    <>
      <Link to={`/portal/${merchantId}`} className={tillCss.back}>
        ← {t('back')}
      </Link>
      <h1 id="page-title" className={tillCss.title} tabIndex={-1}>
        {t('title')}
      </h1>
      <p className={tillCss.intro}>{t('intro')}</p>
      {till.camera && (
        <p className={tillCss.notice} data-testid="camera-problem">
          {t(`camera.${till.camera}`)}
        </p>
      )}
      {scanning ? (
        <section className={css.scanner} aria-labelledby="scan-title">
          <h2 id="scan-title" className={tillCss.staffTitle}>
            {t('scan.title')}
          </h2>
          <Scanner onRead={till.scanned} onFailed={till.cameraFailed} />
          {errorText && (
            <p role="alert" className={tillCss.error}>
              {errorText}
            </p>
          )}
          <button type="button" className={`${buttonSecondary} ${tillCss.submit}`} onClick={till.stopScan}>
            {t('scan.stop')}
          </button>
        </section>
      ) : (
        <button type="button" className={`${button} ${tillCss.submit}`} onClick={till.scan} disabled={busy}>
          {t('scan.start')}
        </button>
      )}
      <form className={tillCss.staff} onSubmit={onSubmit} noValidate aria-labelledby="token-title">
        <h2 id="token-title" className={tillCss.staffTitle}>
          {t('token.title')}
        </h2>
        <label htmlFor="till-token" className={tillCss.label}>
          {t('token.label')}
        </label>
        <input
          ref={field}
          id="till-token"
          name="token"
          className={tillCss.codeInput}
          value={till.tokenText}
          onChange={(e) => till.setToken(e.target.value)}
          autoComplete="off"
          autoCapitalize="characters"
          autoCorrect="off"
          spellCheck={false}
          enterKeyHint="go"
          maxLength={20}
          aria-invalid={errorText && !scanning ? true : undefined}
          aria-describedby={errorText && !scanning ? 'till-token-hint till-token-error' : 'till-token-hint'}
        />
        <p id="till-token-hint" className={tillCss.muted}>
          {t('token.hint')}
        </p>
        {errorText && !scanning && (
          <p id="till-token-error" role="alert" className={tillCss.error}>
            {errorText}
          </p>
        )}
        <button type="submit" className={`${scanning ? buttonSecondary : button} ${tillCss.submit}`} disabled={busy} aria-disabled={busy || undefined}>
          {busy ? t('token.looking') : t('token.submit')}
        </button>
      </form>
    </>
  );
}

/** The voucher found: what it is, the amount for a value voucher, 'Lös in'. */
function Found({ till }: { till: Till }) {
  const { t, i18n } = useTranslation('till');
  const { t: tr } = useTranslation('redeem');
  const v = till.voucher!;
  const busy = till.screen === 'redeeming';
  const amountFailure = till.failure && isAmountFailure(till.failure) ? till.failure : null;
  const otherText = useFailureText(amountFailure ? null : till.failure, 'redeem');
  const amountField = useRef<HTMLInputElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  // Found: the amount field for a value voucher (to type at once), else the voucher's name.
  useEffect(() => {
    if (v.kind === 'value') amountField.current?.focus();
    else heading.current?.focus();
  }, [v.kind]);
  useEffect(() => {
    if (amountFailure) amountField.current?.select();
  }, [amountFailure]);
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    till.redeem();
  };
  return (
    <>
      <section className={tillCss.voucher} aria-labelledby="page-title">
        <img src={v.merchant.logoUrl} alt="" width={64} height={64} className={tillCss.voucherLogo} />
        <p className={tillCss.voucherMerchant}>{v.merchant.name}</p>
        <h1 id="page-title" ref={heading} className={tillCss.voucherProduct} tabIndex={-1}>
          {v.product.name}
        </h1>
        <p className={tillCss.voucherAmount} data-testid="found-amount">
          {formatKr(v.kind === 'value' ? v.balance : v.amount)}
        </p>
        {v.kind === 'value' && v.balance !== v.amount && <p className={tillCss.customer}>{tr('till.balance', { balance: formatKr(v.balance), amount: formatKr(v.amount) })}</p>}
        {v.expiresAt && <p className={tillCss.muted}>{t('found.expires', { date: formatDate(v.expiresAt, i18n.language) })}</p>}
      </section>
      <form className={tillCss.staff} onSubmit={onSubmit} noValidate aria-labelledby="redeem-title">
        <h2 id="redeem-title" className={tillCss.staffTitle}>
          {v.kind === 'value' ? t('found.valueTitle') : t('found.fixedTitle', { amount: formatKr(v.amount) })}
        </h2>
        {v.kind === 'value' && (
          <AmountField ref={amountField} id="till-amount" text={till.amountText} reading={till.amount} balance={v.balance} failure={amountFailure} onChange={till.setAmount} />
        )}
        {otherText && (
          <p role="alert" className={tillCss.error}>
            {otherText}
          </p>
        )}
        <div className={css.actions}>
          <button type="submit" className={`${button} ${tillCss.submit}`} disabled={busy} aria-disabled={busy || undefined}>
            {busy ? tr('till.submitting') : tr('till.submit')}
          </button>
          <button type="button" className={`${buttonSecondary} ${tillCss.submit}`} onClick={till.cancel} disabled={busy}>
            {t('found.cancel')}
          </button>
        </div>
      </form>
    </>
  );
}

/** "Inlöst" as every till shows it, 'Ångra' while the 10 minutes last, and 'Skanna nästa'. */
function Redeemed({ till }: { till: Till }) {
  const v = till.voucher!;
  const taken = till.redemption?.amount ?? v.amount;
  return (
    <>
      <RedeemedCard voucher={v} taken={taken} when={till.redemption?.redeemedAt ?? v.redeemedAt} />
      <UndoPanel till={till} taken={taken} />
      <NextButton till={till} />
    </>
  );
}

function NextButton({ till }: { till: Till }) {
  const { t } = useTranslation('till');
  const busy = till.screen === 'undoBusy';
  return (
    <button type="button" className={`${button} ${tillCss.submit}`} onClick={till.next} disabled={busy}>
      {t('next')}
    </button>
  );
}

/** 'Ångra' while the 10 minutes last, asked once more; afterwards, plainly why it is gone. */
function UndoPanel({ till, taken }: { till: Till; taken: number }) {
  const { t, i18n } = useTranslation('till');
  const { t: tr } = useTranslation('redeem');
  const asking = till.screen === 'undoAsk' || till.screen === 'undoBusy';
  const busy = till.screen === 'undoBusy';
  const errorText = useFailureText(till.screen === 'undoAsk' ? till.failure : null, 'undo');
  const confirm = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (till.screen === 'undoAsk') confirm.current?.focus();
  }, [till.screen]);
  if (till.screen === 'closed') {
    return (
      <p className={tillCss.notice} role="status" data-testid="undo-over">
        {till.failure?.code === 'ALREADY_UNDONE' ? tr('done.alreadyUndone') : tr('done.tooLate')}
      </p>
    );
  }
  const until = till.undoUntil ? formatDate(till.undoUntil, i18n.language, 'HH:mm') : '';
  return (
    <section className={tillCss.staff} aria-labelledby="undo-title">
      <h2 id="undo-title" className={tillCss.staffTitle}>
        {tr('done.undoTitle')}
      </h2>
      {!asking ? (
        <>
          <p className={tillCss.muted}>{tr('done.undoUntil', { time: until })}</p>
          <button type="button" className={`${buttonSecondary} ${tillCss.submit}`} onClick={till.undo}>
            {tr('done.undo')}
          </button>
        </>
      ) : (
        <>
          <p className={tillCss.muted}>{t('undo.ask', { taken: formatKr(taken) })}</p>
          {errorText && (
            <p role="alert" className={tillCss.error}>
              {errorText}
            </p>
          )}
          <button ref={confirm} type="button" className={`${button} ${tillCss.submit}`} onClick={till.confirmUndo} disabled={busy} aria-disabled={busy || undefined}>
            {busy ? tr('done.undoing') : t('undo.confirm')}
          </button>
          <button type="button" className={`${buttonSecondary} ${tillCss.submit}`} onClick={till.cancelUndo} disabled={busy}>
            {tr('done.undoCancel')}
          </button>
        </>
      )}
    </section>
  );
}

/** Undone: the amount is back, the balance shown; 'Skanna nästa'. */
function Undone({ till }: { till: Till }) {
  const { t: tr } = useTranslation('redeem');
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const v = till.voucher!;
  return (
    <>
      <section className={tillCss.undone} aria-labelledby="page-title" data-testid="undone">
        <h1 id="page-title" ref={heading} className={tillCss.title} tabIndex={-1}>
          {tr('done.undoneTitle')}
        </h1>
        <p className={tillCss.doneWhat} data-testid="undone-amounts">
          {tr('done.undoneWhat', { taken: formatKr(till.redemption?.amount ?? v.amount), left: formatKr(v.balance) })}
        </p>
        <p className={tillCss.muted}>{tr('done.what', { product: v.product.name, merchant: v.merchant.name, amount: formatKr(v.amount) })}</p>
      </section>
      <NextButton till={till} />
    </>
  );
}
