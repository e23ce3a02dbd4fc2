import { and, assign, fromPromise, not, setup, stateIn } from 'xstate';
import type { ContentElement, GiftInput, Greetie, GreetieCreateV2, GreetieGift, GreetieMedia, GreetieStatus, GreetieUpdate } from '../contract/greetie.ts';
import { isUuid } from '../contract/common.ts';
import { GIFTS_MAX } from '../contract/greetie.ts';
import type { Product } from '../contract/merchant.ts';
import { PHOTO_MAX_BYTES, VIDEO_MAX_BYTES, isPhotoType, isVideoType, mediaTypeOf, mediaTypeOfName } from '../contract/media.ts';
import { checkName, checkOptionalName, type NameProblem } from '../contract/name.ts';
import { looksLikeSwedishMobile } from './auth.ts';
import { loaderErrorOf, type LoaderError } from './loader.ts';

/**
 * Making a greetie on /greetie/new: media → content → gifts → recipient → review, then it hands
 * over to payment (a greetie with gifts; the payment issue takes it from `handingOver`) or sends
 * it (no gifts: POST /greetie/{id}/send).
 *
 * - Every step can go back. The draft lives on the server: it is created when first needed (the
 *   upload needs its id; a start from a merchant's product creates it at once with that gift) and
 *   every change is saved after a pause (`saveDelay`) or at once on a step change, one save at a
 *   time. A failed save is shown with a retry; sending waits until everything is saved.
 * - `?draft={id}` resumes: the draft loads and the person lands on the step where they left
 *   (the furthest step the draft's own data shows they reached).
 * - The media step uploads in a child actor (`uploadMedia`) that reports `upload.progress`;
 *   leaving the upload (cancel) stops it. A file of the wrong type or too big is refused before
 *   anything is sent (`checkMediaFile`); the server's own refusal is shown too.
 *
 * - The amounts of value vouchers stay editable within their limits: the server's draft names each
 *   gift's product only, so the products of its merchants are read (`loadGiftLimits`) when a draft
 *   with gifts arrives (resumed, or started from a product).
 * - The content is also flattened to one image (the thumbnail, the link preview, the lists):
 *   `uploadOverlay` draws and uploads it once a change of the content is saved, and before the
 *   review hands over. A failed upload never holds the person up: it is tried again with the next
 *   change of the content.
 *
 * - The sender's name: the SMS names the sender, and /send and /startpayment refuse without one
 *   (409 SENDER_NAME_REQUIRED). When the profile has none (`user.opened`'s `sender`), the recipient
 *   step asks for it ("Ditt namn") beside the recipient's, and going on saves it to the profile
 *   (`saveSenderName`, POST /mobileuser/{id}) before the review: never a surprise at the end. Both
 *   names follow the one name rule (contract/name.ts), checked here before anything is sent.
 *
 * The page reads tags, never state names: `step:<step>` (which step to show), `busy`,
 * `upload:<what>`, `save:<what>`, and `loading` / `loadFailed` / `notFound` / `notEditable` /
 * `createFailed` / `sendFailed` / `sent` / `step:payment`. The server calls are named actors the
 * page gives with `.provide()` (src/pages/greetie/compose.ts).
 */

// ---- Files ----

export type MediaKind = GreetieMedia['kind'];

/** What the page hands over of a chosen file (a browser File is one). */
export interface ChosenFile {
  name: string;
  type: string;
  size: number;
}

export type FileRefusal = 'wrongType' | 'photoTooBig' | 'videoTooBig' | 'empty';

/**
 * The browser's quick check of a chosen file, from its declared type (or, when it has none, its
 * name) and its size. The server checks the bytes themselves.
 */
export function checkMediaFile(file: ChosenFile): { kind: MediaKind } | { refused: FileRefusal } {
  const type = mediaTypeOf(file.type || mediaTypeOfName(file.name));
  if (isPhotoType(type)) {
    if (file.size === 0) return { refused: 'empty' };
    return file.size > PHOTO_MAX_BYTES ? { refused: 'photoTooBig' } : { kind: 'photo' };
  }
  if (isVideoType(type)) {
    if (file.size === 0) return { refused: 'empty' };
    return file.size > VIDEO_MAX_BYTES ? { refused: 'videoTooBig' } : { kind: 'video' };
  }
  return { refused: 'wrongType' };
}

// ---- The draft ----

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

