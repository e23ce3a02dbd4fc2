import { fromPromise } from 'xstate';
import type { Greetie, GreetieCreateV2 } from '../../../contract/greetie.ts';
import { composeMachine, type SaveInput, type UploadInput } from '../../../machines/compose.ts';
import { createGreetie, getGreetie, sendGreetie, updateGreetie, uploadGreetieMedia } from '../../api/greetie.ts';

/** The compose machine with its real server calls (machine.provide). */
export const composeWithServer = composeMachine.provide({
  actors: {
    loadDraft: fromPromise<Greetie, { draftId: string }>(({ input, signal }) => getGreetie(input.draftId, signal)),
    createDraft: fromPromise<Greetie, GreetieCreateV2>(({ input, signal }) => createGreetie(input, signal)),
    uploadMedia: fromPromise<Greetie, UploadInput>(async ({ input, signal }) => {
      // The page hands over the browser's File (a ChosenFile to the machine).
      if (!(input.file instanceof Blob)) throw new Error('No file to upload.');
      return uploadGreetieMedia(input.draftId, input.file, {
        signal,
        onProgress: (loaded, total) => input.progressTo.send({ type: 'upload.progress', loaded, total }),
      });
    }),
    saveDraft: fromPromise<Greetie, SaveInput>(({ input, signal }) => updateGreetie(input.draftId, input.changes, signal)),
    sendGreetie: fromPromise<Greetie, { draftId: string }>(({ input, signal }) => sendGreetie(input.draftId, signal)),
  },
});
