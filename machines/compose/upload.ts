import { assign, fromPromise, sendParent, setup, type ActorRefFrom } from 'xstate';
import type { Failure } from '../../contract/errors.ts';
import type { Greetie, GreetieCreateV2 } from '../../contract/greetie.ts';
import { checkMediaFile, type ChosenFile, type FileRefusal } from './files.ts';

/**
 * The media step's upload: a child of the compose machine (invoked as `upload` while the media
 * step shows). A file of the wrong type or too big is refused before anything is sent
 * (files.ts); a fitting one goes up in `uploadMedia`, which reports `upload.progress`, after the
 * draft is created when there is none yet (the upload needs its id). Cancelling stops the call
 * (its request is aborted); a failed or cancelled upload can be tried again with the same file.
 *
 * It tells compose by events: `upload.started` (a file goes up: compose holds the step),
 * `upload.created` (the draft it created), `upload.done` (the server's answer with the new media)
 * and `upload.stopped` (failed or cancelled). The page reads the upload's tags (`upload:<what>`),
 * file, progress, refusal and failure from this actor.
 */

export interface UploadProgress {
  loaded: number;
  total: number;
}

export type UploadProgressEvent = { type: 'upload.progress'; loaded: number; total: number };

/** What the upload actor needs; `progressTo` hears `upload.progress` as the bytes go out. */
export interface UploadInput {
  draftId: string;
  file: ChosenFile;
  progressTo: { send: (event: UploadProgressEvent) => void };
}

export type UploadEvent =
  | { type: 'user.choseFile'; file: ChosenFile }
  | { type: 'user.cancelUpload' }
  | { type: 'user.retryUpload' }
  | UploadProgressEvent;

/** What the upload tells compose. */
export type UploadReport =
  | { type: 'upload.started' }
  | { type: 'upload.created'; greetie: Greetie }
  | { type: 'upload.done'; greetie: Greetie }
  | { type: 'upload.stopped' };

export type UploadTag = 'busy' | 'upload:refused' | 'upload:creating' | 'upload:uploading' | 'upload:failed' | 'upload:cancelled';

export interface UploadContext {
  /** The draft the file goes to (null: created with the first upload). */
  draftId: string | null;
  /** The file being (or last) uploaded: kept so a cancelled or failed upload can be retried. */
  file: ChosenFile | null;
  progress: UploadProgress | null;
  refusal: FileRefusal | null;
  /** The last failure (creating the draft, or the upload); cleared when it is tried again. */
  error: Failure | null;
}

const failed = ({ event }: { event: { error: unknown } }) => ({ failure: event.error as Failure });

