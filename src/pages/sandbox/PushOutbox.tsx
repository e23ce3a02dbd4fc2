import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useActorRef, useSelector } from '@xstate/react';
import type { SnapshotFrom } from 'xstate';
import { inspect } from '../../inspect.ts';
import { formatDate } from '../../format/dates.ts';
import { buttonSecondary } from '../../components/ui.css.ts';
import { pushOutbox } from './loaders.ts';
import * as css from './sandbox.css.ts';

type Snapshot = SnapshotFrom<typeof pushOutbox>;
const selectStatus = (s: Snapshot) => (s.hasTag('failed') ? 'error' : s.hasTag('showing') ? 'ready' : 'loading');
const selectMessages = (s: Snapshot) => s.context.messages;

/** The sandbox push outbox, newest first: the notifications that would have reached a phone (issue 15). */
export function PushOutbox() {
  const { t, i18n } = useTranslation('sandbox');
  const headingId = useId();
  const actor = useActorRef(pushOutbox, { inspect });
  const status = useSelector(actor, selectStatus);
  const messages = useSelector(actor, selectMessages);

  return (
    <section className={css.section} aria-labelledby={headingId}>
      <div className={css.header}>
        <h2 id={headingId} className={css.h2}>
          {t('push.title')}
        </h2>
        <button type="button" className={buttonSecondary} onClick={() => actor.send({ type: 'user.refresh' })}>
          {t('push.refresh')}
        </button>
      </div>
      <p className={css.muted}>{t('push.intro')}</p>
      {status === 'loading' && (
        <p className={css.muted} role="status">
          {t('push.loading')}
        </p>
      )}
      {status === 'error' && (
        <p className={css.error} role="alert">
          {t('push.error')}
        </p>
      )}
      {status === 'ready' && messages.length === 0 && <p className={css.muted}>{t('push.empty')}</p>}
      {status === 'ready' && messages.length > 0 && (
        <ol className={css.list} aria-label={t('push.title')}>
          {messages.map((m, i) => {
            const [title, ...body] = m.body.split('\n');
            return (
              <li key={`${m.sentAt}-${m.to}-${i}`} className={css.message}>
                <p className={css.meta}>
                  <span>
                    {t('push.to')}: <strong>{m.to}</strong>
                  </span>
                  <span>
                    {t('push.sentAt')}: <time dateTime={m.sentAt}>{formatDate(m.sentAt, i18n.language, 'd MMMM yyyy HH:mm:ss')}</time>
                  </span>
                </p>
                <p className={css.body}>
                  <strong>{title}</strong>
                  {body.length > 0 && (
                    <>
                      <br />
                      {body.join('\n')}
                    </>
                  )}
                </p>
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
