import type { AnyMachineSnapshot } from 'xstate';
import type { Greetie, GreetieGift } from '../../../contract/greetie.ts';
import type { Product } from '../../../contract/merchant.ts';
import type { Payment } from '../../../contract/payment.ts';
import type { Failure } from '../../../contract/errors.ts';
import type { ComposeContext } from '../../../machines/compose.ts';
import type { GiftChoice } from '../../../machines/compose/draft.ts';
import { defineHooks } from '../harness/types.ts';

/**
 * Samples for the compose machine: a person opens /greetie/new blank, from a product, or with a
 * draft to resume (left at each step); uploads a photo (or picks a PDF, refused before upload);
 * changes content, gifts and recipient; and the server answers each call or refuses it. The save
 * is the autosave child's (tests/model/hooks/autosave.ts): here it only says `save.saved`.
 */
export const DRAFT_ID = '6a1f3c2e-0000-4000-8000-000000000001';
export const PRODUCT_ID = '7b2e4d3f-0000-4000-8000-000000000002';
export const MERCHANT_ID = '4d0e1a2b-0000-4000-8000-000000000001';

export const photo = { kind: 'photo' as const, url: '/api/media/AAAAAAAAAAAAAAAAAAAAAAAA.jpg', thumbnailUrl: null, overlayUrl: null };

export const gift: GreetieGift = {
  productId: PRODUCT_ID,
  productName: 'Fika för två',
  merchantId: MERCHANT_ID,
  merchantName: 'Café Kanelbullen',
  source: 'InStore',
  amount: 14900,
};
export const giftChoice: GiftChoice = { ...gift, limits: null };
/** The gift's product as a value voucher (100–1 000 kr): its amount can be changed. */
export const voucherProduct: Product = {
  id: PRODUCT_ID,
  merchantId: MERCHANT_ID,
  name: 'Fika för två',
  description: '',
  imageUrl: '/merchants/kanelbullen.svg',
  source: 'InStore',
  minAmount: 10000,
  maxAmount: 100000,
  validDays: 365,
};

export function greetie(over: Partial<Greetie> = {}): Greetie {
  return {
    id: DRAFT_ID,
    refId: 'ref-1',
    status: 'draft',
    sender: { id: 'u1', name: 'Anna Andersson' },
    recipient: null,
    message: '',
    content: [],
    media: null,
    gifts: [],
    vouchers: [],
    total: 0,
    deliverAt: null,
    deliveredAt: null,
    viewed: false,
    viewedAt: null,
    thanks: null,
    cancelledAt: null,
    createdAt: '2026-05-01T10:00:00.000Z',
    updatedAt: '2026-05-01T10:00:00.000Z',
    ...over,
  };
}

/** The payment compose's hand-over ends with (machines/payment.ts). */
export const paidPayment: Payment = {
  id: '22222222-2222-4222-8222-222222222222',
  greetieId: DRAFT_ID,
  provider: 'sandbox',
  status: 'paid',
  amount: 14900,
  redirectUrl: null,
  appUrl: null,
  qrCode: null,
  token: null,
  payerAlias: null,
  errorCode: null,
  refund: null,
  consentedAt: '2026-11-23T07:59:00.000Z',
  orderNumber: 'G-100123',
  createdAt: '2026-11-23T08:00:00.000Z',
  updatedAt: '2026-11-23T08:01:00.000Z',
};

export const textElement = { id: 'e1', type: 'text' as const, value: 'Grattis!', x: 0.5, y: 0.3, scale: 1, rotation: 0 };
export const recipient = { mobileNumber: '070-123 45 67', name: 'Mormor' };

/** What the implementations reject with: the one Failure (contract/errors.ts). */
const failure = (status: number, message: string, code: Failure['code']): Failure => ({ status, code, message, retryAt: null });
export const serverError = failure(500, 'Något gick fel hos oss. Försök igen om en stund.', 'INTERNAL_ERROR');
export const notFound = failure(404, 'Greetien finns inte.', 'GREETIE_NOT_FOUND');
export const refusedMedia = failure(415, 'Filen är varken en bild eller en video vi kan visa.', 'MEDIA_TYPE_NOT_ALLOWED');
export const invalidNumber = failure(400, 'Skriv ett svenskt mobilnummer.', 'INVALID_MOBILE_NUMBER');
export const soldOut = failure(409, 'En av gåvorna är slut just nu. Välj en annan gåva.', 'GIFT_CODE_POOL_EMPTY');

const ctx = (s: AnyMachineSnapshot) => s.context as ComposeContext;