export const uploadMachine = setup({
  types: {
    input: {} as { draftId: string | null },
    context: {} as UploadContext,
    events: {} as UploadEvent,
    tags: {} as UploadTag,
  },
  actors: {
    /** POST /greetie (an empty draft). */
    createDraft: fromPromise<Greetie, GreetieCreateV2>(async () => {
      throw new Error('The "createDraft" actor is given by the page with uploadMachine.provide().');
    }),
    /** POST /greetie/{id}/media, reporting `upload.progress`; stopping it aborts the upload. */
    uploadMedia: fromPromise<Greetie, UploadInput>(async () => {
      throw new Error('The "uploadMedia" actor is given by the page with uploadMachine.provide().');
    }),
  },
  actions: {
    storeFile: assign((_, p: { file: ChosenFile }) => ({ file: p.file, progress: null, refusal: null, error: null })),
    storeRefusal: assign((_, p: { file: ChosenFile }) => {
      const check = checkMediaFile(p.file);
      return { refusal: 'refused' in check ? check.refused : null, error: null };
    }),
    storeProgress: assign((_, p: UploadProgress) => ({ progress: { loaded: p.loaded, total: p.total } })),
    clearProgress: assign({ progress: null, error: null }),
    clearError: assign({ error: null }),
    storeError: assign((_, p: { failure: Failure }) => ({ error: p.failure })),
    storeDraft: assign((_, g: Greetie) => ({ draftId: g.id })),
    clearFile: assign({ file: null, progress: null, error: null }),
    reportStarted: sendParent({ type: 'upload.started' } satisfies UploadReport),
    reportCreated: sendParent((_, g: Greetie): UploadReport => ({ type: 'upload.created', greetie: g })),
    reportDone: sendParent((_, g: Greetie): UploadReport => ({ type: 'upload.done', greetie: g })),
    reportStopped: sendParent({ type: 'upload.stopped' } satisfies UploadReport),
  },
  guards: {
    isRefusedFile: (_, p: { file: ChosenFile }) => 'refused' in checkMediaFile(p.file),
    hasDraft: ({ context }) => context.draftId !== null,
  },
}).createMachine({
  id: 'upload',
  description: 'Ett foto eller en video väljs, kontrolleras och laddas upp till utkastet (som skapas först om det inte finns).',
  context: ({ input }) => ({ draftId: input.draftId, file: null, progress: null, refusal: null, error: null }),
  initial: 'ready',
  states: {
    ready: {
      description: 'Ingen uppladdning pågår: personen kan välja en fil.',
      initial: 'idle',
      on: {
        'user.choseFile': [
          {
            guard: { type: 'isRefusedFile', params: ({ event }) => ({ file: event.file }) },
            target: '.refused',
            actions: { type: 'storeRefusal', params: ({ event }) => ({ file: event.file }) },
            description: 'Filen är av fel sort eller för stor: stoppas före uppladdning, och skälet visas.',
          },
          {
            guard: 'hasDraft',
            target: 'uploading',
            actions: [{ type: 'storeFile', params: ({ event }) => ({ file: event.file }) }, 'reportStarted'],
            description: 'En fil som passar, och utkastet finns: ladda upp den.',
          },
          {
            target: 'creatingDraft',
            actions: [{ type: 'storeFile', params: ({ event }) => ({ file: event.file }) }, 'reportStarted'],
            description: 'En fil som passar, men inget utkast än: skapa utkastet först.',
          },
        ],
      },
      states: {
        idle: { description: 'Väntar på en fil (den uppladdade visas, om det finns någon).' },
        refused: { description: 'Den valda filen stoppades före uppladdning: skälet visas.', tags: ['upload:refused'] },
        stopped: {
          description: 'Uppladdningen blev inte av: personen kan försöka med samma fil igen, eller välja en annan.',
          on: {
            'user.retryUpload': [
              { guard: 'hasDraft', target: '#upload.uploading', actions: 'reportStarted', description: 'Personen försöker med samma fil igen.' },
              { target: '#upload.creatingDraft', actions: 'reportStarted', description: 'Personen försöker igen; utkastet skapas först.' },
            ],
          },
          initial: 'failed',
          states: {
            failed: {
              description: 'Uppladdningen misslyckades eller servern tog inte emot filen: felmeddelandet och Försök igen.',
              tags: ['upload:failed'],
            },
            cancelled: {
              description: 'Personen avbröt uppladdningen: hen kan försöka igen eller välja en annan fil.',
              tags: ['upload:cancelled'],
            },
          },
        },
      },
    },
    creatingDraft: {
      description: 'Utkastet skapas så att filen har någonstans att ta vägen.',
      tags: ['busy', 'upload:creating'],
      entry: 'clearError',
      invoke: {
        id: 'createDraft',
        src: 'createDraft',
        input: () => ({}),
        onDone: {
          target: 'uploading',
          actions: [
            { type: 'storeDraft', params: ({ event }) => event.output },
            { type: 'reportCreated', params: ({ event }) => event.output },
          ],
          description: 'Utkastet finns (compose får det): ladda upp filen.',
        },
        onError: {
          target: 'ready.stopped.failed',
          actions: [{ type: 'storeError', params: failed }, 'reportStopped'],
          description: 'Utkastet kunde inte skapas; felmeddelandet och Försök igen visas.',
        },
      },
      on: {
        'user.cancelUpload': {
          target: 'ready.stopped.cancelled',
          actions: 'reportStopped',
          description: 'Personen avbryter innan uppladdningen har börjat.',
        },
      },
    },
    uploading: {
      description: 'Filen laddas upp; förloppsmätaren följer det som skickats.',
      tags: ['busy', 'upload:uploading'],
      entry: 'clearProgress',
      invoke: {
        id: 'uploadMedia',
        src: 'uploadMedia',
        input: ({ context, self }) => ({
          draftId: context.draftId ?? '',
          file: context.file ?? { name: '', type: '', size: 0 },
          progressTo: self,
        }),
        onDone: {
          target: 'ready.idle',
          actions: ['clearFile', { type: 'reportDone', params: ({ event }) => event.output }],
          description: 'Servern tog emot filen: compose visar den.',
        },
        onError: {
          target: 'ready.stopped.failed',
          actions: [{ type: 'storeError', params: failed }, 'reportStopped'],
          description: 'Uppladdningen misslyckades eller servern tog inte emot filen; felmeddelandet sparas.',
        },
      },
      on: {
        'upload.progress': {
          actions: { type: 'storeProgress', params: ({ event }) => ({ loaded: event.loaded, total: event.total }) },
          description: 'Mer av filen har skickats.',
        },
        'user.cancelUpload': { target: 'ready.stopped.cancelled', actions: 'reportStopped', description: 'Personen avbryter uppladdningen.' },
      },
    },
  },
});

export type UploadActor = ActorRefFrom<typeof uploadMachine>;
