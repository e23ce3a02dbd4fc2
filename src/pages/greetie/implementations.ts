import { fromPromise, sendTo, type AnyActorRef } from 'xstate';
import type { Greetie, GreetieCreateV2 } from '../../../contract/greetie.ts';
import type { Product } from '../../../contract/merchant.ts';
import { composeMachine, type GiftLimitsInput, type OverlayInput, type SaveInput, type UploadInput } from '../../../machines/compose.ts';
import { autosaveMachine } from '../../../machines/compose/autosave.ts';
import { uploadMachine } from '../../../machines/compose/upload.ts';
import type { SavedSender } from '../../../machines/compose/draft.ts';
import { paymentMachine } from '../../../machines/payment.ts';
import { toFailure } from '../../api/errors.ts';
import { createGreetie, getGreetie, sendGreetie, updateGreetie, uploadGreetieMedia, uploadGreetieOverlay } from '../../api/greetie.ts';
import { getMerchantProducts } from '../../api/merchant.ts';
import { mobileUserApi } from '../../api/mobileuser.ts';
import { GREETIE_FRAME } from './editor/layout.ts';
import { renderOverlay } from './editor/overlay.ts';
import { paymentImplementations } from './payment/implementations.ts';
import { posterOf } from './poster.ts';

/** The overlay is drawn at the greetie's one frame shape, as the editor and the greetie show it. */
export const OVERLAY_FRAME = GREETIE_FRAME;

/** A call's rejection as the one Failure the machine reads (contract/errors.ts). */
const fail = (error: unknown): never => {
  throw toFailure(error);
};

/** POST /greetie, or /greetie/createv2 when it starts with gifts. */
const createDraft = fromPromise<Greetie, GreetieCreateV2>(({ input, signal }) => createGreetie(input, signal).catch(fail));

/** The products of the gifts' merchants (their limits, or which sold out). */
const loadProducts = fromPromise<Product[], GiftLimitsInput>(async ({ input, signal }) =>
  (await Promise.all(input.merchantIds.map((id) => getMerchantProducts(id, signal))).catch(fail)).flat(),
);

/**
 * The compose machine with its real implementations: the server calls (each rejecting with the one
 * Failure), its upload and autosave, the payment it hands over to, and the session (`auth`) told of a sender's name saved
 * in the recipient step (the header shows it).
 */
export function composeWithServer(auth: AnyActorRef) {
  return composeMachine.provide({
    actors: {
      loadDraft: fromPromise<Greetie, { draftId: string }>(({ input, signal }) => getGreetie(input.draftId, signal).catch(fail)),
      createDraft,
      upload: uploadMachine.provide({
        actors: {
          createDraft,
          uploadMedia: fromPromise<Greetie, UploadInput>(async ({ input, signal }) => {
            // The page hands over the browser's File (a ChosenFile to the machine).
            if (!(input.file instanceof Blob)) throw toFailure(new Error('No file to upload.'));
            // A video goes with a frame the browser drew (the server makes a plain poster without one).
            const poster = input.file.type.startsWith('video/') ? await posterOf(input.file) : null;
            return uploadGreetieMedia(input.draftId, input.file, {
              signal,
              ...(poster ? { poster } : {}),
              onProgress: (loaded, total) => input.progressTo.send({ type: 'upload.progress', loaded, total }),
            }).catch(fail);
          }),
        },
      }),
      uploadOverlay: fromPromise<Greetie, OverlayInput>(async ({ input, signal }) => {
        const image = await renderOverlay(input.content, OVERLAY_FRAME.width, OVERLAY_FRAME.height);
        return uploadGreetieOverlay(input.draftId, image, { signal }).catch(fail);
      }),
      loadGiftLimits: loadProducts,
      autosave: autosaveMachine.provide({
        actors: {
          saveDraft: fromPromise<Greetie, SaveInput>(({ input, signal }) => updateGreetie(input.draftId, input.changes, signal).catch(fail)),
          loadProducts,
        },
      }),
      sendGreetie: fromPromise<Greetie, { draftId: string }>(({ input, signal }) => sendGreetie(input.draftId, signal).catch(fail)),
      saveSenderName: fromPromise<SavedSender, { userId: string; name: string }>(async ({ input, signal }) => {
        const u = await mobileUserApi().update(input.userId, { name: input.name }, signal).catch(fail);
        return { id: u.id, mobileNumber: u.mobileNumber, name: u.name };
      }),
      payment: paymentMachine.provide(paymentImplementations),
    },
    actions: {
      announceSenderName: sendTo(() => auth, (_, p: SavedSender) => ({ type: 'user.profileSaved' as const, user: p })),
    },
  });
}
