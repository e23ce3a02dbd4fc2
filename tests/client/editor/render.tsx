import { useState } from 'react';
import { render } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { vi } from 'vitest';
import { createI18n, type Language } from '../../../src/i18n.ts';
import { ContentEditor } from '../../../src/pages/greetie/editor/ContentEditor.tsx';
import type { ContentElement } from '../../../contract/greetie.ts';

/**
 * The editor as the compose step uses it: a parent that keeps the elements and passes each
 * change back (the editor is controlled). `changes` records every onChange; `current()` is what
 * the parent holds now.
 */
export function renderEditor(
  opts: { elements?: ContentElement[]; onPicture?: (file: File) => Promise<string>; language?: Language; media?: { url: string; kind: 'photo' | 'video' } } = {},
) {
  const changes: ContentElement[][] = [];
  let held: ContentElement[] = opts.elements ?? [];
  const onPicture = vi.fn(opts.onPicture ?? (async () => '/api/media/AAAAAAAAAAAAAAAAAAAAAAAAAA.webp'));
  function Parent() {
    const [elements, setElements] = useState<ContentElement[]>(held);
    return (
      <ContentEditor
        mediaUrl={opts.media?.url ?? null}
        mediaKind={opts.media?.kind ?? null}
        elements={elements}
        onPicture={onPicture}
        onChange={(next) => {
          changes.push(next);
          held = next;
          setElements(next);
        }}
      />
    );
  }
  const view = render(
    <I18nextProvider i18n={createI18n(opts.language ?? 'sv')}>
      <Parent />
    </I18nextProvider>,
  );
  return { ...view, changes, onPicture, current: () => held };
}

export const text = (over: Partial<ContentElement> = {}): ContentElement =>
  ({ id: 'a', type: 'text', value: 'Hej', x: 0.5, y: 0.5, scale: 1, rotation: 0, ...over }) as ContentElement;

/**
 * A fake lottie-web: records what the player asked for (the real one needs a browser's SVG
 * layout). One per test file, since the app loads lottie once per page; `reset()` between tests.
 */
export function fakeLottie() {
  type Anim = { totalFrames: number; goToAndStop: (frame: number, isFrame: boolean) => void; destroy: () => void; stops: [number, boolean][]; destroyed: boolean };
  const calls: Record<string, unknown>[] = [];
  const anims: Anim[] = [];
  const loadAnimation = (params: Record<string, unknown>) => {
    calls.push(params);
    const anim: Anim = {
      totalFrames: 90,
      stops: [],
      destroyed: false,
      goToAndStop: (frame, isFrame) => void anim.stops.push([frame, isFrame]),
      destroy: () => void (anim.destroyed = true),
    };
    anims.push(anim);
    return anim;
  };
  const reset = () => {
    calls.length = 0;
    anims.length = 0;
  };
  return { default: { loadAnimation }, calls, anims, reset };
}

/** fetch as the server answers /lottie/<id>.json. */
export function stubAnimationFetch() {
  const fetch = vi.fn(async (url: string) => new Response(JSON.stringify({ v: '5.7.4', fr: 30, ip: 0, op: 90, w: 200, h: 200, layers: [], url }), { status: 200 }));
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

/** prefers-reduced-motion (and, when asked, a fine pointer: a mouse or trackpad) as the browser would answer them. */
export function stubReducedMotion(reduce: boolean, finePointer = false) {
  vi.stubGlobal(
    'matchMedia',
    vi.fn((query: string) => ({
      matches: (reduce && query.includes('prefers-reduced-motion: reduce')) || (finePointer && query.includes('pointer: fine')),
      media: query,
      addEventListener: () => {},
      removeEventListener: () => {},
    })),
  );
}
