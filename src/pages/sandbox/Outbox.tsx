import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../format/dates.ts';
import { buttonSecondary } from '../../components/ui.css.ts';
import { useOutbox, type OutboxMachine } from './useOutbox.ts';
import * as css from './sandbox.css.ts';

/**
 * A sandbox outbox, newest first: the smsOutbox machine (read at once, every few seconds, on
 * request) with the reader it is given. `kind` picks its strings (sandbox.json `sms.*` / `push.*`);
 * `titled`: a message's first line is its title (a push's title and body).
 */
export function Outbox({ machine, kind, titled = false }: { machine: OutboxMachine; kind: 'sms' | 'push'; titled?: boolean }) {
  const { t, i18n } = useTranslation('sandbox');
  const headingId = useId();
  const { screen, messages, refresh } = useOutbox(machine);

  return (
    <section className={css.section} aria-labelledby={headingId}>
      <div className={css.header}>
        <h2 id={headingId} className={css.h2}>
          {t(`${kind}.title`)}
        </h2>
        <button type="button" className={buttonSecondary} onClick={refresh}>
          {t(`${kind}.refresh`)}
        </button>
      </div>
      <p className={css.muted}>{t(`${kind}.intro`)}</p>
      {screen === 'loading' && (
        <p className={css.muted} role="status">
          {t(`${kind}.loading`)}
        </p>
      )}
      {screen === 'failed' && (
        <p className={css.error} role="alert">
          {t(`${kind}.error`)}
        </p>
      )}
      {screen === 'showing' && messages.length === 0 && <p className={css.muted}>{t(`${kind}.empty`)}</p>}
      {screen === 'showing' && messages.length > 0 && (
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
