import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { Notification } from '../../../contract/notification.ts';
import { createLoader } from '../../../machines/loader.ts';
import { listNotifications, markNotificationsRead, notificationHref, type NotificationPage } from '../../api/notification.ts';
import { fromCall } from '../../components/flow.ts';
import { useLoader } from '../../components/useLoader.ts';
import { UNREAD_CHANGED } from '../../components/unread.ts';
import { usePageTitle } from '../../components/usePageTitle.ts';
import { button } from '../../components/ui.css.ts';
import { formatDateTime } from '../../format/dates.ts';
import { MyHeading } from './MyNav.tsx';
import * as css from './my.css.ts';
import * as n from './notifications.css.ts';

export const notificationsLoader = createLoader<{ cursor: string | null }, NotificationPage>().provide({
  actors: {
    load: fromCall<NotificationPage, { params: { cursor: string | null } }>(({ input, signal }) => listNotifications({ cursor: input.params.cursor, limit: 30 }, signal)),
  },
});


/**
 * Opening an unread notification marks it read on the server (the page goes on to its greetie or
 * voucher meanwhile); the header's count is read again once it is. A failed mark leaves it unread,
 * to be marked the next time.
 */
function openNotification(item: Notification): void {
  if (item.read) return;
  markNotificationsRead([item.id]).then(
    () => window.dispatchEvent(new Event(UNREAD_CHANGED)),
    () => undefined,
  );
}

/** /my/notifications: what happened to the user, newest first; unread marked; mark all read. */
export function NotificationsPage() {
  const { t } = useTranslation('notifications');
  usePageTitle(t('title'));
  return (
    <div className={css.page}>
      <MyHeading title={t('title')} />
      <NotificationList />
    </div>
  );
}

function NotificationList() {
  const { t, i18n } = useTranslation('notifications');
  const { status, data, error, retry } = useLoader(notificationsLoader, { cursor: null });
  const [more, setMore] = useState<{ items: Notification[]; nextCursor: string | null } | null>(null);
  const [readAll, setReadAll] = useState(false);
  const [marking, setMarking] = useState<'idle' | 'busy' | 'failed'>('idle');

  if (status === 'failed' || status === 'notFound') {
    return (
      <div role="alert" className={css.alert}>
        <h2 className={css.alertTitle}>{t('failed.title')}</h2>
        {error?.message && <p className={css.text}>{error.message}</p>}
        <button type="button" className={button} onClick={retry}>
          {t('failed.retry')}
        </button>
      </div>
    );
  }
  if (status !== 'loaded' || !data) {
    return (
      <div aria-busy="true">
        <p role="status" className={css.hint}>
          {t('loading')}
        </p>
        <div className={css.skeleton} aria-hidden="true" />
      </div>
    );
  }
  const items = [...data.items, ...(more?.items ?? [])].map((x) => (readAll ? { ...x, read: true } : x));
  const nextCursor = more ? more.nextCursor : data.nextCursor;
  const unread = readAll ? 0 : data.unread;
  if (items.length === 0) return <p className={css.text}>{t('empty')}</p>;

  const markAll = async () => {
    setMarking('busy');
    try {
      await markNotificationsRead();
      setReadAll(true);
      setMarking('idle');
      window.dispatchEvent(new Event(UNREAD_CHANGED));
    } catch {
      setMarking('failed');
    }
  };
  const loadMore = async () => {
    if (!nextCursor) return;
    const page = await listNotifications({ cursor: nextCursor, limit: 30 }).catch(() => null);
    if (page) setMore({ items: [...(more?.items ?? []), ...page.items], nextCursor: page.nextCursor });
  };

  return (
    <section className={css.card} aria-labelledby="notifications-list-title">
      <div className={n.toolbar}>
        <h2 id="notifications-list-title" className={css.cardTitle} aria-live="polite">
          {unread > 0 ? t('unread', { count: unread }) : t('allRead')}
        </h2>
        {unread > 0 && (
          <button type="button" className={button} onClick={() => void markAll()} aria-busy={marking === 'busy' || undefined} disabled={marking === 'busy'}>
            {marking === 'busy' ? t('marking') : t('markAll')}
          </button>
        )}
      </div>
      {marking === 'failed' && (
        <p className={css.error} role="alert">
          {t('markFailed')}
        </p>
      )}
      <ul className={n.list} aria-label={t('title')}>
        {items.map((item) => (
          <li key={item.id}>
            <Link to={notificationHref(item)} className={item.read ? n.item : `${n.item} ${n.unread}`} data-read={item.read} onClick={() => openNotification(item)}>
              <p className={n.itemTitle}>
                {!item.read && <span className={n.badge}>{t('unreadMark')}</span>}
                <span>{item.title}</span>
              </p>
              <p className={css.text}>{item.body}</p>
              <p className={n.time}>
                <time dateTime={item.createdAt}>{formatDateTime(item.createdAt, i18n.language)}</time>
              </p>
            </Link>
          </li>
        ))}
      </ul>
      {nextCursor && (
        <button type="button" className={button} onClick={() => void loadMore()}>
          {t('more')}
        </button>
      )}
    </section>
  );
}
