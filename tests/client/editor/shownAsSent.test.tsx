import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import type { GreetieMedia } from '../../../contract/greetie.ts';
import { createI18n } from '../../../src/i18n.ts';
import { ContentLayer } from '../../../src/pages/greetie/editor/ContentLayer.tsx';
import { FRAME_ASPECT, GREETIE_FRAME } from '../../../src/pages/greetie/editor/layout.ts';
import { GreetieCard } from '../../../src/pages/greetie/GreetieCard.tsx';
import { OVERLAY_FRAME } from '../../../src/pages/greetie/implementations.ts';
import { GreetieStage } from '../../../src/pages/greetie/view/GreetieStage.tsx';
import { renderEditor, stubAnimationFetch, stubReducedMotion, text } from './render.tsx';

/**
 * The editor shows what is sent: one picture shape from the editor to the review and the
 * recipient's screen, elements kept wholly inside the picture, a tool's panel brought into view,
 * and keyboard help only where a keyboard is the input.
 */

vi.mock('lottie-web/build/player/lottie_light', async () => (await import('./render.tsx')).fakeLottie());

beforeEach(() => {
  stubAnimationFetch();
  stubReducedMotion(false);
});
afterEach(() => vi.unstubAllGlobals());

const photo: GreetieMedia = { kind: 'photo', url: '/api/media/photo.jpg', thumbnailUrl: null } as unknown as GreetieMedia;
const sv = createI18n('sv');
const inSwedish = (ui: React.ReactNode) => render(<I18nextProvider i18n={sv}>{ui}</I18nextProvider>);

/** The page's layout as a browser would measure it: the layer `frame` px, every element `box` px before its transform. */
function stubLayout(frame: { width: number; height: number }, box: () => { width: number; height: number }) {
  const isElement = (el: HTMLElement) => el.dataset.elementKey !== undefined;
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockImplementation(() => frame.width);
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(() => frame.height);
  vi.spyOn(HTMLElement.prototype, 'offsetWidth', 'get').mockImplementation(function (this: HTMLElement) {
    return isElement(this) ? box().width : 0;
  });
  vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockImplementation(function (this: HTMLElement) {
    return isElement(this) ? box().height : 0;
  });
}

/** A ResizeObserver the test fires by hand, as the browser does when a size changes. */
function stubResizeObserver() {
  const callbacks = new Set<() => void>();
  vi.stubGlobal(
    'ResizeObserver',
    class {
      private readonly cb: () => void;
      constructor(cb: () => void) {
        this.cb = cb;
        callbacks.add(cb);
      }
      observe() {}
      unobserve() {}
      disconnect() {
        callbacks.delete(this.cb);
      }
    },
  );
  return { resized: () => act(() => callbacks.forEach((cb) => cb())) };
}

describe('one picture shape from the editor to the recipient', () => {
  const shapeOf = (img: HTMLElement) => {
    const frame = img.parentElement!;
    return { aspect: getComputedStyle(frame).aspectRatio, fit: getComputedStyle(img).objectFit, position: getComputedStyle(img).objectPosition };
  };

  it('the editor, the review card and the greetie page show the picture in the same frame, covered the same way', () => {
    renderEditor({ media: { url: photo.url, kind: 'photo' } });
    const editorImg = screen.getByRole('img', { name: 'Din bild' });
    // A wide photo loading does not change the editor's frame (it once took the photo's own shape).
    Object.defineProperty(editorImg, 'naturalWidth', { value: 1600 });
    Object.defineProperty(editorImg, 'naturalHeight', { value: 900 });
    fireEvent.load(editorImg);
    const editor = shapeOf(editorImg);

    inSwedish(<GreetieCard media={photo} content={[]} message="" />);
    const review = shapeOf(screen.getByRole('img', { name: 'Greetiens bild' }));
    inSwedish(<GreetieStage media={photo} content={[]} />);
    const view = shapeOf(screen.getByRole('img', { name: 'Bilden i greetien' }));

    expect(editor.aspect.replace(/\s/g, '')).toBe(FRAME_ASPECT.replace(/\s/g, ''));
    expect(review).toEqual(editor);
    expect(view).toEqual(editor);
    expect(editor.fit).toBe('cover');
  });

  it('the flattened overlay and the greetie page’s first frame are drawn at that shape', () => {
    expect(OVERLAY_FRAME).toEqual(GREETIE_FRAME);
    inSwedish(<GreetieStage media={photo} content={[]} />);
    const img = screen.getByRole('img', { name: 'Bilden i greetien' });
    expect(Number(img.getAttribute('width')) / Number(img.getAttribute('height'))).toBe(GREETIE_FRAME.width / GREETIE_FRAME.height);
  });
});

