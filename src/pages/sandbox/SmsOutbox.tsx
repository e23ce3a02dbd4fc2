import { useCallback, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SandboxSms } from '../../../contract/sandbox.ts';
import { authApi } from '../../api/auth.ts';
import { formatDate } from '../../format/dates.ts';
import { buttonSecondary } from '../../components/ui.css.ts';
import * as css from './sandbox.css.ts';

/** How often the outbox is read again while the page is open (a code arrives within seconds). */
export const OUTBOX_POLL_MS = 5000;

type Outbox = { status: 'loading' } | { status: 'ready'; messages: SandboxSms[] } | { status: 'error' };

const loadOutbox = () => authApi().sandboxSms();

/** The sandbox SMS outbox, newest first: where sign-in codes land when no SMS is really sent. */
export function SmsOutbox({ load = loadOutbox }: { load?: () => Promise<SandboxSms[]> }) {
  const { t, i18n } = useTranslation('sandbox');
  const headingId = useId();
  const [outbox, setOutbox] = useState<Outbox>({ status: 'loading' });

  const refresh = useCallback(async () => {
    try {
      setOutbox({ status: 'ready', messages: await load() });
    } catch {
      setOutbox({ status: 'error' });
    }
  }, [load]);

  useEffect(() => {
    void refresh();
    const timer = setInterval(() => void refresh(), OUTBOX_POLL_MS);
    return () => clearInterval(timer);
  }, [refresh]);

  return (
    <section className={css.section} aria-labelledby={headingId}>
      <div className={css.header}>
        <h2 id={headingId} className={css.h2}>
          {t('sms.title')}
        </h2>
        <button type="button" className={buttonSecondary} onClick={() => void refresh()}>
          {t('sms.refresh')}
        </button>
      </div>
      <p className={css.muted}>{t('sms.intro')}</p>
      {outbox.status === 'loading' && (
        <p className={css.muted} role="status">
          {t('sms.loading')}
        </p>
      )}
      {outbox.status === 'error' && (
        <p className={css.error} role="alert">
          {t('sms.error')}
        </p>
      )}
      {outbox.status === 'ready' && outbox.messages.length === 0 && <p className={css.muted}>{t('sms.empty')}</p>}
      {outbox.status === 'ready' && outbox.messages.length > 0 && (
        <ol className={css.list} aria-label={t('sms.title')}>
          {outbox.messages.map((m, i) => (
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
