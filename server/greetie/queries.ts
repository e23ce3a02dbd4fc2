import { sql } from 'kysely';
import type { Db, Tx } from '../db/index.ts';
import type { GreetieStatus } from '../../contract/greetie.ts';

/**
 * Greeties' SQL. The list reads what the caller sent and what was delivered to their number as
 * two keyset-ordered index scans (004_greetie's greetie_sender_created and
 * greetie_recipient_created), merged and cut to one page; tests/server/greetie/indexes.test.ts
 * reads the plans back.
 */

type Executor = Db | Tx;

/** The keyset of the list: created_at to the microsecond (as text, so no precision is lost) and id. */
export interface Keyset {
  at: string;
  id: string;
}

/** created_at as ISO-8601 UTC with microseconds: a JS Date would cut it to milliseconds. */
const exactCreatedAt = sql<string>`to_char(g.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

export interface GreetieRow {
  id: string;
  ref_id: string;
  status: GreetieStatus;
  sender_id: string | null;
  sender_name: string | null;
  recipient_number: string | null;
  recipient_name: string | null;
  message: string;
  content: unknown[];
  total: number;
  deliver_at: Date | null;
  delivered_at: Date | null;
  viewed_at: Date | null;
  cancelled_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

function greetieSelect(db: Executor) {
  return db
    .selectFrom('greetie as g')
    .leftJoin('mobile_user as s', 's.id', 'g.sender_id')
    .select([
      'g.id',
      'g.ref_id',
      'g.status',
      'g.sender_id',
      's.name as sender_name',
      'g.recipient_number',
      'g.recipient_name',
      'g.message',
      'g.content',
      'g.total',
      'g.deliver_at',
      'g.delivered_at',
      'g.viewed_at',
      'g.cancelled_at',
      'g.created_at',
      'g.updated_at',
    ]);
}

export function findGreetie(db: Executor, id: string): Promise<GreetieRow | undefined> {
  return greetieSelect(db).where('g.id', '=', id).executeTakeFirst();
}

/** GET /greetie/byRef: the greetie behind a recipient's link (ref_id is unique). */
export function findGreetieByRef(db: Executor, refId: string): Promise<GreetieRow | undefined> {
  return greetieSelect(db).where('g.ref_id', '=', refId).executeTakeFirst();
}

export function findGreeties(db: Executor, ids: string[]): Promise<GreetieRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return greetieSelect(db).where('g.id', 'in', ids).execute();
}

/** Every greetie of this sender's, newest first (GET /mobileuser/export). */
export function findSentBy(db: Executor, senderId: string): Promise<GreetieRow[]> {
  return greetieSelect(db).where('g.sender_id', '=', senderId).orderBy('g.created_at', 'desc').orderBy('g.id', 'desc').execute();
}

/** Every greetie delivered to this number, newest first (GET /mobileuser/export). */
export function findDeliveredTo(db: Executor, number: string): Promise<GreetieRow[]> {
  return greetieSelect(db)
    .where('g.recipient_number', '=', number)
    .where('g.status', '=', 'delivered')
    .orderBy('g.created_at', 'desc')
    .orderBy('g.id', 'desc')
    .execute();
}

/** The sender's own greetie, locked for a change (PATCH, send, delete); undefined when not theirs. */
export function lockOwnGreetie(tx: Tx, id: string, senderId: string) {
  return tx
    .selectFrom('greetie')
    .select(['id', 'status', 'recipient_number', 'recipient_name', 'deliver_at', 'total'])
    .where('id', '=', id)
    .where('sender_id', '=', senderId)
    .forUpdate()
    .executeTakeFirst();
}

export function callerNumber(db: Executor, userId: string): Promise<string | undefined> {
  return db
    .selectFrom('mobile_user')
    .select('mobile_number')
    .where('id', '=', userId)
    .executeTakeFirst()
    .then((r) => r?.mobile_number);
}

/** The sender's profile name (null: none given yet). */
export function senderName(db: Executor, userId: string): Promise<string | null> {
  return db
    .selectFrom('mobile_user')
    .select('name')
    .where('id', '=', userId)
    .executeTakeFirst()
    .then((r) => r?.name ?? null);
}

export interface NewGreetie {
  refId: string;
  senderId: string;
  recipientNumber: string | null;
  recipientName: string | null;
  message: string;
  content: unknown[];
  deliverAt: Date | null;
  now: Date;
}

export async function insertGreetie(tx: Tx, g: NewGreetie): Promise<string> {
  const row = await tx
    .insertInto('greetie')
    .values({
      ref_id: g.refId,
      sender_id: g.senderId,
      recipient_number: g.recipientNumber,
      recipient_name: g.recipientName,
      message: g.message,
      content: JSON.stringify(g.content),
      deliver_at: g.deliverAt,
      created_at: g.now,
      updated_at: g.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export interface GreetieChanges {
  recipientNumber?: string | null;
  recipientName?: string | null;
  message?: string;
  content?: unknown[];
  deliverAt?: Date | null;
  total?: number;
}

export async function updateGreetie(tx: Tx, id: string, c: GreetieChanges, now: Date): Promise<void> {
  await tx
    .updateTable('greetie')
    .set({
      ...(c.recipientNumber !== undefined ? { recipient_number: c.recipientNumber } : {}),
      ...(c.recipientName !== undefined ? { recipient_name: c.recipientName } : {}),
      ...(c.message !== undefined ? { message: c.message } : {}),
      ...(c.content !== undefined ? { content: JSON.stringify(c.content) } : {}),
      ...(c.deliverAt !== undefined ? { deliver_at: c.deliverAt } : {}),
      ...(c.total !== undefined ? { total: c.total } : {}),
      updated_at: now,
    })
    .where('id', '=', id)
    .execute();
}

export interface GiftRow {
  productId: string;
  amount: number;
}

/** Replaces a greetie's gifts (in the order given) and sets its total, in the caller's transaction. */
export async function replaceGifts(tx: Tx, greetieId: string, gifts: GiftRow[], total: number, now: Date): Promise<void> {
  await tx.deleteFrom('greetie_gift').where('greetie_id', '=', greetieId).execute();
  if (gifts.length > 0) {
    await tx
      .insertInto('greetie_gift')
      .values(gifts.map((g, position) => ({ greetie_id: greetieId, position, product_id: g.productId, amount: g.amount, created_at: now })))
      .execute();
  }
  await tx.updateTable('greetie').set({ total }).where('id', '=', greetieId).execute();
}

/** draft → scheduled, once. */
export async function markScheduled(tx: Tx, id: string, now: Date): Promise<void> {
  await tx.updateTable('greetie').set({ status: 'scheduled', updated_at: now }).where('id', '=', id).where('status', '=', 'draft').execute();
}

/** Marks a delivered greetie viewed, once: a second read keeps the first time. */
export async function markViewed(db: Executor, id: string, now: Date): Promise<void> {
  await db
    .updateTable('greetie')
    .set({ viewed_at: now })
    .where('id', '=', id)
    .where('status', '=', 'delivered')
    .where('viewed_at', 'is', null)
    .execute();
}

/** Deletes the greetie (its gifts and media rows go with it) and answers the storage keys it had. */
export async function deleteGreetie(tx: Tx, id: string): Promise<string[]> {
  const media = await tx.selectFrom('media_file').select('storage_key').where('greetie_id', '=', id).execute();
  await tx.deleteFrom('greetie').where('id', '=', id).execute();
  return media.map((m) => m.storage_key);
}

/** The products a set of gifts names, with what decides their amount; inactive ones are left out. */
export function purchasableProducts(db: Executor, ids: string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('product as p')
    .innerJoin('merchant as m', 'm.id', 'p.merchant_id')
    .select(['p.id', 'p.price', 'p.min_amount', 'p.max_amount'])
    .where('p.id', 'in', ids)
    .where('p.active', '=', true)
    .where('m.active', '=', true)
    .execute();
}

export function giftsOf(db: Executor, greetieIds: string[]) {
  if (greetieIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('greetie_gift as gg')
    .innerJoin('product as p', 'p.id', 'gg.product_id')
    .innerJoin('merchant as m', 'm.id', 'p.merchant_id')
    .select(['gg.greetie_id', 'gg.product_id', 'p.name as product_name', 'm.id as merchant_id', 'm.name as merchant_name', 'p.source', 'gg.amount'])
    .where('gg.greetie_id', 'in', greetieIds)
    .orderBy('gg.greetie_id')
    .orderBy('gg.position')
    .execute();
}

/** The media, thumbnail and overlay rows of greeties, oldest first (the newest of a role wins). */
export function mediaOf(db: Executor, greetieIds: string[]) {
  if (greetieIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('media_file')
    .select(['greetie_id', 'role', 'kind', 'storage_key'])
    .where('greetie_id', 'in', greetieIds)
    .where('role', 'in', ['media', 'thumbnail', 'overlay'])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Which of these storage keys are `picture` files of this greetie. */
export async function pictureKeysOf(db: Executor, greetieId: string, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db
    .selectFrom('media_file')
    .select('storage_key')
    .where('greetie_id', '=', greetieId)
    .where('role', '=', 'picture')
    .where('storage_key', 'in', keys)
    .execute();
  return new Set(rows.map((r) => r.storage_key));
}

export interface ListFilter {
  userId: string;
  /** The caller's number: greeties delivered to it are theirs too. */
  mobileNumber: string;
  after?: Keyset;
  limit: number;
  /**
   * Which of the two: both (GET /greetie, /mobileuser/greeties; a greetie sent to oneself once,
   * as sent), only the sent (/mobileuser/sentgreeties), or only those delivered to the caller's
   * number, sent to oneself included (/mobileuser/receivedgreeties). Default both.
   */
  which?: 'all' | 'sent' | 'received';
}

/**
 * One page of ids, newest first: the caller's sent greeties and those delivered to their number
 * (a greetie sent to oneself counts once, as sent). Each branch is cut to `limit` rows by its own
 * index before the two are merged.
 */
export function greetiePageQuery(db: Executor, f: ListFilter) {
  const after = f.after;
  const before = after ? sql<boolean>`(g.created_at, g.id) < (${after.at}::timestamptz, ${after.id}::uuid)` : sql<boolean>`true`;
  const which = f.which ?? 'all';
  // Literal true/false (not parameters), so the planner drops a branch that is switched off.
  const sentOn = which === 'received' ? sql<boolean>`false` : sql<boolean>`true`;
  const receivedOn = which === 'sent' ? sql<boolean>`false` : sql<boolean>`true`;
  const notOwn = which === 'all' ? sql<boolean>`g.sender_id IS DISTINCT FROM ${f.userId}::uuid` : sql<boolean>`true`;
  return db
    .with('sent', (qb) =>
      qb
        .selectFrom('greetie as g')
        .select(['g.id', 'g.created_at', exactCreatedAt.as('at')])
        .where('g.sender_id', '=', f.userId)
        .where(sentOn)
        .where(before)
        .orderBy('g.created_at', 'desc')
        .orderBy('g.id', 'desc')
        .limit(f.limit),
    )
    .with('received', (qb) =>
      qb
        .selectFrom('greetie as g')
        .select(['g.id', 'g.created_at', exactCreatedAt.as('at')])
        .where('g.recipient_number', '=', f.mobileNumber)
        .where('g.status', '=', 'delivered')
        .where(notOwn)
        .where(receivedOn)
        .where(before)
        .orderBy('g.created_at', 'desc')
        .orderBy('g.id', 'desc')
        .limit(f.limit),
    )
    .selectFrom('sent')
    .select(['sent.id', 'sent.created_at', 'sent.at'])
    .unionAll((eb) => eb.selectFrom('received').select(['received.id', 'received.created_at', 'received.at']))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(f.limit);
}

export function greetiePage(db: Executor, f: ListFilter): Promise<{ id: string; at: string }[]> {
  return greetiePageQuery(db, f).execute();
}

// ---- After delivery (server/greetie/after.ts) ----

/** The sender's greetie locked for a correction or a resend; undefined when not theirs. */
export function lockSentGreetie(tx: Tx, id: string, senderId: string) {
  return tx
    .selectFrom('greetie')
    .select(['id', 'status', 'recipient_number', 'recipient_name', 'deliver_at', 'viewed_at', 'recipient_changes', 'resent_at'])
    .where('id', '=', id)
    .where('sender_id', '=', senderId)
    .forUpdate()
    .executeTakeFirst();
}

/**
 * Whether any of the greetie's vouchers is used, their rows locked (FOR UPDATE reads the latest
 * committed row, waiting for a redeem in flight), so none is used under a correction.
 */
export async function anyVoucherUsed(tx: Tx, greetieId: string): Promise<boolean> {
  const rows = await tx.selectFrom('voucher').select(['id', 'balance', 'amount', 'donated_at']).where('greetie_id', '=', greetieId).orderBy('id').forUpdate().execute();
  return rows.some((r) => r.balance < r.amount || r.donated_at !== null);
}

/**
 * The corrected recipient: a new number (and name), a new reference (the old link opens nothing),
 * scheduled again (a delivered one is delivered anew: its vouchers' validity is counted from that
 * delivery), one more correction, the day's resend free again.
 */
export async function applyCorrection(tx: Tx, id: string, c: { number: string; name: string | null; refId: string; now: Date }): Promise<void> {
  await tx
    .updateTable('greetie')
    .set((eb) => ({
      recipient_number: c.number,
      recipient_name: c.name,
      ref_id: c.refId,
      status: 'scheduled',
      delivered_at: null,
      resent_at: null,
      recipient_changes: eb('recipient_changes', '+', 1),
      updated_at: c.now,
    }))
    .where('id', '=', id)
    .execute();
  await tx.updateTable('voucher').set({ expires_at: null }).where('greetie_id', '=', id).execute();
}

/** The day's resend taken (`at`), or given back (`previous`, only while it is still `at`). */
export async function setResentAt(db: Executor, id: string, value: Date | null, onlyIf?: Date): Promise<void> {
  let q = db.updateTable('greetie').set({ resent_at: value }).where('id', '=', id);
  if (onlyIf) q = q.where('resent_at', '=', onlyIf);
  await q.execute();
}

/** The recipient's thank-you, once: false when the greetie has one already. */
export async function insertThanks(tx: Tx, t: { greetieId: string; message: string; emoji: string | null; now: Date }): Promise<boolean> {
  const r = await tx
    .insertInto('greetie_thanks')
    .values({ greetie_id: t.greetieId, message: t.message, emoji: t.emoji, created_at: t.now })
    .onConflict((oc) => oc.column('greetie_id').doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) === 1;
}

export function thanksOf(db: Executor, greetieIds: string[]) {
  if (greetieIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('greetie_thanks').select(['greetie_id', 'message', 'emoji', 'created_at']).where('greetie_id', 'in', greetieIds).execute();
}
