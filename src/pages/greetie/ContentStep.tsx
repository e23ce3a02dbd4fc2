import { useCallback, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ContentElement } from '../../../contract/greetie.ts';
import { uploadGreetiePicture } from '../../api/greetie.ts';
import { ContentEditor } from './editor/ContentEditor.tsx';
import type { ComposeView } from './useCompose.ts';
import { StepActions } from './StepActions.tsx';
import * as css from './greetie.css.ts';

/** Step 2: the content editor over the photo or video; every change goes to the machine (and is saved). */
export function ContentStep({ compose, title }: { compose: ComposeView; title: ReactNode }) {
  const { t } = useTranslation('greetie');
  const { context, send } = compose;
  const draftId = context.draftId;
  const onChange = useCallback((content: ContentElement[]) => send({ type: 'user.changedContent', content }), [send]);
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
        mediaUrl={context.draft.media?.url ?? null}
        mediaKind={context.draft.media?.kind ?? null}
        elements={context.draft.content}
        onChange={onChange}
        onPicture={onPicture}
      />
      <StepActions compose={compose} />
    </div>
  );
}
