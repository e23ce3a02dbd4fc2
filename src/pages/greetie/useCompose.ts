import { useMemo, useState } from 'react';
import { shallowEqual, useActorRef, useSelector } from '@xstate/react';
import type { SnapshotFrom } from 'xstate';
import type { Failure } from '../../../contract/errors.ts';
import type { ContentElement } from '../../../contract/greetie.ts';
import type { Payment } from '../../../contract/payment.ts';
import { COMPOSE_SCREENS, type composeMachine, type ComposeScreen, type OpenedEvent } from '../../../machines/compose.ts';
import type { AutosaveActor, AutosaveTag } from '../../../machines/compose/autosave.ts';
import type { ComposeDraft, ComposeSender, GiftChoice, RecipientFields } from '../../../machines/compose/draft.ts';
import type { ChosenFile, FileRefusal } from '../../../machines/compose/files.ts';
import { isAddressStep, type AddressStep } from '../../../machines/compose/steps.ts';
import type { UploadActor, UploadProgress, UploadTag } from '../../../machines/compose/upload.ts';
import { screenOf } from '../../components/flow.ts';
import { useAuthActor } from '../../components/session.ts';
import { inspect } from '../../inspect.ts';
import { composeWithServer } from './implementations.ts';
import type { PaymentActor } from './payment/usePayment.ts';

type Snapshot = SnapshotFrom<typeof composeMachine>;
type SaveSnapshot = SnapshotFrom<AutosaveActor>;
type UploadSnapshot = SnapshotFrom<UploadActor>;

/** What the page shows, from the state's screen tag; 'opening' before the page has said what its address asks for. */
export type { ComposeScreen };

export type UploadView = 'idle' | 'refused' | 'creating' | 'uploading' | 'failed' | 'cancelled';
const UPLOADS: readonly UploadView[] = ['refused', 'creating', 'uploading', 'failed', 'cancelled'];
export type SaveView = 'saved' | 'waiting' | 'saving' | 'failed' | 'invalid';
const SAVES: readonly SaveView[] = ['saved', 'waiting', 'saving', 'failed', 'invalid'];

/** A save refused because a chosen gift sold out: which gifts, once the products were read again. */
export interface SoldOutView {
  /** The last save failed because a chosen gift is sold out. */
  failed: boolean;
  /** The chosen gifts found sold out (empty while looking, or when none could be named). */
  gifts: GiftChoice[];
  /** Their product ids, for the gifts step's rows. */
  productIds: ReadonlySet<string>;
  /** The products have been read again (or could not be). */
  checked: boolean;
}

/** The compose flow as the page shows it, and what the person can do (never the machine itself). */
export interface ComposeView {
  screen: ComposeScreen;
  busy: boolean;
  upload: UploadView;
  save: SaveView;
  sendFailed: boolean;
  /** Paid or sent: the steps are behind (the page replaces their addresses in history). */
  stepsLeft: boolean;
  /** The content's flattened image is on its way (the review waits for it). */
  overlayUploading: boolean;
  /** The sender's name is being saved to the profile (the recipient step's "Nästa"). */
  savingSenderName: boolean;
  draftId: string | null;
  draft: ComposeDraft;
  /** The server's sum of the gifts (öre). */
  total: number;
  file: ChosenFile | null;
  progress: UploadProgress | null;
  refusal: FileRefusal | null;
  /** The last failure (load, create or send). */
  failure: Failure | null;
  /** The last upload's failure (the upload's). */
  uploadFailure: Failure | null;
  /** The last save's failure (the autosave's). */
  saveFailure: Failure | null;
  sender: ComposeSender;
  senderNameFailure: Failure | null;
  soldOut: SoldOutView;
  /** The payment compose handed over to (screen 'payment'), or null. */
  paymentActor: PaymentActor | null;
  /** The paid payment (screen 'paid'), for the receipt. */
  payment: Payment | null;
  /** The withdrawal consent at review: ticked, and whether paying was tried without it. */
  consent: boolean;
  consentMissing: boolean;
  open: (opened: Omit<OpenedEvent, 'type'>) => void;
  chooseFile: (file: ChosenFile) => void;
  cancelUpload: () => void;
  retryUpload: () => void;
  next: () => void;
  back: () => void;
  /** The address names `step` (a reload, the browser's back or forward): the machine decides; answers the step shown after (null: no step). */
  requestStep: (step: AddressStep) => AddressStep | null;
  changeContent: (content: ContentElement[]) => void;
  changeGifts: (gifts: GiftChoice[]) => void;
  changeRecipient: (recipient: RecipientFields, message: string, deliverAt: string | null) => void;
  changeSenderName: (name: string) => void;
  retrySave: () => void;
  /** 'Skicka' or 'Betala med Swish' on the review. */
  submit: () => void;
  /** The withdrawal consent's box at review. */
  consentTo: (consented: boolean) => void;
  retry: () => void;
  withoutGift: () => void;
}

const NONE: ReadonlySet<string> = new Set();

