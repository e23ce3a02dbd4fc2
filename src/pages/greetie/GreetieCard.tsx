import { useTranslation } from 'react-i18next';
import type { ContentElement, GreetieMedia } from '../../../contract/greetie.ts';
import { ContentLayer } from './editor/ContentLayer.tsx';
import * as css from './greetie.css.ts';

/** The greetie as its recipient sees it: the photo or video with its content drawn live, and the message. */
export function GreetieCard({ media, content, message }: { media: GreetieMedia | null; content: readonly ContentElement[]; message: string }) {
  const { t } = useTranslation('greetie');
  const described = content
    .filter((e) => e.type === 'text' || e.type === 'emoji')
    .map((e) => e.value)
    .join(' ');
  return (
    <figure style={{ margin: 0 }}>
      <div className={css.frame}>
        {media?.kind === 'video' ? (
          <video className={css.frameMedia} src={media.url} poster={media.thumbnailUrl ?? undefined} controls playsInline aria-label={t('card.video')} />
        ) : media ? (
          <img className={css.frameMedia} src={media.url} alt={t('card.photo')} />
        ) : (
          <p className={css.frameEmpty}>{t('card.noMedia')}</p>
        )}
        <ContentLayer elements={content} label={content.length ? t('card.content', { text: described || t('card.decorations') }) : undefined} />
      </div>
      {message && <figcaption className={css.message}>{message}</figcaption>}
    </figure>
  );
}
