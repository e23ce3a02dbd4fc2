import type { Greetie, RecipientCorrection, ThanksInput } from '../../contract/greetie.ts';
import { transaction } from '../db/index.ts';
import { HttpError, badRequest, conflict, notFound } from '../errors.ts';
import type { Deps } from '../services.ts';
import { countCorrection, restartDelivery, sendLinkAgain } from '../delivery/after.ts';
import { waitText } from '../delivery/messages.ts';
import { forgetOldRecipient, notify } from '../notification/rules.ts';
import { anyVoucherUsed, applyCorrection, findGreetie, insertThanks, lockSentGreetie, markViewed, setResentAt } from './queries.ts';
import { checkText, greetieById, isEmoji, newRefId, readable, recipientOf, toGreeties, urlsFor } from './rules.ts';

/**
 * After delivery (API.md "After delivery: the sender keeps the gift from getting lost", "The
 * recipient answers"; decision 088): the sender corrects the recipient or sends the link again
 * while it is not opened; the recipient thanks the sender once.
 */

type AfterDeps = Pick<Deps, 'db' | 'config'> & { services: Pick<Deps['services'], 'now' | 'delivery' | 'sms' | 'notifications'> };

/** Corrections of one greetie's recipient. */
export const RECIPIENT_CHANGES_MAX = 3;
/** One resend per greetie in this long. */
export const RESEND_EVERY_MS = 24 * 60 * 60_000;

const field = (f: string, problem: string) => [{ field: `body.${f}`, problem }];

/**
 * POST /greetie/{id}/recipient: the sender's greetie, scheduled or delivered, not opened and no
 * voucher used, goes to another number. All of it in one transaction under the greetie's lock:
 * the checks, the sending limits (a correction is a send to the new number), a new reference, the
 * greetie scheduled again and its delivery restarted (due at once when it was delivered, else at
 * its time). The delivery's claim takes the greetie's lock first, so a claim for the old number
 * either finished before (the greetie was delivered, and is now corrected) or finds its row taken.
 */
export async function correctRecipient(deps: AfterDeps, userId: string, id: string, body: RecipientCorrection): Promise<Greetie> {
  const input = recipientOf(body);
  const now = deps.services.now();
  return transaction(deps.db, async (tx) => {
    const g = await lockSentGreetie(tx, id, userId);
    if (!g) throw notFound('GREETIE_NOT_FOUND');
    if (g.status !== 'scheduled' && g.status !== 'delivered') throw conflict('RECIPIENT_CHANGE_NOT_ALLOWED');
    if (g.viewed_at !== null || (await anyVoucherUsed(tx, id))) throw conflict('GREETIE_ALREADY_OPENED');
    if (input.number === g.recipient_number) throw badRequest('RECIPIENT_UNCHANGED', {}, field('mobileNumber', 'unchanged'));
    if (g.recipient_changes >= RECIPIENT_CHANGES_MAX) throw new HttpError(409, 'RECIPIENT_CHANGE_LIMIT', { max: RECIPIENT_CHANGES_MAX });
    await countCorrection(tx, deps, { greetieId: id, senderId: userId, recipientNumber: input.number });
    // A name left out keeps the one given; null or blank clears it.
    const name = body.name === undefined ? g.recipient_name : input.name;
    await applyCorrection(tx, id, { number: input.number, name, refId: newRefId(), now });
    // The old recipient's notifications of it would lead to a greetie no longer theirs (404).
    if (g.recipient_number) await forgetOldRecipient(tx, id, g.recipient_number);
    const dueAt = g.status === 'scheduled' && g.deliver_at && g.deliver_at.getTime() > now.getTime() ? g.deliver_at : now;
    await restartDelivery(tx, deps, id, dueAt);
    return greetieById(tx, id, urlsFor(deps));
  });
}

/**
 * POST /greetie/{id}/resend: the same link to the same number, for a delivered greetie not yet
 * opened; once a day (429 RESEND_LIMIT with Retry-After). The day's resend is taken before the SMS
 * goes, under the greetie's lock, so two at once send one; a gateway that does not take it gives
 * it back. Not counted toward the sending limits (the same greetie to the same number).
 */
export async function resendGreetie(deps: AfterDeps, userId: string, id: string): Promise<Greetie> {
  const now = deps.services.now();
  const previous = await transaction(deps.db, async (tx) => {
    const g = await lockSentGreetie(tx, id, userId);
    if (!g) throw notFound('GREETIE_NOT_FOUND');
    if (g.status !== 'delivered') throw conflict('RESEND_NOT_ALLOWED');
    if (g.viewed_at !== null) throw conflict('GREETIE_ALREADY_OPENED');
    if (g.resent_at && now.getTime() - g.resent_at.getTime() < RESEND_EVERY_MS) {
      const seconds = Math.max(1, Math.ceil((g.resent_at.getTime() + RESEND_EVERY_MS - now.getTime()) / 1000));
      const wait = waitText(seconds);
      throw new HttpError(429, 'RESEND_LIMIT', { retryAfter: seconds, waitSv: wait.sv, waitEn: wait.en }, undefined, { 'retry-after': String(seconds) });
    }
    await setResentAt(tx, id, now);
    return g.resent_at;
  });
  try {
    await sendLinkAgain(deps, id);
  } catch (err) {
    await setResentAt(deps.db, id, previous, now);
    throw err;
  }
  return greetieById(deps.db, id, urlsFor(deps));
}

/**
 * POST /greetie/{id}/thanks: the recipient of a delivered greetie thanks its sender, once (the
 * row's primary key: of two at once, one is saved and the other is 409 THANKS_ALREADY_SENT). It
 * counts as opening it. The sender is notified (type `thanks`, with its push) in the same
 * transaction; not for a greetie sent to oneself.
 */
export async function sendThanks(deps: AfterDeps, userId: string, id: string, body: ThanksInput): Promise<Greetie> {
  const message = body.message.trim();
  if (message.length === 0) throw badRequest('THANKS_MESSAGE_EMPTY', {}, field('message', 'empty'));
  checkText(message, 'message');
  const emoji = body.emoji ? body.emoji.trim() : null;
  if (emoji !== null && !isEmoji(emoji)) throw badRequest('THANKS_EMOJI_INVALID', {}, field('emoji', 'emoji'));
  const { isRecipient, number } = await readable(deps, userId, id);
  if (!isRecipient) throw notFound('GREETIE_NOT_FOUND');
  const now = deps.services.now();
  await transaction(deps.db, async (tx) => {
    const g = await findGreetie(tx, id);
    // Corrected meanwhile (to another number): no longer theirs.
    if (!g || g.status !== 'delivered' || g.recipient_number !== number) throw notFound('GREETIE_NOT_FOUND');
    if (!(await insertThanks(tx, { greetieId: id, message, emoji, now }))) throw conflict('THANKS_ALREADY_SENT');
    await markViewed(tx, id, now);
    if (g.sender_id && g.sender_id !== userId) {
      await notify(tx, deps, { userId: g.sender_id, type: 'thanks', greetieId: id, params: { recipientName: g.recipient_name, message, emoji }, key: `thanks:${id}` });
    }
  });
  const row = await findGreetie(deps.db, id);
  if (!row) throw notFound('GREETIE_NOT_FOUND');
  return (await toGreeties(deps.db, [row], urlsFor(deps), number))[0]!;
}