describe('elements are kept inside the picture', () => {
  // A 400 × 500 px frame; every element 80 × 40 px before its scale: its centre stays 40 px
  // (0.1 of the width) from the sides and 20 px (0.04 of the height) from the top and bottom.
  const frame = { width: 400, height: 500 };

  function layer() {
    const el = screen.getByRole('group', { name: 'Innehåll på bilden' });
    vi.spyOn(el, 'getBoundingClientRect').mockReturnValue({ x: 0, y: 0, left: 0, top: 0, width: 400, height: 500, right: 400, bottom: 500, toJSON: () => ({}) });
    return el;
  }

  it('a drag stops where the element’s edge meets the picture’s', () => {
    stubLayout(frame, () => ({ width: 80, height: 40 }));
    const { current } = renderEditor({ elements: [text()] });
    const area = layer();
    fireEvent.pointerDown(screen.getByRole('button', { name: 'Text: Hej' }), { pointerId: 1, clientX: 200, clientY: 250 });
    fireEvent.pointerMove(area, { pointerId: 1, clientX: 600, clientY: -100 });
    expect(current()[0]).toMatchObject({ x: 0.9, y: 0.04 });
    fireEvent.pointerMove(area, { pointerId: 1, clientX: -300, clientY: 900 });
    expect(current()[0]).toMatchObject({ x: 0.1, y: 0.96 });
  });

  it('the arrow keys stop at the edge, and a turn near the edge moves the element in', async () => {
    stubLayout(frame, () => ({ width: 80, height: 40 }));
    const user = userEvent.setup();
    const { current } = renderEditor({ elements: [text({ x: 0.895 })] });
    await user.click(screen.getByRole('button', { name: 'Text: Hej' }));
    await user.keyboard('{ArrowRight}{ArrowRight}');
    expect(current()[0]).toMatchObject({ x: 0.9 });
    // Turning it near the edge widens the box around it: it is moved in as it turns. A quarter
    // turn makes it 40 wide and 80 high, so then it may come nearer the side than before.
    await user.keyboard('[[[[[[[[[[[['); // '[[' is one '[' to user-event: six 15° turns
    const turned = current()[0]!;
    expect(turned.rotation).toBe(-90);
    expect(turned.x).toBeLessThan(0.9);
    await user.keyboard('{ArrowRight}{ArrowRight}{ArrowRight}');
    expect(current()[0]!.x).toBeCloseTo(turned.x + 0.03, 4);
    expect(current()[0]!.x).toBeGreaterThan(0.9);
  });

  it('"Större" makes an element no larger than the picture', async () => {
    stubLayout(frame, () => ({ width: 200, height: 40 }));
    const user = userEvent.setup();
    const { current } = renderEditor({ elements: [text({ x: 0.5, scale: 1.95 })] });
    await user.click(screen.getByRole('button', { name: 'Text: Hej' }));
    await user.click(screen.getByRole('button', { name: 'Större' }));
    expect(current()[0]).toMatchObject({ scale: 2, x: 0.5 });
    await user.click(screen.getByRole('button', { name: 'Större' }));
    expect(current()[0]).toMatchObject({ scale: 2 });
  });

  it('an element of an old draft that lies partly outside is moved inside when the editor shows it', () => {
    stubLayout(frame, () => ({ width: 80, height: 40 }));
    const { changes } = renderEditor({ elements: [text({ id: 'a', x: 0.99, y: 0.01 }), text({ id: 'b', x: 0.5, y: 0.5 })] });
    expect(changes).toHaveLength(1);
    expect(changes[0]![0]).toMatchObject({ id: 'a', x: 0.9, y: 0.04 });
    expect(changes[0]![1]).toMatchObject({ id: 'b', x: 0.5, y: 0.5 });
  });

  it('when an element’s size changes (a picture or font that loaded), it is moved back inside', () => {
    const observer = stubResizeObserver();
    let box = { width: 80, height: 40 };
    stubLayout(frame, () => box);
    const { current, changes } = renderEditor({ elements: [text({ x: 0.85, y: 0.5 })] });
    expect(changes).toHaveLength(0);
    box = { width: 200, height: 40 };
    observer.resized();
    expect(current()[0]).toMatchObject({ x: 0.75, y: 0.5 });
  });

  it('the greetie as shown (review and recipient) draws a stray element inside the picture', () => {
    stubLayout(frame, () => ({ width: 80, height: 40 }));
    const { container } = render(<ContentLayer elements={[text({ x: 1, y: -0.1 })]} />);
    const placed = container.querySelector<HTMLElement>('[data-element-key]')!;
    expect(placed.style.left).toBe('90%');
    expect(placed.style.top).toBe('4%');
  });
});

