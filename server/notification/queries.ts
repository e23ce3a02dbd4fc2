import { sql } from 'kysely';
import type { Db, Tx } from '../db/index.ts';
import type { Lang } from '../i18n/index.ts';

type Executor = Db | Tx;

export interface NotificationRow {
  id: string;
  user_id: string;
  type: string;
  greetie_id: string | null;
  voucher_id: string | null;
  params: Record<string, unknown>;
  read_at: Date | null;
  created_at: Date;
  /** created_at to the microsecond, for the keyset cursor. */
  at: string;
}

const exactCreatedAt = sql<string>`to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** Adds a notification once per `dedupeKey`; its id when added now, undefined when it was there. */
export async function insertNotification(
  tx: Executor,
  n: { userId: string; type: string; greetieId?: string | null; voucherId?: string | null; params: Record<string, unknown>; dedupeKey: string; at: Date },
): Promise<string | undefined> {
  const row = await tx
    .insertInto('notification')
    .values({
      user_id: n.userId,
      type: n.type,
      greetie_id: n.greetieId ?? null,
      voucher_id: n.voucherId ?? null,
      params: JSON.stringify(n.params),
      dedupe_key: n.dedupeKey,
      created_at: n.at,
    })
    .onConflict((oc) => oc.column('dedupe_key').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

export async function notificationPage(db: Executor, userId: string, after: { at: string; id: string } | undefined, limit: number): Promise<NotificationRow[]> {
  let q = db
    .selectFrom('notification')
    .select(['id', 'user_id', 'type', 'greetie_id', 'voucher_id', 'params', 'read_at', 'created_at', exactCreatedAt.as('at')])
    .where('user_id', '=', userId);
  if (after) q = q.where(sql<boolean>`(created_at, id) < (${after.at}::timestamptz, ${after.id}::uuid)`);
  return q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

export async function unreadCount(db: Executor, userId: string): Promise<number> {
  const row = await db.selectFrom('notification').select((eb) => eb.fn.countAll<string>().as('n')).where('user_id', '=', userId).where('read_at', 'is', null).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Marks the user's unread notifications read: those of `ids` (others' ids are passed over), or all. */
export async function markRead(db: Executor, userId: string, ids: string[] | undefined, now: Date): Promise<void> {
  let q = db.updateTable('notification').set({ read_at: now }).where('user_id', '=', userId).where('read_at', 'is', null);
  if (ids) q = q.where('id', 'in', ids);
  await q.execute();
}

/**
 * A payment for the greetie went through: the user's unread "the payment did not go through"
 * notices of it are settled, so they no longer ask to try again. Answers how many.
 */
export async function resolvePaymentFailed(db: Executor, userId: string, greetieId: string, now: Date): Promise<number> {
  const r = await db
    .updateTable('notification')
    .set({ read_at: now })
    .where('user_id', '=', userId)
    .where('greetie_id', '=', greetieId)
    .where('type', '=', 'paymentFailed')
    .where('read_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** The push's claim: pending (or sending past its lease) → sending, committed before any send. */
export async function claimPush(db: Executor, id: string, now: Date): Promise<NotificationRow | undefined> {
  return db
    .updateTable('notification')
    .set({ push_state: 'sending', push_since: now })
    .where('id', '=', id)
    .where('push_state', '=', 'pending')
    .returning(['id', 'user_id', 'type', 'greetie_id', 'voucher_id', 'params', 'read_at', 'created_at', exactCreatedAt.as('at')])
    .executeTakeFirst();
}

export async function markPushed(db: Executor, id: string, now: Date): Promise<void> {
  await db.updateTable('notification').set({ push_state: 'sent', push_since: now }).where('id', '=', id).execute();
}

/** Notifications whose push no job has taken (added by a trigger, or the job was lost). */
export async function pendingPushes(db: Executor, before: Date): Promise<string[]> {
  const rows = await db.selectFrom('notification').select('id').where('push_state', '=', 'pending').where('created_at', '<', before).orderBy('created_at').limit(200).execute();
  return rows.map((r) => r.id);
}

/**
 * Pushes left in sending past their lease (the process stopped mid-send): taken as sent. The
 * provider was called or about to be; pushing again could show the user the same thing twice.
 */
export async function closeStaleSending(db: Executor, before: Date, now: Date): Promise<number> {
  const r = await db.updateTable('notification').set({ push_state: 'sent', push_since: now }).where('push_state', '=', 'sending').where('push_since', '<', before).executeTakeFirst();
  return Number(r.numUpdatedRows);
}

export async function expoTokensOf(db: Executor, userId: string): Promise<{ token: string; language: Lang }[]> {
  return db.selectFrom('expo_push_token').select(['token', 'language']).where('user_id', '=', userId).orderBy('updated_at').execute();
}

export async function webpushOf(db: Executor, userId: string) {
  return db.selectFrom('webpush_subscription').select(['endpoint', 'p256dh', 'auth', 'language']).where('user_id', '=', userId).execute();
}

/** A device's token for `userId`: the device's earlier token goes, and the token leaves whoever had it. */
export async function saveExpoToken(tx: Tx, userId: string, deviceId: string, token: string, language: Lang, now: Date): Promise<void> {
  await tx.deleteFrom('expo_push_token').where('user_id', '=', userId).where('device_id', '=', deviceId).where('token', '<>', token).execute();
  await tx
    .insertInto('expo_push_token')
    .values({ token, user_id: userId, device_id: deviceId, language, updated_at: now })
    .onConflict((oc) => oc.column('token').doUpdateSet({ user_id: userId, device_id: deviceId, language, updated_at: now }))
    .execute();
}

export async function deleteExpoTokenOfDevice(db: Executor, userId: string, deviceId: string): Promise<void> {
  await db.deleteFrom('expo_push_token').where('user_id', '=', userId).where('device_id', '=', deviceId).execute();
}

export async function deleteExpoTokens(db: Executor, tokens: string[]): Promise<void> {
  if (tokens.length) await db.deleteFrom('expo_push_token').where('token', 'in', tokens).execute();
}

export async function saveTickets(db: Executor, rows: { id: string; token: string; notificationId: string }[], now: Date): Promise<void> {
  if (rows.length) {
    await db
      .insertInto('expo_push_ticket')
      .values(rows.map((r) => ({ id: r.id, token: r.token, notification_id: r.notificationId, created_at: now })))
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
  }
}

export async function ticketsDue(db: Executor, before: Date): Promise<{ id: string; token: string; created_at: Date }[]> {
  return db.selectFrom('expo_push_ticket').select(['id', 'token', 'created_at']).where('created_at', '<', before).orderBy('created_at').limit(1000).execute();
}

export async function deleteTickets(db: Executor, ids: string[]): Promise<void> {
  if (ids.length) await db.deleteFrom('expo_push_ticket').where('id', 'in', ids).execute();
}

export async function saveWebpush(db: Executor, userId: string, sub: { endpoint: string; p256dh: string; auth: string }, language: Lang, now: Date): Promise<void> {
  await db
    .insertInto('webpush_subscription')
    .values({ endpoint: sub.endpoint, user_id: userId, p256dh: sub.p256dh, auth: sub.auth, language, created_at: now })
    .onConflict((oc) => oc.column('endpoint').doUpdateSet({ user_id: userId, p256dh: sub.p256dh, auth: sub.auth, language, created_at: now }))
    .execute();
}

export async function deleteWebpush(db: Executor, endpoint: string, userId?: string): Promise<void> {
  let q = db.deleteFrom('webpush_subscription').where('endpoint', '=', endpoint);
  if (userId) q = q.where('user_id', '=', userId);
  await q.execute();
}

/** What a delivered greetie's notifications name: its sender, its recipient (a user, if one has the number), names. */
export async function deliveredFacts(tx: Executor, greetieId: string) {
  return tx
    .selectFrom('greetie as g')
    .leftJoin('mobile_user as s', 's.id', 'g.sender_id')
    .leftJoin('mobile_user as r', 'r.mobile_number', 'g.recipient_number')
    .select(['g.id', 'g.sender_id', 'g.recipient_name', 's.name as sender_name', 's.mobile_number as sender_number', 'g.recipient_number', 'r.id as recipient_id', 'g.recipient_changes'])
    .where('g.id', '=', greetieId)
    .executeTakeFirst();
}

/** The greetie's vouchers with an expiry (set at delivery). */
export async function expiringVouchers(tx: Executor, greetieId: string): Promise<{ id: string; expires_at: Date }[]> {
  const rows = await tx.selectFrom('voucher').select(['id', 'expires_at']).where('greetie_id', '=', greetieId).where('expires_at', 'is not', null).execute();
  return rows.map((r) => ({ id: r.id, expires_at: r.expires_at! }));
}

/** A voucher still worth a reminder: not redeemed, not expired, and its owner (a user) and names. */
export async function voucherForReminder(db: Executor, voucherId: string) {
  return db
    .selectFrom('voucher as v')
    .innerJoin('greetie as g', 'g.id', 'v.greetie_id')
    .innerJoin('mobile_user as u', 'u.mobile_number', 'g.recipient_number')
    .innerJoin('merchant as m', 'm.id', 'v.merchant_id')
    .innerJoin('product as p', 'p.id', 'v.product_id')
    .select(['v.id', 'v.greetie_id', 'v.redeemed_at', 'v.expires_at', 'g.recipient_changes', 'u.id as user_id', 'm.name as merchant_name', 'p.name as product_name'])
    .where('v.id', '=', voucherId)
    .where('v.donated_at', 'is', null)
    .where('g.status', '=', 'delivered')
    .executeTakeFirst();
}

/**
 * A corrected greetie's notifications that the old recipient got as its recipient (it arrived, a
 * voucher expires): deleted, as the greetie is no longer theirs to open. Only that user's, only
 * those types: a sender who had sent it to themselves keeps the sender's own.
 */
export async function deleteRecipientNotifications(tx: Executor, greetieId: string, recipientNumber: string): Promise<number> {
  const result = await tx
    .deleteFrom('notification')
    .where('greetie_id', '=', greetieId)
    .where('type', 'in', ['greetieReceived', 'voucherExpiring'])
    .where('user_id', 'in', (eb) => eb.selectFrom('mobile_user').select('id').where('mobile_number', '=', recipientNumber))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
