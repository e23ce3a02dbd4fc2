import { useMemo, useState } from 'react';
import { shallowEqual, useActorRef, useSelector } from '@xstate/react';
import type { SnapshotFrom } from 'xstate';
import type { Failure } from '../../../contract/errors.ts';
import type { ContentElement } from '../../../contract/greetie.ts';
import type { Payment } from '../../../contract/payment.ts';
import { COMPOSE_SCREENS, type composeMachine, type ComposeScreen, type ComposeTag, type OpenedEvent, type UploadProgress } from '../../../machines/compose.ts';
import type { ComposeDraft, ComposeSender, GiftChoice, RecipientFields } from '../../../machines/compose/draft.ts';
import type { ChosenFile, FileRefusal } from '../../../machines/compose/files.ts';
import { screenOf } from '../../components/flow.ts';
import { useAuthActor } from '../../components/session.ts';
import { inspect } from '../../inspect.ts';
import { composeWithServer } from './implementations.ts';
import type { PaymentActor } from './payment/usePayment.ts';

type Snapshot = SnapshotFrom<typeof composeMachine>;

/** What the page shows, from the state's screen tag; 'opening' before the page has said what its address asks for. */
export type { ComposeScreen };

export type UploadView = 'idle' | 'refused' | 'creating' | 'uploading' | 'failed' | 'cancelled';
const UPLOADS: readonly UploadView[] = ['refused', 'creating', 'uploading', 'failed', 'cancelled'];
export type SaveView = 'saved' | 'waiting' | 'saving' | 'failed';
const SAVES: readonly SaveView[] = ['saved', 'waiting', 'saving', 'failed'];

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
  /** The last failure (load, create, upload, save or send). */
  failure: Failure | null;
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

const select = (s: Snapshot) => ({
  screen: screenOf(s, COMPOSE_SCREENS),
  busy: s.hasTag('busy'),
  upload: UPLOADS.find((u) => s.hasTag(`upload:${u}` as ComposeTag)) ?? 'idle',
  save: SAVES.find((v) => s.hasTag(`save:${v}` as ComposeTag)) ?? 'saved',
  sendFailed: s.hasTag('sendFailed'),
  overlayUploading: s.hasTag('overlay:uploading'),
  savingSenderName: s.hasTag('senderName:saving'),
  soldOutFailed: s.hasTag('save:soldOut'),
  draftId: s.context.draftId,
  draft: s.context.draft,
  total: s.context.total,
  file: s.context.file,
  progress: s.context.progress,
  refusal: s.context.refusal,
  failure: s.context.error,
  sender: s.context.sender,
  senderNameFailure: s.context.senderNameError,
  soldOutIds: s.context.soldOut,
  paymentActor: (s.children.payment as PaymentActor | undefined) ?? null,
  payment: s.context.payment,
  consent: s.context.consent,
  consentMissing: s.context.consentMissing,
});

/** Runs the compose machine with its real implementations (implementations.ts) and reads it as a view model. */
export function useCompose(): ComposeView {
  const auth = useAuthActor();
  const [machine] = useState(() => composeWithServer(auth));
  const actor = useActorRef(machine, { inspect });
  const selected = useSelector(actor, select, shallowEqual);
  const commands = useMemo(
    () => ({
      open: (opened: Omit<OpenedEvent, 'type'>) => actor.send({ type: 'user.opened', ...opened }),
      chooseFile: (file: ChosenFile) => actor.send({ type: 'user.choseFile', file }),
      cancelUpload: () => actor.send({ type: 'user.cancelUpload' }),
      retryUpload: () => actor.send({ type: 'user.retryUpload' }),
      next: () => actor.send({ type: 'user.next' }),
      back: () => actor.send({ type: 'user.back' }),
      changeContent: (content: ContentElement[]) => actor.send({ type: 'user.changedContent', content }),
      changeGifts: (gifts: GiftChoice[]) => actor.send({ type: 'user.changedGifts', gifts }),
      changeRecipient: (recipient: RecipientFields, message: string, deliverAt: string | null) =>
        actor.send({ type: 'user.changedRecipient', recipient, message, deliverAt }),
      changeSenderName: (name: string) => actor.send({ type: 'user.changedSenderName', name }),
      retrySave: () => actor.send({ type: 'user.retrySave' }),
      submit: () => actor.send({ type: 'user.send' }),
      consentTo: (consented: boolean) => actor.send({ type: 'user.consented', consented }),
      retry: () => actor.send({ type: 'user.retry' }),
      withoutGift: () => actor.send({ type: 'user.withoutGift' }),
    }),
    [actor],
  );
  return useMemo(() => {
    const { soldOutFailed, soldOutIds, ...state } = selected;
    const ids = soldOutFailed && soldOutIds ? new Set(soldOutIds) : NONE;
    const soldOut: SoldOutView = {
      failed: soldOutFailed,
      gifts: state.draft.gifts.filter((g) => ids.has(g.productId)),
      productIds: ids,
      checked: soldOutFailed && soldOutIds !== null,
    };
    return { ...state, soldOut, ...commands };
  }, [selected, commands]);
}
