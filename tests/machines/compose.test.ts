import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, type ActorRefFrom } from 'xstate';
import type { Greetie, GreetieCreateV2 } from '../../contract/greetie.ts';
import { PHOTO_MAX_BYTES, PHOTO_TYPES, TYPE_ALIASES, VIDEO_MAX_BYTES, VIDEO_TYPES } from '../../contract/media.ts';
import type { Failure } from '../../contract/errors.ts';
import type { Payment } from '../../contract/payment.ts';
import { COMPOSE_SCREENS, SAVE_DELAY_MS, composeMachine, type ComposeTag, type GiftLimitsInput, type OverlayInput, type SaveInput, type UploadInput } from '../../machines/compose.ts';
import { autosaveMachine, type AutosaveActor, type AutosaveTag } from '../../machines/compose/autosave.ts';
import { uploadMachine, type UploadActor, type UploadTag } from '../../machines/compose/upload.ts';
import { giftsTotal, type SavedSender } from '../../machines/compose/draft.ts';
import type { AddressStep } from '../../machines/compose/steps.ts';
import { checkMediaFile } from '../../machines/compose/files.ts';
import { POLL_FIRST_MS, paymentMachine, type StartPaymentInput } from '../../machines/payment.ts';
import type { Product } from '../../contract/merchant.ts';
import { DRAFT_ID, MERCHANT_ID, PRODUCT_ID, gift, giftChoice, greetie, photo, recipient, serverError, textElement, voucherProduct } from '../model/hooks/compose.ts';

/** An actor whose calls the test settles by hand (and sees aborted when the machine stops it). */
function manual<I, O>() {
  const calls: { input: I; resolve: (v: O) => void; reject: (e: unknown) => void; aborted: () => boolean }[] = [];
  const logic = fromPromise<O, I>(
    ({ input, signal }) =>
      new Promise((resolve, reject) => {
        calls.push({ input, resolve, reject, aborted: () => signal.aborted });
      }),
  );
  return { calls, logic };
}

function start() {
  const load = manual<{ draftId: string }, Greetie>();
  const create = manual<GreetieCreateV2, Greetie>();
  const upload = manual<UploadInput, Greetie>();
  const save = manual<SaveInput, Greetie>();
  const send = manual<{ draftId: string }, Greetie>();
  const overlay = manual<OverlayInput, Greetie>();
  const limits = manual<GiftLimitsInput, Product[]>();
  const senderName = manual<{ userId: string; name: string }, SavedSender>();
  const startPayment = manual<StartPaymentInput, Payment>();
  const readPayment = manual<{ greetieId: string }, Payment>();
  const announced: SavedSender[] = [];
  const actor = createActor(
    composeMachine.provide({
      actors: {
        loadDraft: load.logic,
        createDraft: create.logic,
        upload: uploadMachine.provide({ actors: { createDraft: create.logic, uploadMedia: upload.logic } }),
        autosave: autosaveMachine.provide({ actors: { saveDraft: save.logic, loadProducts: limits.logic } }),
        sendGreetie: send.logic,
        uploadOverlay: overlay.logic,
        loadGiftLimits: limits.logic,
        saveSenderName: senderName.logic,
        payment: paymentMachine.provide({ actors: { startPayment: startPayment.logic, readPayment: readPayment.logic } }),
      },
      actions: { announceSenderName: (_, p: SavedSender) => void announced.push(p) },
    }),
  ).start();
  /** The autosave child (while the person edits). */
  const autosave = () => (actor.getSnapshot().children.autosave as AutosaveActor | undefined)?.getSnapshot();
  /** The upload child (while the media step shows). */
  const uploader = () => (actor.getSnapshot().children.upload as UploadActor | undefined)?.getSnapshot();
  /** A tag of compose, or of its children (the upload's and the save's tags are theirs). */
  const has = (tag: ComposeTag | AutosaveTag | UploadTag) =>
    actor.getSnapshot().hasTag(tag as ComposeTag) || !!autosave()?.hasTag(tag as AutosaveTag) || !!uploader()?.hasTag(tag as UploadTag);
  const step = () => [...actor.getSnapshot().tags].filter((t) => (COMPOSE_SCREENS as readonly string[]).includes(t));
  /** What the page sends the upload child (the file, cancel, retry). */
  const toUpload = (event: Parameters<UploadActor['send']>[0]) => (actor.getSnapshot().children.upload as UploadActor).send(event);
  return { actor, autosave, uploader, toUpload, load, create, upload, save, send, overlay, limits, senderName, startPayment, readPayment, announced, has, step };
}

/** What the implementations reject with: the one Failure (contract/errors.ts). */
const failure = (status: number, code: Failure['code'], message: string): Failure => ({ status, code, message, retryAt: null });