describe('a tool’s panel comes into view when it opens', () => {
  // jsdom lays nothing out and has no scrollIntoView: record the calls instead.
  const scrolled = vi.fn();
  beforeEach(() => {
    scrolled.mockReset();
    Element.prototype.scrollIntoView = scrolled;
  });
  afterEach(() => {
    delete (Element.prototype as Partial<Element>).scrollIntoView;
  });

  it('tapping "Text" scrolls its panel into view and puts the cursor in the text field', async () => {
    const user = userEvent.setup();
    renderEditor();
    await user.click(screen.getByRole('button', { name: 'Text' }));
    const panel = screen.getByRole('region', { name: 'Ny text' });
    expect(scrolled).toHaveBeenCalledTimes(1);
    expect(scrolled.mock.contexts[0]).toBe(panel);
    expect(scrolled).toHaveBeenCalledWith({ behavior: 'smooth', block: 'nearest' });
    expect(screen.getByRole('textbox', { name: 'Text' })).toHaveFocus();
  });

  it('jumps there without the glide when the person prefers reduced motion; a panel without a text field gets focus on its title', async () => {
    stubReducedMotion(true);
    const user = userEvent.setup();
    renderEditor();
    await user.click(screen.getByRole('button', { name: 'Klistermärke' }));
    expect(scrolled).toHaveBeenCalledWith({ behavior: 'auto', block: 'nearest' });
    expect(screen.getByRole('heading', { name: 'Klistermärken' })).toHaveFocus();
  });

  it('closing a panel gives focus back to the tool that opened it', async () => {
    const user = userEvent.setup();
    renderEditor();
    await user.click(screen.getByRole('button', { name: 'Emoji' }));
    await user.click(screen.getByRole('button', { name: 'Stäng' }));
    expect(screen.queryByRole('region', { name: 'Emoji' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Emoji' })).toHaveFocus();
  });
});

describe('keyboard help only where the keyboard is the input', () => {
  const keysHelp = /^Med tangentbordet/;

  it('is not shown on a touch screen', () => {
    renderEditor({ elements: [text()] });
    expect(screen.queryByText(keysHelp)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Text: Hej' })).toHaveAccessibleDescription(/^Dra för att flytta/);
  });

  it('is shown with a mouse or trackpad, and read out with the element', () => {
    stubReducedMotion(false, true);
    renderEditor({ elements: [text()] });
    expect(screen.getByText(keysHelp)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Text: Hej' })).toHaveAccessibleDescription(/Med tangentbordet/);
  });

  it('appears on a touch screen once an element is moved with a keyboard', async () => {
    const user = userEvent.setup();
    renderEditor({ elements: [text()] });
    screen.getByRole('button', { name: 'Text: Hej' }).focus();
    expect(screen.queryByText(keysHelp)).not.toBeInTheDocument();
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByText(keysHelp)).toBeInTheDocument();
  });

  it('appears once Tab is used, not when a tap or the editor put focus on an element', async () => {
    const user = userEvent.setup();
    renderEditor({ elements: [text()] });
    const el = screen.getByRole('button', { name: 'Text: Hej' });
    fireEvent.pointerDown(el, { pointerId: 1, pointerType: 'touch', clientX: 1, clientY: 1 });
    el.focus();
    expect(screen.queryByText(keysHelp)).not.toBeInTheDocument();
    el.blur();
    await user.tab();
    expect(el).toHaveFocus();
    expect(screen.getByText(keysHelp)).toBeInTheDocument();
    expect(el).toHaveAccessibleDescription(/Med tangentbordet/);
  });
});
