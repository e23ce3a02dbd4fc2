import type { Tx } from '../db/index.ts';
import { HttpError } from '../errors.ts';
import type { Deps } from '../services.ts';
import { SmsError } from '../providers/sms/index.ts';
import { deliverySms } from './messages.ts';
import { checkSendLimits } from './rules.ts';
import { insertRecipientChange, renewDelivery, smsFacts } from './afterQueries.ts';

/**
 * What delivery does for a greetie already on its way or delivered (API.md "After delivery";
 * decision 088): a corrected recipient is a new delivery, and a resend sends the same link again.
 */

type LimitDeps = Pick<Deps, 'config'> & { services: Pick<Deps['services'], 'now'> };
type QueueDeps = { services: Pick<Deps['services'], 'now' | 'delivery'> };

/**
 * A correction counts as a send to the new number: the sending limits (429 with Retry-After) are
 * checked, under the sender's lock, and the send recorded, in the correcting transaction.
 */
export async function countCorrection(tx: Tx, deps: LimitDeps, c: { greetieId: string; senderId: string; recipientNumber: string }): Promise<void> {
  await checkSendLimits(tx, deps, c);
  await insertRecipientChange(tx, { ...c, now: deps.services.now() });
}

/**
 * In the correcting transaction (the greetie locked, made scheduled with its new number and
 * reference): its delivery starts again, due at `dueAt`, with its job. A claim in flight for the
 * old number loses its row: it cannot mark the greetie delivered any more, and the SMS it may have
 * sent carries the old reference, which no longer opens anything.
 */
export async function restartDelivery(tx: Tx, deps: QueueDeps, greetieId: string, dueAt: Date): Promise<void> {
  const now = deps.services.now();
  if (!(await renewDelivery(tx, greetieId, dueAt, now))) throw new Error(`greetie ${greetieId} has no delivery row to restart`);
  await deps.services.delivery.enqueue(tx, greetieId, dueAt);
}

/**
 * POST /resend: the same SMS as the delivery's (the same link) to the same number, now. 503
 * SMS_UNAVAILABLE / 502 SMS_REJECTED when the gateway does not take it (the caller gives the
 * day's resend back).
 */
export async function sendLinkAgain(deps: Pick<Deps, 'db' | 'config'> & { services: Pick<Deps['services'], 'sms'> }, greetieId: string): Promise<void> {
  const f = await smsFacts(deps.db, greetieId);
  if (!f?.recipient_number) throw new HttpError(404, 'GREETIE_NOT_FOUND');
  const body = deliverySms({ senderName: f.sender_name, hasGift: f.has_gift, publicUrl: deps.config.publicUrl, refId: f.ref_id });
  try {
    await deps.services.sms.send({ to: f.recipient_number, body });
  } catch (err) {
    if (err instanceof SmsError) throw err.kind === 'rejected' ? new HttpError(502, 'SMS_REJECTED') : new HttpError(503, 'SMS_UNAVAILABLE');
    throw err;
  }
}
