import { useEffect, useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { checkMediaFile } from '../../../machines/compose.ts';
import { button, buttonSecondary } from '../../components/ui.css.ts';
import type { ComposeView } from './useCompose.ts';
import { StepActions } from './StepActions.tsx';
import * as css from './greetie.css.ts';

/** Step 1: take or choose a photo or video; it uploads with a real progress bar, cancel and retry. */
export function MediaStep({ compose, title }: { compose: ComposeView; title: ReactNode }) {
  const { t } = useTranslation('greetie');
  const { context, upload, send } = compose;
  const { file, progress, refusal, error } = context;
  const media = context.draft.media;

  // A preview of the file being uploaded (a local copy; nothing leaves the device for it).
  const localUrl = useMemo(() => (file instanceof Blob && (upload === 'uploading' || upload === 'creating') ? URL.createObjectURL(file) : null), [file, upload]);
  useEffect(() => () => void (localUrl && URL.revokeObjectURL(localUrl)), [localUrl]);
  const localKind = file && !('refused' in checkMediaFile(file)) ? (checkMediaFile(file) as { kind: 'photo' | 'video' }).kind : null;

  const shownUrl = localUrl ?? media?.url ?? null;
  const shownKind = localUrl ? localKind : (media?.kind ?? null);
  const percent = progress && progress.total > 0 ? Math.round((progress.loaded / progress.total) * 100) : 0;
  const running = upload === 'uploading' || upload === 'creating';

  return (
    <div>
      {title}
      <p className={css.lead}>{t('media.lead')}</p>
      <div className={css.frame}>
        {shownUrl && shownKind === 'video' ? (
          <video className={css.frameMedia} src={shownUrl} controls playsInline muted aria-label={t('media.previewVideo')} />
        ) : shownUrl ? (
          <img className={css.frameMedia} src={shownUrl} alt={t('media.previewPhoto')} />
        ) : (
          <p className={css.frameEmpty}>{t('media.empty')}</p>
        )}
      </div>

      <div className={css.uploadBox}>
        {running && (
          <>
            <label htmlFor="upload-progress" className={css.label}>
              {upload === 'creating' ? t('media.preparing') : t('media.uploading', { percent })}
            </label>
            <progress
              id="upload-progress"
              className={css.progress}
              max={100}
              value={upload === 'creating' ? undefined : percent}
              aria-valuenow={upload === 'creating' ? undefined : percent}
              aria-valuemin={0}
              aria-valuemax={100}
            />
            <button type="button" className={buttonSecondary} onClick={() => send({ type: 'user.cancelUpload' })}>
              {t('media.cancel')}
            </button>
          </>
        )}
        {upload === 'refused' && refusal && (
          <p role="alert" className={css.fieldError}>
            {t(`media.refused.${refusal}`)}
          </p>
        )}
        {(upload === 'failed' || upload === 'cancelled') && (
          <div role={upload === 'failed' ? 'alert' : 'status'} className={upload === 'failed' ? css.alert : css.notice}>
            <p className={css.alertTitle}>{upload === 'failed' ? t('media.failed') : t('media.cancelled')}</p>
            {upload === 'failed' && <p>{error?.message}</p>}
            <button type="button" className={button} onClick={() => send({ type: 'user.retryUpload' })}>
              {t('media.retry')}
            </button>
          </div>
        )}
        {!running && (
          <>
            {/* Two ways in: the camera (capture) and the phone's own photos and files. */}
            <FileField id="media-camera" label={media ? t('media.replaceCamera') : t('media.camera')} capture onFile={(f) => send({ type: 'user.choseFile', file: f })} />
            <FileField id="media-file" label={media ? t('media.replace') : t('media.choose')} onFile={(f) => send({ type: 'user.choseFile', file: f })} />
            <p className={css.hint}>{t('media.rules')}</p>
          </>
        )}
      </div>
      <StepActions compose={compose} canGoOn={!!media && !running} />
    </div>
  );
}

function FileField({ id, label, capture, onFile }: { id: string; label: string; capture?: boolean; onFile: (file: File) => void }) {
  return (
    <div className={css.field}>
      <label htmlFor={id} className={css.label}>
        {label}
      </label>
      <input
        id={id}
        type="file"
        accept="image/*,video/*"
        capture={capture ? 'environment' : undefined}
        className={css.fileInput}
        onChange={(e) => {
          const chosen = e.currentTarget.files?.[0];
          e.currentTarget.value = '';
          if (chosen) onFile(chosen);
        }}
      />
    </div>
  );
}
