import type { Notification } from '../../contract/notification.ts';
import { api, createApiClient, type ApiClient } from './client.ts';
import { nextCursorOf } from './greetie.ts';

/** The caller's notifications and web push (API.md "Mobile user"), typed by the contract. */

export interface NotificationPage {
  items: Notification[];
  nextCursor: string | null;
  /** All unread ones (the X-Unread-Count header), not only this page's. */
  unread: number;
}

/** GET /mobileuser/notifications: newest first, a page at a time, with the unread count. */
export async function listNotifications(query: { cursor?: string | null; limit?: number } = {}, signal?: AbortSignal, client: ApiClient = api): Promise<NotificationPage> {
  let link: string | null = null;
  let unread: string | null = null;
  // The app's client answers bodies only; this one also keeps the Link and X-Unread-Count headers.
  const reader = createApiClient({
    baseUrl: client.baseUrl,
    token: client.getToken(),
    fetch: async (input, init) => {
      const res = await globalThis.fetch(input, init);
      link = res.headers.get('link');
      unread = res.headers.get('x-unread-count');
      return res;
    },
  });
  const items = await reader.get<Notification[]>('/api/mobileuser/notifications', { query: { cursor: query.cursor ?? undefined, limit: query.limit }, signal });
  const counted = Number(unread);
  return { items, nextCursor: nextCursorOf(link), unread: unread !== null && Number.isFinite(counted) ? counted : items.filter((n) => !n.read).length };
}

/** POST /mobileuser/notifications/read: those named, or all. */
export function markNotificationsRead(ids?: string[], client: ApiClient = api): Promise<void> {
  return client.post<void>('/api/mobileuser/notifications/read', ids ? { ids } : {});
}

/** Where a notification leads in the app: its voucher, its greetie, or the list. */
export function notificationHref(n: Pick<Notification, 'greetieId' | 'voucherId'>): string {
  if (n.voucherId) return `/voucher/${n.voucherId}`;
  if (n.greetieId) return `/greetie/details/${n.greetieId}`;
  return '/my/notifications';
}
