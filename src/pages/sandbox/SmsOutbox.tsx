import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useActorRef, useSelector } from '@xstate/react';
import type { SnapshotFrom } from 'xstate';
import { inspect } from '../../inspect.ts';
import { formatDate } from '../../format/dates.ts';
import { buttonSecondary } from '../../components/ui.css.ts';
import { smsOutbox } from './loaders.ts';
import * as css from './sandbox.css.ts';

type Snapshot = SnapshotFrom<typeof smsOutbox>;
const selectStatus = (s: Snapshot) => (s.hasTag('failed') ? 'error' : s.hasTag('showing') ? 'ready' : 'loading');
const selectMessages = (s: Snapshot) => s.context.messages;

/**
 * The sandbox SMS outbox, newest first: where sign-in codes land when no SMS is really sent. The
 * reading (at once, every few seconds, on request) is the smsOutbox machine's.
 */
export function SmsOutbox() {
  const { t, i18n } = useTranslation('sandbox');
  const headingId = useId();
  const actor = useActorRef(smsOutbox, { inspect });
  const status = useSelector(actor, selectStatus);
  const messages = useSelector(actor, selectMessages);

  return (
    <section className={css.section} aria-labelledby={headingId}>
      <div className={css.header}>
        <h2 id={headingId} className={css.h2}>
          {t('sms.title')}
        </h2>
        <button type="button" className={buttonSecondary} onClick={() => actor.send({ type: 'user.refresh' })}>
          {t('sms.refresh')}
        </button>
      </div>
      <p className={css.muted}>{t('sms.intro')}</p>
      {status === 'loading' && (
        <p className={css.muted} role="status">
          {t('sms.loading')}
        </p>
      )}
      {status === 'error' && (
        <p className={css.error} role="alert">
          {t('sms.error')}
        </p>
      )}
      {status === 'ready' && messages.length === 0 && <p className={css.muted}>{t('sms.empty')}</p>}
      {status === 'ready' && messages.length > 0 && (
        <ol className={css.list} aria-label={t('sms.title')}>
          {messages.map((m, i) => (
            <li key={`${m.sentAt}-${m.to}-${i}`} className={css.message}>
              <p className={css.meta}>
                <span>
                  {t('sms.to')}: <strong>{m.to}</strong>
                </span>
                <span>
                  {t('sms.sentAt')}: <time dateTime={m.sentAt}>{formatDate(m.sentAt, i18n.language, 'd MMMM yyyy HH:mm:ss')}</time>
                </span>
              </p>
              <p className={css.body}>{m.body}</p>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
