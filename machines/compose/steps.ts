import type { Greetie } from '../../contract/greetie.ts';
import { GIFTS_MAX } from '../../contract/greetie.ts';
import { looksLikeSwedishMobile } from '../auth.ts';
import { amountFits, draftOf, nameProblems, STEPS, type ComposeDraft, type ComposeSender, type ComposeStep, type GiftChoice } from './draft.ts';

/**
 * Which step compose may show: plain functions the machine's guards (machines/compose.ts) read.
 * Each step has an address (/greetie/new/{step}); the page asks for the step its address names
 * (a reload, the browser's back and forward), and the machine opens it when every step before it
 * is finished, otherwise the first unfinished one.
 */

/** The steps as an address names them: the five, and the payment the review hands over to. */
export const ADDRESS_STEPS = [...STEPS, 'payment'] as const;
export type AddressStep = (typeof ADDRESS_STEPS)[number];

export const isAddressStep = (s: string | null | undefined): s is AddressStep => (ADDRESS_STEPS as readonly string[]).includes(s ?? '');

/** Every gift's amount fits (whole öre, within its limits when known), and no more gifts than allowed. */
export const giftsFit = (gifts: readonly GiftChoice[]) => gifts.length <= GIFTS_MAX && gifts.every(amountFits);

/** Both names pass the name rule (the sender's only when it is asked for). */
export function namesFit(draft: ComposeDraft, sender: ComposeSender): boolean {
  const problems = nameProblems(draft.recipient.name, sender);
  return problems.recipientName === null && problems.senderName === null;
}

/** The recipient step is filled in: a Swedish mobile number, names the rule takes, and the sender's name saved when it was missing. */
export const recipientDone = (draft: ComposeDraft, sender: ComposeSender) =>
  looksLikeSwedishMobile(draft.recipient.mobileNumber) && namesFit(draft, sender) && !sender.needsName;

/** A step is finished when its "Nästa" would take the person on (the content and the gifts may stay empty). */
function finished(step: ComposeStep, draft: ComposeDraft, sender: ComposeSender): boolean {
  switch (step) {
    case 'media':
      return draft.media !== null;
    case 'content':
      return true;
    case 'gifts':
      return giftsFit(draft.gifts);
    case 'recipient':
      return recipientDone(draft, sender);
    case 'review':
      // The review ends by sending or paying, never by being "finished".
      return false;
  }
}

/** Paid for: it has gifts and is past its payment (scheduled, delivered, or refunded since); compose never offers to pay it again. */
export const isPaidFor = (g: Pick<Greetie, 'status' | 'gifts'>) => g.gifts.length > 0 && g.status !== 'draft' && g.status !== 'awaitingPayment';

/** The first step that is not finished. */
export const firstUnfinished = (draft: ComposeDraft, sender: ComposeSender): ComposeStep => STEPS.find((s) => !finished(s, draft, sender)) ?? 'review';

/**
 * Where asking for a step leads: that step when every step before it is finished, otherwise the
 * first unfinished one. The payment is never started from an address (it moves money; the review's
 * button starts it): asking for it leads to the review at most.
 */
export function stepFor(requested: AddressStep, draft: ComposeDraft, sender: ComposeSender): ComposeStep {
  const step = requested === 'payment' ? 'review' : requested;
  const first = firstUnfinished(draft, sender);
  return STEPS.indexOf(step) <= STEPS.indexOf(first) ? step : first;
}

/**
 * Where a loaded draft opens. With a step in the address (a reload), as `stepFor` says. Without
 * one (`?draft=…` from the list), the furthest step its own data shows the person reached; the
 * review only when nothing is left to ask (without the sender's name it is the recipient step).
 */
export function landingStep(g: Greetie, sender: ComposeSender, requested: AddressStep | null): ComposeStep {
  if (requested) return stepFor(requested, draftOf(g), sender);
  if (g.media === null) return 'media';
  if (g.recipient !== null && !sender.needsName) return 'review';
  if (g.gifts.length > 0 || g.message !== '' || g.recipient !== null) return 'recipient';
  if (g.content.length > 0) return 'gifts';
  return 'content';
}