/** The page says what its address asks for as it opens. */
export interface OpenedEvent {
  type: 'user.opened';
  /** `?draft={id}`: resume that draft (as the address has it: an id that is no UUID is a draft that does not exist). */
  draftId: string | null;
  /** Started from a merchant's product ("Skicka med en greetie", `?productId=…&amount=…`): the draft starts with it. */
  gift: GiftInput | null;
  /** The signed-in sender: their id and their profile's name (null: none yet, so the recipient step asks for it). */
  sender?: { id: string; name: string | null } | null;
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

/** A failure with the server's code when it gave one (GIFT_CODE_POOL_EMPTY: a chosen gift sold out). */
export interface ComposeError extends LoaderError {
  code?: string;
}

/** A failure as the compose machine keeps it: its message and status, and the server's code if any. */
export function composeErrorOf(error: unknown): ComposeError {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code ? { ...loaderErrorOf(error), code } : loaderErrorOf(error);
}

export interface UploadProgress {
  loaded: number;
  total: number;
}

export interface ComposeContext {
  draftId: string | null;
  status: GreetieStatus | null;
  draft: ComposeDraft;
  /** The server's sum of the gifts (öre), from the last answer. */
  total: number;
  /** The product a start from a merchant's product begins with. */
  startGift: GiftInput | null;
  /** The file being (or last) uploaded: kept so a cancelled or failed upload can be retried. */
  file: ChosenFile | null;
  progress: UploadProgress | null;
  refusal: FileRefusal | null;
  /** The last failure (load, create, upload, save or send); cleared when that is tried again. */
  error: ComposeError | null;
  /** A change arrived while a save ran: save again after it. */
  unsaved: boolean;
  /** The content changed since the server's overlay was drawn (or it has none): upload a new one. */
  overlayStale: boolean;
  /** The gifts' limits were read from their products (false for gifts that came from the server). */
  giftLimitsKnown: boolean;
  sender: ComposeSender;
  /** Saving the sender's name failed (the server's refusal or the network): shown under "Ditt namn". */
  senderNameError: ComposeError | null;
}

/** What the upload actor needs; `progressTo` hears `upload.progress` as the bytes go out. */
export interface UploadInput {
  draftId: string;
  file: ChosenFile;
  progressTo: { send: (event: UploadProgressEvent) => void };
}

/** What the overlay actor flattens: the draft's content (drawn by the page, uploaded to the draft). */
export interface OverlayInput {
  draftId: string;
  content: ContentElement[];
}

/** Whose products tell the gifts' limits. */
export interface GiftLimitsInput {
  merchantIds: string[];
}

/** Each gift with the limits its product gives (a value voucher's min/max; null for a fixed price or a product gone). */
export function withLimits(gifts: readonly GiftChoice[], products: readonly Product[]): GiftChoice[] {
  return gifts.map((g) => {
    const p = products.find((x) => x.id === g.productId);
    const ranged = p !== undefined && p.price === undefined && p.minAmount !== undefined && p.maxAmount !== undefined;
    return ranged ? { ...g, limits: { min: p.minAmount!, max: p.maxAmount! } } : g;
  });
}

export interface SaveInput {
  draftId: string;
  changes: GreetieUpdate;
}

export type UploadProgressEvent = { type: 'upload.progress'; loaded: number; total: number };

export type ComposeEvent =
  | OpenedEvent
  | { type: 'user.choseFile'; file: ChosenFile }
  | { type: 'user.cancelUpload' }
  | { type: 'user.retryUpload' }
  | UploadProgressEvent
  | { type: 'user.next' }
  | { type: 'user.back' }
  | { type: 'user.changedContent'; content: ContentElement[] }
  | { type: 'user.changedGifts'; gifts: GiftChoice[] }
  | { type: 'user.changedRecipient'; recipient: RecipientFields; message: string; deliverAt: string | null }
  | { type: 'user.changedSenderName'; name: string }
  | { type: 'user.retrySave' }
  | { type: 'user.send' }
  | { type: 'user.retry' }
  /** After a failed start from a product: go on with an empty greetie instead. */
  | { type: 'user.withoutGift' };

export type ComposeTag =
  | 'busy'
  | 'loading'
  | 'loadFailed'
  | 'notFound'
  | 'notEditable'
  | 'createFailed'
  | 'step:media'
  | 'step:content'
  | 'step:gifts'
  | 'step:recipient'
  | 'step:review'
  | 'step:payment'
  | 'sendFailed'
  | 'sent'
  | 'upload:refused'
  | 'upload:creating'
  | 'upload:uploading'
  | 'upload:failed'
  | 'upload:cancelled'
  | 'save:saved'
  | 'save:waiting'
  | 'save:saving'
  | 'save:failed'
  | 'overlay:uploading'
  | 'senderName:saving';

/** How long edits pause before the draft is saved. */
export const SAVE_DELAY_MS = 800;

const emptyDraft: ComposeDraft = { media: null, content: [], gifts: [], recipient: { mobileNumber: '', name: '' }, message: '', deliverAt: null };

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

const amountFits = (g: GiftChoice) => Number.isInteger(g.amount) && (!g.limits || (g.amount >= g.limits.min && g.amount <= g.limits.max));

export const composeMachine = setup({
  types: {
    context: {} as ComposeContext,
    events: {} as ComposeEvent,
    tags: {} as ComposeTag,
  },
  actors: {
    /** GET /greetie/{id}. */
    loadDraft: fromPromise<Greetie, { draftId: string }>(async () => {
      throw new Error('The "loadDraft" actor is given by the page with composeMachine.provide().');
    }),
    /** POST /greetie, or /greetie/createv2 when it starts with gifts. */
    createDraft: fromPromise<Greetie, GreetieCreateV2>(async () => {
      throw new Error('The "createDraft" actor is given by the page with composeMachine.provide().');
    }),
    /** POST /greetie/{id}/media, reporting `upload.progress`; stopping it aborts the upload. */
    uploadMedia: fromPromise<Greetie, UploadInput>(async () => {
      throw new Error('The "uploadMedia" actor is given by the page with composeMachine.provide().');
    }),
    /** PATCH /greetie/{id}. */
    saveDraft: fromPromise<Greetie, SaveInput>(async () => {
      throw new Error('The "saveDraft" actor is given by the page with composeMachine.provide().');
    }),
    /** GET /merchant/{id}/products for each merchant of the gifts. */
    loadGiftLimits: fromPromise<Product[], GiftLimitsInput>(async () => {
      throw new Error('The "loadGiftLimits" actor is given by the page with composeMachine.provide().');
    }),
    /** The content drawn to one image (renderOverlay) and POSTed to /greetie/{id}/mediaoverlay. */
    uploadOverlay: fromPromise<Greetie, OverlayInput>(async () => {
      throw new Error('The "uploadOverlay" actor is given by the page with composeMachine.provide().');
    }),
    /** POST /mobileuser/{id} with the sender's name (the profile had none). */
    saveSenderName: fromPromise<SavedSender, { userId: string; name: string }>(async () => {
      throw new Error('The "saveSenderName" actor is given by the page with composeMachine.provide().');
    }),
    /** POST /greetie/{id}/send (a greetie without gifts). */
    sendGreetie: fromPromise<Greetie, { draftId: string }>(async () => {
      throw new Error('The "sendGreetie" actor is given by the page with composeMachine.provide().');
    }),
  },
  actions: {
    storeOpened: assign((_, p: OpenedEvent) => ({
      draftId: p.draftId,
      startGift: p.gift,
      sender: {
        id: p.sender?.id ?? null,
        name: p.sender?.name ?? '',
        needsName: p.sender ? p.sender.name === null || !checkName(p.sender.name).ok : false,
      },
    })),
    storeSenderName: assign(({ context }, p: { name: string }) => ({ sender: { ...context.sender, name: p.name }, senderNameError: null })),
    /** The profile has the name now: the step no longer asks for it. */
    takeSenderName: assign(({ context }, p: SavedSender) => ({ sender: { ...context.sender, name: p.name ?? context.sender.name, needsName: false }, senderNameError: null })),
    storeSenderNameError: assign((_, p: { error: unknown }) => ({ senderNameError: composeErrorOf(p.error) })),
    /** Tell the session the profile has a name now (the header shows it). Provided by the page. */
    announceSenderName: (_, _p: SavedSender) => {},
    dropStartGift: assign({ startGift: null, error: null }),
    /** Everything the server has: a loaded draft, or one just created. */
    takeDraft: assign((_, g: Greetie) => ({
      draftId: g.id,
      status: g.status,
      draft: draftOf(g),
      total: g.total,
      error: null,
      overlayStale: g.media !== null && g.content.length > 0 && g.media.overlayUrl === null,
      giftLimitsKnown: g.gifts.length === 0,
    })),
    /** After an upload: the new media (the rest stays as the person has it). */
    takeMedia: assign(({ context }, g: Greetie) => ({
      draftId: g.id,
      status: g.status,
      draft: { ...context.draft, media: g.media },
      total: g.total,
      file: null,
      progress: null,
      error: null,
      // New media comes without an overlay: the content is flattened again.
      overlayStale: context.draft.content.length > 0,
    })),
    /** After a save: what only the server knows (the edits made meanwhile stay). */
    takeSaved: assign((_, g: Greetie) => ({ status: g.status, total: g.total, error: null })),
    takeSent: assign((_, g: Greetie) => ({ status: g.status, error: null })),
    storeFile: assign((_, p: { file: ChosenFile }) => ({ file: p.file, progress: null, refusal: null, error: null })),
    storeRefusal: assign((_, p: { file: ChosenFile }) => {
      const check = checkMediaFile(p.file);
      return { refusal: 'refused' in check ? check.refused : null, error: null };
    }),
    storeProgress: assign((_, p: UploadProgress) => ({ progress: { loaded: p.loaded, total: p.total } })),
    clearProgress: assign({ progress: null }),
    storeContent: assign(({ context }, p: { content: ContentElement[] }) => ({ draft: { ...context.draft, content: p.content }, overlayStale: true })),
    markOverlayCurrent: assign({ overlayStale: false }),
    /** The limits of the gifts from their products (the amounts chosen stay). */
    takeGiftLimits: assign(({ context }, products: Product[]) => ({
      draft: { ...context.draft, gifts: withLimits(context.draft.gifts, products) },
      giftLimitsKnown: true,
    })),
    markOverlayStale: assign({ overlayStale: true }),
    /** After an overlay upload: the media's new overlay (the rest stays as the person has it). */
    takeOverlay: assign(({ context }, g: Greetie) => ({ draft: { ...context.draft, media: g.media } })),
    storeGifts: assign(({ context }, p: { gifts: GiftChoice[] }) => ({ draft: { ...context.draft, gifts: p.gifts } })),
    storeRecipient: assign(({ context }, p: { recipient: RecipientFields; message: string; deliverAt: string | null }) => ({
      draft: { ...context.draft, recipient: p.recipient, message: p.message, deliverAt: p.deliverAt },
    })),
    markUnsaved: assign({ unsaved: true }),
    markSaving: assign({ unsaved: false }),
    clearError: assign({ error: null }),
    storeError: assign((_, p: { error: unknown }) => ({ error: composeErrorOf(p.error) })),
  },
  guards: {
    asksForDraft: (_, p: OpenedEvent) => p.draftId !== null,
    /** No draft ever has that id (a draft's id is a UUID): there is nothing to ask the server. */
    asksForNoSuchDraft: (_, p: OpenedEvent) => p.draftId !== null && !isUuid(p.draftId),
    startsWithGift: (_, p: OpenedEvent) => p.gift !== null,
    hasDraft: ({ context }) => context.draftId !== null,
    isNotFound: (_, p: { error: unknown }) => loaderErrorOf(p.error).status === 404,
    isNoLongerDraft: (_, g: Greetie) => g.status !== 'draft',
    /** A resumed draft lands on the review only when nothing is left to ask: without the sender's name it is the recipient step. */
    leftAtReview: ({ context }, g: Greetie) => g.media !== null && g.recipient !== null && !context.sender.needsName,
    leftAtRecipient: (_, g: Greetie) => g.media !== null && (g.gifts.length > 0 || g.message !== '' || g.recipient !== null),
    leftAtGifts: (_, g: Greetie) => g.media !== null && g.content.length > 0,
    leftAtContent: (_, g: Greetie) => g.media !== null,
    isRefusedFile: (_, p: { file: ChosenFile }) => 'refused' in checkMediaFile(p.file),
    hasMedia: ({ context }) => context.draft.media !== null,
    giftsFit: ({ context }) => context.draft.gifts.length <= GIFTS_MAX && context.draft.gifts.every(amountFits),
    hasRecipient: ({ context }) => looksLikeSwedishMobile(context.draft.recipient.mobileNumber),
    /** Both names pass the name rule (the sender's only when it is asked for). */
    namesFit: ({ context }) => {
      const problems = nameProblems(context.draft.recipient.name, context.sender);
      return problems.recipientName === null && problems.senderName === null;
    },
    needsSenderName: ({ context }) => context.sender.needsName,
    canLeaveRecipient: and(['hasRecipient', 'namesFit']),
    canLeaveRecipientNamed: and(['canLeaveRecipient', not('needsSenderName')]),
    hasGifts: ({ context }) => context.draft.gifts.length > 0,
    hasUnsavedChanges: ({ context }) => context.unsaved,
    isSaved: stateIn('#compose.editing.save.saved'),
    isOverlayUploading: stateIn('#compose.editing.overlay.uploading'),
    /** Saved, and no overlay on its way (one that failed does not hold the person up). */
    isSettled: and(['isSaved', not('isOverlayUploading')]),
    isSettledWithGifts: and(['isSettled', 'hasGifts']),
    isOverlayStale: ({ context }) => context.overlayStale && context.draftId !== null && context.draft.media !== null,
    isOverlayDue: and(['isOverlayStale', 'isSaved']),
    needsGiftLimits: ({ context }) => !context.giftLimitsKnown && context.draft.gifts.length > 0,
    onContentStep: stateIn('#compose.editing.steps.content'),
    onGiftsStep: stateIn('#compose.editing.steps.gifts'),
    onRecipientStep: stateIn('#compose.editing.steps.recipient'),
  },
  delays: {
    saveDelay: SAVE_DELAY_MS,
  },
}).createMachine({
  id: 'compose',
  description: 'Personen gör en greetie steg för steg (foto/video, innehåll, gåvor, mottagare, granska). Den sparas som utkast under tiden och skickas sedan, eller går vidare till betalning.',
  context: {
    draftId: null,
    status: null,
    draft: emptyDraft,
    total: 0,
    startGift: null,
    file: null,
    progress: null,
    refusal: null,
    error: null,
    unsaved: false,
    overlayStale: false,
    giftLimitsKnown: true,
    sender: { id: null, name: '', needsName: false },
    senderNameError: null,
  },
  initial: 'opening',
  states: {
    opening: {
      description: 'Sidan öppnas: adressen säger vad som ska hända (fortsätta ett utkast, börja med en produkt, eller inget).',
      on: {
        'user.opened': [
          {
            guard: { type: 'asksForNoSuchDraft', params: ({ event }) => event },
            target: 'notFound',
            description: 'Adressen pekar ut ett utkast med ett id som inget utkast har: det finns inte.',
          },
          {
            guard: { type: 'asksForDraft', params: ({ event }) => event },
            target: 'loading',
            actions: { type: 'storeOpened', params: ({ event }) => event },
            description: 'Adressen pekar ut ett utkast (?draft=…): hämta det.',
          },
          {
            guard: { type: 'startsWithGift', params: ({ event }) => event },
            target: 'creatingWithGift',
            actions: { type: 'storeOpened', params: ({ event }) => event },
            description: 'Började från en handlares produkt: skapa utkastet med den gåvan.',
          },
          { target: 'editing', description: 'En tom greetie: börja med foto/video (utkastet skapas vid första uppladdningen).' },
        ],
      },
    },
    loading: {
      description: 'Utkastet hämtas så att personen kan fortsätta där hen slutade.',
      tags: ['loading', 'busy'],
      entry: 'clearError',
      invoke: {
        id: 'loadDraft',
        src: 'loadDraft',
        input: ({ context }) => ({ draftId: context.draftId ?? '' }),
        onDone: [
          {
            guard: { type: 'isNoLongerDraft', params: ({ event }) => event.output },
            target: 'notEditable',
            actions: { type: 'takeDraft', params: ({ event }) => event.output },
            description: 'Den är redan skickad eller betald: den kan inte längre ändras.',
          },
          {
            guard: { type: 'leftAtReview', params: ({ event }) => event.output },
            target: '#compose.editing.steps.review',
            actions: { type: 'takeDraft', params: ({ event }) => event.output },
            description: 'Den har en mottagare: fortsätt vid granskningen.',
          },
          {
            guard: { type: 'leftAtRecipient', params: ({ event }) => event.output },
            target: '#compose.editing.steps.recipient',
            actions: { type: 'takeDraft', params: ({ event }) => event.output },
            description: 'Den har gåvor eller ett meddelande: fortsätt vid mottagaren.',
          },
          {
            guard: { type: 'leftAtGifts', params: ({ event }) => event.output },
            target: '#compose.editing.steps.gifts',
            actions: { type: 'takeDraft', params: ({ event }) => event.output },
            description: 'Den har innehåll: fortsätt vid gåvorna.',
          },
          {
            guard: { type: 'leftAtContent', params: ({ event }) => event.output },
            target: '#compose.editing.steps.content',
            actions: { type: 'takeDraft', params: ({ event }) => event.output },
            description: 'Den har ett foto eller en video: fortsätt vid innehållet.',
          },
          {
            target: 'editing',
            actions: { type: 'takeDraft', params: ({ event }) => event.output },
            description: 'Inget uppladdat än: fortsätt vid foto/video.',
          },
        ],
        onError: [
          {
            guard: { type: 'isNotFound', params: ({ event }) => ({ error: event.error }) },
            target: 'notFound',
            actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
            description: 'Personen har inget sådant utkast (404).',
          },
          {
            target: 'loadFailed',
            actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
            description: 'Utkastet kunde inte hämtas; felmeddelandet sparas.',
          },
        ],
      },
    },
    loadFailed: {
      description: 'Utkastet kunde inte hämtas: felmeddelandet och ett sätt att försöka igen.',
      tags: ['loadFailed'],
      on: { 'user.retry': { target: 'loading', description: 'Personen försöker hämta igen.' } },
    },
    notFound: {
      description: 'Utkastet finns inte, eller är inte personens.',
      tags: ['notFound'],
    },
    notEditable: {
      description: 'Greetien är redan skickad eller betald: sidan visar vägen till dess detaljer.',
      tags: ['notEditable'],
    },
    creatingWithGift: {
      description: 'Utkastet skapas med produkten personen började från.',
      tags: ['loading', 'busy'],
      entry: 'clearError',
      invoke: {
        id: 'createDraftWithGift',
        src: 'createDraft',
        input: ({ context }) => ({ gifts: context.startGift ? [context.startGift] : [] }),
        onDone: {
          target: 'editing',
          actions: { type: 'takeDraft', params: ({ event }) => event.output },
          description: 'Utkastet finns, med gåvan: vidare till foto/video.',
        },
        onError: {
          target: 'createFailed',
          actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
          description: 'Utkastet kunde inte skapas (till exempel för att produkten är borta); felmeddelandet sparas.',
        },
      },
    },
    createFailed: {
      description: 'Utkastet med gåvan kunde inte skapas: felmeddelandet och Försök igen.',
      tags: ['createFailed'],
      on: {
        'user.retry': { target: 'creatingWithGift', description: 'Personen försöker igen.' },
        'user.withoutGift': {
          target: 'editing',
          actions: 'dropStartGift',
          description: 'Personen fortsätter utan produkten (till exempel när den är slut): en tom greetie, gåvor kan väljas i steget Presenter.',
        },
      },
    },
    editing: {
      description: 'Personen går igenom stegen medan utkastet sparas vid sidan om.',
      type: 'parallel',
      states: {
        steps: {
          description: 'Steget som visas.',
          initial: 'media',
          states: {
            media: {
              description: 'Ta eller välj ett foto eller en video; den laddas upp och förloppet visas.',
              tags: ['step:media'],
              initial: 'ready',
              states: {
                ready: {
                  description: 'Ingen uppladdning pågår: personen kan välja en fil, eller gå vidare när det finns ett foto eller en video.',
                  initial: 'idle',
                  on: {
                    'user.choseFile': [
                      {
                        guard: { type: 'isRefusedFile', params: ({ event }) => ({ file: event.file }) },
                        target: '.refused',
                        actions: { type: 'storeRefusal', params: ({ event }) => ({ file: event.file }) },
                        description: 'Filen är av fel sort eller för stor: stoppas före uppladdning, och skälet visas.',
                      },
                      {
                        guard: 'hasDraft',
                        target: 'uploading',
                        actions: { type: 'storeFile', params: ({ event }) => ({ file: event.file }) },
                        description: 'En fil som passar, och utkastet finns: ladda upp den.',
                      },
                      {
                        target: 'creatingDraft',
                        actions: { type: 'storeFile', params: ({ event }) => ({ file: event.file }) },
                        description: 'En fil som passar, men inget utkast än: skapa utkastet först.',
                      },
                    ],
                    'user.next': { guard: 'hasMedia', target: '#compose.editing.steps.content', description: 'Vidare till innehållet (när det finns ett foto eller en video).' },
                  },
                  states: {
                    idle: { description: 'Väntar på en fil (den uppladdade visas, om det finns någon).' },
                    refused: { description: 'Den valda filen stoppades före uppladdning: skälet visas.', tags: ['upload:refused'] },
                    failed: {
                      description: 'Uppladdningen misslyckades eller servern tog inte emot filen: felmeddelandet och Försök igen.',
                      tags: ['upload:failed'],
                      on: {
                        'user.retryUpload': [
                          { guard: 'hasDraft', target: '#compose.editing.steps.media.uploading', description: 'Personen försöker med samma fil igen.' },
                          { target: '#compose.editing.steps.media.creatingDraft', description: 'Personen försöker igen; utkastet skapas först.' },
                        ],
                      },
                    },
                    cancelled: {
                      description: 'Personen avbröt uppladdningen: hen kan försöka igen eller välja en annan fil.',
                      tags: ['upload:cancelled'],
                      on: {
                        'user.retryUpload': [
                          { guard: 'hasDraft', target: '#compose.editing.steps.media.uploading', description: 'Personen startar samma fil igen.' },
                          { target: '#compose.editing.steps.media.creatingDraft', description: 'Personen startar igen; utkastet skapas först.' },
                        ],
                      },
                    },
                  },
                },
                creatingDraft: {
                  description: 'Utkastet skapas så att filen har någonstans att ta vägen.',
                  tags: ['busy', 'upload:creating'],
                  entry: 'clearError',
                  invoke: {
                    id: 'createDraft',
                    src: 'createDraft',
                    input: () => ({}),
                    onDone: {
                      target: 'uploading',
                      actions: { type: 'takeDraft', params: ({ event }) => event.output },
                      description: 'Utkastet finns: ladda upp filen.',
                    },
                    onError: {
                      target: 'ready.failed',
                      actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
                      description: 'Utkastet kunde inte skapas; felmeddelandet och Försök igen visas.',
                    },
                  },
                  on: { 'user.cancelUpload': { target: 'ready.cancelled', description: 'Personen avbryter innan uppladdningen har börjat.' } },
                },
                uploading: {
                  description: 'Filen laddas upp; förloppsmätaren följer det som skickats.',
                  tags: ['busy', 'upload:uploading'],
                  entry: ['clearError', 'clearProgress'],
                  invoke: {
                    id: 'uploadMedia',
                    src: 'uploadMedia',
                    input: ({ context, self }) => ({
                      draftId: context.draftId ?? '',
                      file: context.file ?? { name: '', type: '', size: 0 },
                      progressTo: self,
                    }),
                    onDone: {
                      target: 'ready.idle',
                      actions: { type: 'takeMedia', params: ({ event }) => event.output },
                      description: 'Servern tog emot filen: den visas.',
                    },
                    onError: {
                      target: 'ready.failed',
                      actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
                      description: 'Uppladdningen misslyckades eller servern tog inte emot filen; felmeddelandet sparas.',
                    },
                  },
                  on: {
                    'upload.progress': {
                      actions: { type: 'storeProgress', params: ({ event }) => ({ loaded: event.loaded, total: event.total }) },
                      description: 'Mer av filen har skickats.',
                    },
                    'user.cancelUpload': { target: 'ready.cancelled', description: 'Personen avbryter uppladdningen.' },
                  },
                },
              },
            },
            content: {
              description: 'Klä fotot eller videon med text, emojis, klistermärken, animationer och bilder.',
              tags: ['step:content'],
              on: {
                'user.back': { target: 'media', description: 'Tillbaka till fotot eller videon.' },
                'user.next': { target: 'gifts', description: 'Vidare till gåvorna.' },
              },
            },
            gifts: {
              description: 'Välj gåvor från handlarna (inga går också bra), med summan hittills.',
              tags: ['step:gifts'],
              on: {
                'user.back': { target: 'content', description: 'Tillbaka till innehållet.' },
                'user.next': { guard: 'giftsFit', target: 'recipient', description: 'Vidare till mottagaren (alla belopp inom sina gränser).' },
              },
            },
            recipient: {
              description:
                'Vem som får den (mobilnummer, namn om man vill), ett meddelande och när den ska komma fram; och avsändarens namn när profilen saknar det (sms:et nämner avsändaren).',
              tags: ['step:recipient'],
              initial: 'editing',
              on: {
                'user.back': { target: 'gifts', description: 'Tillbaka till gåvorna.' },
              },
              states: {
                editing: {
                  description: 'Personen fyller i fälten; namnen prövas mot namnregeln (inga länkar, webbadresser, telefonnummer eller osynliga tecken).',
                  on: {
                    'user.changedSenderName': {
                      actions: { type: 'storeSenderName', params: ({ event }) => ({ name: event.name }) },
                      description: 'Personen skriver sitt eget namn i "Ditt namn".',
                    },
                    'user.next': [
                      {
                        guard: 'canLeaveRecipientNamed',
                        target: '#compose.editing.steps.review',
                        description: 'Vidare till granskningen (numret ser ut som ett svenskt mobilnummer och namnen följer namnregeln).',
                      },
                      {
                        guard: 'canLeaveRecipient',
                        target: 'savingSenderName',
                        description: 'Profilen saknar namn: spara "Ditt namn" i profilen först (numret och namnen är i ordning).',
                      },
                    ],
                  },
                },
                savingSenderName: {
                  description: 'Avsändarens namn sparas i profilen (POST /mobileuser/{id}) innan granskningen.',
                  tags: ['busy', 'senderName:saving'],
                  invoke: {
                    id: 'saveSenderName',
                    src: 'saveSenderName',
                    input: ({ context }) => ({ userId: context.sender.id ?? '', name: context.sender.name }),
                    onDone: {
                      target: '#compose.editing.steps.review',
                      actions: [
                        { type: 'takeSenderName', params: ({ event }) => event.output },
                        { type: 'announceSenderName', params: ({ event }) => event.output },
                      ],
                      description: 'Namnet är sparat: vidare till granskningen.',
                    },
                    onError: {
                      target: 'editing',
                      actions: { type: 'storeSenderNameError', params: ({ event }) => ({ error: event.error }) },
                      description: 'Namnet kunde inte sparas (servern godtog det inte, eller nätet): felet visas under "Ditt namn".',
                    },
                  },
                },
              },
            },
            review: {
              description: 'Greetien som mottagaren kommer att se den, gåvorna och summan.',
              tags: ['step:review'],
              on: {
                'user.back': { target: 'recipient', description: 'Tillbaka till mottagaren.' },
                'user.send': [
                  {
                    guard: 'isSettledWithGifts',
                    target: '#compose.handingOver',
                    description: "'Betala med Swish': en greetie med gåvor går vidare till betalning (när den är sparad och bilden av innehållet uppladdad).",
                  },
                  { guard: 'isSettled', target: '#compose.sending', description: "'Skicka': en greetie utan gåvor skickas (när den är sparad och bilden av innehållet uppladdad)." },
                ],
              },
            },
          },
        },
        save: {
          description: 'Håller utkastet på servern i takt med personens ändringar, en sparning i taget.',
          initial: 'saved',
          on: {
            'user.changedContent': {
              guard: 'onContentStep',
              target: '.waiting',
              actions: { type: 'storeContent', params: ({ event }) => ({ content: event.content }) },
              description: 'Innehållet ändrades: spara efter en paus.',
            },
            'user.changedGifts': {
              guard: 'onGiftsStep',
              target: '.waiting',
              actions: { type: 'storeGifts', params: ({ event }) => ({ gifts: event.gifts }) },
              description: 'Gåvorna ändrades: spara efter en paus.',
            },
            'user.changedRecipient': {
              guard: 'onRecipientStep',
              target: '.waiting',
              actions: { type: 'storeRecipient', params: ({ event }) => event },
              description: 'Mottagaren, meddelandet eller leveranstiden ändrades: spara efter en paus.',
            },
          },
          states: {
            saved: { description: 'Servern har allt.', tags: ['save:saved'] },
            waiting: {
              description: 'Ändringar väntar på en paus innan de sparas.',
              tags: ['save:waiting'],
              after: { saveDelay: { target: 'saving', description: 'Ingen ändring på en stund: spara.' } },
              on: {
                'user.next': { target: 'saving', description: 'Ett byte av steg sparar direkt.' },
                'user.back': { target: 'saving', description: 'Ett byte av steg sparar direkt.' },
              },
            },
            saving: {
              description: 'Utkastet sparas; ändringar som görs under tiden sparas efteråt.',
              tags: ['save:saving'],
              entry: ['markSaving', 'clearError'],
              invoke: {
                id: 'saveDraft',
                src: 'saveDraft',
                input: ({ context }) => ({ draftId: context.draftId ?? '', changes: changesOf(context.draft) }),
                onDone: [
                  {
                    guard: 'hasUnsavedChanges',
                    target: 'waiting',
                    actions: { type: 'takeSaved', params: ({ event }) => event.output },
                    description: 'Sparat, men personen har ändrat mer under tiden: spara det också.',
                  },
                  { target: 'saved', actions: { type: 'takeSaved', params: ({ event }) => event.output }, description: 'Sparat.' },
                ],
                onError: {
                  target: 'failed',
                  actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
                  description: 'Sparningen misslyckades (nätet, eller servern godtog inte ett fält); felmeddelandet sparas.',
                },
              },
              on: {
                'user.changedContent': {
                  guard: 'onContentStep',
                  actions: [{ type: 'storeContent', params: ({ event }) => ({ content: event.content }) }, 'markUnsaved'],
                  description: 'Innehållet ändrades under en sparning: behålls och sparas sedan.',
                },
                'user.changedGifts': {
                  guard: 'onGiftsStep',
                  actions: [{ type: 'storeGifts', params: ({ event }) => ({ gifts: event.gifts }) }, 'markUnsaved'],
                  description: 'Gåvorna ändrades under en sparning: behålls och sparas sedan.',
                },
                'user.changedRecipient': {
                  guard: 'onRecipientStep',
                  actions: [{ type: 'storeRecipient', params: ({ event }) => event }, 'markUnsaved'],
                  description: 'Mottagaren ändrades under en sparning: behålls och sparas sedan.',
                },
              },
            },
            failed: {
              description: 'Senaste sparningen misslyckades: felmeddelandet och Försök igen (ändringarna finns kvar här).',
              tags: ['save:failed'],
              on: { 'user.retrySave': { target: 'saving', description: 'Personen försöker spara igen.' } },
            },
          },
        },
        giftLimits: {
          description: 'Läser gränserna för gåvorna som kom från servern, så att beloppet på ett värdebevis går att ändra.',
          initial: 'known',
          states: {
            known: {
              description: 'Varje gåva har sina gränser (eller ett fast pris).',
              always: { guard: 'needsGiftLimits', target: 'loading', description: 'Utkastet hade gåvor: läs in deras produkter.' },
            },
            loading: {
              description: 'Gåvornas produkter läses in från handlarna.',
              invoke: {
                id: 'loadGiftLimits',
                src: 'loadGiftLimits',
                input: ({ context }) => ({ merchantIds: [...new Set(context.draft.gifts.map((g) => g.merchantId))] }),
                onDone: {
                  target: 'known',
                  actions: { type: 'takeGiftLimits', params: ({ event }) => event.output },
                  description: 'Beloppen på värdebevis kan ändras inom sina gränser.',
                },
                onError: { target: 'unknown', description: 'Produkterna kunde inte läsas in: beloppen står kvar som de är (servern kontrollerar dem).' },
              },
            },
            unknown: { description: 'Gränserna kunde inte läsas in: beloppen visas men kan inte ändras.' },
          },
        },
        overlay: {
          description: 'Håller den platta bilden av innehållet (miniatyr, länkförhandsvisning, listor) i takt med innehållet, efter varje sparning.',
          initial: 'current',
          states: {
            current: {
              description: 'Serverns bild visar innehållet (eller så finns inget att göra bild av).',
              always: { guard: 'isOverlayDue', target: 'uploading', description: 'Det ändrade innehållet är sparat: gör en bild av det och ladda upp den.' },
            },
            uploading: {
              description: 'Innehållet ritas till en bild och laddas upp; granskningen väntar på den.',
              tags: ['overlay:uploading'],
              entry: 'markOverlayCurrent',
              invoke: {
                id: 'uploadOverlay',
                src: 'uploadOverlay',
                input: ({ context }) => ({ draftId: context.draftId ?? '', content: context.draft.content }),
                onDone: {
                  target: 'current',
                  actions: { type: 'takeOverlay', params: ({ event }) => event.output },
                  description: 'Servern har den nya bilden (en ändring under tiden tas härnäst).',
                },
                onError: { target: 'failed', actions: 'markOverlayStale', description: 'Uppladdningen misslyckades: inget visas; det görs ett nytt försök vid nästa ändring.' },
              },
            },
            failed: {
              description: 'Senaste uppladdningen av bilden misslyckades; personen går vidare ändå.',
              on: {
                'user.changedContent': { guard: 'onContentStep', target: 'current', description: 'Innehållet ändrades: gör en bild och ladda upp den efter sparningen.' },
              },
            },
          },
        },
      },
    },
    handingOver: {
      description: 'Sparad och klar, med gåvor: betalningen tar över härifrån (machines/payment.ts).',
      tags: ['step:payment'],
      on: { 'user.back': { target: '#compose.editing.steps.review', description: 'Tillbaka till granskningen.' } },
    },
    sending: {
      description: "Greetien utan gåvor skickas ('Skicka').",
      tags: ['step:review', 'busy'],
      entry: 'clearError',
      invoke: {
        id: 'sendGreetie',
        src: 'sendGreetie',
        input: ({ context }) => ({ draftId: context.draftId ?? '' }),
        onDone: { target: 'sent', actions: { type: 'takeSent', params: ({ event }) => event.output }, description: 'Skickad: den är på väg.' },
        onError: {
          target: 'sendFailed',
          actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
          description: 'Det gick inte att skicka; felmeddelandet sparas.',
        },
      },
    },
    sendFailed: {
      description: 'Det gick inte att skicka: granskningen med felmeddelandet, Försök igen och en väg tillbaka.',
      tags: ['step:review', 'sendFailed'],
      on: {
        'user.retry': { target: 'sending', description: 'Personen försöker skicka igen.' },
        'user.back': { target: '#compose.editing.steps.review', description: 'Tillbaka till granskningen.' },
      },
    },
    sent: {
      description: 'Skickad: levereras nu, eller vid den valda tiden.',
      tags: ['sent'],
      type: 'final',
    },
  },
});
