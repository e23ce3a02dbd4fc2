import type { AnyMachineSnapshot } from 'xstate';
import type { AutosaveContext } from '../../../machines/compose/autosave.ts';
import { draftOf } from '../../../machines/compose/draft.ts';
import { defineHooks } from '../harness/types.ts';
import { DRAFT_ID, gift, greetie, invalidNumber, photo, serverError, soldOut, voucherProduct } from './compose.ts';

/**
 * Samples for the draft's autosave (compose's child): the person changes the draft (a draft with a
 * gift, so a sold-out save has products to read again), changes step, and the server saves, refuses
 * (a fault, or a field the person is still filling in: a mistyped number), or answers that a chosen gift sold out.
 */
const draft = { ...draftOf(greetie({ media: photo, gifts: [gift], message: 'Hej' })), message: 'Grattis!' };
const ctx = (s: AnyMachineSnapshot) => s.context as AutosaveContext;

export default defineHooks({
  events: {
    'draft.changed': [{ draftId: DRAFT_ID, draft }],
    'xstate.done.actor.saveDraft': [{ output: greetie({ media: photo, gifts: [gift], total: gift.amount, message: 'Grattis!' }) }],
    'xstate.error.actor.saveDraft': [{ error: serverError }, { error: soldOut }, { error: invalidNumber }],
    'xstate.done.actor.findSoldOut': [{ output: [{ ...voucherProduct, available: false }] }],
    'xstate.error.actor.findSoldOut': [{ error: serverError }],
  },
  // The draft's bytes steer nothing: whether a change waits behind a running save, and whether a
  // sold-out gift was named, do.
  serializeState: (s) =>
    JSON.stringify({
      value: s.value,
      unsaved: s.matches('saving') && ctx(s).unsaved,
      soldOut: ctx(s).soldOut === null ? null : ctx(s).soldOut!.length > 0,
    }),
});
