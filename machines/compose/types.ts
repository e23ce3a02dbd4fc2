import type { Failure } from '../../contract/errors.ts';
import type { ContentElement, GiftInput, GreetieStatus } from '../../contract/greetie.ts';
import type { Payment } from '../../contract/payment.ts';
import type { PaymentDevice } from '../payment.ts';
import type { AutosaveReport } from './autosave.ts';
import type { ComposeDraft, ComposeSender, GiftChoice, RecipientFields } from './draft.ts';
import type { AddressStep } from './steps.ts';
import type { UploadReport } from './upload.ts';

/** The compose machine's (machines/compose.ts) context, events, screens and tags. */

/** The page says what its address asks for as it opens. */
export interface OpenedEvent {
  type: 'user.opened';
  /** `?draft={id}`: resume that draft (as the address has it: an id that is no UUID is a draft that does not exist). */
  draftId: string | null;
  /** Started from a merchant's product ("Skicka med en greetie", `?productId=…&amount=…`): the draft starts with it. */
  gift: GiftInput | null;
  /** The signed-in sender: their id and their profile's name (null: none yet, so the recipient step asks for it). */
  sender?: { id: string; name: string | null } | null;
  /** What the payment shows first: the Swish app button (a phone) or the QR code. */
  device?: PaymentDevice;
  /** The step the address names (`/greetie/new/{step}`, a reload): the draft opens there when the steps before it are finished. */
  step?: AddressStep | null;
}

export interface ComposeContext {
  draftId: string | null;
  status: GreetieStatus | null;
  draft: ComposeDraft;
  /** The server's sum of the gifts (öre), from the last answer. */
  total: number;
  /** The product a start from a merchant's product begins with. */
  startGift: GiftInput | null;
  /** The last failure (load, create, upload, save or send); cleared when that is tried again. */
  error: Failure | null;
  /** The autosave has everything (its last `save.saved` had nothing pending, and nothing changed since). */
  saved: boolean;
  /** The content changed since the server's overlay was drawn (or it has none): upload a new one. */
  overlayStale: boolean;
  /** The gifts' limits were read from their products (false for gifts that came from the server). */
  giftLimitsKnown: boolean;
  sender: ComposeSender;
  /** Saving the sender's name failed (the server's refusal or the network): shown under "Ditt namn". */
  senderNameError: Failure | null;
  /** What the payment shows first (the page asks the device as it opens). */
  device: PaymentDevice;
  /** The paid payment, for the receipt. */
  payment: Payment | null;
  /** The withdrawal consent is ticked at review (sent with startpayment). */
  consent: boolean;
  /** 'Betala med Swish' was pressed without the tick: the page says so at the box. */
  consentMissing: boolean;
  /** The step the address named as the page opened (null: none, the draft opens where the person left it). */
  openAt: AddressStep | null;
}

/** What the overlay actor flattens: the draft's content (drawn by the page, uploaded to the draft). */
export interface OverlayInput {
  draftId: string;
  content: ContentElement[];
}

export type ComposeEvent =
  | OpenedEvent
  | UploadReport
  | { type: 'user.next' }
  | { type: 'user.back' }
  /** The address names another step (the browser's back or forward, or an address typed): the machine decides where that leads. */
  | { type: 'step.requested'; step: AddressStep }
  | { type: 'user.changedContent'; content: ContentElement[] }
  | { type: 'user.changedGifts'; gifts: GiftChoice[] }
  | { type: 'user.changedRecipient'; recipient: RecipientFields; message: string; deliverAt: string | null }
  | { type: 'user.changedSenderName'; name: string }
  | AutosaveReport
  | { type: 'user.send' }
  /** The withdrawal consent's box at review, ticked or not. */
  | { type: 'user.consented'; consented: boolean }
  | { type: 'user.retry' }
  /** After a failed start from a product: go on with an empty greetie instead. */
  | { type: 'user.withoutGift' };

/**
 * What the page shows: every state the page shows carries exactly one of these tags (read with
 * `screenOf`, src/components/flow.ts); 'opening' is no state's, it is what shows before the
 * page has said what it opens.
 */
export const COMPOSE_SCREENS = ['opening', 'loading', 'loadFailed', 'notFound', 'notEditable', 'alreadyPaid', 'createFailed', 'media', 'content', 'gifts', 'recipient', 'review', 'payment', 'paid', 'sent'] as const;
export type ComposeScreen = (typeof COMPOSE_SCREENS)[number];

export type ComposeTag =
  | ComposeScreen
  | 'busy'
  /** Paid or sent: the steps are behind, their addresses are replaced in history by this screen's. */
  | 'stepsLeft'
  | 'sendFailed'
  | 'overlay:uploading'
  | 'senderName:saving';
