/*
 * Greetie's service worker: only Web Push (issue 15, decision 092). No caching, no fetch handler:
 * the app works as before without it. A push carries { title, body, url, … } as JSON; clicking the
 * notification focuses an open Greetie tab on that page, or opens one.
 */
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { body: event.data ? event.data.text() : '' };
  }
  const title = typeof data.title === 'string' && data.title ? data.title : 'Greetie';
  event.waitUntil(
    self.registration.showNotification(title, {
      body: typeof data.body === 'string' ? data.body : '',
      icon: '/favicon.svg',
      tag: typeof data.notificationId === 'string' ? data.notificationId : undefined,
      data: { url: typeof data.url === 'string' && data.url.startsWith('/') ? data.url : '/my/notifications' },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url ?? '/my/notifications', self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      for (const w of windows) {
        if (new URL(w.url).origin === self.location.origin && 'focus' in w) {
          return w.navigate(url).then((c) => (c ?? w).focus());
        }
      }
      return self.clients.openWindow(url);
    }),
  );
});
