import { useMemo } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import type { SnapshotFrom } from 'xstate';
import { STEPS, type ComposeContext, type ComposeEvent, type ComposeStep, type ComposeTag, composeMachine } from '../../../machines/compose.ts';
import { inspect } from '../../inspect.ts';

type ComposeSnapshot = SnapshotFrom<typeof composeMachine>;

/** What the page shows, from the machine's tags: which screen, and what runs. */
export type ComposeScreen = ComposeStep | 'payment' | 'loading' | 'loadFailed' | 'notFound' | 'notEditable' | 'createFailed' | 'sent';

const screenOf = (s: ComposeSnapshot): ComposeScreen => {
  const step = STEPS.find((x) => s.hasTag(`step:${x}`));
  if (step) return step;
  const other = (['payment', 'loading', 'loadFailed', 'notFound', 'notEditable', 'createFailed', 'sent'] as const).find((x) =>
    s.hasTag(x === 'payment' ? 'step:payment' : x),
  );
  return other ?? 'loading';
};

export type UploadView = 'idle' | 'refused' | 'creating' | 'uploading' | 'failed' | 'cancelled';
const UPLOADS: readonly UploadView[] = ['refused', 'creating', 'uploading', 'failed', 'cancelled'];
export type SaveView = 'saved' | 'waiting' | 'saving' | 'failed';
const SAVES: readonly SaveView[] = ['saved', 'waiting', 'saving', 'failed'];

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
  context: ComposeContext;
  send: (event: ComposeEvent) => void;
}

/** Runs the compose machine (with its server calls provided) and reads it through tags. */
export function useCompose(machine: typeof composeMachine): ComposeView {
  const actor = useActorRef(machine, { inspect });
  const screen = useSelector(actor, screenOf);
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  const upload = useSelector(actor, (s) => UPLOADS.find((u) => s.hasTag(`upload:${u}` as ComposeTag)) ?? 'idle');
  const save = useSelector(actor, (s) => SAVES.find((v) => s.hasTag(`save:${v}` as ComposeTag)) ?? 'saved');
  const sendFailed = useSelector(actor, (s) => s.hasTag('sendFailed'));
  const overlayUploading = useSelector(actor, (s) => s.hasTag('overlay:uploading'));
  const savingSenderName = useSelector(actor, (s) => s.hasTag('senderName:saving'));
  const context = useSelector(actor, (s) => s.context);
  return useMemo(
    () => ({ screen, busy, upload, save, sendFailed, overlayUploading, savingSenderName, context, send: actor.send }),
    [screen, busy, upload, save, sendFailed, overlayUploading, savingSenderName, context, actor],
  );
}
