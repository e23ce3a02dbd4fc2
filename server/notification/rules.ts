import type { FastifyBaseLogger } from 'fastify';
import { Expo } from 'expo-server-sdk';
import type { Notification } from '../../contract/notification.ts';
import { transaction, type Tx } from '../db/index.ts';
import { HttpError, badRequest } from '../errors.ts';
import type { Lang } from '../i18n/index.ts';
import type { Deps } from '../services.ts';
import { decodeCursor as decodeKeyset, encodeCursor as encodeKeyset } from '../cursor.ts';
import { notificationText, type NotificationParams } from './messages.ts';
import {
  claimPush,
  closeStaleSending,
  deleteExpoTokenOfDevice,
  deleteExpoTokens,
  deleteRecipientNotifications,
  deleteTickets,
  deleteWebpush,
  deliveredFacts,
  expiringVouchers,
  expoTokensOf,
  insertNotification,
  markPushed,
  markRead,
  notificationPage,
  pendingPushes,
  resolvePaymentFailed,
  saveExpoToken,
  saveTickets,
  saveWebpush,
  ticketsDue,
  unreadCount,
  voucherForReminder,
  webpushOf,
  type NotificationRow,
} from './queries.ts';

/**
 * Notifications (decision 092).
 *
 * - Made in the transaction of what happened, by a small call in its owner's rules: delivery
 *   (`notifyDelivered`: the recipient's "you have a greetie", the sender's "delivered", and the
 *   vouchers' expiry reminders as jobs at 30 and 7 days before), payment (`notifyPayment`). Viewed
 *   and redeemed are single statements in their owners' code: triggers of migration 011 add theirs.
 * - Each is made once (its dedupe key) and pushed once: a job (`pushOne`) claims it pending →
 *   sending in a committed update before any provider is called; the sweep pushes rows no job
 *   took and closes claims left by a stopped process as sent (never pushed twice).
 * - Pushes go to the user's Expo tokens (the sandbox outbox, or Expo) and browsers (Web Push).
 *   Expo's tickets are kept; their receipts are fetched later, and DeviceNotRegistered (on a
 *   ticket or a receipt) deletes the token. A browser subscription answered 404/410 is deleted.
 */

export type PushDeps = Pick<Deps, 'db' | 'config'> & {
  services: Pick<Deps['services'], 'now' | 'push' | 'webpush' | 'notifications'>;
  log?: FastifyBaseLogger;
};
type NotifyDeps = { services: Pick<Deps['services'], 'now' | 'notifications'> };

export const PAGE_DEFAULT = 30;
/** A claim in sending longer than this was left by a process that stopped. */
const PUSH_LEASE_MS = 120_000;
/** A pending row older than this has no job coming (a trigger's, or the job was lost). */
const PENDING_GRACE_MS = 5_000;
/** Expo's receipts come 15–30 minutes after the ticket and are kept about a day. */
export const RECEIPT_AFTER_MS = 30 * 60_000;
const RECEIPT_KEPT_MS = 24 * 60 * 60_000;
const DAY_MS = 24 * 60 * 60_000;
export const EXPIRY_REMINDER_DAYS = [30, 7] as const;

/** Adds a notification (once per key) and its push job, in the caller's transaction. */
export async function notify(
  tx: Tx,
  deps: NotifyDeps,
  n: { userId: string; type: string; greetieId?: string | null; voucherId?: string | null; params?: NotificationParams; key: string },
): Promise<void> {
  const id = await insertNotification(tx, {
    userId: n.userId,
    type: n.type,
    greetieId: n.greetieId,
    voucherId: n.voucherId,
    params: { ...n.params },
    dedupeKey: n.key,
    at: deps.services.now(),
  });
  if (id) await deps.services.notifications.enqueuePush(tx, id);
}

/**
 * A greetie just delivered (server/delivery, in the transaction that marks it): the recipient, if
 * the number is a user's, hears a greetie arrived; the sender that it was delivered (not when it
 * went to themselves); and each voucher's expiry reminders are scheduled.
 */
