import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ContentElement, GreetieMedia } from '../../../../contract/greetie.ts';
import { ContentLayer } from '../editor/ContentLayer.tsx';
import { GREETIE_FRAME as FRAME } from '../editor/layout.ts';
import { handOverBootFrame, removeBootFrame } from './bootFrame.ts';
import * as css from './view.css.ts';

/**
 * The greetie's photo or video with its content elements drawn live over it (the editor's
 * ContentLayer, the same layout the flattened overlay was drawn from), in the greetie's one frame
 * shape (GREETIE_FRAME), sized before anything loads, so nothing moves.
 *
 * The first frame is the page's largest paint: the photo's small copy (the full photo fades in
 * over it once loaded), or the video's poster, is an <img> with fetchpriority="high" and its size
 * given. A video plays muted and inline (a phone will only start
 * it so) with a button for the sound.
 */
export function GreetieStage({ media, content }: { media: GreetieMedia | null; content: readonly ContentElement[] }) {
  const { t } = useTranslation('view');
  const video = useRef<HTMLVideoElement>(null);
  const [muted, setMuted] = useState(true);
  const described = content
    .filter((e) => e.type === 'text' || e.type === 'emoji')
    .map((e) => e.value)
    .join(' ');
  // A photo shows its small copy first (the largest paint comes early on a slow phone network),
  // and the full photo over it once it has arrived.
  const firstFrame = media?.kind === 'video' ? media.thumbnailUrl : (media?.thumbnailUrl ?? media?.url);
  const fullPhoto = media?.kind === 'photo' && media.url !== firstFrame ? media.url : null;
  const [sharp, setSharp] = useState(false);
  // The server's copy of the first frame (index.html's #boot-frame) gives way to this one once it
  // is in place; with no first frame here, at once.
  useEffect(() => {
    if (!firstFrame) removeBootFrame();
  }, [firstFrame]);

  const toggleSound = () => {
    const el = video.current;
    const next = !muted;
    setMuted(next);
    if (!el) return;
    el.muted = next;
    // Turning the sound on is a tap: the browser lets a video with sound play from it.
    if (!next && el.paused) el.play()?.catch(() => {});
  };

  return (
    <div className={css.stage}>
      {firstFrame ? (
        <img
          className={css.media_}
          src={firstFrame}
          width={FRAME.width}
          height={FRAME.height}
          fetchPriority="high"
          decoding="async"
          alt={media?.kind === 'photo' ? t('media.photo') : ''}
          onLoad={(e) => handOverBootFrame(e.currentTarget)}
          onError={removeBootFrame}
        />
      ) : (
        !media && <div className={css.noMedia} aria-hidden="true" />
      )}
      {fullPhoto && (
        <img
          className={`${css.media_} ${css.sharpen}`}
          data-loaded={sharp}
          src={fullPhoto}
          width={FRAME.width}
          height={FRAME.height}
          fetchPriority="low"
          decoding="async"
          alt=""
          onLoad={() => setSharp(true)}
        />
      )}
      {media?.kind === 'video' && (
        <video
          ref={video}
          className={css.media_}
          src={media.url}
          poster={media.thumbnailUrl ?? undefined}
          width={FRAME.width}
          height={FRAME.height}
          autoPlay
          muted={muted}
          playsInline
          loop
          preload="auto"
          aria-label={t('media.video')}
        />
      )}
      {content.length > 0 && (
        <div className={css.content}>
          <ContentLayer elements={content} label={t('media.content', { text: described || t('media.decorations') })} />
        </div>
      )}
      {media?.kind === 'video' && (
        <button type="button" className={css.soundButton} onClick={toggleSound}>
          <span aria-hidden="true">{muted ? '🔇' : '🔊'}</span>
          {muted ? t('media.soundOn') : t('media.soundOff')}
        </button>
      )}
    </div>
  );
}
