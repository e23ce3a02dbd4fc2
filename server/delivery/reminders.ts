import type { FastifyBaseLogger } from 'fastify';
import { transaction } from '../db/index.ts';
import type { Deps } from '../services.ts';
import { SmsError } from '../providers/sms/index.ts';
import { notify } from '../notification/rules.ts';
import { reminderSms } from './messages.ts';
import { claimReminder, dueReminders, forgetOldChanges, noticeFacts, releaseReminder, smsFacts } from './afterQueries.ts';
import type { IsoDuration } from '../config.ts';

/**
 * Reminders of a delivered greetie nobody has opened (API.md "After delivery"; decision 089):
 * an SMS to the recipient at each period of UNOPENED_REMINDERS after delivery (naming the sender,
 * with the same link), and a notification to the sender (type `unopened`) at UNOPENED_NOTICE.
 *
 * - Run by the delivery sweep (server/delivery/queue.ts, every DELIVERY_RECONCILE_MS in every
 *   process with a worker). A reminder is due at its time and is made up to REMINDER_LATE_MS
 *   later (a sweep that did not run for a while); one older than that is skipped, so a server
 *   that was down, or greeties delivered before this existed, do not set off a burst of stale SMS.
 * - Once per greetie and delivery whatever the number of processes: a reminder's row in
 *   `greetie_reminder` (primary key greetie, delivered_at, step) is its claim, inserted only while
 *   the greetie is still delivered at that time, unopened and has a recipient. The notice is made
 *   in the claim's transaction (exactly once); the SMS is sent after the claim commits (at most
 *   once: a process that dies between the two loses that one reminder; a gateway that refuses it
 *   gives the claim back for the next sweep).
 * - A correction is a new delivery (a new `delivered_at`): its clocks start again. Opened
 *   (viewed) or no longer delivered (cancelled, corrected and on its way): no reminder. Reminders
 *   are not sends: they are not counted toward the sending limits.
 * - When a later reminder is due, an earlier one not made is never made afterwards.
 */

export type ReminderDeps = Pick<Deps, 'db' | 'config'> & {
  services: Pick<Deps['services'], 'now' | 'sms' | 'notifications'>;
  log?: FastifyBaseLogger;
};

/** A reminder this late is skipped. */
export const REMINDER_LATE_MS = 24 * 60 * 60_000;
/** Greeties looked at per step and sweep (the next sweep takes the rest). */
const BATCH = 200;
/** Corrections are kept this long: the sending limits look back a day. */
const CHANGES_KEPT_MS = 2 * 24 * 60 * 60_000;

const smsStep = (d: IsoDuration) => `sms:${d.iso}`;
const noticeStep = (d: IsoDuration) => `notice:${d.iso}`;

/** One sweep of reminders; answers how many SMS and notices were made. */
export async function remindUnopened(deps: ReminderDeps): Promise<{ sms: number; notices: number }> {
  const now = deps.services.now();
  const { unopenedReminders: reminders, unopenedNotice: notice } = deps.config.delivery;
  let sms = 0;
  let notices = 0;
  // The latest step first: a greetie due for a later reminder never gets an earlier one after it.
  for (let i = reminders.length - 1; i >= 0; i--) {
    const steps = reminders.slice(i).map(smsStep);
    for (const g of await dueReminders(deps.db, { after: reminders[i]!, steps, now, lateMs: REMINDER_LATE_MS, limit: BATCH })) {
      if (await remindRecipient(deps, g.id, g.delivered_at, steps[0]!)) sms++;
    }
  }
  if (notice) {
    const step = noticeStep(notice);
    for (const g of await dueReminders(deps.db, { after: notice, steps: [step], now, lateMs: REMINDER_LATE_MS, limit: BATCH })) {
      if (await noticeSender(deps, g.id, g.delivered_at, step)) notices++;
    }
  }
  await forgetOldChanges(deps.db, new Date(now.getTime() - CHANGES_KEPT_MS));
  return { sms, notices };
}

/** Claims the recipient's reminder, then sends it; true when this call sent it. */
async function remindRecipient(deps: ReminderDeps, greetieId: string, deliveredAt: Date, step: string): Promise<boolean> {
  const claim = { greetieId, deliveredAt, step, now: deps.services.now() };
  const message = await transaction(deps.db, async (tx) => {
    if (!(await claimReminder(tx, claim))) return undefined;
    const f = await smsFacts(tx, greetieId);
    if (!f?.recipient_number) return undefined;
    return { to: f.recipient_number, body: reminderSms({ senderName: f.sender_name, hasGift: f.has_gift, publicUrl: deps.config.publicUrl, refId: f.ref_id }) };
  });
  if (!message) return false;
  try {
    await deps.services.sms.send(message);
    return true;
  } catch (err) {
    deps.log?.warn({ err: err instanceof SmsError ? { kind: err.kind, status: err.status } : err, greetieId, step }, 'unopened reminder SMS not sent; a later sweep tries again');
    if (err instanceof SmsError) await releaseReminder(deps.db, claim);
    return false;
  }
}

/** The sender's notice, made in its claim's transaction; true when this call made it. */
async function noticeSender(deps: ReminderDeps, greetieId: string, deliveredAt: Date, step: string): Promise<boolean> {
  return transaction(deps.db, async (tx) => {
    if (!(await claimReminder(tx, { greetieId, deliveredAt, step, now: deps.services.now() }))) return false;
    const g = await noticeFacts(tx, greetieId);
    if (!g?.sender_id) return true;
    await notify(tx, deps, {
      userId: g.sender_id,
      type: 'unopened',
      greetieId,
      params: { recipientName: g.recipient_name },
      key: `unopened:${greetieId}:${deliveredAt.toISOString()}`,
    });
    return true;
  });
}
