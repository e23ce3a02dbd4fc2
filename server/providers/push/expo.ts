import { Expo, type ExpoPushMessage, type ExpoPushTicket } from 'expo-server-sdk';
import { Agent, type Dispatcher } from 'undici';
import type { Config } from '../../config.ts';
import type { PushProvider, PushReceipt, PushTicket } from './index.ts';

/**
 * The Expo push service through expo-server-sdk 6.1.0 (7 needs Node 22): messages in the SDK's
 * chunks (100), tickets at once, receipts later (fetched on a schedule by server/notification).
 *
 * The SDK reads its address from EXPO_BASE_URL once, when it is loaded, and says that variable is
 * for Expo's own use. So the address is ours to set another way: with EXPO_BASE_URL set in our
 * config, the SDK's requests go through an undici dispatcher that sends them to that origin
 * instead (the path, /--/api/v2/push/send or getReceipts, stays): the tests' fake Expo server.
 */
export function createExpoPush(opts: Config['push']): PushProvider {
  const expo = new Expo({
    accessToken: opts.expoAccessToken || undefined,
    httpAgent: opts.expoBaseUrl ? redirectTo(opts.expoBaseUrl) : undefined,
    // The SDK retries a 429 with backoff; a short first wait keeps a job well inside its time.
    retryMinTimeout: 1000,
  });
  return {
    name: 'expo',
    async send(messages) {
      const tickets: PushTicket[] = [];
      const all: ExpoPushMessage[] = messages.map((m) => ({ to: m.to, title: m.title, body: m.body, data: m.data, sound: 'default', priority: 'high' }));
      for (const chunk of expo.chunkPushNotifications(all)) {
        const answer: ExpoPushTicket[] = await expo.sendPushNotificationsAsync(chunk);
        for (const t of answer) {
          tickets.push(t.status === 'ok' ? { ok: true, id: t.id } : { ok: false, error: t.details?.error ?? 'error', message: t.message });
        }
      }
      return tickets;
    },
    async receipts(ids) {
      const out: Record<string, PushReceipt> = {};
      for (const chunk of expo.chunkPushNotificationReceiptIds(ids)) {
        const answer = await expo.getPushNotificationReceiptsAsync(chunk);
        for (const [id, r] of Object.entries(answer)) {
          out[id] = r.status === 'ok' ? { ok: true } : { ok: false, error: r.details?.error ?? 'error', message: r.message };
        }
      }
      return out;
    },
  };
}

/** An undici dispatcher that sends every request to `baseUrl`'s origin (path and query kept). */
function redirectTo(baseUrl: string): Dispatcher {
  const origin = new URL(baseUrl).origin;
  return new Agent().compose((dispatch) => (options, handler) => dispatch({ ...options, origin }, handler));
}
