import { useEffect, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { listNotifications } from '../api/notification.ts';

/** Sent on window when the user's unread notifications changed here (marked read on /my/notifications). */
export const UNREAD_CHANGED = 'greetie:notifications-changed';

const POLL_MS = 60_000;

/**
 * The signed-in user's unread notifications, for the header's avatar: read when the page changes,
 * when /my/notifications marks them read, and every minute while the tab is visible. 0 when it
 * cannot be read (the badge simply stays away).
 */
export function useUnreadCount(enabled: boolean): number {
  const { pathname } = useLocation();
  const [count, setCount] = useState(0);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (!enabled) return;
    const again = () => setTick((n) => n + 1);
    const timer = window.setInterval(() => {
      if (document.visibilityState !== 'hidden') again();
    }, POLL_MS);
    window.addEventListener(UNREAD_CHANGED, again);
    return () => {
      window.clearInterval(timer);
      window.removeEventListener(UNREAD_CHANGED, again);
    };
  }, [enabled]);
  useEffect(() => {
    if (!enabled) {
      setCount(0);
      return;
    }
    const abort = new AbortController();
    listNotifications({ limit: 1 }, abort.signal).then(
      (page) => setCount(page.unread),
      () => undefined,
    );
    return () => abort.abort();
  }, [enabled, pathname, tick]);
  return count;
}
