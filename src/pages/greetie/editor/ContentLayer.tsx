// The editor's text faces in the one weight each is drawn in (layout.ts FONT_FAMILIES), latin and
// latin-ext only (decision 137).
import '@fontsource/caveat/latin-700.css';
import '@fontsource/caveat/latin-ext-700.css';
import '@fontsource/lora/latin-600.css';
import '@fontsource/lora/latin-ext-600.css';
import { useRef, type CSSProperties } from 'react';
import { stickerUrl } from '../../../../contract/catalogue.ts';
import type { ContentElement } from '../../../../contract/greetie.ts';
import { keepAllInside } from './bounds.ts';
import * as css from './editor.css.ts';
import { elementKey } from './elements.ts';
import { FONT_FAMILIES, textShadowColor, textStyleOf } from './layout.ts';
import { LottiePlayer } from './LottiePlayer.tsx';
import { useMeasured } from './measure.ts';

/**
 * Where an element sits in its layer: centred on (x, y), turned, then scaled (layout.ts). Set
 * through React's style property (the CSSOM), which the CSP's style-src does not govern.
 */
export function placedStyle(el: ContentElement): CSSProperties {
  return {
    left: `${el.x * 100}%`,
    top: `${el.y * 100}%`,
    transform: `translate(-50%, -50%) rotate(${el.rotation}deg) scale(${el.scale})`,
  };
}

/** What an element looks like, without its place: shared by the read-only layer and the editor. */
export function ElementVisual({ element }: { element: ContentElement }) {
  switch (element.type) {
    case 'emoji':
      return (
        <span className={css.visual.emoji} aria-hidden="true">
          {element.value}
        </span>
      );
    case 'sticker':
      return <img className={css.visual.sticker} src={stickerUrl(element.value)} alt="" draggable={false} />;
    case 'picture':
      return <img className={css.visual.picture} src={element.value} alt="" draggable={false} />;
    case 'lottie':
      return <LottiePlayer id={element.value} className={css.visual.lottie} />;
    case 'text': {
      const { font, color } = textStyleOf(element);
      const face = FONT_FAMILIES[font];
      return (
        <span
          className={css.visual.text}
          aria-hidden="true"
          style={{ fontFamily: face.family, fontWeight: face.weight, color, textShadow: `0 0.04em 0.12em ${textShadowColor(color)}` }}
        >
          {element.value}
        </span>
      );
    }
  }
}

/**
 * The content drawn live over a greetie's photo or video (crisp text, playing animations): put it
 * inside the positioned box that holds the media, in the greetie's frame shape (GREETIE_FRAME).
 * Read-only; the greetie view and the compose review step use it, and renderOverlay (overlay.ts)
 * draws the same layout to a still image. An element placed partly outside the picture (a draft
 * from before elements were kept inside) is shown moved inside, as the editor would keep it.
 */
export function ContentLayer({ elements, label }: { elements: readonly ContentElement[]; label?: string }) {
  const layerRef = useRef<HTMLDivElement>(null);
  const keys = elements.map(elementKey);
  const measured = useMeasured(layerRef, keys.join(' '));
  const shown = keepAllInside(elements, (i) => measured?.boxes.get(keys[i]!), measured?.frame);
  return (
    <div ref={layerRef} className={css.layer} role={label ? 'img' : undefined} aria-label={label} aria-hidden={label ? undefined : true}>
      {shown.map((el, i) => (
        <div key={keys[i]} data-element-key={keys[i]} className={css.placed} style={placedStyle(el)}>
          <ElementVisual element={el} />
        </div>
      ))}
    </div>
  );
}