const jpeg = { name: 'foto.jpg', type: 'image/jpeg', size: 120_000 };
/** Lets a settled fake promise reach the actor. */
const settle = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('checkMediaFile', () => {
  it('takes photos up to 15 MB and videos up to 100 MB of the listed types', () => {
    expect(checkMediaFile({ name: 'a.jpg', type: 'image/jpeg', size: PHOTO_MAX_BYTES })).toEqual({ kind: 'photo' });
    expect(checkMediaFile({ name: 'a.png', type: 'image/png', size: 1 })).toEqual({ kind: 'photo' });
    expect(checkMediaFile({ name: 'a.webp', type: 'image/webp', size: 1 })).toEqual({ kind: 'photo' });
    expect(checkMediaFile({ name: 'a.mp4', type: 'video/mp4', size: VIDEO_MAX_BYTES })).toEqual({ kind: 'video' });
    expect(checkMediaFile({ name: 'a.webm', type: 'video/webm', size: 1 })).toEqual({ kind: 'video' });
    expect(checkMediaFile({ name: 'a.mov', type: 'video/quicktime', size: 1 })).toEqual({ kind: 'video' });
  });

  it('refuses what is too big, empty or of another type', () => {
    expect(checkMediaFile({ name: 'a.jpg', type: 'image/jpeg', size: PHOTO_MAX_BYTES + 1 })).toEqual({ refused: 'photoTooBig' });
    expect(checkMediaFile({ name: 'a.mp4', type: 'video/mp4', size: VIDEO_MAX_BYTES + 1 })).toEqual({ refused: 'videoTooBig' });
    expect(checkMediaFile({ name: 'a.gif', type: 'image/gif', size: 10 })).toEqual({ refused: 'wrongType' });
    expect(checkMediaFile({ name: 'a.svg', type: 'image/svg+xml', size: 10 })).toEqual({ refused: 'wrongType' });
    expect(checkMediaFile({ name: 'a.jpg', type: 'image/jpeg', size: 0 })).toEqual({ refused: 'empty' });
  });

  it('reads the ending when the browser gives no type (HEIC, MOV)', () => {
    expect(checkMediaFile({ name: 'IMG_0001.HEIC', type: '', size: 10 })).toEqual({ kind: 'photo' });
    expect(checkMediaFile({ name: 'IMG_0002.MOV', type: '', size: 10 })).toEqual({ kind: 'video' });
    expect(checkMediaFile({ name: 'noending', type: '', size: 10 })).toEqual({ refused: 'wrongType' });
  });

  it("takes exactly the contract's types and their other names (contract/media.ts)", () => {
    for (const type of PHOTO_TYPES) expect(checkMediaFile({ name: 'a', type, size: 1 })).toEqual({ kind: 'photo' });
    for (const type of VIDEO_TYPES) expect(checkMediaFile({ name: 'a', type, size: 1 })).toEqual({ kind: 'video' });
    // HEIF is HEIC's container: the server stores it as HEIC, so the browser takes it too.
    expect(TYPE_ALIASES['image/heif']).toBe('image/heic');
    for (const alias of Object.keys(TYPE_ALIASES)) expect(checkMediaFile({ name: 'a', type: alias, size: 1 })).not.toEqual({ refused: 'wrongType' });
    expect(checkMediaFile({ name: 'IMG_0003.heif', type: '', size: 1 })).toEqual({ kind: 'photo' });
  });
});