export async function notifyDelivered(tx: Tx, deps: NotifyDeps, greetieId: string): Promise<void> {
  const g = await deliveredFacts(tx, greetieId);
  if (!g) return;
  const toSelf = g.sender_id !== null && g.sender_id === g.recipient_id;
  // A greetie delivered again to a corrected recipient (server/greetie/after.ts) is news again.
  const again = g.recipient_changes > 0 ? `:${g.recipient_changes}` : '';
  if (g.recipient_id) {
    await notify(tx, deps, { userId: g.recipient_id, type: 'greetieReceived', greetieId, params: { senderName: g.sender_name }, key: `greetieReceived:${greetieId}${again}` });
  }
  if (g.sender_id && !toSelf) {
    await notify(tx, deps, { userId: g.sender_id, type: 'greetieDelivered', greetieId, params: { recipientName: g.recipient_name }, key: `greetieDelivered:${greetieId}${again}` });
  }
  const now = deps.services.now().getTime();
  for (const v of await expiringVouchers(tx, greetieId)) {
    for (const days of EXPIRY_REMINDER_DAYS) {
      const at = v.expires_at.getTime() - days * DAY_MS;
      if (at > now) await deps.services.notifications.enqueueExpiry(tx, v.id, days, new Date(at), g.recipient_changes);
    }
  }
}

/**
 * A greetie's recipient corrected (server/greetie/after.ts, in its transaction): the old
 * recipient's notifications of it (it arrived, a voucher expires) are removed, as they would lead
 * to a greetie they can no longer open. The new recipient's come with the new delivery.
 */
export async function forgetOldRecipient(tx: Tx, greetieId: string, oldNumber: string): Promise<void> {
  await deleteRecipientNotifications(tx, greetieId, oldNumber);
}

/** A payment settled (server/payment applyState, in its transaction): the sender hears paid or not. */
export async function notifyPayment(tx: Tx, deps: NotifyDeps, p: { greetieId: string; paymentId: string; paid: boolean }): Promise<void> {
  const g = await deliveredFacts(tx, p.greetieId);
  if (!g?.sender_id) return;
  const type = p.paid ? 'paymentSucceeded' : 'paymentFailed';
  // Paid at last: an earlier "did not go through" of this greetie is settled in the same transaction.
  if (p.paid) await resolvePaymentFailed(tx, g.sender_id, p.greetieId, deps.services.now());
  await notify(tx, deps, { userId: g.sender_id, type, greetieId: p.greetieId, params: { recipientName: g.recipient_name }, key: `${type}:${p.paymentId}` });
}

/** A greetie cancelled unopened and its payment refunded (server/payment/refunds.ts): the sender is told, once. */
export async function notifyRefunded(tx: Tx, deps: NotifyDeps, p: { greetieId: string; amount: number }): Promise<void> {
  const g = await deliveredFacts(tx, p.greetieId);
  if (!g?.sender_id) return;
  await notify(tx, deps, {
    userId: g.sender_id,
    type: 'refunded',
    greetieId: p.greetieId,
    params: { recipientName: g.recipient_name, amount: p.amount },
    key: `refunded:${p.greetieId}`,
  });
}

/**
 * The expiry job: a reminder `days` before, to the greetie's current recipient, unless the voucher
 * is redeemed or gone by then. `changes` is the delivery the job was scheduled for (the greetie's
 * recipient_changes then): a job from before a correction is stale (the new delivery scheduled its
 * own, for the new number and the new expiry) and does nothing. Each delivery's reminder is its own
 * (the key names it), so the new recipient's is never taken for the old one's.
 */
export async function remindExpiry(deps: PushDeps, voucherId: string, days: number, changes = 0): Promise<boolean> {
  const v = await voucherForReminder(deps.db, voucherId);
  const now = deps.services.now();
  if (!v || v.recipient_changes !== changes || v.redeemed_at !== null || !v.expires_at || v.expires_at.getTime() <= now.getTime()) return false;
  await transaction(deps.db, (tx) =>
    notify(tx, deps, {
      userId: v.user_id,
      type: 'voucherExpiring',
      greetieId: v.greetie_id,
      voucherId,
      params: { days, merchantName: v.merchant_name, productName: v.product_name },
      key: `voucherExpiring${days}:${voucherId}${changes > 0 ? `:${changes}` : ''}`,
    }),
  );
  return true;
}

// ---- Reading and marking ----

export function toNotification(r: NotificationRow, lang: Lang): Notification {
  const text = notificationText(r.type, r.params as NotificationParams, lang);
  return {
    id: r.id,
    type: r.type as Notification['type'],
    title: text.title,
    body: text.body,
    greetieId: r.greetie_id,
    voucherId: r.voucher_id,
    read: r.read_at !== null,
    createdAt: r.created_at.toISOString(),
  };
}

const EXACT_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

