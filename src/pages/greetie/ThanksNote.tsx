import { useTranslation } from 'react-i18next';
import type { GreetieThanks } from '../../../contract/greetie.ts';
import { formatDateTime } from '../../format/dates.ts';
import * as css from './thanks.css.ts';

/**
 * The recipient's thank-you as its sender reads it on the greetie's page: "Tack från Anna: ”Vad
 * glad jag blev!” 🎉" and when it came.
 */
export function ThanksNote({ thanks, recipientName }: { thanks: GreetieThanks; recipientName: string | null }) {
  const { t, i18n } = useTranslation('greetie');
  const text = recipientName ? t('thanks.from', { name: recipientName, message: thanks.message }) : t('thanks.fromSomeone', { message: thanks.message });
  return (
    <section className={css.note} aria-label={t('thanks.label')}>
      <p className={css.noteText}>
        {text}
        {thanks.emoji && ` ${thanks.emoji}`}
      </p>
      <p className={css.noteMeta}>
        <time dateTime={thanks.createdAt}>{formatDateTime(thanks.createdAt, i18n.language)}</time>
      </p>
    </section>
  );
}
