import type { AnyMachineSnapshot } from 'xstate';
import type { UploadContext } from '../../../machines/compose/upload.ts';
import { defineHooks } from '../harness/types.ts';
import { greetie, photo, refusedMedia, serverError } from './compose.ts';

/**
 * Samples for the media step's upload (compose's child): a blank greetie (no draft yet), a photo
 * that fits or a PDF refused before upload, the bytes going out, and the server taking the file
 * or refusing it.
 */
const ctx = (s: AnyMachineSnapshot) => s.context as UploadContext;

export default defineHooks({
  input: { draftId: null },
  events: {
    'user.choseFile': [
      { file: { name: 'foto.jpg', type: 'image/jpeg', size: 120_000 } },
      { file: { name: 'kvitto.pdf', type: 'application/pdf', size: 20_000 } },
    ],
    'upload.progress': [{ loaded: 60_000, total: 120_000 }],
    'xstate.done.actor.createDraft': [{ output: greetie() }],
    'xstate.error.actor.createDraft': [{ error: serverError }],
    'xstate.done.actor.uploadMedia': [{ output: greetie({ media: photo }) }],
    'xstate.error.actor.uploadMedia': [{ error: refusedMedia }],
  },
  serializeState: (s) =>
    JSON.stringify({
      value: s.value,
      draft: ctx(s).draftId !== null,
      file: ctx(s).file !== null,
      progress: ctx(s).progress !== null,
      refusal: ctx(s).refusal,
    }),
});