export async function listNotifications(
  deps: Pick<Deps, 'db'>,
  userId: string,
  query: { limit?: number; cursor?: string },
  lang: Lang,
): Promise<{ items: Notification[]; nextCursor: string | null; limit: number; unread: number }> {
  const limit = query.limit ?? PAGE_DEFAULT;
  let after: { at: string; id: string } | undefined;
  if (query.cursor) {
    const k = decodeKeyset(query.cursor, (at) => EXACT_TIME.test(at) && !Number.isNaN(Date.parse(at)));
    if (!k) throw new HttpError(400, 'INVALID_CURSOR', {}, [{ field: 'querystring.cursor', problem: 'cursor' }]);
    after = { at: k.key, id: k.id };
  }
  const rows = await notificationPage(deps.db, userId, after, limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    items: page.map((r) => toNotification(r, lang)),
    nextCursor: rows.length > limit && last ? encodeKeyset(last.at, last.id) : null,
    limit,
    unread: await unreadCount(deps.db, userId),
  };
}

export async function readNotifications(deps: Pick<Deps, 'db'> & { services: Pick<Deps['services'], 'now'> }, userId: string, ids: string[] | undefined): Promise<void> {
  await markRead(deps.db, userId, ids, deps.services.now());
}

// ---- Registrations ----

const DEVICE_ID = /^[\x21-\x7e]{1,200}$/;

export async function setExpoToken(
  deps: Pick<Deps, 'db'> & { services: Pick<Deps['services'], 'now'> },
  userId: string,
  deviceId: string,
  token: string,
  language: Lang = 'sv',
): Promise<void> {
  if (!DEVICE_ID.test(deviceId)) throw badRequest('DEVICE_ID_INVALID', {}, [{ field: 'querystring.deviceId', problem: 'format' }]);
  if (token.length > 300 || !Expo.isExpoPushToken(token)) throw badRequest('EXPO_TOKEN_INVALID', {}, [{ field: 'querystring.token', problem: 'format' }]);
  await transaction(deps.db, (tx) => saveExpoToken(tx, userId, deviceId, token, language, deps.services.now()));
}

export async function removeExpoToken(deps: Pick<Deps, 'db'>, userId: string, deviceId: string): Promise<void> {
  if (!DEVICE_ID.test(deviceId)) throw badRequest('DEVICE_ID_INVALID', {}, [{ field: 'querystring.deviceId', problem: 'format' }]);
  await deleteExpoTokenOfDevice(deps.db, userId, deviceId);
}

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

/**
 * Keeps a browser's subscription. Its endpoint must be an allowed push service's (decision 095):
 * an https URL on WEBPUSH_ALLOWED_HOSTS, never an address inside the network; the same is checked
 * again at each send.
 */
export async function subscribeWebpush(
  deps: Pick<Deps, 'db'> & { services: Pick<Deps['services'], 'now' | 'webpush'> },
  userId: string,
  sub: { endpoint: string; keys: { p256dh: string; auth: string } },
  language: Lang = 'sv',
): Promise<void> {
  const problem = await deps.services.webpush.check(sub.endpoint);
  if (problem === 'format' || !BASE64URL.test(sub.keys.p256dh) || !BASE64URL.test(sub.keys.auth)) {
    throw badRequest('WEBPUSH_SUBSCRIPTION_INVALID', {}, [{ field: problem === 'format' ? 'body.endpoint' : 'body.keys', problem: 'format' }]);
  }
  if (problem !== null) throw badRequest('WEBPUSH_ENDPOINT_REFUSED', {}, [{ field: 'body.endpoint', problem: problem === 'host' ? 'host' : 'address' }]);
  await saveWebpush(deps.db, userId, { endpoint: sub.endpoint, p256dh: sub.keys.p256dh, auth: sub.keys.auth }, language, deps.services.now());
}

export async function unsubscribeWebpush(deps: Pick<Deps, 'db'>, userId: string, endpoint: string): Promise<void> {
  await deleteWebpush(deps.db, endpoint, userId);
}

// ---- Pushing ----

/** Where a notification leads in the app. */
export function notificationPath(r: Pick<NotificationRow, 'greetie_id' | 'voucher_id'>): string {
  if (r.voucher_id) return `/voucher/${r.voucher_id}`;
  if (r.greetie_id) return `/greetie/details/${r.greetie_id}`;
  return '/my/notifications';
}

export type PushOutcome = 'pushed' | 'skipped';

