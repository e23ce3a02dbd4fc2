import type { RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { Failure } from '../../../contract/errors.ts';
import type { AmountReading } from '../../../machines/redeem.ts';
import { formatKr } from '../../format/money.ts';
import * as css from './till.css.ts';

/** The till's words for a refusal of the amount (redeem.json `error.*`), by its code; null for any other. */
export function amountFailureText(t: (key: string, options?: Record<string, unknown>) => string, failure: Failure | null, balance: number): string | null {
  switch (failure?.code) {
    case 'AMOUNT_REQUIRED':
      return t('error.amountRequired');
    case 'AMOUNT_MALFORMED':
      return t('error.amountMalformed');
    case 'AMOUNT_TOO_SMALL':
      return t('error.amountTooSmall');
    case 'AMOUNT_OVER_BALANCE':
      return t('error.overBalance', { balance: formatKr(balance) });
    case 'VOUCHER_BALANCE_TOO_LOW':
      return t('error.balanceTooLow');
    default:
      return null;
  }
}

/**
 * The amount to take from a "value" voucher at the till ('Belopp att dra', in kronor), with what
 * stays on it shown live as it is typed (a status line), or what is wrong with it; `failure` is a
 * refusal given at 'Lös in' (an alert). The customer's-phone till and till mode share it.
 */
export function AmountField(props: {
  ref: RefObject<HTMLInputElement | null>;
  id: string;
  text: string;
  reading: AmountReading;
  balance: number;
  failure: Failure | null;
  onChange: (text: string) => void;
}) {
  const { t } = useTranslation('redeem');
  const { id, reading, balance } = props;
  const errorText = amountFailureText(t, props.failure, balance);
  const liveRefusal = amountFailureText(t, reading.kind === 'refused' ? reading.failure : null, balance);
  const invalid = Boolean(errorText) || reading.kind === 'refused';
  const line =
    reading.kind === 'ok'
      ? t('till.remaining', { amount: formatKr(balance - reading.ore) })
      : liveRefusal && !errorText
        ? liveRefusal
        : t('till.balanceNow', { amount: formatKr(balance) });
  return (
    <>
      <label htmlFor={id} className={css.label}>
        {t('till.amountLabel')}
      </label>
      <div className={css.amountRow}>
        <input
          ref={props.ref}
          id={id}
          name="amount"
          className={css.amountInput}
          value={props.text}
          onChange={(e) => props.onChange(e.target.value)}
          inputMode="decimal"
          autoComplete="off"
          autoCorrect="off"
          spellCheck={false}
          enterKeyHint="next"
          aria-invalid={invalid ? true : undefined}
          aria-describedby={errorText ? `${id}-hint ${id}-line ${id}-error` : `${id}-hint ${id}-line`}
        />
        <span className={css.amountUnit} aria-hidden="true">
          kr
        </span>
      </div>
      <p id={`${id}-hint`} className={css.muted}>
        {t('till.amountHint')}
      </p>
      <p id={`${id}-line`} role="status" className={invalid && !errorText ? css.error : css.remaining} data-testid="amount-line">
        {line}
      </p>
      {errorText && (
        <p id={`${id}-error`} role="alert" className={css.error}>
          {errorText}
        </p>
      )}
    </>
  );
}
