import { and, assign, fromPromise, not, setup, stateIn } from 'xstate';
import type { ContentElement, GiftInput, Greetie, GreetieCreateV2, GreetieGift, GreetieMedia, GreetieStatus, GreetieUpdate } from '../contract/greetie.ts';
import { GIFTS_MAX } from '../contract/greetie.ts';
import type { Product } from '../contract/merchant.ts';
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

export const PHOTO_MAX_BYTES = 15 * 1024 * 1024;
export const VIDEO_MAX_BYTES = 100 * 1024 * 1024;
export const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/heic', 'image/heif'] as const;
export const VIDEO_TYPES = ['video/mp4', 'video/webm', 'video/quicktime'] as const;

// Some browsers give HEIC photos and MOV videos no type: the name's ending says what it claims to be.
const TYPE_BY_ENDING: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  heic: 'image/heic',
  heif: 'image/heif',
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  webm: 'video/webm',
  mov: 'video/quicktime',
};

export type FileRefusal = 'wrongType' | 'photoTooBig' | 'videoTooBig' | 'empty';

/**
 * The browser's quick check of a chosen file, from its declared type (or, when it has none, its
 * name) and its size. The server checks the bytes themselves.
 */
export function checkMediaFile(file: ChosenFile): { kind: MediaKind } | { refused: FileRefusal } {
  const type = (file.type || TYPE_BY_ENDING[file.name.split('.').pop()?.toLowerCase() ?? ''] || '').toLowerCase();
  if ((PHOTO_TYPES as readonly string[]).includes(type)) {
    if (file.size === 0) return { refused: 'empty' };
    return file.size > PHOTO_MAX_BYTES ? { refused: 'photoTooBig' } : { kind: 'photo' };
  }
  if ((VIDEO_TYPES as readonly string[]).includes(type)) {
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
  /** `?draft={id}`: resume that draft. */
  draftId: string | null;
  /** Started from a merchant's product ("Skicka med en greetie", `?productId=…&amount=…`): the draft starts with it. */
  gift: GiftInput | null;
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
  | { type: 'user.retrySave' }
  | { type: 'user.send' }
  | { type: 'user.retry' };

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
  | 'overlay:uploading';

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
    /** POST /greetie/{id}/send (a greetie without gifts). */
    sendGreetie: fromPromise<Greetie, { draftId: string }>(async () => {
      throw new Error('The "sendGreetie" actor is given by the page with composeMachine.provide().');
    }),
  },
  actions: {
    storeOpened: assign((_, p: OpenedEvent) => ({ draftId: p.draftId, startGift: p.gift })),
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
    startsWithGift: (_, p: OpenedEvent) => p.gift !== null,
    hasDraft: ({ context }) => context.draftId !== null,
    isNotFound: (_, p: { error: unknown }) => loaderErrorOf(p.error).status === 404,
    isNoLongerDraft: (_, g: Greetie) => g.status !== 'draft',
    leftAtReview: (_, g: Greetie) => g.media !== null && g.recipient !== null,
    leftAtRecipient: (_, g: Greetie) => g.media !== null && (g.gifts.length > 0 || g.message !== ''),
    leftAtGifts: (_, g: Greetie) => g.media !== null && g.content.length > 0,
    leftAtContent: (_, g: Greetie) => g.media !== null,
    isRefusedFile: (_, p: { file: ChosenFile }) => 'refused' in checkMediaFile(p.file),
    hasMedia: ({ context }) => context.draft.media !== null,
    giftsFit: ({ context }) => context.draft.gifts.length <= GIFTS_MAX && context.draft.gifts.every(amountFits),
    hasRecipient: ({ context }) => looksLikeSwedishMobile(context.draft.recipient.mobileNumber),
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
  description: 'Makes a greetie step by step (media, content, gifts, recipient, review), saved as a draft as the person goes, then sends it or hands it over to payment.',
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
  },
  initial: 'opening',
  states: {
    opening: {
      description: 'The page opens: it says what the address asks for (a draft to resume, a product to start with, or nothing).',
      on: {
        'user.opened': [
          {
            guard: { type: 'asksForDraft', params: ({ event }) => event },
            target: 'loading',
            actions: { type: 'storeOpened', params: ({ event }) => event },
            description: 'The address names a draft (?draft=…): load it.',
          },
          {
            guard: { type: 'startsWithGift', params: ({ event }) => event },
            target: 'creatingWithGift',
            actions: { type: 'storeOpened', params: ({ event }) => event },
            description: "Started from a merchant's product: create the draft with that gift.",
          },
          { target: 'editing', description: 'A blank greetie: start at the media step (the draft is created with the first upload).' },
        ],
      },
    },
    loading: {
      description: 'The draft loads to continue where the person left.',
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
            description: 'It has been sent or paid for: it can no longer be changed.',
          },
          {
            guard: { type: 'leftAtReview', params: ({ event }) => event.output },
            target: '#compose.editing.steps.review',
            actions: { type: 'takeDraft', params: ({ event }) => event.output },
            description: 'It has a recipient: continue at the review.',
          },
          {
            guard: { type: 'leftAtRecipient', params: ({ event }) => event.output },
            target: '#compose.editing.steps.recipient',
            actions: { type: 'takeDraft', params: ({ event }) => event.output },
            description: 'It has gifts or a message: continue at the recipient.',
          },
          {
            guard: { type: 'leftAtGifts', params: ({ event }) => event.output },
            target: '#compose.editing.steps.gifts',
            actions: { type: 'takeDraft', params: ({ event }) => event.output },
            description: 'It has content: continue at the gifts.',
          },
          {
            guard: { type: 'leftAtContent', params: ({ event }) => event.output },
            target: '#compose.editing.steps.content',
            actions: { type: 'takeDraft', params: ({ event }) => event.output },
            description: 'It has a photo or video: continue at the content.',
          },
          {
            target: 'editing',
            actions: { type: 'takeDraft', params: ({ event }) => event.output },
            description: 'Nothing uploaded yet: continue at the media step.',
          },
        ],
        onError: [
          {
            guard: { type: 'isNotFound', params: ({ event }) => ({ error: event.error }) },
            target: 'notFound',
            actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
            description: 'There is no such draft of the person\'s (404).',
          },
          {
            target: 'loadFailed',
            actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
            description: 'The draft could not be loaded; its message is kept.',
          },
        ],
      },
    },
    loadFailed: {
      description: 'Loading the draft failed: its message and a way to try again.',
      tags: ['loadFailed'],
      on: { 'user.retry': { target: 'loading', description: 'The person tries loading again.' } },
    },
    notFound: {
      description: 'The draft does not exist, or is not the person\'s.',
      tags: ['notFound'],
    },
    notEditable: {
      description: 'The greetie has been sent or paid for: the page points to its details.',
      tags: ['notEditable'],
    },
    creatingWithGift: {
      description: 'The draft is created with the product the person started from.',
      tags: ['loading', 'busy'],
      entry: 'clearError',
      invoke: {
        id: 'createDraftWithGift',
        src: 'createDraft',
        input: ({ context }) => ({ gifts: context.startGift ? [context.startGift] : [] }),
        onDone: {
          target: 'editing',
          actions: { type: 'takeDraft', params: ({ event }) => event.output },
          description: 'The draft exists, with the gift: on to the media step.',
        },
        onError: {
          target: 'createFailed',
          actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
          description: 'The draft could not be created (e.g. the product is gone); its message is kept.',
        },
      },
    },
    createFailed: {
      description: 'Creating the draft with the gift failed: its message and a retry.',
      tags: ['createFailed'],
      on: { 'user.retry': { target: 'creatingWithGift', description: 'The person tries again.' } },
    },
    editing: {
      description: 'The person works through the steps while the draft is saved beside them.',
      type: 'parallel',
      states: {
        steps: {
          description: 'The step shown.',
          initial: 'media',
          states: {
            media: {
              description: 'Take or choose a photo or video; it uploads with its progress shown.',
              tags: ['step:media'],
              initial: 'ready',
              states: {
                ready: {
                  description: 'No upload runs: the person may choose a file, or go on once there is a photo or video.',
                  initial: 'idle',
                  on: {
                    'user.choseFile': [
                      {
                        guard: { type: 'isRefusedFile', params: ({ event }) => ({ file: event.file }) },
                        target: '.refused',
                        actions: { type: 'storeRefusal', params: ({ event }) => ({ file: event.file }) },
                        description: 'The file is of the wrong type or too big: refused before upload, with why.',
                      },
                      {
                        guard: 'hasDraft',
                        target: 'uploading',
                        actions: { type: 'storeFile', params: ({ event }) => ({ file: event.file }) },
                        description: 'A fitting file, and the draft exists: upload it.',
                      },
                      {
                        target: 'creatingDraft',
                        actions: { type: 'storeFile', params: ({ event }) => ({ file: event.file }) },
                        description: 'A fitting file, and no draft yet: create the draft first.',
                      },
                    ],
                    'user.next': { guard: 'hasMedia', target: '#compose.editing.steps.content', description: 'On to the content (once there is a photo or video).' },
                  },
                  states: {
                    idle: { description: 'Waiting for a file (the uploaded one is shown, if any).' },
                    refused: { description: 'The chosen file was refused before upload: the reason is shown.', tags: ['upload:refused'] },
                    failed: {
                      description: 'The upload failed or the server refused the file: its message and a retry.',
                      tags: ['upload:failed'],
                      on: {
                        'user.retryUpload': [
                          { guard: 'hasDraft', target: '#compose.editing.steps.media.uploading', description: 'The person tries the same file again.' },
                          { target: '#compose.editing.steps.media.creatingDraft', description: 'The person tries again; the draft is created first.' },
                        ],
                      },
                    },
                    cancelled: {
                      description: 'The person stopped the upload: they may try it again or choose another file.',
                      tags: ['upload:cancelled'],
                      on: {
                        'user.retryUpload': [
                          { guard: 'hasDraft', target: '#compose.editing.steps.media.uploading', description: 'The person starts the same file again.' },
                          { target: '#compose.editing.steps.media.creatingDraft', description: 'The person starts again; the draft is created first.' },
                        ],
                      },
                    },
                  },
                },
                creatingDraft: {
                  description: 'The draft is created so the file has somewhere to go.',
                  tags: ['busy', 'upload:creating'],
                  entry: 'clearError',
                  invoke: {
                    id: 'createDraft',
                    src: 'createDraft',
                    input: () => ({}),
                    onDone: {
                      target: 'uploading',
                      actions: { type: 'takeDraft', params: ({ event }) => event.output },
                      description: 'The draft exists: upload the file.',
                    },
                    onError: {
                      target: 'ready.failed',
                      actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
                      description: 'The draft could not be created; the message and a retry are shown.',
                    },
                  },
                  on: { 'user.cancelUpload': { target: 'ready.cancelled', description: 'The person stops before the upload begins.' } },
                },
                uploading: {
                  description: 'The file uploads; the progress bar follows the bytes sent.',
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
                      description: 'The server kept the file: it is shown.',
                    },
                    onError: {
                      target: 'ready.failed',
                      actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
                      description: 'The upload failed or the server refused the file; its message is kept.',
                    },
                  },
                  on: {
                    'upload.progress': {
                      actions: { type: 'storeProgress', params: ({ event }) => ({ loaded: event.loaded, total: event.total }) },
                      description: 'More of the file has been sent.',
                    },
                    'user.cancelUpload': { target: 'ready.cancelled', description: 'The person stops the upload (it is aborted).' },
                  },
                },
              },
            },
            content: {
              description: 'Dress the photo or video with text, emoji, stickers, animations and pictures.',
              tags: ['step:content'],
              on: {
                'user.back': { target: 'media', description: 'Back to the photo or video.' },
                'user.next': { target: 'gifts', description: 'On to the gifts.' },
              },
            },
            gifts: {
              description: 'Choose gifts from the merchants (none is fine), with the running total.',
              tags: ['step:gifts'],
              on: {
                'user.back': { target: 'content', description: 'Back to the content.' },
                'user.next': { guard: 'giftsFit', target: 'recipient', description: 'On to the recipient (every amount within its limits).' },
              },
            },
            recipient: {
              description: 'Who gets it (mobile number, optional name), a message, and when it is delivered.',
              tags: ['step:recipient'],
              on: {
                'user.back': { target: 'gifts', description: 'Back to the gifts.' },
                'user.next': { guard: 'hasRecipient', target: 'review', description: 'On to the review (once the number looks like a Swedish mobile number).' },
              },
            },
            review: {
              description: 'The greetie as the recipient will see it, the gifts and the total.',
              tags: ['step:review'],
              on: {
                'user.back': { target: 'recipient', description: 'Back to the recipient.' },
                'user.send': [
                  {
                    guard: 'isSettledWithGifts',
                    target: '#compose.handingOver',
                    description: "'Betala med Swish': a greetie with gifts goes on to payment (once saved, its overlay uploaded).",
                  },
                  { guard: 'isSettled', target: '#compose.sending', description: "'Skicka': a greetie without gifts is sent (once saved, its overlay uploaded)." },
                ],
              },
            },
          },
        },
        save: {
          description: 'Keeps the server\'s draft up to date with the person\'s edits, one save at a time.',
          initial: 'saved',
          on: {
            'user.changedContent': {
              guard: 'onContentStep',
              target: '.waiting',
              actions: { type: 'storeContent', params: ({ event }) => ({ content: event.content }) },
              description: 'The content changed: save after a pause.',
            },
            'user.changedGifts': {
              guard: 'onGiftsStep',
              target: '.waiting',
              actions: { type: 'storeGifts', params: ({ event }) => ({ gifts: event.gifts }) },
              description: 'The gifts changed: save after a pause.',
            },
            'user.changedRecipient': {
              guard: 'onRecipientStep',
              target: '.waiting',
              actions: { type: 'storeRecipient', params: ({ event }) => event },
              description: 'The recipient, message or delivery time changed: save after a pause.',
            },
          },
          states: {
            saved: { description: 'The server has everything.', tags: ['save:saved'] },
            waiting: {
              description: 'Edits wait for a pause before they are saved.',
              tags: ['save:waiting'],
              after: { saveDelay: { target: 'saving', description: 'No edit for a moment: save.' } },
              on: {
                'user.next': { target: 'saving', description: 'A step change saves at once.' },
                'user.back': { target: 'saving', description: 'A step change saves at once.' },
              },
            },
            saving: {
              description: 'The draft is saved (PATCH); edits made meanwhile are saved after it.',
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
                    description: 'Saved, but the person changed more meanwhile: save that too.',
                  },
                  { target: 'saved', actions: { type: 'takeSaved', params: ({ event }) => event.output }, description: 'Saved.' },
                ],
                onError: {
                  target: 'failed',
                  actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
                  description: 'The save failed (network, or the server refused a field); its message is kept.',
                },
              },
              on: {
                'user.changedContent': {
                  guard: 'onContentStep',
                  actions: [{ type: 'storeContent', params: ({ event }) => ({ content: event.content }) }, 'markUnsaved'],
                  description: 'The content changed during a save: kept, saved next.',
                },
                'user.changedGifts': {
                  guard: 'onGiftsStep',
                  actions: [{ type: 'storeGifts', params: ({ event }) => ({ gifts: event.gifts }) }, 'markUnsaved'],
                  description: 'The gifts changed during a save: kept, saved next.',
                },
                'user.changedRecipient': {
                  guard: 'onRecipientStep',
                  actions: [{ type: 'storeRecipient', params: ({ event }) => event }, 'markUnsaved'],
                  description: 'The recipient changed during a save: kept, saved next.',
                },
              },
            },
            failed: {
              description: 'The last save failed: the message and a retry (the edits are kept here).',
              tags: ['save:failed'],
              on: { 'user.retrySave': { target: 'saving', description: 'The person tries the save again.' } },
            },
          },
        },
        giftLimits: {
          description: "Reads the limits of the gifts that came from the server, so a value voucher's amount stays editable.",
          initial: 'known',
          states: {
            known: {
              description: 'Every gift has its limits (or a fixed price).',
              always: { guard: 'needsGiftLimits', target: 'loading', description: 'Gifts came with the draft: read their products.' },
            },
            loading: {
              description: "The gifts' products are read from their merchants.",
              invoke: {
                id: 'loadGiftLimits',
                src: 'loadGiftLimits',
                input: ({ context }) => ({ merchantIds: [...new Set(context.draft.gifts.map((g) => g.merchantId))] }),
                onDone: {
                  target: 'known',
                  actions: { type: 'takeGiftLimits', params: ({ event }) => event.output },
                  description: "Value vouchers' amounts can be changed within their limits.",
                },
                onError: { target: 'unknown', description: 'The products could not be read: the amounts stay as they are (the server checks them).' },
              },
            },
            unknown: { description: 'The limits could not be read: the amounts are shown, not editable.' },
          },
        },
        overlay: {
          description: 'Keeps the flattened image of the content (thumbnail, link preview, lists) in step with the content, after each save.',
          initial: 'current',
          states: {
            current: {
              description: "The server's overlay shows the content (or there is nothing to flatten).",
              always: { guard: 'isOverlayDue', target: 'uploading', description: 'The changed content is saved: flatten it and upload the image.' },
            },
            uploading: {
              description: 'The content is drawn to one image and uploaded; the review waits for it.',
              tags: ['overlay:uploading'],
              entry: 'markOverlayCurrent',
              invoke: {
                id: 'uploadOverlay',
                src: 'uploadOverlay',
                input: ({ context }) => ({ draftId: context.draftId ?? '', content: context.draft.content }),
                onDone: {
                  target: 'current',
                  actions: { type: 'takeOverlay', params: ({ event }) => event.output },
                  description: 'The server has the new overlay (a change meanwhile is flattened next).',
                },
                onError: { target: 'failed', actions: 'markOverlayStale', description: 'The upload failed: nothing is shown; it is tried again with the next change.' },
              },
            },
            failed: {
              description: 'The last overlay upload failed; the person goes on regardless.',
              on: {
                'user.changedContent': { guard: 'onContentStep', target: 'current', description: 'The content changed: flatten and upload it after the save.' },
              },
            },
          },
        },
      },
    },
    handingOver: {
      description: 'Saved and complete with gifts: the payment panel takes it from here (machines/payment.ts).',
      tags: ['step:payment'],
      on: { 'user.back': { target: '#compose.editing.steps.review', description: 'Back to the review.' } },
    },
    sending: {
      description: "The greetie without gifts is sent ('Skicka').",
      tags: ['step:review', 'busy'],
      entry: 'clearError',
      invoke: {
        id: 'sendGreetie',
        src: 'sendGreetie',
        input: ({ context }) => ({ draftId: context.draftId ?? '' }),
        onDone: { target: 'sent', actions: { type: 'takeSent', params: ({ event }) => event.output }, description: 'Sent: it is on its way.' },
        onError: {
          target: 'sendFailed',
          actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
          description: 'Sending failed; its message is kept.',
        },
      },
    },
    sendFailed: {
      description: 'Sending failed: the review with the message, a retry and a way back.',
      tags: ['step:review', 'sendFailed'],
      on: {
        'user.retry': { target: 'sending', description: 'The person tries sending again.' },
        'user.back': { target: '#compose.editing.steps.review', description: 'Back to the review.' },
      },
    },
    sent: {
      description: 'Sent: delivered now, or at the chosen time.',
      tags: ['sent'],
      type: 'final',
    },
  },
});
