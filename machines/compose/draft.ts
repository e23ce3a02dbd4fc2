import type { ContentElement, Greetie, GreetieGift, GreetieMedia, GreetieUpdate } from '../../contract/greetie.ts';
import type { Product } from '../../contract/merchant.ts';
import { checkName, checkOptionalName, type NameProblem } from '../../contract/name.ts';

/**
 * The draft compose edits, and its mapping to and from the server's greetie (GET and PATCH
 * /greetie/{id}). Plain functions: the machine (machines/compose.ts) and the pages both use them.
 */

export const STEPS = ['media', 'content', 'gifts', 'recipient', 'review'] as const;
export type ComposeStep = (typeof STEPS)[number];

/** A chosen gift: what the server answers for it, and the amount's limits when a value voucher's are known. */
export interface GiftChoice extends GreetieGift {
  /** min/max in öre for a value voucher chosen here; null for a fixed price or when not known (a resumed draft). */
  limits: { min: number; max: number } | null;
}

export interface RecipientFields {
  mobileNumber: string;
  name: string;
}

/** What the person makes: the fields saved to the draft. */
export interface ComposeDraft {
  media: GreetieMedia | null;
  content: ContentElement[];
  gifts: GiftChoice[];
  recipient: RecipientFields;
  message: string;
  /** ISO-8601 UTC, or null: at once. */
  deliverAt: string | null;
}

/** The sender as the compose machine keeps them. */
export interface ComposeSender {
  id: string | null;
  /** What the "Ditt namn" field holds. */
  name: string;
  /** The profile has no name the rule takes: the recipient step asks for it and saves it before the review. */
  needsName: boolean;
}

/** The saved profile, as saveSenderName answers it. */
export interface SavedSender {
  id: string;
  mobileNumber: string;
  name: string | null;
}

/** What the recipient step's name fields would be refused for, by the one name rule (null: nothing). */
export function nameProblems(recipientName: string, sender: ComposeSender): { recipientName: NameProblem | null; senderName: NameProblem | null } {
  const recipient = checkOptionalName(recipientName);
  const own = sender.needsName ? checkName(sender.name) : null;
  return { recipientName: recipient.ok ? null : recipient.problem, senderName: own && !own.ok ? own.problem : null };
}

/** Each gift with the limits its product gives (a value voucher's min/max; null for a fixed price or a product gone). */
export function withLimits(gifts: readonly GiftChoice[], products: readonly Product[]): GiftChoice[] {
  return gifts.map((g) => {
    const p = products.find((x) => x.id === g.productId);
    const ranged = p !== undefined && p.price === undefined && p.minAmount !== undefined && p.maxAmount !== undefined;
    return ranged ? { ...g, limits: { min: p.minAmount!, max: p.maxAmount! } } : g;
  });
}

export const emptyDraft: ComposeDraft = { media: null, content: [], gifts: [], recipient: { mobileNumber: '', name: '' }, message: '', deliverAt: null };

/** The draft as the server answered it, in the form the steps edit. */
export function draftOf(g: Greetie): ComposeDraft {
  return {
    media: g.media,
    content: g.content,
    gifts: g.gifts.map((gift) => ({ ...gift, limits: null })),
    recipient: { mobileNumber: g.recipient?.mobileNumber ?? '', name: g.recipient?.name ?? '' },
    message: g.message,
    deliverAt: g.deliverAt,
  };
}

/** Everything the steps edit, as PATCH /greetie/{id} takes it. */
export function changesOf(d: ComposeDraft): GreetieUpdate {
  const number = d.recipient.mobileNumber.trim();
  return {
    content: d.content,
    gifts: d.gifts.map((g) => ({ productId: g.productId, amount: g.amount })),
    recipient: number ? { mobileNumber: number, name: d.recipient.name.trim() || null } : null,
    message: d.message,
    deliverAt: d.deliverAt,
  };
}

/** The sum of the chosen gifts in öre, as the page shows it while choosing (the server's `total` is the one paid). */
export function giftsTotal(gifts: readonly GiftChoice[]): number {
  return gifts.reduce((sum, g) => sum + g.amount, 0);
}

/** A gift's amount is whole öre and within its limits when they are known. */
export const amountFits = (g: GiftChoice) => Number.isInteger(g.amount) && (!g.limits || (g.amount >= g.limits.min && g.amount <= g.limits.max));
