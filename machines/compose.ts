import { and, assign, fromPromise, not, sendTo, setup, stateIn } from 'xstate';
import { isUuid } from '../contract/common.ts';
import type { Failure } from '../contract/errors.ts';
import type { ContentElement, Greetie, GreetieCreateV2 } from '../contract/greetie.ts';
import type { Product } from '../contract/merchant.ts';
import { checkName } from '../contract/name.ts';
import type { Payment } from '../contract/payment.ts';
import { looksLikeSwedishMobile } from './auth.ts';
import { draftOf, emptyDraft, withLimits, type ComposeStep, type GiftChoice, type RecipientFields, type SavedSender } from './compose/draft.ts';
import { ADDRESS_STEPS, giftsFit, isPaidFor, landingStep, namesFit, stepFor, type AddressStep } from './compose/steps.ts';
import { autosaveMachine, type GiftLimitsInput } from './compose/autosave.ts';
import type { ComposeContext, ComposeEvent, ComposeTag, OpenedEvent, OverlayInput } from './compose/types.ts';
import { uploadMachine } from './compose/upload.ts';
import { paymentMachine } from './payment.ts';

/**
 * Making a greetie on /greetie/new: media → content → gifts → recipient → review, then it hands
 * over to payment (a greetie with gifts) or sends it (no gifts: POST /greetie/{id}/send).
 *
 * - Every step can go back. The draft lives on the server: it is created when first needed (the
 *   upload needs its id; a start from a merchant's product creates it at once with that gift).
 *   While the person edits, the child `autosave` (compose/autosave.ts) saves every change: compose
 *   hands it each change (`draft.changed`) and each step change (`draft.flush`), and it answers
 *   `save.saved`; sending waits until a `save.saved` with nothing pending (`saved`).
 * - `?draft={id}` resumes: the draft loads and the person lands on the step where they left
 *   (the furthest step the draft's own data shows they reached).
 * - Each step has its own address (/greetie/new/{step}); the page keeps it in step with the state.
 *   When the address names a step (a reload, the browser's back or forward) the page says so: as
 *   it opens (`user.opened` with `step`) or later (`step.requested`). The machine opens that step
 *   when every step before it is finished, otherwise the first unfinished one (compose/steps.ts);
 *   an address never starts the payment, and a file going up keeps the media step.
 * - The media step invokes the child `upload` (compose/upload.ts): it checks the file, creates the
 *   draft when there is none, uploads with progress, and can be cancelled and retried. It tells
 *   compose `upload.started`, `upload.created`, `upload.done` and `upload.stopped`; the step holds
 *   "Nästa" while a file goes up.
 * - Value vouchers' amounts stay editable within their limits: the products of a draft's gifts are
 *   read (`loadGiftLimits`) when a draft with gifts arrives (resumed, or started from a product).
 * - The content is also flattened to one image (`uploadOverlay`) once a change of it is saved;
 *   a failed upload never holds the person up: it is tried again with the next change.
 * - The sender's name: the SMS names the sender, and /send and /startpayment refuse without one.
 *   When the profile has none, the recipient step asks for it and saves it (`saveSenderName`)
 *   before the review. Both names follow the one name rule (contract/name.ts).
 * - The withdrawal consent (decision 097): a greetie with gifts is paid for only once the buyer has
 *   ticked, at review, that delivery starts at once and that the right of withdrawal ends when
 *   the recipient opens it or uses a gift (`user.consented`, guard `hasConsent`); 'Betala med
 *   Swish' without it starts nothing and the page says so at the box.
 * - The hand-over: the review invokes the payment machine (machines/payment.ts) as the child
 *   `payment`, with the consent; once it is paid, compose ends in `paid` with the payment for the receipt.
 * - After it (`paid`, `sent`, tag `stepsLeft`) the steps are behind: an address asking for one
 *   (`step.requested`) changes nothing, and the page replaces the steps' history entries with the
 *   receipt's, so the browser's back leaves the wizard. A reload of a paid greetie's step address
 *   is `alreadyPaid`: its page with the receipt, never a payment (decision 131).
 *
 * The draft's mapping to and from the server is compose/draft.ts; the context, events, screens
 * and tags are compose/types.ts. Each state the page shows has one of `COMPOSE_SCREENS` as a tag;
 * `busy`, `overlay:uploading`, `senderName:saving` and `sendFailed` say what runs (the upload's
 * and the save's own tags are the children's). The implementations reject with the one `Failure`
 * (contract/errors.ts); the machine reads its `code`. The page group gives them with `.provide()`
 * (src/pages/greetie/implementations.ts).
 */

