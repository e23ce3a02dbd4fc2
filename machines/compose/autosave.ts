import { assign, fromPromise, sendParent, setup, type ActorRefFrom } from 'xstate';
import type { Failure } from '../../contract/errors.ts';
import type { Greetie, GreetieUpdate } from '../../contract/greetie.ts';
import type { Product } from '../../contract/merchant.ts';
import { changesOf, type ComposeDraft } from './draft.ts';

/**
 * The draft's autosave: a child of the compose machine (invoked as `autosave` while the person
 * edits). It keeps the server's draft in step with the person's changes, one save at a time:
 * a change waits for a pause (`saveDelay`), a step change saves at once (`draft.flush`), a change
 * made during a save is saved after it. A failed save keeps the changes and offers a retry; a save
 * refused because a chosen gift sold out (GIFT_CODE_POOL_EMPTY, which does not say which) reads
 * the gifts' products again to name it (`findSoldOut`). A save refused for a field the person is
 * still filling in, which the step checks and marks itself (a mistyped number, a name against the
 * name rule, an amount outside its limits: `FIELD_REFUSALS`), is no save fault: it is `invalid`,
 * and the next change saves again.
 *
 * It tells compose by events: `save.saved` (with the server's answer and whether more changes
 * wait) after each save. Compose's review waits until a `save.saved` with nothing pending. The
 * page reads the save's tags (`save:<what>`), its failure and the sold-out gifts from this actor.
 */

/** How long edits pause before the draft is saved. */
export const SAVE_DELAY_MS = 800;

export interface SaveInput {
  draftId: string;
  changes: GreetieUpdate;
}

/** Whose products tell the gifts' limits (or which of them sold out). */
export interface GiftLimitsInput {
  merchantIds: string[];
}

export type AutosaveEvent =
  /** The person changed the draft (compose sends the whole draft as it is now). */
  | { type: 'draft.changed'; draftId: string | null; draft: ComposeDraft }
  /** The person changed step: a waiting save goes at once. */
  | { type: 'draft.flush' }
  | { type: 'user.retrySave' };

/** What the autosave tells compose. */
export type AutosaveReport = { type: 'save.saved'; greetie: Greetie; pending: boolean };

export type AutosaveTag = 'save:saved' | 'save:waiting' | 'save:saving' | 'save:failed' | 'save:soldOut' | 'save:invalid';

/**
 * The refusals of a field the step itself checks and marks beside the field as the person types:
 * the recipient's number, a name (contract/name.ts), a gift's amount. Saving waits for the next change.
 */
export const FIELD_REFUSALS: readonly Failure['code'][] = [
  'INVALID_MOBILE_NUMBER',
  'NAME_EMPTY',
  'NAME_TOO_LONG',
  'NAME_INVALID_CHARACTERS',
  'NAME_HAS_LINK',
  'NAME_HAS_PHONE_NUMBER',
  'GIFT_AMOUNT_REQUIRED',
  'GIFT_AMOUNT_OUT_OF_RANGE',
];

export interface AutosaveContext {
  draftId: string | null;
  /** The draft as it was last changed (what the next save sends). */
  draft: ComposeDraft | null;
  /** A change arrived while a save ran: save again after it. */
  unsaved: boolean;
  /** The last save's failure; cleared when it is tried again. */
  error: Failure | null;
  /** A chosen gift sold out: the product ids found sold out (null while looking, or when no save was refused so). */
  soldOut: string[] | null;
}

const failed = ({ event }: { event: { error: unknown } }) => ({ failure: event.error as Failure });