/** The step a screen is, as an address names it (null: no step, e.g. loading or sent). */
export const stepOf = (screen: ComposeScreen): AddressStep | null => (isAddressStep(screen) ? screen : null);

const select = (s: Snapshot) => ({
  screen: screenOf(s, COMPOSE_SCREENS),
  busy: s.hasTag('busy'),
  sendFailed: s.hasTag('sendFailed'),
  stepsLeft: s.hasTag('stepsLeft'),
  overlayUploading: s.hasTag('overlay:uploading'),
  savingSenderName: s.hasTag('senderName:saving'),
  draftId: s.context.draftId,
  draft: s.context.draft,
  total: s.context.total,
  failure: s.context.error,
  sender: s.context.sender,
  senderNameFailure: s.context.senderNameError,
  paymentActor: (s.children.payment as PaymentActor | undefined) ?? null,
  payment: s.context.payment,
  consent: s.context.consent,
  consentMissing: s.context.consentMissing,
  autosave: (s.children.autosave as AutosaveActor | undefined) ?? null,
  uploader: (s.children.upload as UploadActor | undefined) ?? null,
});

/** The media step's upload, from the upload child (none outside the media step). */
const selectUpload = (s: UploadSnapshot | undefined) => ({
  upload: (s && UPLOADS.find((u) => s.hasTag(`upload:${u}` as UploadTag))) ?? 'idle',
  file: s?.context.file ?? null,
  progress: s?.context.progress ?? null,
  refusal: s?.context.refusal ?? null,
  uploadFailure: s?.context.error ?? null,
});

/** The save beside the steps, from the autosave child (none before the person edits: all saved). */
const selectSave = (s: SaveSnapshot | undefined) => ({
  save: (s && SAVES.find((v) => s.hasTag(`save:${v}` as AutosaveTag))) ?? 'saved',
  saveFailure: s?.context.error ?? null,
  soldOutFailed: s?.hasTag('save:soldOut') ?? false,
  soldOutIds: s?.context.soldOut ?? null,
});

/** Runs the compose machine with its real implementations (implementations.ts) and reads it as a view model. */
export function useCompose(): ComposeView {
  const auth = useAuthActor();
  const [machine] = useState(() => composeWithServer(auth));
  const actor = useActorRef(machine, { inspect });
  const selected = useSelector(actor, select, shallowEqual);
  const saved = useSelector(selected.autosave ?? undefined, selectSave, shallowEqual);
  const uploaded = useSelector(selected.uploader ?? undefined, selectUpload, shallowEqual);
  const commands = useMemo(() => {
    const uploader = () => actor.getSnapshot().children.upload as UploadActor | undefined;
    return {
      open: (opened: Omit<OpenedEvent, 'type'>) => actor.send({ type: 'user.opened', ...opened }),
      // The upload is the upload child's own: the person's file, cancel and retry go to it.
      chooseFile: (file: ChosenFile) => uploader()?.send({ type: 'user.choseFile', file }),
      cancelUpload: () => uploader()?.send({ type: 'user.cancelUpload' }),
      retryUpload: () => uploader()?.send({ type: 'user.retryUpload' }),
      next: () => actor.send({ type: 'user.next' }),
      back: () => actor.send({ type: 'user.back' }),
      requestStep: (step: AddressStep) => {
        actor.send({ type: 'step.requested', step });
        return stepOf(screenOf(actor.getSnapshot(), COMPOSE_SCREENS));
      },
      changeContent: (content: ContentElement[]) => actor.send({ type: 'user.changedContent', content }),
      changeGifts: (gifts: GiftChoice[]) => actor.send({ type: 'user.changedGifts', gifts }),
      changeRecipient: (recipient: RecipientFields, message: string, deliverAt: string | null) =>
        actor.send({ type: 'user.changedRecipient', recipient, message, deliverAt }),
      changeSenderName: (name: string) => actor.send({ type: 'user.changedSenderName', name }),
      // The save is the autosave's own: its retry goes to it.
      retrySave: () => (actor.getSnapshot().children.autosave as AutosaveActor | undefined)?.send({ type: 'user.retrySave' }),
      submit: () => actor.send({ type: 'user.send' }),
      consentTo: (consented: boolean) => actor.send({ type: 'user.consented', consented }),
      retry: () => actor.send({ type: 'user.retry' }),
      withoutGift: () => actor.send({ type: 'user.withoutGift' }),
    };
  }, [actor]);
  return useMemo(() => {
    const { autosave: _autosave, uploader: _uploader, ...state } = selected;
    const { soldOutFailed, soldOutIds, ...save } = saved;
    const ids = soldOutFailed && soldOutIds ? new Set(soldOutIds) : NONE;
    const soldOut: SoldOutView = {
      failed: soldOutFailed,
      gifts: state.draft.gifts.filter((g) => ids.has(g.productId)),
      productIds: ids,
      checked: soldOutFailed && soldOutIds !== null,
    };
    return { ...state, ...save, ...uploaded, soldOut, ...commands };
  }, [selected, saved, uploaded, commands]);
}