export { COMPOSE_SCREENS, type ComposeContext, type ComposeEvent, type ComposeScreen, type ComposeTag, type OpenedEvent, type OverlayInput } from './compose/types.ts';
export { SAVE_DELAY_MS, type GiftLimitsInput, type SaveInput } from './compose/autosave.ts';
export type { UploadInput, UploadProgress, UploadProgressEvent } from './compose/upload.ts';

/** The failure an implementation rejected with (contract/errors.ts), as the params that read it. */
const failed = ({ event }: { event: { error: unknown } }) => ({ failure: event.error as Failure });

/** The greetie a call answered, as the params of the actions and guards that read it. */
const answered = ({ event }: { event: { output: Greetie } }) => event.output;

/** Where a loaded draft lands (compose/steps.ts, `landingStep`): the step its address named, or where the person left. */
function resumeAt(step: ComposeStep | null, target: string, description: string) {
  return {
    ...(step ? { guard: { type: 'landsAt' as const, params: ({ event }: { event: { output: Greetie } }) => ({ greetie: event.output, step }) } } : {}),
    target,
    actions: { type: 'takeDraft' as const, params: answered },
    description,
  };
}

/** The address asks for a step that leads to `step` (compose/steps.ts, `stepFor`), shown from another step: go there, saving what waits. */
function toStep(step: ComposeStep, onStep: 'isOnMedia' | 'isOnContent' | 'isOnGifts' | 'isOnRecipient' | 'isOnReview', description: string) {
  return {
    guard: and([{ type: 'leadsTo' as const, params: { step } }, not(onStep)]),
    target: `.${step}`,
    actions: 'flushSave' as const,
    description,
  };
}

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
    /** The media step's upload (compose/upload.ts), with its server calls given by the page group. */
    upload: uploadMachine,
    /** The draft's autosave (compose/autosave.ts), with its server calls given by the page group. */
    autosave: autosaveMachine,
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
    /** The payment (machines/payment.ts), with its server calls given by the page group. */
    payment: paymentMachine,
    /** POST /greetie/{id}/send (a greetie without gifts). */
    sendGreetie: fromPromise<Greetie, { draftId: string }>(async () => {
      throw new Error('The "sendGreetie" actor is given by the page with composeMachine.provide().');
    }),
  },
  actions: {
    storeOpened: assign((_, p: OpenedEvent) => ({
      device: p.device ?? 'desktop',
      draftId: p.draftId,
      openAt: p.step ?? null,
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
    storeSenderNameError: assign((_, p: { failure: Failure }) => ({ senderNameError: p.failure })),
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
      // New media comes without an overlay: the content is flattened again.
      overlayStale: context.draft.content.length > 0,
    })),
    /** After a save: what only the server knows (the edits made meanwhile stay), and whether all is saved. */
    takeSaved: assign((_, p: { greetie: Greetie; pending: boolean }) => ({ status: p.greetie.status, total: p.greetie.total, saved: !p.pending })),
    takeSent: assign((_, g: Greetie) => ({ status: g.status, error: null })),
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
    /** Hand the autosave the draft as it is now (`tellAutosave`): it is not saved until the autosave says so. */
    markChanged: assign({ saved: false }),
    tellAutosave: sendTo('autosave', ({ context }) => ({ type: 'draft.changed' as const, draftId: context.draftId, draft: context.draft })),
    /** A step change: a waiting save goes at once. */
    flushSave: sendTo('autosave', { type: 'draft.flush' as const }),
    clearError: assign({ error: null }),
    storeError: assign((_, p: { failure: Failure }) => ({ error: p.failure })),
    takePaid: assign((_, p: { payment: Payment | null }) => ({ payment: p.payment, status: 'awaitingPayment' as const })),
    storeConsent: assign((_, p: { consented: boolean }) => ({ consent: p.consented, consentMissing: false })),
    markConsentMissing: assign({ consentMissing: true }),
    clearConsentMissing: assign({ consentMissing: false }),
  },
  guards: {
    asksForDraft: (_, p: OpenedEvent) => p.draftId !== null,
    /** No draft ever has that id (a draft's id is a UUID): there is nothing to ask the server. */
    asksForNoSuchDraft: (_, p: OpenedEvent) => p.draftId !== null && !isUuid(p.draftId),
    startsWithGift: (_, p: OpenedEvent) => p.gift !== null,
    hasDraft: ({ context }) => context.draftId !== null,
    isNotFound: (_, p: { failure: Failure }) => p.failure.code === 'GREETIE_NOT_FOUND',
    isNoLongerDraft: (_, g: Greetie) => g.status !== 'draft',
    /** Paid for (it has gifts and is past its payment): its receipt is on the greetie's page, and it is never paid again. */
    isPaidFor: (_, g: Greetie) => isPaidFor(g),
    /** A loaded draft opens at this step: the one its address named when the steps before it are finished, else where the person left (compose/steps.ts). */
    landsAt: ({ context }, p: { greetie: Greetie; step: ComposeStep }) => landingStep(p.greetie, context.sender, context.openAt) === p.step,
    /** The step the address asks for leads here: to it when the steps before it are finished, else to the first unfinished one. */
    leadsTo: ({ context, event }, p: { step: ComposeStep }) => event.type === 'step.requested' && stepFor(event.step, context.draft, context.sender) === p.step,
    /** The address asks for a step before this one (the browser's back). */
    requestsEarlier: (_, p: { requested: AddressStep; step: AddressStep }) => ADDRESS_STEPS.indexOf(p.requested) < ADDRESS_STEPS.indexOf(p.step),
    isOnMedia: stateIn('#compose.editing.steps.media'),
    isOnContent: stateIn('#compose.editing.steps.content'),
    isOnGifts: stateIn('#compose.editing.steps.gifts'),
    isOnRecipient: stateIn('#compose.editing.steps.recipient'),
    isOnReview: stateIn('#compose.editing.steps.review'),
    hasMedia: ({ context }) => context.draft.media !== null,
    giftsFit: ({ context }) => giftsFit(context.draft.gifts),
    hasRecipient: ({ context }) => looksLikeSwedishMobile(context.draft.recipient.mobileNumber),
    /** Both names pass the name rule (the sender's only when it is asked for). */
    namesFit: ({ context }) => namesFit(context.draft, context.sender),
    needsSenderName: ({ context }) => context.sender.needsName,
    canLeaveRecipient: and(['hasRecipient', 'namesFit']),
    canLeaveRecipientNamed: and(['canLeaveRecipient', not('needsSenderName')]),
    hasGifts: ({ context }) => context.draft.gifts.length > 0,
    isSaved: ({ context }) => context.saved,
    isUnsaved: ({ context }) => !context.saved,
    isOverlayUploading: stateIn('#compose.editing.overlay.uploading'),
    /** Saved, and no overlay on its way (one that failed does not hold the person up). */
    isSettled: and(['isSaved', not('isOverlayUploading')]),
    isSettledWithGifts: and(['isSettled', 'hasGifts']),
    /** The buyer has ticked the withdrawal consent at review. */
    hasConsent: ({ context }) => context.consent,
    canPay: and(['isSettledWithGifts', 'hasConsent']),
    isOverlayStale: ({ context }) => context.overlayStale && context.draftId !== null && context.draft.media !== null,
    isOverlayDue: and(['isOverlayStale', 'isSaved']),
    needsGiftLimits: ({ context }) => !context.giftLimitsKnown && context.draft.gifts.length > 0,
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
    error: null,
    saved: true,
    overlayStale: false,
    giftLimitsKnown: true,
    sender: { id: null, name: '', needsName: false },
    senderNameError: null,
    device: 'desktop',
    payment: null,
    consent: false,
    consentMissing: false,
    openAt: null,
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
          {
            target: 'editing',
            actions: { type: 'storeOpened', params: ({ event }) => event },
            description: 'En tom greetie: börja med foto/video (utkastet skapas vid första uppladdningen).',
          },
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
            guard: { type: 'isPaidFor', params: answered },
            target: 'alreadyPaid',
            actions: { type: 'takeDraft', params: answered },
            description: 'Den är redan betald (en stegadress laddades om efter betalningen): kvittot, aldrig en betalning.',
          },
          {
            guard: { type: 'isNoLongerDraft', params: answered },
            target: 'notEditable',
            actions: { type: 'takeDraft', params: answered },
            description: 'Den är redan skickad (eller väntar på sin betalning): den kan inte längre ändras.',
          },
          resumeAt(
            'review',
            '#compose.editing.steps.review',
            'Till granskningen: adressen ber om den (eller betalningen) och stegen före är klara; eller, utan steg i adressen, den har en mottagare och avsändaren ett namn.',
          ),
          resumeAt(
            'recipient',
            '#compose.editing.steps.recipient',
            'Till mottagaren: adressen ber om den, eller om ett senare steg och mottagaren är inte klar; eller, utan steg i adressen, den har gåvor, ett meddelande eller en mottagare.',
          ),
          resumeAt('gifts', '#compose.editing.steps.gifts', 'Till gåvorna: adressen ber om dem (eller om ett senare steg och ett belopp passar inte); eller, utan steg i adressen, den har innehåll.'),
          resumeAt('content', '#compose.editing.steps.content', 'Till innehållet: adressen ber om det; eller, utan steg i adressen, den har ett foto eller en video.'),
          resumeAt(null, 'editing', 'Till foto/video: adressen ber om det, eller inget är uppladdat än.'),
        ],
        onError: [
          {
            guard: { type: 'isNotFound', params: failed },
            target: 'notFound',
            actions: { type: 'storeError', params: failed },
            description: 'Personen har inget sådant utkast (GREETIE_NOT_FOUND).',
          },
          {
            target: 'loadFailed',
            actions: { type: 'storeError', params: failed },
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
      description: 'Greetien är redan skickad (eller väntar på sin betalning): sidan visar vägen till dess detaljer.',
      tags: ['notEditable'],
    },
    alreadyPaid: {
      description: 'Greetien är redan betald: dess sida med kvittot ersätter adressen (den kan inte ändras eller betalas igen).',
      tags: ['alreadyPaid'],
      type: 'final',
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
          actions: { type: 'takeDraft', params: answered },
          description: 'Utkastet finns, med gåvan: vidare till foto/video.',
        },
        onError: {
          target: 'createFailed',
          actions: { type: 'storeError', params: failed },
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
      description: 'Personen går igenom stegen medan utkastet sparas vid sidan om (barnet autosave).',
      type: 'parallel',
      invoke: { id: 'autosave', src: 'autosave' },
      on: {
        // A step that takes user.next or user.back flushes the save itself; here, a "Nästa" that
        // changes no step (an amount out of its limits, no photo yet). Every step but the first
        // takes user.back, and the first has no way back.
        'user.next': { actions: 'flushSave', description: 'Nästa utan att steget byts: en väntande sparning går nu ändå.' },
        'save.saved': {
          guard: 'isUnsaved',
          actions: { type: 'takeSaved', params: ({ event }) => event },
          description: 'Autosave sparade: serverns summa och status; allt är sparat om inget mer väntar.',
        },
      },
      states: {
        steps: {
          description: 'Steget som visas; varje steg har sin egen adress (/greetie/new/{steg}).',
          initial: 'media',
          on: {
            // Only a step other than the one shown: a request that leads back here changes nothing
            // (the page puts this step's address back).
            'step.requested': [
              toStep('media', 'isOnMedia', 'Adressen ber om foto/video (webbläsarens bakåt): dit.'),
              toStep('content', 'isOnContent', 'Adressen ber om innehållet (bakåt eller framåt), och det finns ett foto eller en video: dit.'),
              toStep('gifts', 'isOnGifts', 'Adressen ber om gåvorna, eller om ett senare steg medan ett belopp inte passar: dit.'),
              toStep('recipient', 'isOnRecipient', 'Adressen ber om mottagaren, eller om granskningen medan mottagaren inte är klar: dit.'),
              toStep('review', 'isOnReview', 'Adressen ber om granskningen (eller betalningen) och alla steg före är klara: dit (betalningen startar bara med knappen).'),
            ],
          },
          states: {
            media: {
              description: 'Ta eller välj ett foto eller en video; barnet upload kontrollerar och laddar upp den, och förloppet visas.',
              tags: ['media'],
              invoke: { id: 'upload', src: 'upload', input: ({ context }) => ({ draftId: context.draftId }) },
              initial: 'ready',
              states: {
                ready: {
                  description: 'Ingen uppladdning pågår: personen kan gå vidare när det finns ett foto eller en video.',
                  on: {
                    'user.next': {
                      guard: 'hasMedia',
                      target: '#compose.editing.steps.content',
                      actions: 'flushSave',
                      description: 'Vidare till innehållet (när det finns ett foto eller en video).',
                    },
                    'upload.started': { target: 'uploading', description: 'En fil går upp: steget väntar på den.' },
                  },
                },
                uploading: {
                  description: 'En fil laddas upp (utkastet skapas först om det inte finns).',
                  tags: ['busy'],
                  on: {
                    'step.requested': { description: 'Adressen ber om ett annat steg medan filen går upp: steget stannar, som Nästa väntar.' },
                    'upload.created': {
                      guard: not('hasDraft'),
                      actions: { type: 'takeDraft', params: ({ event }) => event.greetie },
                      description: 'Utkastet skapades för filen: det finns nu.',
                    },
                    'upload.done': {
                      guard: 'hasDraft',
                      target: 'ready',
                      actions: { type: 'takeMedia', params: ({ event }) => event.greetie },
                      description: 'Servern tog emot filen: den visas.',
                    },
                    'upload.stopped': { target: 'ready', description: 'Uppladdningen misslyckades eller avbröts (barnet visar varför).' },
                  },
                },
              },
            },
            content: {
              description: 'Klä fotot eller videon med text, emojis, klistermärken, animationer och bilder.',
              tags: ['content'],
              on: {
                'user.changedContent': {
                  actions: [{ type: 'storeContent', params: ({ event }) => ({ content: event.content }) }, 'markChanged', 'tellAutosave'],
                  description: 'Innehållet ändrades: autosave sparar det.',
                },
                'user.back': { target: 'media', actions: 'flushSave', description: 'Tillbaka till fotot eller videon.' },
                'user.next': { target: 'gifts', actions: 'flushSave', description: 'Vidare till gåvorna.' },
              },
            },
            gifts: {
              description: 'Välj gåvor från handlarna (inga går också bra), med summan hittills.',
              tags: ['gifts'],
              on: {
                'user.changedGifts': {
                  actions: [{ type: 'storeGifts', params: ({ event }) => ({ gifts: event.gifts }) }, 'markChanged', 'tellAutosave'],
                  description: 'Gåvorna ändrades: autosave sparar dem.',
                },
                'user.back': { target: 'content', actions: 'flushSave', description: 'Tillbaka till innehållet.' },
                'user.next': { guard: 'giftsFit', target: 'recipient', actions: 'flushSave', description: 'Vidare till mottagaren (alla belopp inom sina gränser).' },
              },
            },
            recipient: {
              description:
                'Vem som får den (mobilnummer, namn om man vill), ett meddelande och när den ska komma fram; och avsändarens namn när profilen saknar det (sms:et nämner avsändaren).',
              tags: ['recipient'],
              initial: 'editing',
              on: {
                'user.back': { target: 'gifts', actions: 'flushSave', description: 'Tillbaka till gåvorna.' },
                'user.changedRecipient': {
                  actions: [{ type: 'storeRecipient', params: ({ event }) => event }, 'markChanged', 'tellAutosave'],
                  description: 'Mottagaren, meddelandet eller leveranstiden ändrades: autosave sparar dem.',
                },
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
                        actions: 'flushSave',
                        description: 'Vidare till granskningen (numret ser ut som ett svenskt mobilnummer och namnen följer namnregeln).',
                      },
                      {
                        guard: 'canLeaveRecipient',
                        target: 'savingSenderName',
                        actions: 'flushSave',
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
                      actions: { type: 'storeSenderNameError', params: failed },
                      description: 'Namnet kunde inte sparas (servern godtog det inte, eller nätet): felet visas under "Ditt namn".',
                    },
                  },
                },
              },
            },
            review: {
              description: 'Greetien som mottagaren kommer att se den, gåvorna och summan; med gåvor rutan om leverans direkt och ångerrätten.',
              tags: ['review'],
              // The consent's error belongs to this visit of the review; the tick itself stays.
              exit: 'clearConsentMissing',
              on: {
                'user.back': { target: 'recipient', actions: 'flushSave', description: 'Tillbaka till mottagaren.' },
                'user.consented': {
                  guard: 'hasGifts',
                  actions: { type: 'storeConsent', params: ({ event }) => ({ consented: event.consented }) },
                  description: 'Med gåvor: personen kryssar i (eller ur) rutan om leverans direkt och att ångerrätten upphör när mottagaren öppnar greetien eller använder en gåva.',
                },
                'user.send': [
                  {
                    guard: 'canPay',
                    target: '#compose.handingOver',
                    description:
                      "'Betala med Swish': en greetie med gåvor går vidare till betalning (när den är sparad, bilden av innehållet uppladdad och rutan om ångerrätten ikryssad).",
                  },
                  {
                    guard: 'isSettledWithGifts',
                    actions: 'markConsentMissing',
                    description: "'Betala med Swish' utan ikryssad ruta om ångerrätten: ingen betalning startar; felet sägs vid rutan, som får fokus.",
                  },
                  { guard: 'isSettled', target: '#compose.sending', description: "'Skicka': en greetie utan gåvor skickas (när den är sparad och bilden av innehållet uppladdad)." },
                ],
              },
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
                'user.changedContent': { guard: 'isOnContent', target: 'current', description: 'Innehållet ändrades: gör en bild och ladda upp den efter sparningen.' },
              },
            },
          },
        },
      },
    },
    handingOver: {
      description: 'Sparad och klar, med gåvor: betalningen (machines/payment.ts) tar över härifrån.',
      tags: ['payment'],
      invoke: {
        id: 'payment',
        src: 'payment',
        input: ({ context }) => ({ greetieId: context.draftId ?? '', device: context.device, consented: context.consent }),
        onDone: {
          target: 'paid',
          actions: { type: 'takePaid', params: ({ event }) => ({ payment: event.output.payment }) },
          description: 'Betald: kvittot visas.',
        },
      },
      on: {
        'user.back': { target: '#compose.editing.steps.review', description: 'Tillbaka till granskningen.' },
        'step.requested': {
          guard: { type: 'requestsEarlier', params: ({ event }) => ({ requested: event.step, step: 'payment' as const }) },
          target: '#compose.editing.steps.review',
          description: 'Webbläsarens bakåt under betalningen: tillbaka till granskningen, som med Tillbaka.',
        },
      },
    },
    paid: {
      description:
        'Betald: kvittot (vad som köptes, summan, säljaren, när den levereras). Stegen är lämnade: sidan byter ut deras adresser i historiken mot kvittots, så bakåt leder ut ur guiden dit personen kom ifrån.',
      tags: ['paid', 'stepsLeft'],
      on: {
        'step.requested': {
          description:
            'En stegadress efter betalningen (webbläsarens framåt till en gammal stegadress, en adress skriven): kvittot står kvar, en betald greetie kan inte ändras eller betalas igen; sidan sätter tillbaka kvittots adress.',
        },
      },
    },
    sending: {
      description: "Greetien utan gåvor skickas ('Skicka').",
      tags: ['review', 'busy'],
      entry: 'clearError',
      invoke: {
        id: 'sendGreetie',
        src: 'sendGreetie',
        input: ({ context }) => ({ draftId: context.draftId ?? '' }),
        onDone: { target: 'sent', actions: { type: 'takeSent', params: ({ event }) => event.output }, description: 'Skickad: den är på väg.' },
        onError: {
          target: 'sendFailed',
          actions: { type: 'storeError', params: failed },
          description: 'Det gick inte att skicka; felmeddelandet sparas.',
        },
      },
    },
    sendFailed: {
      description: 'Det gick inte att skicka: granskningen med felmeddelandet, Försök igen och en väg tillbaka.',
      tags: ['review', 'sendFailed'],
      on: {
        'user.retry': { target: 'sending', description: 'Personen försöker skicka igen.' },
        'user.back': { target: '#compose.editing.steps.review', description: 'Tillbaka till granskningen.' },
      },
    },
    sent: {
      description:
        'Skickad: levereras nu, eller vid den valda tiden. Stegen är lämnade: sidan byter ut deras adresser i historiken mot den skickades, så bakåt leder ut ur guiden.',
      tags: ['sent', 'stepsLeft'],
      on: {
        'step.requested': {
          description: 'En stegadress efter att den skickats: beskedet står kvar, en skickad greetie kan inte ändras; sidan sätter tillbaka sin adress.',
        },
      },
    },
  },
});