/**
 * Pushes one notification to every device and browser of its user, once (the claim), each in the
 * language it registered with.
 */
export async function pushOne(deps: PushDeps, notificationId: string): Promise<PushOutcome> {
  const row = await claimPush(deps.db, notificationId, deps.services.now());
  if (!row) return 'skipped';
  const textIn = (lang: Lang) => notificationText(row.type, row.params as NotificationParams, lang);
  const data = { notificationId: row.id, type: row.type, greetieId: row.greetie_id, voucherId: row.voucher_id, url: notificationPath(row) };
  const [tokens, subs] = await Promise.all([expoTokensOf(deps.db, row.user_id), webpushOf(deps.db, row.user_id)]);

  // The sandbox outbox shows every push, also for a user with no app registered (as `user:<id>`).
  const targets: { token: string; language: Lang }[] =
    tokens.length === 0 && deps.services.push.name === 'sandbox' ? [{ token: `user:${row.user_id}`, language: 'sv' }] : tokens;
  if (targets.length > 0) {
    try {
      const tickets = await deps.services.push.send(targets.map((to) => ({ to: to.token, userId: row.user_id, ...textIn(to.language), data })));
      const dead = targets.filter((_, i) => {
        const t = tickets[i];
        return t && !t.ok && t.error === 'DeviceNotRegistered';
      });
      await deleteExpoTokens(deps.db, dead.map((d) => d.token));
      const kept = targets.flatMap(({ token }, i) => {
        const t = tickets[i];
        return t?.ok && t.id ? [{ id: t.id, token, notificationId: row.id }] : [];
      });
      await saveTickets(deps.db, kept, deps.services.now());
    } catch (err) {
      // The service could not be reached: this push is lost (sending again later could show it
      // twice if the request did arrive); the notification itself is in the list.
      deps.log?.warn({ err, notificationId: row.id }, 'push to the app failed');
    }
  }
  await Promise.all(
    subs.map(async (s) => {
      const outcome = await deps.services.webpush.send({ endpoint: s.endpoint, keys: { p256dh: s.p256dh, auth: s.auth } }, { ...textIn(s.language), ...data });
      // Gone (404/410) or no longer a push service we post to: the subscription is deleted.
      if (outcome === 'gone' || outcome === 'refused') await deleteWebpush(deps.db, s.endpoint);
      else if (outcome === 'blocked') deps.log?.warn({ notificationId: row.id }, 'web push not sent: the push service resolved to an address that is not public');
      else if (outcome === 'failed') deps.log?.warn({ notificationId: row.id }, 'web push failed');
    }),
  );
  await markPushed(deps.db, row.id, deps.services.now());
  return 'pushed';
}

/** The sweep: claims left by a stopped process closed, and pushes no job took pushed. */
export async function sweepPushes(deps: PushDeps): Promise<{ closed: number; pushed: number }> {
  const now = deps.services.now();
  const closed = await closeStaleSending(deps.db, new Date(now.getTime() - PUSH_LEASE_MS), now);
  let pushed = 0;
  for (const id of await pendingPushes(deps.db, new Date(now.getTime() - PENDING_GRACE_MS))) {
    if ((await pushOne(deps, id)) === 'pushed') pushed++;
  }
  return { closed, pushed };
}

/**
 * Expo's receipts for tickets older than RECEIPT_AFTER_MS: DeviceNotRegistered deletes the token;
 * a ticket with its receipt, or older than a day (Expo no longer keeps it), is done.
 */
export async function checkReceipts(deps: PushDeps, opts: { after?: number } = {}): Promise<{ checked: number; removedTokens: number }> {
  const now = deps.services.now().getTime();
  const due = await ticketsDue(deps.db, new Date(now - (opts.after ?? RECEIPT_AFTER_MS)));
  if (due.length === 0) return { checked: 0, removedTokens: 0 };
  const receipts = await deps.services.push.receipts(due.map((t) => t.id));
  const dead = due.filter((t) => {
    const r = receipts[t.id];
    return r && !r.ok && r.error === 'DeviceNotRegistered';
  });
  await deleteExpoTokens(deps.db, [...new Set(dead.map((t) => t.token))]);
  const done = due.filter((t) => receipts[t.id] || t.created_at.getTime() < now - RECEIPT_KEPT_MS).map((t) => t.id);
  await deleteTickets(deps.db, done);
  return { checked: Object.keys(receipts).length, removedTokens: dead.length };
}
