import { fromPromise } from 'xstate';
import type { Greetie, GreetieCreateV2 } from '../../../contract/greetie.ts';
import type { Product } from '../../../contract/merchant.ts';
import { composeMachine, type GiftLimitsInput, type OverlayInput, type SavedSender, type SaveInput, type UploadInput } from '../../../machines/compose.ts';
import { createGreetie, getGreetie, sendGreetie, updateGreetie, uploadGreetieMedia, uploadGreetieOverlay } from '../../api/greetie.ts';
import { getMerchantProducts } from '../../api/merchant.ts';
import { mobileUserApi } from '../../api/mobileuser.ts';
import { renderOverlay } from './editor/overlay.ts';
import { posterOf } from './poster.ts';

/** The overlay is drawn at the frame's shape (4:5, as the editor and the greetie show it). */
export const OVERLAY_FRAME = { width: 1080, height: 1350 } as const;

/** The compose machine with its real server calls (machine.provide). */
export const composeWithServer = composeMachine.provide({
  actors: {
    loadDraft: fromPromise<Greetie, { draftId: string }>(({ input, signal }) => getGreetie(input.draftId, signal)),
    createDraft: fromPromise<Greetie, GreetieCreateV2>(({ input, signal }) => createGreetie(input, signal)),
    uploadMedia: fromPromise<Greetie, UploadInput>(async ({ input, signal }) => {
      // The page hands over the browser's File (a ChosenFile to the machine).
      if (!(input.file instanceof Blob)) throw new Error('No file to upload.');
      // A video goes with a frame the browser drew (the server makes a plain poster without one).
      const poster = input.file.type.startsWith('video/') ? await posterOf(input.file) : null;
      return uploadGreetieMedia(input.draftId, input.file, {
        signal,
        ...(poster ? { poster } : {}),
        onProgress: (loaded, total) => input.progressTo.send({ type: 'upload.progress', loaded, total }),
      });
    }),
    uploadOverlay: fromPromise<Greetie, OverlayInput>(async ({ input, signal }) => {
      const image = await renderOverlay(input.content, OVERLAY_FRAME.width, OVERLAY_FRAME.height);
      return uploadGreetieOverlay(input.draftId, image, { signal });
    }),
    loadGiftLimits: fromPromise<Product[], GiftLimitsInput>(async ({ input, signal }) =>
      (await Promise.all(input.merchantIds.map((id) => getMerchantProducts(id, signal)))).flat(),
    ),
    saveDraft: fromPromise<Greetie, SaveInput>(({ input, signal }) => updateGreetie(input.draftId, input.changes, signal)),
    sendGreetie: fromPromise<Greetie, { draftId: string }>(({ input, signal }) => sendGreetie(input.draftId, signal)),
    saveSenderName: fromPromise<SavedSender, { userId: string; name: string }>(async ({ input, signal }) => {
      const u = await mobileUserApi().update(input.userId, { name: input.name }, signal);
      return { id: u.id, mobileNumber: u.mobileNumber, name: u.name };
    }),
  },
});