export default defineHooks({
  events: {
    'user.opened': [
      { draftId: null, gift: null },
      { draftId: DRAFT_ID, gift: null },
      // An address whose draft id is no UUID: no draft has it.
      { draftId: 'inte-ett-utkast', gift: null },
      { draftId: null, gift: { productId: PRODUCT_ID, amount: 14900 } },
      // A sender whose profile has no name: the recipient step asks for it.
      { draftId: DRAFT_ID, gift: null, sender: { id: 'u1', name: null } },
    ],
    'xstate.done.actor.loadDraft': [
      { output: greetie({ status: 'scheduled', media: photo, recipient: { name: 'Mormor', mobileNumber: '+46701234567' } }) },
      // Paid for already (a step's address reloaded after paying): its page with the receipt.
      { output: greetie({ status: 'scheduled', media: photo, gifts: [gift], total: 14900, recipient: { name: 'Mormor', mobileNumber: '+46701234567' } }) },
      { output: greetie({ media: photo, recipient: { name: 'Mormor', mobileNumber: '+46701234567' }, message: 'Grattis!' }) },
      { output: greetie({ media: photo, gifts: [gift], total: 14900 }) },
      { output: greetie({ media: photo, content: [textElement] }) },
      { output: greetie({ media: photo }) },
      { output: greetie() },
    ],
    'xstate.error.actor.loadDraft': [{ error: notFound }, { error: serverError }],
    'xstate.done.actor.createDraftWithGift': [{ output: greetie({ gifts: [gift], total: 14900 }) }],
    'xstate.error.actor.createDraftWithGift': [{ error: serverError }],
    // The upload child (its own model: tests/model/hooks/upload.ts) as compose hears it.
    'upload.created': [{ greetie: greetie() }],
    'upload.done': [{ greetie: greetie({ media: photo }) }],
    // The address names another step (the browser's back or forward): the machine decides where it leads.
    'step.requested': [{ step: 'media' }, { step: 'content' }, { step: 'gifts' }, { step: 'recipient' }, { step: 'review' }],
    'user.changedContent': [{ content: [textElement] }],
    'user.changedGifts': [{ gifts: [giftChoice] }],
    'user.changedRecipient': [{ recipient, message: 'Grattis på födelsedagen!', deliverAt: null }],
    // The autosave child (its own model: tests/model/hooks/autosave.ts) says a save is done.
    'save.saved': [{ greetie: greetie({ media: photo }), pending: false }],
    'xstate.done.actor.payment': [{ output: { payment: paidPayment } }],
    'xstate.done.actor.loadGiftLimits': [{ output: [voucherProduct] }],
    'xstate.error.actor.loadGiftLimits': [{ error: serverError }],
    'xstate.done.actor.uploadOverlay': [{ output: greetie({ media: { ...photo, overlayUrl: '/api/media/BBBBBBBBBBBBBBBBBBBBBBBB.webp' }, content: [textElement] }) }],
    'xstate.error.actor.uploadOverlay': [{ error: serverError }],
    'user.changedSenderName': [{ name: 'Anna Lind' }],
    'user.consented': [{ consented: true }, { consented: false }],
    'xstate.done.actor.saveSenderName': [{ output: { id: 'u1', mobileNumber: '+46701234567', name: 'Anna Lind' } }],
    'xstate.error.actor.saveSenderName': [{ error: serverError }],
    'xstate.done.actor.sendGreetie': [{ output: greetie({ status: 'scheduled', media: photo }) }],
    'xstate.error.actor.sendGreetie': [{ error: serverError }],
  },
  // After paying or sending, the browser's back (or forward) to a step's address keeps the screen
  // (decision 131). The generated paths leave out a transition that changes nothing, so these say it.
  scenarios: {
    'Betald, sedan webbläsarens bakåt till granskningen': [
      { type: 'user.opened', draftId: DRAFT_ID, gift: null },
      { type: 'xstate.done.actor.loadDraft', output: greetie({ media: photo, gifts: [gift], total: 14900, recipient: { name: 'Mormor', mobileNumber: '+46701234567' } }) },
      { type: 'user.consented', consented: true },
      { type: 'user.send' },
      { type: 'xstate.done.actor.payment', output: { payment: paidPayment } },
      { type: 'step.requested', step: 'review' },
    ],
    'Skickad, sedan webbläsarens bakåt till foto/video': [
      { type: 'user.opened', draftId: DRAFT_ID, gift: null },
      { type: 'xstate.done.actor.loadDraft', output: greetie({ media: photo, recipient: { name: 'Mormor', mobileNumber: '+46701234567' }, message: 'Grattis!' }) },
      { type: 'user.send' },
      { type: 'xstate.done.actor.sendGreetie', output: greetie({ status: 'scheduled', media: photo }) },
      { type: 'step.requested', step: 'media' },
    ],
  },
  limit: 100000,
  // What tells states apart for the paths: the state and what the page shows differently, not
  // every byte of the draft. The file, its progress and its refusal matter on the media step only;
  // a change made during a save only while saving; the last error's message steers nothing (the
  // page shows it in the failed states, which the state value tells apart).
  serializeState: (s) => {
    const c = ctx(s);
    const onRecipient = s.matches({ editing: { steps: 'recipient' } });
    return JSON.stringify({
      value: s.value,
      status: s.status,
      draft: c.draftId !== null,
      media: c.draft.media !== null,
      content: c.draft.content.length > 0,
      gifts: c.draft.gifts.length > 0,
      recipient: c.draft.recipient.mobileNumber !== '',
      saved: c.saved,
      overlayStale: c.overlayStale,
      // The sender's name steers the recipient step only (asked for, and typed yet or not), and
      // where a resumed draft lands (loading).
      needsName: (onRecipient || s.matches('loading')) && c.sender.needsName,
      senderName: onRecipient && c.sender.needsName && c.sender.name !== '',
      // The withdrawal consent at review: ticked, and whether paying was tried without it.
      consent: c.consent,
      consentMissing: c.consentMissing,
    });
  },
  states: {
    'editing.steps.review': (s) => {
      if (!ctx(s).draft.media) throw new Error('the review is reached without a photo or video');
    },
    sent: (s) => {
      if (ctx(s).status !== 'scheduled') throw new Error('sent, but the greetie is not scheduled');
    },
  },
});
