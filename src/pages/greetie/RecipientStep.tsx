import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { looksLikeSwedishMobile } from '../../../machines/auth.ts';
import { MESSAGE_MAX_LENGTH, RECIPIENT_NAME_MAX_LENGTH } from '../../../contract/greetie.ts';
import { NAME_MAX_LENGTH, NAME_PROBLEMS, type NameProblem } from '../../../contract/name.ts';
import { nameProblems } from '../../../machines/compose/draft.ts';
import { formatDateTime } from '../../format/dates.ts';
import { deliveryDays, deliveryProblem, stockholmToUtc, utcToStockholm } from './deliverAt.ts';
import type { ComposeView } from './useCompose.ts';
import * as css from './greetie.css.ts';

/**
 * Step 4: who gets it, a message, and optionally when (a day and time in Stockholm; UTC on the
 * wire). When the profile has no name, "Ditt namn" too: the SMS names the sender (saved to the
 * profile on "Nästa"). Both names follow the one name rule (contract/name.ts), said under the field.
 */
export function RecipientStep({ compose, title }: { compose: ComposeView; title: ReactNode }) {
  const { t, i18n } = useTranslation('greetie');
  const { savingSenderName, sender, senderNameFailure: senderNameError } = compose;
  const { recipient, message, deliverAt } = compose.draft;
  const [later, setLater] = useState(deliverAt !== null);
  const [when, setWhen] = useState(() => (deliverAt ? utcToStockholm(deliverAt) : { date: '', time: '' }));
  const [touched, setTouched] = useState(false);
  const [nameTouched, setNameTouched] = useState({ recipient: false, sender: false });
  const now = new Date();
  const days = deliveryDays(now);

  const change = (fields: Partial<{ mobileNumber: string; name: string; message: string; deliverAt: string | null }>) =>
    compose.changeRecipient(
      { mobileNumber: fields.mobileNumber ?? recipient.mobileNumber, name: fields.name ?? recipient.name },
      fields.message ?? message,
      fields.deliverAt !== undefined ? fields.deliverAt : deliverAt,
    );
  const pick = (next: { date: string; time: string }, on = later) => {
    setWhen(next);
    const iso = on ? stockholmToUtc(next.date, next.time) : null;
    change({ deliverAt: on && iso && !deliveryProblem(iso, new Date()) ? iso : null });
  };

  const numberOk = looksLikeSwedishMobile(recipient.mobileNumber);
  const picked = later ? stockholmToUtc(when.date, when.time) : null;
  const problem = later ? deliveryProblem(picked, now) : null;
  const names = nameProblems(recipient.name, sender);
  const recipientNameProblem = touched || nameTouched.recipient ? names.recipientName : null;
  const senderNameProblem = touched || nameTouched.sender ? names.senderName : null;
  const nameText = (p: NameProblem) => t(`nameError.${p}`, { ns: 'common', max: NAME_MAX_LENGTH });
  // The server's refusal of the sender's name: our text for a known problem, else its own message.
  const senderSaveText = senderNameError
    ? (NAME_PROBLEMS as readonly string[]).includes(senderNameError.code)
      ? nameText(senderNameError.code as NameProblem)
      : senderNameError.message || t('recipient.senderNameFailed')
    : null;
  const senderText = senderNameProblem ? nameText(senderNameProblem) : senderSaveText;

  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        setTouched(true);
        if (numberOk && !problem && !names.recipientName && !names.senderName) compose.next();
      }}
    >
      {title}
      <div className={css.field}>
        <label htmlFor="recipient-number" className={css.label}>
          {t('recipient.number')}
        </label>
        <input
          id="recipient-number"
          className={css.input}
          type="tel"
          autoComplete="tel"
          inputMode="tel"
          value={recipient.mobileNumber}
          aria-invalid={touched && !numberOk}
          aria-describedby="recipient-number-hint"
          onChange={(e) => change({ mobileNumber: e.currentTarget.value })}
          onBlur={() => setTouched(true)}
        />
        <p id="recipient-number-hint" className={touched && !numberOk ? css.fieldError : css.hint} role={touched && !numberOk ? 'alert' : undefined}>
          {touched && !numberOk ? t('recipient.numberInvalid') : t('recipient.numberHint')}
        </p>
      </div>
      <div className={css.field}>
        <label htmlFor="recipient-name" className={css.label}>
          {t('recipient.name')}
        </label>
        <input
          id="recipient-name"
          className={css.input}
          autoComplete="off"
          maxLength={RECIPIENT_NAME_MAX_LENGTH}
          value={recipient.name}
          aria-invalid={recipientNameProblem !== null}
          aria-describedby={recipientNameProblem ? 'recipient-name-error' : undefined}
          onChange={(e) => change({ name: e.currentTarget.value })}
          onBlur={() => setNameTouched((n) => ({ ...n, recipient: true }))}
        />
        {recipientNameProblem && (
          <p id="recipient-name-error" className={css.fieldError} role="alert">
            {nameText(recipientNameProblem)}
          </p>
        )}
      </div>
      {sender.needsName && (
        <div className={css.field}>
          <label htmlFor="sender-name" className={css.label}>
            {t('recipient.senderName')}
          </label>
          <input
            id="sender-name"
            className={css.input}
            autoComplete="name"
            maxLength={NAME_MAX_LENGTH}
            value={sender.name}
            aria-invalid={senderText !== null}
            aria-describedby="sender-name-hint"
            onChange={(e) => compose.changeSenderName(e.currentTarget.value)}
            onBlur={() => setNameTouched((n) => ({ ...n, sender: true }))}
          />
          <p id="sender-name-hint" className={senderText ? css.fieldError : css.hint} role={senderText ? 'alert' : undefined}>
            {senderText ?? (savingSenderName ? t('recipient.senderNameSaving') : t('recipient.senderNameHint'))}
          </p>
        </div>
      )}
      <div className={css.field}>
        <label htmlFor="recipient-message" className={css.label}>
          {t('recipient.message')}
        </label>
        <textarea
          id="recipient-message"
          className={css.textarea}
          maxLength={MESSAGE_MAX_LENGTH}
          value={message}
          onChange={(e) => change({ message: e.currentTarget.value })}
        />
      </div>

      <fieldset className={css.fieldset}>
        <legend className={css.label}>{t('recipient.when')}</legend>
        <label className={css.check}>
          <input
            type="checkbox"
            checked={later}
            onChange={(e) => {
              const on = e.currentTarget.checked;
              setLater(on);
              pick(on && !when.date ? { date: days.min, time: '12:00' } : when, on);
            }}
          />
          {t('recipient.later')}
        </label>
        {later && (
          <>
            <div className={css.field}>
              <label htmlFor="deliver-date" className={css.label}>
                {t('recipient.date')}
              </label>
              <input
                id="deliver-date"
                type="date"
                className={css.input}
                min={days.min}
                max={days.max}
                value={when.date}
                onChange={(e) => pick({ ...when, date: e.currentTarget.value })}
              />
            </div>
            <div className={css.field}>
              <label htmlFor="deliver-time" className={css.label}>
                {t('recipient.time')}
              </label>
              <input id="deliver-time" type="time" className={css.input} value={when.time} onChange={(e) => pick({ ...when, time: e.currentTarget.value })} />
            </div>
            <p className={problem ? css.fieldError : css.hint} role={problem ? 'alert' : undefined}>
              {problem ? t(`recipient.problem.${problem}`) : t('recipient.whenShown', { when: formatDateTime(picked ?? '', i18n.language) })}
            </p>
          </>
        )}
      </fieldset>
      <div className={css.actions}>
        <button type="button" className={css.secondary} onClick={compose.back}>
          {t('nav.back')}
        </button>
        <button type="submit" className={css.primary} disabled={savingSenderName}>
          {t('nav.next')}
        </button>
      </div>
    </form>
  );
}