export const autosaveMachine = setup({
  types: {
    context: {} as AutosaveContext,
    events: {} as AutosaveEvent,
    tags: {} as AutosaveTag,
  },
  actors: {
    /** PATCH /greetie/{id}. */
    saveDraft: fromPromise<Greetie, SaveInput>(async () => {
      throw new Error('The "saveDraft" actor is given by the page with autosaveMachine.provide().');
    }),
    /** GET /merchant/{id}/products for each merchant of the gifts. */
    loadProducts: fromPromise<Product[], GiftLimitsInput>(async () => {
      throw new Error('The "loadProducts" actor is given by the page with autosaveMachine.provide().');
    }),
  },
  actions: {
    storeChange: assign((_, p: { draftId: string | null; draft: ComposeDraft }) => ({ draftId: p.draftId, draft: p.draft })),
    markUnsaved: assign({ unsaved: true }),
    markSaving: assign({ unsaved: false, error: null }),
    storeError: assign((_, p: { failure: Failure }) => ({ error: p.failure, soldOut: null })),
    /** The chosen gifts' products read again: those no longer available are the sold-out ones. */
    storeSoldOut: assign((_, products: Product[]) => ({ soldOut: products.filter((x) => x.available === false).map((x) => x.id) })),
    noneSoldOutFound: assign({ soldOut: [] as string[] }),
    reportSaved: sendParent((_, p: { greetie: Greetie; pending: boolean }): AutosaveReport => ({ type: 'save.saved', greetie: p.greetie, pending: p.pending })),
  },
  guards: {
    hasUnsavedChanges: ({ context }) => context.unsaved,
    isSoldOut: (_, p: { failure: Failure }) => p.failure.code === 'GIFT_CODE_POOL_EMPTY',
    isFieldRefusal: (_, p: { failure: Failure }) => p.failure.status === 400 && FIELD_REFUSALS.includes(p.failure.code),
  },
  delays: {
    saveDelay: SAVE_DELAY_MS,
  },
}).createMachine({
  id: 'autosave',
  description: 'Håller utkastet på servern i takt med personens ändringar, en sparning i taget, och säger till när allt är sparat.',
  context: { draftId: null, draft: null, unsaved: false, error: null, soldOut: null },
  initial: 'saved',
  on: {
    'draft.changed': {
      target: '.waiting',
      actions: { type: 'storeChange', params: ({ event }) => event },
      description: 'Personen ändrade något: spara efter en paus.',
    },
  },
  states: {
    saved: { description: 'Servern har allt.', tags: ['save:saved'] },
    waiting: {
      description: 'Ändringar väntar på en paus innan de sparas.',
      tags: ['save:waiting'],
      after: { saveDelay: { target: 'saving', description: 'Ingen ändring på en stund: spara.' } },
      on: { 'draft.flush': { target: 'saving', description: 'Ett byte av steg sparar direkt.' } },
    },
    saving: {
      description: 'Utkastet sparas; ändringar som görs under tiden sparas efteråt.',
      tags: ['save:saving'],
      entry: 'markSaving',
      invoke: {
        id: 'saveDraft',
        src: 'saveDraft',
        input: ({ context }) => ({ draftId: context.draftId ?? '', changes: context.draft ? changesOf(context.draft) : {} }),
        onDone: [
          {
            guard: 'hasUnsavedChanges',
            target: 'waiting',
            actions: { type: 'reportSaved', params: ({ event }) => ({ greetie: event.output, pending: true }) },
            description: 'Sparat, men personen har ändrat mer under tiden: spara det också.',
          },
          {
            target: 'saved',
            actions: { type: 'reportSaved', params: ({ event }) => ({ greetie: event.output, pending: false }) },
            description: 'Sparat: compose får veta att allt är sparat.',
          },
        ],
        onError: [
          {
            guard: { type: 'isFieldRefusal', params: failed },
            target: 'invalid',
            actions: { type: 'storeError', params: failed },
            description: 'Servern godtog inte ett fält som personen håller på att fylla i (ett felskrivet nummer): inget sparfel, fältet säger vad som är fel.',
          },
          {
            guard: { type: 'isSoldOut', params: failed },
            target: 'failed.soldOut',
            actions: { type: 'storeError', params: failed },
            description: 'En vald gåva är slut (GIFT_CODE_POOL_EMPTY, utan att säga vilken): ta reda på vilken.',
          },
          {
            target: 'failed',
            actions: { type: 'storeError', params: failed },
            description: 'Sparningen misslyckades (nätet, eller servern godtog inte ett fält); felmeddelandet sparas.',
          },
        ],
      },
      on: {
        'draft.changed': {
          actions: [{ type: 'storeChange', params: ({ event }) => event }, 'markUnsaved'],
          description: 'Personen ändrade något under en sparning: behålls och sparas sedan.',
        },
      },
    },
    invalid: {
      description: 'Ett fält är inte rätt ifyllt än: steget visar felet vid fältet; nästa ändring sparas igen.',
      tags: ['save:invalid'],
    },
    failed: {
      description: 'Senaste sparningen misslyckades: felmeddelandet och Försök igen (ändringarna finns kvar här).',
      tags: ['save:failed'],
      on: { 'user.retrySave': { target: 'saving', description: 'Personen försöker spara igen.' } },
      initial: 'refused',
      states: {
        refused: { description: 'Nätet, eller servern godtog inte ett fält: felmeddelandet visas.' },
        soldOut: {
          description: 'En vald gåva är slut: utkastet står kvar som det är tills personen tar bort den, vilket sparar resten.',
          tags: ['save:soldOut'],
          initial: 'finding',
          states: {
            finding: {
              description: 'De valda gåvornas produkter läses om för att se vilken som är slut.',
              invoke: {
                id: 'findSoldOut',
                src: 'loadProducts',
                input: ({ context }) => ({ merchantIds: [...new Set((context.draft?.gifts ?? []).map((g) => g.merchantId))].sort() }),
                onDone: {
                  target: 'found',
                  actions: { type: 'storeSoldOut', params: ({ event }) => event.output },
                  description: 'Produkterna är lästa: de som inte längre finns att köpa nämns.',
                },
                onError: { target: 'found', actions: 'noneSoldOutFound', description: 'Produkterna kunde inte läsas: ingen gåva kan nämnas.' },
              },
            },
            found: { description: 'Den slutsålda gåvan nämns (eller att den inte kunde hittas).' },
          },
        },
      },
    },
  },
});

export type AutosaveActor = ActorRefFrom<typeof autosaveMachine>;
