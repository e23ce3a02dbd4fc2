import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { expect, vi } from 'vitest';
import type { Greetie } from '../../../contract/greetie.ts';
import type { ChosenFile } from '../../../machines/compose/files.ts';
import type { UploadContext } from '../../../machines/compose/upload.ts';
import { FakeXhr } from '../../client/greetie/fakeXhr.ts';
import { defineUi } from '../harness/types.ts';
import { CREATE, MEDIA_UPLOAD, answer, cleanupCompose, errorOf, fileOf, json, openUpload, renderCompose } from './compose.tsx';

/**
 * The media step's upload as a person meets it on /greetie/new (blank: the draft is created with
 * the first upload). The person picks a file, cancels or tries again; the server (fetch and
 * XMLHttpRequest at the edge, compose's binding) creates the draft and takes or refuses the file.
 */
const ctx = (s: AnyMachineSnapshot) => s.context as UploadContext;
const user = () => userEvent.setup({ advanceTimers: vi.advanceTimersByTime, applyAccept: false });
const outputOf = (event: EventObject) => (event as EventObject & { output: Greetie }).output;

export default defineUi({
  render() {
    renderCompose('/greetie/new');
  },
  events: {
    'user.choseFile': async (_env, event) => {
      const file = fileOf((event as EventObject & { file: ChosenFile }).file);
      await user().upload(await screen.findByLabelText(/Välj från telefonen|Byt bild eller video/, undefined, { timeout: 5000 }), file);
    },
    'user.cancelUpload': async () => {
      await user().click(screen.getByRole('button', { name: 'Avbryt uppladdningen' }));
    },
    'user.retryUpload': async () => {
      await user().click(screen.getByRole('button', { name: 'Försök igen' }));
    },
    'xstate.done.actor.createDraft': (_env, event) => answer(CREATE, () => json(201, outputOf(event))),
    'xstate.error.actor.createDraft': (_env, event) => answer(CREATE, () => errorOf(event)),
    // The bytes go out (progress), then the server answers.
    'upload.progress': async (_env, event) => {
      const e = event as EventObject & { loaded: number; total: number };
      (await openUpload(MEDIA_UPLOAD)).progress(e.loaded, e.total);
    },
    'xstate.done.actor.uploadMedia': async (_env, event) => {
      (await openUpload(MEDIA_UPLOAD)).answer(200, outputOf(event));
    },
    'xstate.error.actor.uploadMedia': async (_env, event) => {
      const e = (event as EventObject & { error: { status: number; code: string; message: string } }).error;
      (await openUpload(MEDIA_UPLOAD)).answer(e.status, { code: e.code, message: e.message });
    },
  },
  states: {
    'ready.idle': async () => {
      expect(await screen.findByLabelText(/Välj från telefonen|Byt bild eller video/, undefined, { timeout: 5000 })).toHaveAttribute('type', 'file');
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
      // The uploaded photo, or none yet (compose keeps the media: its binding checks which).
      expect(screen.queryByRole('img', { name: 'Din bild' }) ?? screen.queryByText('Ingen bild eller video än')).toBeInTheDocument();
    },
    'ready.refused': async () => {
      expect(await screen.findByRole('alert')).toHaveTextContent('Filen går inte att använda.');
      expect(FakeXhr.all).toHaveLength(0);
    },
    'ready.stopped.failed': async () => {
      const alert = await screen.findByRole('alert');
      expect(alert).toHaveTextContent('Filen kunde inte laddas upp');
      // The server's own words: its refusal of the file, or its failure.
      expect(alert).toHaveTextContent(/Filen är varken en bild|Något gick fel hos oss/);
    },
    'ready.stopped.cancelled': async () => {
      expect(await screen.findByText('Uppladdningen avbröts.')).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Försök igen' })).toBeEnabled();
    },
    creatingDraft: async () => {
      expect(await screen.findByText('Förbereder uppladdningen…')).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Avbryt uppladdningen' })).toBeEnabled();
    },
    uploading: async (_env, s) => {
      const p = ctx(s).progress;
      const percent = p ? Math.round((p.loaded / p.total) * 100) : 0;
      expect(await screen.findByText(`Laddar upp… ${percent} %`)).toBeInTheDocument();
      expect(screen.getByRole('progressbar')).toHaveAttribute('value', String(percent));
    },
  },
  cleanup: cleanupCompose,
});
