import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useActorRef, useSelector } from '@xstate/react';
import type { SnapshotFrom } from 'xstate';
import { inspect } from '../../inspect.ts';
import { formatDate } from '../../format/dates.ts';
import { buttonSecondary } from '../../components/ui.css.ts';
import type { smsOutbox } from './loaders.ts';
import * as css from './sandbox.css.ts';

type OutboxMachine = typeof smsOutbox;
type Snapshot = SnapshotFrom<OutboxMachine>;
const selectStatus = (s: Snapshot) => (s.hasTag('failed') ? 'error' : s.hasTag('showing') ? 'ready' : 'loading');
const selectMessages = (s: Snapshot) => s.context.messages;

/**
 * A sandbox outbox, newest first: the smsOutbox machine (read at once, every few seconds, on
 * request) with the reader it is given. `kind` picks its strings (sandbox.json `sms.*` / `push.*`);
 * `titled`: a message's first line is its title (a push's title and body).
 */
export function Outbox({ machine, kind, titled = false }: { machine: OutboxMachine; kind: 'sms' | 'push'; titled?: boolean }) {
  const { t, i18n } = useTranslation('sandbox');
  const headingId = useId();
  const actor = useActorRef(machine, { inspect });
  const status = useSelector(actor, selectStatus);
  const messages = useSelector(actor, selectMessages);

  return (
    <section className={css.section} aria-labelledby={headingId}>
      <div className={css.header}>
        <h2 id={headingId} className={css.h2}>
          {t(`${kind}.title`)}
        </h2>
        <button type="button" className={buttonSecondary} onClick={() => actor.send({ type: 'user.refresh' })}>
          {t(`${kind}.refresh`)}
        </button>
      </div>
      <p className={css.muted}>{t(`${kind}.intro`)}</p>
      {status === 'loading' && (
        <p className={css.muted} role="status">
          {t(`${kind}.loading`)}
        </p>
      )}
      {status === 'error' && (
        <p className={css.error} role="alert">
          {t(`${kind}.error`)}
        </p>
      )}
      {status === 'ready' && messages.length === 0 && <p className={css.muted}>{t(`${kind}.empty`)}</p>}
      {status === 'ready' && messages.length > 0 && (
        <ol className={css.list} aria-label={t(`${kind}.title`)}>
          {messages.map((m, i) => (
            <li key={`${m.sentAt}-${m.to}-${i}`} className={css.message}>
              <p className={css.meta}>
                <span>
                  {t(`${kind}.to`)}: <strong>{m.to}</strong>
                </span>
                <span>
                  {t(`${kind}.sentAt`)}: <time dateTime={m.sentAt}>{formatDate(m.sentAt, i18n.language, 'd MMMM yyyy HH:mm:ss')}</time>
                </span>
              </p>
              <p className={css.body}>{titled ? <Titled text={m.body} /> : m.body}</p>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

/** The first line bold, the rest below it. */
function Titled({ text }: { text: string }) {
  const [title, ...body] = text.split('\n');
  return (
    <>
      <strong>{title}</strong>
      {body.length > 0 && (
        <>
          <br />
          {body.join('\n')}
        </>
      )}
    </>
  );
}
