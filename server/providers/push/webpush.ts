import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { Agent } from 'node:https';
import path from 'node:path';
import webpush from 'web-push';

/**
 * Web Push to browsers with the web-push library (decision 092): VAPID keys kept in DATA_DIR like
 * the token-signing key (made on first start), each message encrypted for the subscription
 * (aes128gcm) and posted to the endpoint it names, whichever push service that is.
 */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/** DATA_DIR/vapid.json: read, or made once (mode 0600). The private key is never logged. */
export function loadVapidKeys(dataDir: string): VapidKeys {
  const file = path.join(dataDir, 'vapid.json');
  if (existsSync(file)) {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as Partial<VapidKeys>;
    if (typeof saved.publicKey === 'string' && typeof saved.privateKey === 'string') return { publicKey: saved.publicKey, privateKey: saved.privateKey };
  }
  mkdirSync(dataDir, { recursive: true });
  const keys = webpush.generateVAPIDKeys();
  writeFileSync(file, JSON.stringify(keys) + '\n', { mode: 0o600 });
  return keys;
}

export interface WebPushSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/** sent; gone (404/410: the browser dropped it, delete it); or failed (try again another time). */
export type WebPushOutcome = 'sent' | 'gone' | 'failed';

export interface WebPushSender {
  readonly publicKey: string;
  send(sub: WebPushSubscription, payload: Record<string, unknown>): Promise<WebPushOutcome>;
}

export function createWebPushSender(opts: { keys: VapidKeys; subject: string; agent?: Agent; timeoutMs?: number }): WebPushSender {
  return {
    publicKey: opts.keys.publicKey,
    async send(sub, payload) {
      try {
        await webpush.sendNotification(sub, JSON.stringify(payload), {
          vapidDetails: { subject: opts.subject, publicKey: opts.keys.publicKey, privateKey: opts.keys.privateKey },
          TTL: 24 * 60 * 60,
          urgency: 'normal',
          timeout: opts.timeoutMs ?? 10_000,
          ...(opts.agent ? { agent: opts.agent } : {}),
        });
        return 'sent';
      } catch (err) {
        const status = (err as { statusCode?: number }).statusCode;
        return status === 404 || status === 410 ? 'gone' : 'failed';
      }
    },
  };
}
