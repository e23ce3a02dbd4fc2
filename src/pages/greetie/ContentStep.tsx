import { useCallback, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { uploadGreetiePicture } from '../../api/greetie.ts';
import { ContentEditor } from './editor/ContentEditor.tsx';
import type { ComposeView } from './useCompose.ts';
import { StepActions } from './StepActions.tsx';
import * as css from './greetie.css.ts';

/** Step 2: the content editor over the photo or video; every change goes to the machine (and is saved). */
export function ContentStep({ compose, title }: { compose: ComposeView; title: ReactNode }) {
  const { t } = useTranslation('greetie');
  const { draftId, draft, changeContent: onChange } = compose;
  const onPicture = useCallback(
    async (file: File) => {
      if (!draftId) throw new Error('No draft yet.');
      return (await uploadGreetiePicture(draftId, file)).url;
    },
    [draftId],
  );
  return (
    <div>
      {title}
      <p className={css.lead}>{t('content.lead')}</p>
      <ContentEditor
        mediaUrl={draft.media?.url ?? null}
        mediaKind={draft.media?.kind ?? null}
        elements={draft.content}
        onChange={onChange}
        onPicture={onPicture}
      />
      <StepActions compose={compose} />
    </div>
  );
}
