import { checkName } from '../../contract/name.ts';
import type { Catalogue } from '../i18n/index.ts';

/**
 * The delivery SMS and the sending limits' error messages (server/delivery).
 *
 * The SMS is in Swedish: the recipient has no language setting yet, and the product is Swedish
 * first. The link is the only thing that opens the greetie; its refId is 128 random bits
 * (server/greetie/rules.ts newRefId), so the link cannot be guessed.
 *
 * It names the sender and says whether a gift is inside (API.md "Greetie"):
 * "Anna Lind har skickat en greetie med en present till dig. Öppna: …". The sender's name is the
 * only text in it the sender chose; it stands as the subject of Greetie's own sentence, passed the
 * name rule (contract/name.ts: no link, domain name, phone number or invisible character) when it
 * was saved, and is checked again here, so a name saved before the rule cannot carry a link into
 * the SMS: such a name, like a removed account's, reads "Någon" (decision 096).
 */
export function deliverySms(input: { senderName: string | null; hasGift: boolean; publicUrl: string; refId: string }): string {
  const link = `${input.publicUrl.replace(/\/+$/, '')}/greetie/view/${encodeURIComponent(input.refId)}`;
  const checked = input.senderName === null ? null : checkName(input.senderName);
  const who = checked?.ok ? checked.name.replace(/\s+/gu, ' ') : 'Någon';
  return `${who} har skickat en greetie${input.hasGift ? ' med en present' : ''} till dig. Öppna: ${link}`;
}

/**
 * The reminder to a recipient who has not opened it (UNOPENED_REMINDERS): the delivery SMS with
 * the same link, said as a reminder: "Påminnelse: Anna Lind har skickat en greetie med en present
 * till dig. Öppna: …".
 */
export function reminderSms(input: { senderName: string | null; hasGift: boolean; publicUrl: string; refId: string }): string {
  return `Påminnelse: ${deliverySms(input)}`;
}

/** A wait as people say it: "12 minuter", "3 timmar" (rounded up; at least one minute). */
export function waitText(seconds: number): { sv: string; en: string } {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  if (minutes < 60) {
    return { sv: minutes === 1 ? '1 minut' : `${minutes} minuter`, en: minutes === 1 ? '1 minute' : `${minutes} minutes` };
  }
  const hours = Math.ceil(minutes / 60);
  return { sv: hours === 1 ? '1 timme' : `${hours} timmar`, en: hours === 1 ? '1 hour' : `${hours} hours` };
}

export const messages = {
  SEND_LIMIT_PER_DAY: {
    sv: 'Du har skickat {limit} greeties det senaste dygnet, och fler än så går inte. Du kan skicka nästa om {waitSv}.',
    en: 'You have sent {limit} greeties in the last 24 hours, which is as many as you can. You can send the next one in {waitEn}.',
  },
  SEND_LIMIT_PER_RECIPIENT: {
    sv: 'Du har skickat {limit} greeties till det här numret det senaste dygnet, och fler än så går inte. Du kan skicka nästa dit om {waitSv}.',
    en: 'You have sent {limit} greeties to this number in the last 24 hours, which is as many as you can. You can send the next one to it in {waitEn}.',
  },
} satisfies Catalogue;
