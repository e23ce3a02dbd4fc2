import { sql } from 'kysely';
import type { Db, Tx } from '../db/index.ts';

/** Every SQL statement of delivery (server/delivery/rules.ts says when each runs). */

type Executor = Db | Tx;

export interface Claimed {
  greetie_id: string;
  attempts: number;
  sending_since: Date;
  recipient_number: string;
  ref_id: string;
  status: string;
  sender_name: string | null;
  /** The SMS fixed at the claim (migration 016); null only on a row claimed before it. */
  sms_to: string | null;
  sms_body: string | null;
  /** Whether the greetie carries a gift (the SMS says so). */
  has_gift: boolean;
}

/**
 * The claim a worker finishes with: its `sending_since`, compared at the millisecond a JavaScript
 * Date holds (PostgreSQL keeps microseconds; our claims are written from a Date, but a row set by
 * hand or by a future writer may not be).
 */
function claimedBy(claimedAt: Date) {
  return sql<boolean>`date_trunc('milliseconds', sending_since) = date_trunc('milliseconds', ${claimedAt}::timestamptz)`;
}

/** The greetie a delivery row is made from (locked by the caller's transaction already). */
export function greetieToSchedule(tx: Tx, greetieId: string) {
  return tx
    .selectFrom('greetie')
    .select(['id', 'sender_id', 'recipient_number', 'deliver_at', 'status'])
    .where('id', '=', greetieId)
    .executeTakeFirst();
}

