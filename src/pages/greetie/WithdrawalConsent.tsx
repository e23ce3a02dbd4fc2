import { useId, type Ref } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../components/ui.css.ts';
import { TERMS_PATH } from '../../components/seller.ts';
import * as css from './greetie.css.ts';

/**
 * The withdrawal consent a buyer ticks before paying (decision 097): delivery starts at once, and
 * the right of withdrawal ends when the recipient opens the greetie or uses a gift. A real
 * checkbox with its label; when paying was tried without it, the error is said beside it (a live
 * region, so it is announced) and the page moves focus to the box. The terms' section on the
 * right of withdrawal is linked under it.
 */
export function WithdrawalConsent({
  checked,
  missing,
  onChange,
  ref,
}: {
  checked: boolean;
  missing: boolean;
  onChange: (checked: boolean) => void;
  ref?: Ref<HTMLInputElement>;
}) {
    const { t } = useTranslation('payment');
    const id = useId();
    const errorId = useId();
    const moreId = useId();
    return (
      <div className={css.consent}>
        <div className={css.consentRow}>
          <input
            ref={ref}
            id={id}
            type="checkbox"
            className={css.consentBox}
            checked={checked}
            onChange={(e) => onChange(e.currentTarget.checked)}
            aria-invalid={missing || undefined}
            aria-describedby={missing ? `${errorId} ${moreId}` : moreId}
          />
          <label htmlFor={id}>{t('consent.label')}</label>
        </div>
        <p id={moreId} className={css.hint}>
          <Link to={`${TERMS_PATH}#angerratt`}>{t('consent.terms')}</Link>
        </p>
        {/* Always there, so the error is announced as it appears (the page moves focus to the box). */}
        <p id={errorId} className={errorText} aria-live="assertive" data-consent-error="">
          {missing ? t('consent.missing') : ''}
        </p>
      </div>
    );
  }
