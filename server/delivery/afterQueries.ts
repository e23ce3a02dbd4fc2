import { sql } from 'kysely';
import type { Db, Tx } from '../db/index.ts';
import type { IsoDuration } from '../config.ts';

/** The SQL of what follows a delivery: a correction's new delivery, resends and reminders (server/delivery/after.ts, reminders.ts). */

type Executor = Db | Tx;

/** An ISO-8601 duration as a PostgreSQL interval (calendar-aware: a month is a month). */
export function interval(d: IsoDuration) {
  const p = d.parts;
  return sql`make_interval(years => ${p.years}, months => ${p.months}, weeks => ${p.weeks}, days => ${p.days}, hours => ${p.hours}, mins => ${p.minutes}, secs => ${p.seconds})`;
}

/**
 * The delivery row made new for a corrected recipient: pending, due at `dueAt`, no attempts, no
 * claim. A claim in flight (sending) loses its row: its finish is conditional on its claim time,
 * so it can no longer mark the greetie delivered. The row keeps its first number and creation
 * time: it is the first send for the sending limits (the correction is counted on its own).
 */
export async function renewDelivery(tx: Tx, greetieId: string, dueAt: Date, now: Date): Promise<boolean> {
  const r = await tx
    .updateTable('delivery')
    .set({ state: 'pending', due_at: dueAt, attempts: 0, sending_since: null, last_error: null, sms_to: null, sms_body: null, updated_at: now })
    .where('greetie_id', '=', greetieId)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** A correction, counted as a send to the new number. */
export async function insertRecipientChange(tx: Tx, row: { greetieId: string; senderId: string; recipientNumber: string; now: Date }): Promise<void> {
  await tx
    .insertInto('recipient_change')
    .values({ greetie_id: row.greetieId, sender_id: row.senderId, recipient_number: row.recipientNumber, created_at: row.now })
    .execute();
}

/** Corrections older than the limits' window are of no more use (the greetie keeps the count). */
export async function forgetOldChanges(db: Executor, before: Date): Promise<void> {
  await db.deleteFrom('recipient_change').where('created_at', '<', before).execute();
}

/** What the link's SMS says of a greetie: its number, reference, sender's name and whether it has a gift. */
export async function smsFacts(db: Executor, greetieId: string) {
  const { rows } = await sql<{ recipient_number: string | null; ref_id: string; sender_name: string | null; has_gift: boolean }>`
    SELECT g.recipient_number, g.ref_id, u.name AS sender_name,
           EXISTS (SELECT 1 FROM greetie_gift gg WHERE gg.greetie_id = g.id) AS has_gift
      FROM greetie g LEFT JOIN mobile_user u ON u.id = g.sender_id
     WHERE g.id = ${greetieId}`.execute(db);
  return rows[0];
}

/**
 * Delivered, unopened greeties whose reminder `step` (after `after`) is due by `now` and at most
 * `lateMs` late, and that have no reminder of `steps` (this one or a later one) for this delivery.
 */
export async function dueReminders(db: Executor, q: { after: IsoDuration; steps: string[]; now: Date; lateMs: number; limit: number }) {
  const { rows } = await sql<{ id: string; delivered_at: Date }>`
    SELECT g.id, g.delivered_at
      FROM greetie g
     WHERE g.status = 'delivered' AND g.viewed_at IS NULL
       AND g.delivered_at <= ${q.now}::timestamptz - ${interval(q.after)}
       AND g.delivered_at > ${q.now}::timestamptz - ${interval(q.after)} - make_interval(secs => ${q.lateMs / 1000})
       AND NOT EXISTS (SELECT 1 FROM greetie_reminder r
                        WHERE r.greetie_id = g.id AND r.delivered_at = g.delivered_at AND r.step = ANY (${q.steps}::text[]))
     ORDER BY g.delivered_at
     LIMIT ${q.limit}`.execute(db);
  return rows;
}

/**
 * The claim of one reminder: its row, made only while the greetie is still delivered (at that
 * delivery), unopened and has a recipient. True for the one caller (of any process) that made it.
 */
export async function claimReminder(tx: Tx, r: { greetieId: string; deliveredAt: Date; step: string; now: Date }): Promise<boolean> {
  const { rows } = await sql`
    INSERT INTO greetie_reminder (greetie_id, delivered_at, step, created_at)
    SELECT g.id, g.delivered_at, ${r.step}, ${r.now}
      FROM greetie g
     WHERE g.id = ${r.greetieId} AND g.delivered_at = ${r.deliveredAt} AND g.status = 'delivered'
       AND g.viewed_at IS NULL AND g.recipient_number IS NOT NULL
    ON CONFLICT DO NOTHING
    RETURNING greetie_id`.execute(tx);
  return rows.length === 1;
}

/** Gives a claimed reminder back (its SMS was not taken): a later sweep tries again. */
export async function releaseReminder(db: Executor, r: { greetieId: string; deliveredAt: Date; step: string }): Promise<void> {
  await db
    .deleteFrom('greetie_reminder')
    .where('greetie_id', '=', r.greetieId)
    .where('delivered_at', '=', r.deliveredAt)
    .where('step', '=', r.step)
    .execute();
}

/** The greetie's sender and recipient name (the sender's notice names them). */
export function noticeFacts(db: Executor, greetieId: string) {
  return db.selectFrom('greetie').select(['sender_id', 'recipient_name']).where('id', '=', greetieId).executeTakeFirst();
}