describe('compose machine', () => {
  it('a blank greetie creates its draft with the first upload, shows progress, and goes on once the photo is kept', async () => {
    const t = start();
    t.actor.send({ type: 'user.opened', draftId: null, gift: null });
    expect(t.step()).toEqual(['media']);
    t.actor.send({ type: 'user.next' });
    expect(t.step()).toEqual(['media']); // no photo yet

    t.toUpload({ type: 'user.choseFile', file: jpeg });
    expect(t.has('upload:creating')).toBe(true);
    expect(t.create.calls[0]!.input).toEqual({});
    t.create.calls[0]!.resolve(greetie());
    await settle();

    expect(t.has('upload:uploading')).toBe(true);
    expect(t.has('busy')).toBe(true);
    expect(t.upload.calls[0]!.input).toMatchObject({ draftId: DRAFT_ID, file: jpeg });
    t.upload.calls[0]!.input.progressTo.send({ type: 'upload.progress', loaded: 30_000, total: 120_000 });
    expect(t.uploader()?.context.progress).toEqual({ loaded: 30_000, total: 120_000 });

    t.upload.calls[0]!.resolve(greetie({ media: photo }));
    await settle();
    expect(t.has('busy')).toBe(false);
    expect(t.actor.getSnapshot().context.draft.media).toEqual(photo);
    t.actor.send({ type: 'user.next' });
    expect(t.step()).toEqual(['content']);
  });

  it('refuses a wrong file before anything is sent', () => {
    const t = start();
    t.actor.send({ type: 'user.opened', draftId: null, gift: null });
    t.toUpload({ type: 'user.choseFile', file: { name: 'stor.jpg', type: 'image/jpeg', size: PHOTO_MAX_BYTES + 1 } });
    expect(t.has('upload:refused')).toBe(true);
    expect(t.uploader()?.context.refusal).toBe('photoTooBig');
    expect(t.create.calls).toHaveLength(0);
    expect(t.upload.calls).toHaveLength(0);
  });

  it('cancel aborts the upload; retry sends the same file again; the server refusal is kept', async () => {
    const t = start();
    t.actor.send({ type: 'user.opened', draftId: DRAFT_ID, gift: null });
    t.load.calls[0]!.resolve(greetie());
    await settle();
    t.toUpload({ type: 'user.choseFile', file: jpeg });
    expect(t.create.calls).toHaveLength(0); // the draft exists
    t.toUpload({ type: 'user.cancelUpload' });
    expect(t.upload.calls[0]!.aborted()).toBe(true);
    expect(t.has('upload:cancelled')).toBe(true);

    t.toUpload({ type: 'user.retryUpload' });
    expect(t.upload.calls[1]!.input.file).toEqual(jpeg);
    t.upload.calls[1]!.reject(failure(415, 'MEDIA_TYPE_NOT_ALLOWED', 'Filen är ingen bild.'));
    await settle();
    expect(t.has('upload:failed')).toBe(true);
    expect(t.uploader()?.context.error).toEqual(failure(415, 'MEDIA_TYPE_NOT_ALLOWED', 'Filen är ingen bild.'));
  });

  it('a start from a product creates the draft with that gift at once', async () => {
    const t = start();
    t.actor.send({ type: 'user.opened', draftId: null, gift: { productId: PRODUCT_ID, amount: 14900 } });
    expect(t.has('loading')).toBe(true);
    expect(t.create.calls[0]!.input).toEqual({ gifts: [{ productId: PRODUCT_ID, amount: 14900 }] });
    t.create.calls[0]!.resolve(greetie({ gifts: [gift], total: 14900 }));
    await settle();
    expect(t.step()).toEqual(['media']);
    expect(t.actor.getSnapshot().context.draft.gifts).toEqual([giftChoice]);
  });

  it.each([
    ['review', greetie({ media: photo, recipient: { name: null, mobileNumber: '+46701234567' } })],
    ['recipient', greetie({ media: photo, gifts: [gift] })],
    ['gifts', greetie({ media: photo, content: [textElement] })],
    ['content', greetie({ media: photo })],
    ['media', greetie()],
  ])('?draft= resumes at the %s step', async (where, draft) => {
    const t = start();
    t.actor.send({ type: 'user.opened', draftId: DRAFT_ID, gift: null });
    expect(t.load.calls[0]!.input).toEqual({ draftId: DRAFT_ID });
    t.load.calls[0]!.resolve(draft);
    await settle();
    expect(t.step()).toEqual([where]);
    expect(t.has('save:saved')).toBe(true);
  });

  it('a draft that was sent cannot be edited; an unknown one is not found', async () => {
    const t = start();
    t.actor.send({ type: 'user.opened', draftId: DRAFT_ID, gift: null });
    t.load.calls[0]!.resolve(greetie({ status: 'scheduled' }));
    await settle();
    expect(t.has('notEditable')).toBe(true);

    const u = start();
    u.actor.send({ type: 'user.opened', draftId: DRAFT_ID, gift: null });
    u.load.calls[0]!.reject(failure(404, 'GREETIE_NOT_FOUND', 'Greetien finns inte.'));
    await settle();
    expect(u.has('notFound')).toBe(true);
  });

  it('a draft id that is no UUID is not found without asking the server', () => {
    const t = start();
    t.actor.send({ type: 'user.opened', draftId: 'inte-ett-utkast', gift: null });
    expect(t.has('notFound')).toBe(true);
    expect(t.load.calls).toEqual([]);
    expect(t.actor.getSnapshot().context.draftId).toBeNull();
  });

  describe("the sender's name (issue 27: the SMS names the sender)", () => {
    const USER_ID = '11111111-1111-4111-8111-111111111111';
    const nameless = { id: USER_ID, name: null };

    async function atRecipient(sender: { id: string; name: string | null }) {
      const t = start();
      t.actor.send({ type: 'user.opened', draftId: DRAFT_ID, gift: null, sender });
      t.load.calls[0]!.resolve(greetie({ media: photo, message: 'Hej' }));
      await settle();
      expect(t.step()).toEqual(['recipient']);
      t.actor.send({ type: 'user.changedRecipient', recipient, message: 'Hej', deliverAt: null });
      return t;
    }

    it('a profile without a name: the recipient step asks for it, saves it to the profile, then the review', async () => {
      const t = await atRecipient(nameless);
      expect(t.actor.getSnapshot().context.sender.needsName).toBe(true);
      t.actor.send({ type: 'user.next' });
      expect(t.step()).toEqual(['recipient']); // an empty name: nothing is sent
      expect(t.senderName.calls).toHaveLength(0);

      t.actor.send({ type: 'user.changedSenderName', name: '  Anna Lind ' });
      t.actor.send({ type: 'user.next' });
      expect(t.has('senderName:saving')).toBe(true);
      expect(t.step()).toEqual(['recipient']);
      expect(t.senderName.calls[0]!.input).toEqual({ userId: USER_ID, name: '  Anna Lind ' });
      t.senderName.calls[0]!.resolve({ id: USER_ID, mobileNumber: '+46701234567', name: 'Anna Lind' });
      await settle();
      expect(t.step()).toEqual(['review']);
      expect(t.actor.getSnapshot().context.sender).toEqual({ id: USER_ID, name: 'Anna Lind', needsName: false });
      expect(t.announced).toEqual([{ id: USER_ID, mobileNumber: '+46701234567', name: 'Anna Lind' }]);

      // Back at the recipient, the name is not asked again.
      t.actor.send({ type: 'user.back' });
      t.actor.send({ type: 'user.next' });
      expect(t.step()).toEqual(['review']);
      expect(t.senderName.calls).toHaveLength(1);
    });

    it('names the name rule refuses stop the step before anything is sent: a link, a phone number, a bidi override', async () => {
      const t = await atRecipient(nameless);
      for (const name of ['Swish: verifiera på https://evil.example', 'Ring 0701234567', 'Anna\u202eLind']) {
        t.actor.send({ type: 'user.changedSenderName', name });
        t.actor.send({ type: 'user.next' });
        expect(t.step()).toEqual(['recipient']);
      }
      t.actor.send({ type: 'user.changedSenderName', name: 'Anna' });
      t.actor.send({ type: 'user.changedRecipient', recipient: { ...recipient, name: 'www.evil.example' }, message: 'Hej', deliverAt: null });
      t.actor.send({ type: 'user.next' });
      expect(t.step()).toEqual(['recipient']);
      expect(t.senderName.calls).toHaveLength(0);
    });

    it("the server's refusal of the name keeps the step, with the error under the field", async () => {
      const t = await atRecipient(nameless);
      t.actor.send({ type: 'user.changedSenderName', name: 'Anna' });
      t.actor.send({ type: 'user.next' });
      t.senderName.calls[0]!.reject(failure(400, 'NAME_HAS_LINK', 'Namnet får inte innehålla länkar'));
      await settle();
      expect(t.step()).toEqual(['recipient']);
      expect(t.actor.getSnapshot().context.senderNameError).toMatchObject({ code: 'NAME_HAS_LINK' });
      t.actor.send({ type: 'user.changedSenderName', name: 'Anna L' });
      expect(t.actor.getSnapshot().context.senderNameError).toBeNull();
    });

    it('a blank greetie (no draft in the address) keeps who opens it and on what: the name is asked for, the phone gets Swish’s app', () => {
      // The most common start ('Skicka en greetie'), where the name was never asked and a phone was
      // handed the desktop's QR code: only a draft's address stored the opener.
      const t = start();
      t.actor.send({ type: 'user.opened', draftId: null, gift: null, sender: nameless, device: 'phone' });
      expect(t.step()).toEqual(['media']);
      expect(t.actor.getSnapshot().context).toMatchObject({ sender: { id: USER_ID, name: '', needsName: true }, device: 'phone' });
    });

    it('a profile with a name goes straight on; a resumed draft without the name lands on the recipient, not the review', async () => {
      const named = await atRecipient({ id: USER_ID, name: 'Anna' });
      named.actor.send({ type: 'user.next' });
      expect(named.step()).toEqual(['review']);
      expect(named.senderName.calls).toHaveLength(0);

      const t = start();
      t.actor.send({ type: 'user.opened', draftId: DRAFT_ID, gift: null, sender: nameless });
      t.load.calls[0]!.resolve(greetie({ media: photo, recipient: { name: null, mobileNumber: '+46701234567' } }));
      await settle();
      expect(t.step()).toEqual(['recipient']);
    });
  });

  it('saves after the pause (one save at a time), and a step change saves at once', async () => {
    const t = start();
    t.actor.send({ type: 'user.opened', draftId: DRAFT_ID, gift: null });
    t.load.calls[0]!.resolve(greetie({ media: photo }));
    await settle();
    expect(t.step()).toEqual(['content']);

    t.actor.send({ type: 'user.changedContent', content: [textElement] });
    expect(t.has('save:waiting')).toBe(true);
    await vi.advanceTimersByTimeAsync(SAVE_DELAY_MS - 1);
    t.actor.send({ type: 'user.changedContent', content: [textElement, { ...textElement, id: 'e2' }] });
    await vi.advanceTimersByTimeAsync(SAVE_DELAY_MS - 1);
    expect(t.save.calls).toHaveLength(0); // the pause starts again with each edit
    await vi.advanceTimersByTimeAsync(1);
    expect(t.save.calls).toHaveLength(1);
    expect(t.save.calls[0]!.input.changes.content).toHaveLength(2);

    // An edit during the save waits for it, then is saved too.
    t.actor.send({ type: 'user.changedContent', content: [textElement] });
    expect(t.save.calls).toHaveLength(1);
    t.save.calls[0]!.resolve(greetie({ media: photo }));
    await settle();
    expect(t.has('save:waiting')).toBe(true);

    t.actor.send({ type: 'user.next' });
    expect(t.step()).toEqual(['gifts']);
    expect(t.save.calls).toHaveLength(2);
    expect(t.save.calls[1]!.input.changes.content).toEqual([textElement]);
  });

  it('the save is the child autosave: compose hands it each change and reads its save.saved; a finished save keeps an upload failure', async () => {
    const t = start();
    t.actor.send({ type: 'user.opened', draftId: DRAFT_ID, gift: null });
    t.load.calls[0]!.resolve(greetie({ media: photo }));
    await settle();
    expect(t.autosave()?.value).toBe('saved');

    t.actor.send({ type: 'user.changedContent', content: [textElement] });
    expect(t.actor.getSnapshot().context.saved).toBe(false);
    expect(t.autosave()?.context.draft?.content).toEqual([textElement]);
    // Back to the media step: the step change saves at once.
    t.actor.send({ type: 'user.back' });
    expect(t.save.calls).toHaveLength(1);

    // A new file the server refuses, while the save runs.
    t.toUpload({ type: 'user.choseFile', file: jpeg });
    t.upload.calls[0]!.reject(failure(415, 'MEDIA_TYPE_NOT_ALLOWED', 'Filen är ingen bild.'));
    await settle();
    expect(t.has('upload:failed')).toBe(true);

    t.save.calls[0]!.resolve(greetie({ media: photo, content: [textElement], total: 0 }));
    await settle();
    expect(t.actor.getSnapshot().context.saved).toBe(true);
    // The upload's failure is still what the media step shows.
    expect(t.uploader()?.context.error).toEqual(failure(415, 'MEDIA_TYPE_NOT_ALLOWED', 'Filen är ingen bild.'));
  });

  it('ignores an edit from a step that is not shown', async () => {
    const t = start();
    t.actor.send({ type: 'user.opened', draftId: DRAFT_ID, gift: null });
    t.load.calls[0]!.resolve(greetie({ media: photo }));
    await settle();
    t.actor.send({ type: 'user.changedGifts', gifts: [giftChoice] });
    expect(t.has('save:saved')).toBe(true);
    expect(t.actor.getSnapshot().context.draft.gifts).toEqual([]);
  });

  it('a failed save keeps the edits and shows a retry; sending waits until all is saved', async () => {
    const t = start();
    t.actor.send({ type: 'user.opened', draftId: DRAFT_ID, gift: null });
    t.load.calls[0]!.resolve(greetie({ media: photo, message: 'Hej' }));
    await settle();
    expect(t.step()).toEqual(['recipient']);
    t.actor.send({ type: 'user.changedRecipient', recipient, message: 'Grattis!', deliverAt: '2026-06-01T08:00:00.000Z' });
    t.actor.send({ type: 'user.next' });
    expect(t.step()).toEqual(['review']);
    expect(t.save.calls[0]!.input.changes).toMatchObject({
      recipient: { mobileNumber: '070-123 45 67', name: 'Mormor' },
      message: 'Grattis!',
      deliverAt: '2026-06-01T08:00:00.000Z',
      gifts: [],
    });
    t.actor.send({ type: 'user.send' });
    expect(t.send.calls).toHaveLength(0); // still saving
    t.save.calls[0]!.reject(serverError);
    await settle();
    expect(t.has('save:failed')).toBe(true);
    expect(t.actor.getSnapshot().context.draft.message).toBe('Grattis!');

    (t.actor.getSnapshot().children.autosave as AutosaveActor).send({ type: 'user.retrySave' });
    t.save.calls[1]!.resolve(greetie({ media: photo }));
    await settle();
    t.actor.send({ type: 'user.send' });
    expect(t.send.calls[0]!.input).toEqual({ draftId: DRAFT_ID });
    t.send.calls[0]!.reject(serverError);
    await settle();
    expect(t.has('sendFailed')).toBe(true);
    t.actor.send({ type: 'user.retry' });
    t.send.calls[1]!.resolve(greetie({ status: 'scheduled', media: photo }));
    await settle();
    expect(t.has('sent')).toBe(true);
    expect(t.has('stepsLeft')).toBe(true);
    // The steps are behind: an address asking for one changes nothing (decision 131).
    t.actor.send({ type: 'step.requested', step: 'review' });
    expect(t.has('sent')).toBe(true);
  });

  it('a save refused because a chosen gift sold out keeps the code, the draft, and saves the rest once the gift is removed', async () => {
    const t = start();
    t.actor.send({ type: 'user.opened', draftId: DRAFT_ID, gift: null });
    t.load.calls[0]!.resolve(greetie({ media: photo, content: [textElement], gifts: [gift], message: 'Hej' }));
    await settle();
    expect(t.step()).toEqual(['recipient']);
    t.actor.send({ type: 'user.changedRecipient', recipient, message: 'Hej då', deliverAt: null });
    await vi.advanceTimersByTimeAsync(SAVE_DELAY_MS);
    t.save.calls[0]!.reject(failure(409, 'GIFT_CODE_POOL_EMPTY', 'En av gåvorna är slut just nu.'));
    await settle();
    expect(t.has('save:failed')).toBe(true);
    expect(t.autosave()?.context.error).toEqual(failure(409, 'GIFT_CODE_POOL_EMPTY', 'En av gåvorna är slut just nu.'));
    // The chart names the sold-out gift: the chosen gifts' products are read again.
    expect(t.has('save:soldOut')).toBe(true);
    expect(t.limits.calls.at(-1)!.input).toEqual({ merchantIds: [MERCHANT_ID] });
    t.limits.calls.at(-1)!.resolve([{ ...voucherProduct, available: false }]);
    await settle();
    expect(t.autosave()?.context.soldOut).toEqual([PRODUCT_ID]);
    expect(t.actor.getSnapshot().context.draft).toMatchObject({ content: [textElement], gifts: [giftChoice], message: 'Hej då' });

    t.actor.send({ type: 'user.back' });
    expect(t.step()).toEqual(['gifts']);
    expect(t.has('save:failed')).toBe(true);
    t.actor.send({ type: 'user.changedGifts', gifts: [] });
    await vi.advanceTimersByTimeAsync(SAVE_DELAY_MS);
    expect(t.has('save:saving')).toBe(true);
    expect(t.autosave()?.context.error).toBeNull();
    expect(t.save.calls[1]!.input.changes).toMatchObject({ gifts: [], content: [textElement], message: 'Hej då', recipient: { mobileNumber: '070-123 45 67' } });
  });

  it('the recipient step needs a Swedish mobile number; value-voucher amounts must fit their limits', async () => {
    const t = start();
    t.actor.send({ type: 'user.opened', draftId: DRAFT_ID, gift: null });
    t.load.calls[0]!.resolve(greetie({ media: photo, content: [textElement] }));
    await settle();
    expect(t.step()).toEqual(['gifts']);
    t.actor.send({ type: 'user.changedGifts', gifts: [{ ...giftChoice, amount: 5000, limits: { min: 10000, max: 100000 } }] });
    t.actor.send({ type: 'user.next' });
    expect(t.step()).toEqual(['gifts']);
    t.actor.send({ type: 'user.changedGifts', gifts: [{ ...giftChoice, amount: 20000, limits: { min: 10000, max: 100000 } }] });
    t.actor.send({ type: 'user.next' });
    expect(t.step()).toEqual(['recipient']);
    t.actor.send({ type: 'user.changedRecipient', recipient: { mobileNumber: '12345', name: '' }, message: '', deliverAt: null });
    t.actor.send({ type: 'user.next' });
    expect(t.step()).toEqual(['recipient']);
  });

  it('a greetie with gifts pays only once the withdrawal consent is ticked, and hands the consent over', async () => {
    const t = start();
    t.actor.send({ type: 'user.opened', draftId: DRAFT_ID, gift: null });
    t.load.calls[0]!.resolve(greetie({ media: photo, gifts: [gift], recipient: { name: null, mobileNumber: '+46701234567' } }));
    await settle();
    expect(t.step()).toEqual(['review']);
    t.actor.send({ type: 'user.send' });
    expect(t.step()).toEqual(['review']);
    expect(t.actor.getSnapshot().context).toMatchObject({ consent: false, consentMissing: true });
    expect(t.actor.getSnapshot().children.payment).toBeUndefined();
    t.actor.send({ type: 'user.consented', consented: true });
    expect(t.actor.getSnapshot().context).toMatchObject({ consent: true, consentMissing: false });
    t.actor.send({ type: 'user.consented', consented: false });
    t.actor.send({ type: 'user.send' });
    expect(t.step()).toEqual(['review']);
    t.actor.send({ type: 'user.consented', consented: true });
    t.actor.send({ type: 'user.send' });
    expect(t.step()).toEqual(['payment']);
    const child = t.actor.getSnapshot().children.payment as ActorRefFrom<typeof paymentMachine>;
    expect(child.getSnapshot().context.consented).toBe(true);
    child.send({ type: 'user.opened', mode: 'start' });
    expect(t.startPayment.calls[0]!.input).toEqual({ greetieId: DRAFT_ID, payerAlias: null, withdrawalConsent: true });
  });

  it('a greetie with gifts hands over to payment once saved', async () => {
    const t = start();
    t.actor.send({ type: 'user.opened', draftId: DRAFT_ID, gift: null });
    t.load.calls[0]!.resolve(greetie({ media: photo, gifts: [gift], recipient: { name: null, mobileNumber: '+46701234567' } }));
    await settle();
    t.actor.send({ type: 'user.consented', consented: true });
    expect(t.step()).toEqual(['review']);
    t.actor.send({ type: 'user.send' });
    expect(t.step()).toEqual(['payment']);
    expect(t.send.calls).toHaveLength(0);
    t.actor.send({ type: 'user.back' });
    expect(t.step()).toEqual(['review']);
  });

  it('the hand-over is in the chart: compose invokes the payment and ends paid with it', async () => {
    const t = start();
    t.actor.send({ type: 'user.opened', draftId: DRAFT_ID, gift: null, device: 'phone' });
    t.load.calls[0]!.resolve(greetie({ media: photo, gifts: [gift], recipient: { name: null, mobileNumber: '+46701234567' } }));
    await settle();
    t.actor.send({ type: 'user.consented', consented: true });
    t.actor.send({ type: 'user.send' });
    const child = t.actor.getSnapshot().children.payment as ActorRefFrom<typeof paymentMachine>;
    expect(child.getSnapshot().context).toMatchObject({ greetieId: DRAFT_ID, device: 'phone' });
    child.send({ type: 'user.opened', mode: 'start' });
    const paid = { id: 'p1', greetieId: DRAFT_ID, status: 'paid', amount: 14900 } as Payment;
    t.startPayment.calls[0]!.resolve({ ...paid, status: 'pending' });
    await settle();
    // No stream in this test (the default paymentEvents is silent): the poll reads it.
    await vi.advanceTimersByTimeAsync(POLL_FIRST_MS);
    t.readPayment.calls[0]!.resolve(paid);
    await settle();
    expect(t.step()).toEqual(['paid']);
    expect(t.has('stepsLeft')).toBe(true);
    expect(t.actor.getSnapshot().context.payment).toEqual(paid);
    // Back after paying (decision 131): the browser's back or forward to any step's address keeps
    // the receipt; a paid greetie is never edited or paid again.
    for (const step of ['media', 'content', 'gifts', 'recipient', 'review', 'payment'] as const) {
      t.actor.send({ type: 'step.requested', step });
      expect(t.step()).toEqual(['paid']);
    }
    expect(t.startPayment.calls).toHaveLength(1);
    expect(t.actor.getSnapshot().context.payment).toEqual(paid);
  });

  it('a reload of a paid greetie on a step address is its receipt, never a payment; a sent one is not editable', async () => {
    for (const step of ['payment', 'review', 'media'] as const) {
      const t = start();
      t.actor.send({ type: 'user.opened', draftId: DRAFT_ID, gift: null, step });
      t.load.calls[0]!.resolve(greetie({ status: 'scheduled', media: photo, gifts: [gift], recipient: { name: null, mobileNumber: '+46701234567' } }));
      await settle();
      expect(t.step()).toEqual(['alreadyPaid']);
      expect(t.has('stepsLeft')).toBe(false);
      expect(t.actor.getSnapshot().children.payment).toBeUndefined();
      expect(t.actor.getSnapshot().context.draftId).toBe(DRAFT_ID);
    }
    // Waiting for its payment is no receipt yet: not editable, as before.
    const waiting = start();
    waiting.actor.send({ type: 'user.opened', draftId: DRAFT_ID, gift: null, step: 'payment' });
    waiting.load.calls[0]!.resolve(greetie({ status: 'awaitingPayment', media: photo, gifts: [gift] }));
    await settle();
    expect(waiting.has('notEditable')).toBe(true);
  });

  describe('the overlay (the content flattened to one image)', () => {
    const withOverlay = { ...photo, overlayUrl: '/api/media/BBBBBBBBBBBBBBBBBBBBBBBB.webp' };

    it('is uploaded once a change of the content is saved, again after a change made meanwhile', async () => {
      const t = start();
      t.actor.send({ type: 'user.opened', draftId: DRAFT_ID, gift: null });
      t.load.calls[0]!.resolve(greetie({ media: photo }));
      await settle();
      expect(t.overlay.calls).toHaveLength(0); // nothing to flatten yet

      t.actor.send({ type: 'user.changedContent', content: [textElement] });
      await vi.advanceTimersByTimeAsync(SAVE_DELAY_MS);
      expect(t.overlay.calls).toHaveLength(0); // not before the content is saved
      t.save.calls[0]!.resolve(greetie({ media: photo, content: [textElement] }));
      await settle();
      expect(t.overlay.calls).toHaveLength(1);
      expect(t.overlay.calls[0]!.input).toEqual({ draftId: DRAFT_ID, content: [textElement] });
      expect(t.has('overlay:uploading')).toBe(true);

      // A change during the upload: saved, then flattened again.
      const more = [textElement, { ...textElement, id: 'e2', value: 'Hurra' }];
      t.actor.send({ type: 'user.changedContent', content: more });
      t.overlay.calls[0]!.resolve(greetie({ media: withOverlay, content: [textElement] }));
      await settle();
      expect(t.actor.getSnapshot().context.draft.media?.overlayUrl).toBe(withOverlay.overlayUrl);
      expect(t.actor.getSnapshot().context.draft.content).toEqual(more); // the edit stays
      expect(t.overlay.calls).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(SAVE_DELAY_MS);
      t.save.calls[1]!.resolve(greetie({ media: withOverlay, content: more }));
      await settle();
      expect(t.overlay.calls).toHaveLength(2);
      expect(t.overlay.calls[1]!.input.content).toEqual(more);
    });

    it('is uploaded before the review hands over: sending waits for it', async () => {
      const t = start();
      t.actor.send({ type: 'user.opened', draftId: DRAFT_ID, gift: null });
      // A draft left at the review with content but no overlay (the tab closed during its upload).
      t.load.calls[0]!.resolve(greetie({ media: photo, content: [textElement], gifts: [gift], recipient: { name: null, mobileNumber: '+46701234567' } }));
      await settle();
      expect(t.step()).toEqual(['review']);
      expect(t.overlay.calls).toHaveLength(1);
      t.actor.send({ type: 'user.consented', consented: true });
      t.actor.send({ type: 'user.send' });
      expect(t.step()).toEqual(['review']); // not yet
      t.overlay.calls[0]!.resolve(greetie({ media: withOverlay, content: [textElement], gifts: [gift] }));
      await settle();
      t.actor.send({ type: 'user.send' });
      expect(t.step()).toEqual(['payment']);
    });

    it('a failed upload never holds the person up, and is tried again with the next change', async () => {
      const t = start();
      t.actor.send({ type: 'user.opened', draftId: DRAFT_ID, gift: null });
      t.load.calls[0]!.resolve(greetie({ media: photo, content: [textElement], recipient: { name: null, mobileNumber: '+46701234567' } }));
      await settle();
      t.overlay.calls[0]!.reject(serverError);
      await settle();
      expect(t.has('overlay:uploading')).toBe(false);
      expect(t.has('save:saved')).toBe(true);
      expect(t.actor.getSnapshot().context.error).toBeNull(); // nothing for the person to see
      await vi.advanceTimersByTimeAsync(60_000);
      expect(t.overlay.calls).toHaveLength(1); // no retry loop

      // Back to the content, a change: saved, then the overlay again.
      t.actor.send({ type: 'user.back' });
      t.actor.send({ type: 'user.back' });
      t.actor.send({ type: 'user.back' });
      expect(t.step()).toEqual(['content']);
      t.actor.send({ type: 'user.changedContent', content: [{ ...textElement, value: 'Grattis igen!' }] });
      await vi.advanceTimersByTimeAsync(SAVE_DELAY_MS);
      t.save.calls[0]!.resolve(greetie({ media: photo }));
      await settle();
      expect(t.overlay.calls).toHaveLength(2);
    });

    it('a draft whose overlay is current, or without content, uploads none', async () => {
      for (const g of [greetie({ media: withOverlay, content: [textElement] }), greetie({ media: photo })]) {
        const t = start();
        t.actor.send({ type: 'user.opened', draftId: DRAFT_ID, gift: null });
        t.load.calls[0]!.resolve(g);
        await settle();
        expect(t.overlay.calls).toHaveLength(0);
        t.actor.stop();
      }
    });

    it("new media brings the content's overlay again", async () => {
      const t = start();
      t.actor.send({ type: 'user.opened', draftId: DRAFT_ID, gift: null });
      t.load.calls[0]!.resolve(greetie({ media: withOverlay, content: [textElement] }));
      await settle();
      t.actor.send({ type: 'user.back' });
      t.actor.send({ type: 'user.back' });
      t.toUpload({ type: 'user.choseFile', file: jpeg });
      t.upload.calls[0]!.resolve(greetie({ media: photo, content: [textElement] }));
      await settle();
      expect(t.overlay.calls).toHaveLength(1);
    });
  });

  describe("the limits of a resumed draft's gifts", () => {
    it("reads the gifts' products, so a value voucher's amount can be changed within its limits", async () => {
      const t = start();
      t.actor.send({ type: 'user.opened', draftId: DRAFT_ID, gift: null });
      t.load.calls[0]!.resolve(greetie({ media: photo, content: [textElement], gifts: [gift, { ...gift, productId: 'fixed' }], total: 29800 }));
      await settle();
      expect(t.limits.calls.map((c) => c.input)).toEqual([{ merchantIds: [MERCHANT_ID] }]);
      t.limits.calls[0]!.resolve([voucherProduct, { ...voucherProduct, id: 'fixed', price: 14900, minAmount: undefined, maxAmount: undefined }]);
      await settle();
      const gifts = t.actor.getSnapshot().context.draft.gifts;
      expect(gifts.map((g) => g.limits)).toEqual([{ min: 10000, max: 100000 }, null]);
      expect(gifts[0]!.amount).toBe(gift.amount); // the chosen amount stays

      // The limits now hold: an amount outside them keeps the person on the gifts step.
      t.actor.send({ type: 'user.back' });
      t.actor.send({ type: 'user.changedGifts', gifts: [{ ...gifts[0]!, amount: 200_000 }] });
      t.actor.send({ type: 'user.next' });
      expect(t.step()).toEqual(['gifts']);
      expect(t.limits.calls).toHaveLength(1); // read once
    });

    it('a draft without gifts, or a product that cannot be read, reads nothing more', async () => {
      const t = start();
      t.actor.send({ type: 'user.opened', draftId: DRAFT_ID, gift: null });
      t.load.calls[0]!.resolve(greetie({ media: photo }));
      await settle();
      expect(t.limits.calls).toHaveLength(0);

      const u = start();
      u.actor.send({ type: 'user.opened', draftId: DRAFT_ID, gift: null });
      u.load.calls[0]!.resolve(greetie({ media: photo, gifts: [gift] }));
      await settle();
      u.limits.calls[0]!.reject(serverError);
      await settle();
      expect(u.actor.getSnapshot().context.draft.gifts[0]!.limits).toBeNull();
      expect(u.actor.getSnapshot().context.error).toBeNull();
      expect(u.step()).toEqual(['recipient']);
      expect(u.limits.calls).toHaveLength(1);
    });

    it('a start from a product reads its limits too', async () => {
      const t = start();
      t.actor.send({ type: 'user.opened', draftId: null, gift: { productId: PRODUCT_ID, amount: 10000 } });
      t.create.calls[0]!.resolve(greetie({ gifts: [{ ...gift, amount: 10000 }], total: 10000 }));
      await settle();
      t.limits.calls[0]!.resolve([voucherProduct]);
      await settle();
      expect(t.actor.getSnapshot().context.draft.gifts[0]!.limits).toEqual({ min: 10000, max: 100000 });
    });
  });

  describe('each step has its address: the browser\'s back and forward, and a reload, ask the machine for a step', () => {
    const number = { name: null, mobileNumber: '+46701234567' };
    /** A page opened at `address` (a reload) with the draft the server answers. */
    async function openedAt(step: AddressStep | null, draft: Greetie) {
      const t = start();
      t.actor.send({ type: 'user.opened', draftId: DRAFT_ID, gift: null, step });
      t.load.calls[0]!.resolve(draft);
      await settle();
      return t;
    }

    it('back goes to the previous step, saving what waits; from the payment, back is the review', async () => {
      const t = await openedAt('gifts', greetie({ media: photo, content: [textElement] }));
      expect(t.step()).toEqual(['gifts']);
      t.actor.send({ type: 'user.changedGifts', gifts: [giftChoice] });
      t.actor.send({ type: 'step.requested', step: 'content' });
      expect(t.step()).toEqual(['content']);
      // The step change saved at once, as 'Tillbaka' does.
      expect(t.save.calls).toHaveLength(1);
      t.actor.send({ type: 'step.requested', step: 'media' });
      expect(t.step()).toEqual(['media']);

      const paying = await openedAt(null, greetie({ media: photo, gifts: [gift], recipient: number }));
      paying.actor.send({ type: 'user.consented', consented: true });
      paying.actor.send({ type: 'user.send' });
      expect(paying.step()).toEqual(['payment']);
      paying.actor.send({ type: 'step.requested', step: 'review' });
      expect(paying.step()).toEqual(['review']);
      expect(paying.actor.getSnapshot().children.payment).toBeUndefined();
    });

    it('a reload on a later step stays there when the steps before it are finished', async () => {
      // Without a step in the address this draft would open at the review (it has a recipient).
      const full = greetie({ media: photo, content: [textElement], recipient: number, message: 'Grattis!' });
      expect((await openedAt(null, full)).step()).toEqual(['review']);
      expect((await openedAt('content', full)).step()).toEqual(['content']);
      expect((await openedAt('gifts', full)).step()).toEqual(['gifts']);
      expect((await openedAt('recipient', full)).step()).toEqual(['recipient']);
      expect((await openedAt('review', full)).step()).toEqual(['review']);
      // The content and the gifts may stay empty: with a photo, the recipient step is reached.
      expect((await openedAt('recipient', greetie({ media: photo }))).step()).toEqual(['recipient']);
    });

    it('a reload on a step whose earlier steps are unfinished opens the first unfinished one', async () => {
      expect((await openedAt('gifts', greetie())).step()).toEqual(['media']);
      expect((await openedAt('review', greetie({ media: photo, message: 'Hej' }))).step()).toEqual(['recipient']);
      // A number that is no Swedish mobile is no finished recipient step.
      expect((await openedAt('review', greetie({ media: photo, recipient: { name: null, mobileNumber: '+4681234567' } }))).step()).toEqual(['recipient']);
      // The sender's name is asked for in the recipient step: without it, no review.
      const t = start();
      t.actor.send({ type: 'user.opened', draftId: DRAFT_ID, gift: null, step: 'review', sender: { id: 'u1', name: null } });
      t.load.calls[0]!.resolve(greetie({ media: photo, recipient: number }));
      await settle();
      expect(t.step()).toEqual(['recipient']);
    });

    it('an address never starts the payment: it opens the review at most', async () => {
      const t = await openedAt('payment', greetie({ media: photo, gifts: [gift], recipient: number }));
      expect(t.step()).toEqual(['review']);
      t.actor.send({ type: 'user.consented', consented: true });
      t.actor.send({ type: 'step.requested', step: 'payment' });
      expect(t.step()).toEqual(['review']);
      expect(t.actor.getSnapshot().children.payment).toBeUndefined();
    });

    it('forward goes on when the steps between are finished, otherwise to the first unfinished one', async () => {
      const t = await openedAt('content', greetie({ media: photo }));
      t.actor.send({ type: 'step.requested', step: 'gifts' });
      expect(t.step()).toEqual(['gifts']);
      // No recipient yet: the review is not reached, the recipient step is.
      t.actor.send({ type: 'step.requested', step: 'review' });
      expect(t.step()).toEqual(['recipient']);
      t.actor.send({ type: 'step.requested', step: 'review' });
      expect(t.step()).toEqual(['recipient']);
      t.actor.send({ type: 'user.changedRecipient', recipient, message: '', deliverAt: null });
      t.actor.send({ type: 'step.requested', step: 'review' });
      expect(t.step()).toEqual(['review']);
    });

    it('a file going up keeps the media step, whatever the address asks', async () => {
      const t = start();
      t.actor.send({ type: 'user.opened', draftId: null, gift: null });
      t.toUpload({ type: 'user.choseFile', file: jpeg });
      expect(t.has('busy')).toBe(true);
      t.actor.send({ type: 'step.requested', step: 'content' });
      expect(t.step()).toEqual(['media']);
      expect(t.has('busy')).toBe(true);
    });
  });

  it('sums the gifts for the running total', () => {
    expect(giftsTotal([giftChoice, { ...giftChoice, amount: 5050 }])).toBe(19950);
    expect(giftsTotal([])).toBe(0);
  });
});
