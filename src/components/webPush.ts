import { useCallback, useEffect, useState } from 'react';
import { api } from '../api/client.ts';

/**
 * Web Push in this browser (decision 092): the service worker /sw.js, the browser's
 * permission (asked only when the user turns push on), and the subscription kept by the server
 * (GET/POST/DELETE /api/mobileuser/webpush).
 */
export type WebPushState = 'checking' | 'unsupported' | 'denied' | 'off' | 'on';

export const SERVICE_WORKER_URL = '/sw.js';

function supported(): boolean {
  return typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const b64 = base64url.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (base64url.length % 4)) % 4);
  const raw = atob(b64);
  const out = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

async function currentSubscription(): Promise<PushSubscription | null> {
  const reg = await navigator.serviceWorker.getRegistration(SERVICE_WORKER_URL);
  return reg ? reg.pushManager.getSubscription() : null;
}

/**
 * Tells the server this browser's subscription again, if it has one, so its pushes follow the
 * app's language (the request carries it as Accept-Language). Called after a language change;
 * quiet when there is nothing to tell or the server cannot be told (signed out, offline).
 */
export async function resendWebPushSubscription(): Promise<void> {
  if (!supported() || Notification.permission !== 'granted') return;
  try {
    const sub = await currentSubscription();
    if (!sub) return;
    const json = sub.toJSON();
    await api.post<void>('/api/mobileuser/webpush', { endpoint: json.endpoint, keys: json.keys });
  } catch {
    // The next change, or turning push off and on, tells it again.
  }
}

export function useWebPush(): { state: WebPushState; busy: boolean; failed: boolean; turnOn: () => Promise<void>; turnOff: () => Promise<void> } {
  const [state, setState] = useState<WebPushState>('checking');
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    if (!supported()) {
      setState('unsupported');
      return;
    }
    if (Notification.permission === 'denied') {
      setState('denied');
      return;
    }
    let live = true;
    currentSubscription().then(
      (sub) => live && setState(sub && Notification.permission === 'granted' ? 'on' : 'off'),
      () => live && setState('off'),
    );
    return () => {
      live = false;
    };
  }, []);

  const turnOn = useCallback(async () => {
    setBusy(true);
    setFailed(false);
    try {
      // The browser asks the user now, and only now.
      const permission = await Notification.requestPermission();
      if (permission !== 'granted') {
        setState(permission === 'denied' ? 'denied' : 'off');
        return;
      }
      const reg = await navigator.serviceWorker.register(SERVICE_WORKER_URL);
      await navigator.serviceWorker.ready;
      const { publicKey } = await api.get<{ publicKey: string }>('/api/mobileuser/webpush');
      const sub = (await reg.pushManager.getSubscription()) ?? (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) }));
      const json = sub.toJSON();
      await api.post<void>('/api/mobileuser/webpush', { endpoint: json.endpoint, keys: json.keys });
      setState('on');
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
    }
  }, []);

  const turnOff = useCallback(async () => {
    setBusy(true);
    setFailed(false);
    try {
      const sub = await currentSubscription();
      if (sub) {
        await api.delete<void>('/api/mobileuser/webpush', { query: { endpoint: sub.endpoint } });
        await sub.unsubscribe();
      }
      setState('off');
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
    }
  }, []);

  return { state, busy, failed, turnOn, turnOff };
}