/** The delivery row of a newly scheduled greetie; false when it has one already. */
export async function insertDelivery(
  tx: Tx,
  row: { greetieId: string; senderId: string | null; recipientNumber: string; dueAt: Date; now: Date },
): Promise<boolean> {
  const result = await tx
    .insertInto('delivery')
    .values({
      greetie_id: row.greetieId,
      sender_id: row.senderId,
      recipient_number: row.recipientNumber,
      due_at: row.dueAt,
      created_at: row.now,
      updated_at: row.now,
    })
    .onConflict((oc) => oc.column('greetie_id').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

/**
 * pending → sending, once: the conditional UPDATE that makes one worker (of any process) the one
 * that calls the SMS provider. Committed (with `storeClaimedSms`) before the call. `dueBy`: only
 * when due by then.
 */
export async function claim(db: Executor, greetieId: string, now: Date, dueBy: Date): Promise<Claimed | undefined> {
  const { rows } = await sql<Claimed>`
    UPDATE delivery d
       SET state = 'sending', sending_since = ${now}, attempts = d.attempts + 1, updated_at = ${now}
      FROM greetie g
      LEFT JOIN mobile_user u ON u.id = g.sender_id
     WHERE d.greetie_id = ${greetieId}
       AND d.state = 'pending'
       AND d.due_at <= ${dueBy}
       AND g.id = d.greetie_id
    RETURNING d.greetie_id, d.attempts, d.sending_since, g.recipient_number, g.ref_id, g.status, u.name AS sender_name, d.sms_to, d.sms_body,
           EXISTS (SELECT 1 FROM greetie_gift gg WHERE gg.greetie_id = g.id) AS has_gift`.execute(db);
  return rows[0];
}

/**
 * The SMS a claim sends, written in the claim's transaction: what the sweep confirms with the
 * provider if the claim's process dies before it finishes (never a text built again).
 */
export async function storeClaimedSms(tx: Tx, greetieId: string, claimedAt: Date, sms: { to: string; body: string }): Promise<void> {
  await tx
    .updateTable('delivery')
    .set({ sms_to: sms.to, sms_body: sms.body })
    .where('greetie_id', '=', greetieId)
    .where('state', '=', 'sending')
    .where(claimedBy(claimedAt))
    .execute();
}

/** The row as it stands (for a claim that found nothing to do). */
export function deliveryRow(db: Executor, greetieId: string) {
  return db.selectFrom('delivery').selectAll().where('greetie_id', '=', greetieId).executeTakeFirst();
}

/** The greetie, then its delivery row, locked: the order every change to both takes. */
export async function lockForFinish(tx: Tx, greetieId: string): Promise<void> {
  await tx.selectFrom('greetie').select('id').where('id', '=', greetieId).forUpdate().executeTakeFirst();
}

/** sending → sent, only under the claim that sent it. */
export async function markSent(tx: Tx, greetieId: string, claimedAt: Date, now: Date): Promise<boolean> {
  const result = await tx
    .updateTable('delivery')
    .set({ state: 'sent', last_error: null, updated_at: now, sms_to: null, sms_body: null })
    .where('greetie_id', '=', greetieId)
    .where('state', '=', 'sending')
    .where(claimedBy(claimedAt))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The greetie delivered, and its vouchers' validity counted from now (the product's validDays). */
export async function markGreetieDelivered(tx: Tx, greetieId: string, deliveredAt: Date, now: Date): Promise<void> {
  await tx
    .updateTable('greetie')
    .set({ status: 'delivered', delivered_at: deliveredAt, updated_at: now })
    .where('id', '=', greetieId)
    .where('status', '=', 'scheduled')
    .execute();
  await sql`
    UPDATE voucher v
       SET expires_at = ${deliveredAt}::timestamptz + make_interval(days => p.valid_days)
      FROM product p
     WHERE v.greetie_id = ${greetieId} AND p.id = v.product_id AND v.expires_at IS NULL`.execute(tx);
}

/** sending → pending again (a failed attempt with attempts left), due at `dueAt`. */
export async function markRetry(tx: Tx, greetieId: string, claimedAt: Date, dueAt: Date, error: string, now: Date): Promise<boolean> {
  const result = await tx
    .updateTable('delivery')
    .set({ state: 'pending', sending_since: null, due_at: dueAt, last_error: error, updated_at: now, sms_to: null, sms_body: null })
    .where('greetie_id', '=', greetieId)
    .where('state', '=', 'sending')
    .where(claimedBy(claimedAt))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** sending → failed (no attempts left), and the greetie deliveryFailed for its sender to see. */
export async function markFailed(tx: Tx, greetieId: string, claimedAt: Date, error: string, now: Date): Promise<boolean> {
  const result = await tx
    .updateTable('delivery')
    .set({ state: 'failed', last_error: error, updated_at: now, sms_to: null, sms_body: null })
    .where('greetie_id', '=', greetieId)
    .where('state', '=', 'sending')
    .where(claimedBy(claimedAt))
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return false;
  await tx
    .updateTable('greetie')
    .set({ status: 'deliveryFailed', updated_at: now })
    .where('id', '=', greetieId)
    .where('status', '=', 'scheduled')
    .execute();
  return true;
}

/** A row left in sending: what the sweep confirms against (the SMS fixed at the claim) and finishes. */
export type StaleSending = Pick<Claimed, 'greetie_id' | 'attempts' | 'sending_since' | 'sms_to' | 'sms_body'>;

/**
 * Rows a worker switched to sending before `before` and never finished (it stopped or crashed).
 * Only the delivery row: the sweep never builds the SMS again, so it needs nothing of the greetie.
 */
export async function staleSending(db: Executor, before: Date, limit = 100): Promise<StaleSending[]> {
  const { rows } = await sql<StaleSending>`
    SELECT d.greetie_id, d.attempts, d.sending_since, d.sms_to, d.sms_body
      FROM delivery d
     WHERE d.state = 'sending' AND d.sending_since < ${before}
     ORDER BY d.sending_since
     LIMIT ${limit}`.execute(db);
  return rows;
}

/** Pending rows that were due before `before` (their job was lost, or its worker died). */
export async function overduePending(db: Executor, before: Date, limit = 100): Promise<string[]> {
  const rows = await db
    .selectFrom('delivery')
    .select('greetie_id')
    .where('state', '=', 'pending')
    .where('due_at', '<', before)
    .orderBy('due_at')
    .limit(limit)
    .execute();
  return rows.map((r) => r.greetie_id);
}

/** Serialises the sending-limit checks of one sender for the rest of the transaction. */
export async function lockSender(tx: Tx, senderId: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext('send-limit'), hashtext(${senderId}))`.execute(tx);
}

/** The sender's deliveries scheduled after `since`, and their corrections of a recipient (each a send to the new number), oldest first. */
export function scheduledSince(tx: Tx, senderId: string, since: Date) {
  return tx
    .selectFrom('delivery')
    .select(['created_at', 'recipient_number'])
    .where('sender_id', '=', senderId)
    .where('created_at', '>', since)
    .unionAll((eb) =>
      eb.selectFrom('recipient_change').select(['created_at', 'recipient_number']).where('sender_id', '=', senderId).where('created_at', '>', since),
    )
    .orderBy('created_at')
    .execute();
}

/** The sender's other greeties waiting for their payment (each may become scheduled any moment). */
export function awaitingPayment(tx: Tx, senderId: string, exceptId: string) {
  return tx
    .selectFrom('greetie')
    .select(['recipient_number'])
    .where('sender_id', '=', senderId)
    .where('status', '=', 'awaitingPayment')
    .where('id', '<>', exceptId)
    .execute();
}
