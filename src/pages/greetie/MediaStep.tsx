import { useEffect, useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { UPLOAD_LIMITS_MB } from '../../../contract/media.ts';
import { checkMediaFile } from '../../../machines/compose/files.ts';
import { button, buttonSecondary } from '../../components/ui.css.ts';
import type { ComposeView } from './useCompose.ts';
import { StepActions } from './StepActions.tsx';
import * as css from './greetie.css.ts';

/** Step 1: take or choose a photo or video; it uploads with a real progress bar, cancel and retry. */
export function MediaStep({ compose, title }: { compose: ComposeView; title: ReactNode }) {
  const { t } = useTranslation('greetie');
  const { upload, file, progress, refusal, uploadFailure: error } = compose;
  const media = compose.draft.media;

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
            <button type="button" className={buttonSecondary} onClick={compose.cancelUpload}>
              {t('media.cancel')}
            </button>
          </>
        )}
        {upload === 'refused' && refusal && (
          <p role="alert" className={css.fieldError}>
            {t(`media.refused.${refusal}`, UPLOAD_LIMITS_MB)}
          </p>
        )}
        {(upload === 'failed' || upload === 'cancelled') && (
          <div role={upload === 'failed' ? 'alert' : 'status'} className={upload === 'failed' ? css.alert : css.notice}>
            <p className={css.alertTitle}>{upload === 'failed' ? t('media.failed') : t('media.cancelled')}</p>
            {upload === 'failed' && <p>{error?.message}</p>}
            <button type="button" className={button} onClick={compose.retryUpload}>
              {t('media.retry')}
            </button>
          </div>
        )}
        {!running && (
          <>
            {/* Two ways in: the camera (capture) and the phone's own photos and files. */}
            <div className={css.fileFields}>
              <FileField id="media-camera" label={media ? t('media.replaceCamera') : t('media.camera')} capture onFile={compose.chooseFile} />
              <FileField id="media-file" label={media ? t('media.replace') : t('media.choose')} secondary onFile={compose.chooseFile} />
            </div>
            <p className={css.hint}>{t('media.rules', UPLOAD_LIMITS_MB)}</p>
          </>
        )}
      </div>
      <StepActions compose={compose} canGoOn={!!media && !running} />
    </div>
  );
}

/** A file input shown as a button: the label is what a person taps; the input keeps the keyboard focus (drawn on the label). */
function FileField({ id, label, capture, secondary, onFile }: { id: string; label: string; capture?: boolean; secondary?: boolean; onFile: (file: File) => void }) {
  return (
    <div>
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
      <label htmlFor={id} className={`${css.fileButton} ${secondary ? css.fileButtonSecondary : ''}`}>
        {label}
      </label>
    </div>
  );
}
