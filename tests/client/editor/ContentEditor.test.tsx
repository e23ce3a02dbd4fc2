import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderEditor, stubAnimationFetch, text } from './render.tsx';
import type { ContentElement } from '../../../contract/greetie.ts';
import { PHOTO_MAX_BYTES, PHOTO_TYPES } from '../../../contract/media.ts';

vi.mock('lottie-web/build/player/lottie_light', async () => (await import('./render.tsx')).fakeLottie());

beforeEach(() => {
  stubAnimationFetch();
});
afterEach(() => vi.unstubAllGlobals());

const last = (changes: ContentElement[][]) => changes.at(-1)!;

describe('adding elements', () => {
  it('adds a text in the chosen font and colour, named by its words, and focuses it', async () => {
    const user = userEvent.setup();
    const { changes } = renderEditor();
    await user.click(screen.getByRole('button', { name: 'Text' }));
    await user.type(screen.getByRole('textbox', { name: 'Text' }), 'Grattis!');
    await user.click(screen.getByRole('radio', { name: 'Handskrift' }));
    await user.click(screen.getByRole('radio', { name: 'Lila' }));
    await user.click(screen.getByRole('button', { name: 'Lägg till text' }));

    expect(last(changes)).toEqual([
      expect.objectContaining({ type: 'text', value: 'Grattis!', style: { font: 'handwriting', color: '#7635DC' }, scale: 1, rotation: 0 }),
    ]);
    const el = screen.getByRole('button', { name: 'Text: Grattis!' });
    expect(el).toHaveFocus();
    expect(screen.getByText('Text: Grattis! tillagd.')).toBeInTheDocument();
  });

  it('refuses an empty text and says why', async () => {
    const user = userEvent.setup();
    const { changes } = renderEditor();
    await user.click(screen.getByRole('button', { name: 'Text' }));
    await user.type(screen.getByRole('textbox', { name: 'Text' }), '   ');
    await user.click(screen.getByRole('button', { name: 'Lägg till text' }));
    expect(changes).toEqual([]);
    expect(screen.getByText('Skriv något först.')).toBeInTheDocument();
  });

  it('edits a selected text live', async () => {
    const user = userEvent.setup();
    const { current } = renderEditor({ elements: [text()] });
    await user.click(screen.getByRole('button', { name: 'Text: Hej' }));
    await user.click(screen.getByRole('button', { name: 'Ändra text' }));
    const box = screen.getByRole('textbox', { name: 'Text' });
    expect(box).toHaveValue('Hej');
    await user.type(box, ' då');
    await user.click(screen.getByRole('radio', { name: 'Rosa' }));
    expect(current()).toEqual([expect.objectContaining({ id: 'a', value: 'Hej då', style: { font: 'quicksand', color: '#ED5AA4' } })]);
    await user.click(screen.getByRole('button', { name: 'Klar' }));
    expect(screen.getByRole('button', { name: 'Text: Hej då' })).toHaveFocus();
  });

  it('adds an emoji from the picker (Emojibase data in Swedish, served by the app) and by search', async () => {
    const user = userEvent.setup();
    const { changes } = renderEditor();
    await user.click(screen.getByRole('button', { name: 'Emoji' }));
    const smileys = await screen.findByRole('list', { name: 'Smileys och känslor' });
    await user.click(within(smileys).getByRole('button', { name: 'ansikte med stort leende' }));
    expect(last(changes)).toEqual([expect.objectContaining({ type: 'emoji', value: '😀' })]);
    expect(screen.getByRole('button', { name: 'Emoji: 😀' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Emoji' }));
    await user.type(await screen.findByRole('searchbox', { name: 'Sök emoji' }), 'konfetti');
    await user.click(within(screen.getByRole('list', { name: 'Sökresultat' })).getByRole('button', { name: 'konfettismällare' }));
    expect(last(changes).map((e) => e.value)).toEqual(['😀', '🎉']);
  });

  it('adds a sticker and an animation from the catalogue', async () => {
    const user = userEvent.setup();
    const { changes } = renderEditor();
    await user.click(screen.getByRole('button', { name: 'Klistermärke' }));
    await user.click(screen.getByRole('button', { name: 'hjärta' }));
    await user.click(screen.getByRole('button', { name: 'Animation' }));
    await user.click(screen.getByRole('button', { name: 'konfetti' }));
    expect(last(changes)).toEqual([
      expect.objectContaining({ type: 'sticker', value: 'heart' }),
      expect.objectContaining({ type: 'lottie', value: 'confetti' }),
    ]);
    expect(screen.getByRole('button', { name: 'Klistermärke: hjärta' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Animation: konfetti' })).toHaveFocus();
  });

  it('uploads a picture through onPicture and adds it with the url it answered', async () => {
    const user = userEvent.setup();
    const { changes, onPicture } = renderEditor();
    await user.click(screen.getByRole('button', { name: 'Bild' }));
    const file = new File(['jpeg'], 'tårta.jpg', { type: 'image/jpeg' });
    await user.upload(screen.getByLabelText('Välj en bild'), file);
    expect(onPicture).toHaveBeenCalledWith(file);
    await waitFor(() => expect(last(changes)).toEqual([expect.objectContaining({ type: 'picture', value: '/api/media/AAAAAAAAAAAAAAAAAAAAAAAAAA.webp' })]));
    expect(screen.getByRole('button', { name: 'Bild 1' })).toBeInTheDocument();
  });

  it('refuses a picture over 15 MB before uploading, and shows a failed upload', async () => {
    const user = userEvent.setup();
    const { changes, onPicture } = renderEditor({ onPicture: async () => Promise.reject(new Error('Filen är inte en bild.')) });
    await user.click(screen.getByRole('button', { name: 'Bild' }));
    const big = new File(['x'], 'stor.jpg', { type: 'image/jpeg' });
    Object.defineProperty(big, 'size', { value: 15 * 1024 * 1024 + 1 });
    await user.upload(screen.getByLabelText('Välj en bild'), big);
    expect(screen.getByRole('alert')).toHaveTextContent('Bilden är för stor: högst 15 MB.');
    expect(onPicture).not.toHaveBeenCalled();

    await user.upload(screen.getByLabelText('Välj en bild'), new File(['x'], 'liten.png', { type: 'image/png' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Bilden kunde inte laddas upp. Filen är inte en bild.');
    expect(changes).toEqual([]);
  });

  it("takes the contract's photo types, HEIF too, up to its photo limit (contract/media.ts)", async () => {
    const user = userEvent.setup();
    const { onPicture } = renderEditor();
    await user.click(screen.getByRole('button', { name: 'Bild' }));
    const input = screen.getByLabelText('Välj en bild');
    expect(input).toHaveAttribute('accept', [...PHOTO_TYPES, 'image/heif'].join(','));
    const big = new File(['x'], 'stor.heif', { type: 'image/heif' });
    Object.defineProperty(big, 'size', { value: PHOTO_MAX_BYTES + 1 });
    await user.upload(input, big);
    expect(screen.getByRole('alert')).toHaveTextContent('Bilden är för stor');
    const heif = new File(['x'], 'IMG_0004.heif', { type: 'image/heif' });
    await user.upload(input, heif);
    expect(onPicture).toHaveBeenCalledWith(heif);
  });
});

describe('the keyboard', () => {
  it('moves with the arrows (1 %, 5 % with Shift), scales with + and -, turns with [ and ]', async () => {
    const user = userEvent.setup();
    const { current } = renderEditor({ elements: [text()] });
    screen.getByRole('button', { name: 'Text: Hej' }).focus();

    await user.keyboard('{ArrowRight}');
    expect(current()[0]).toMatchObject({ x: 0.51, y: 0.5 });
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(current()[0]).toMatchObject({ x: 0.51, y: 0.52 });
    await user.keyboard('{Shift>}{ArrowLeft}{/Shift}');
    expect(current()[0]).toMatchObject({ x: 0.46, y: 0.52 });
    await user.keyboard('{ArrowUp}');
    expect(current()[0]).toMatchObject({ x: 0.46, y: 0.51 });

    await user.keyboard('+');
    expect(current()[0]!.scale).toBe(1.1);
    await user.keyboard('++');
    expect(current()[0]!.scale).toBe(1.3);
    await user.keyboard('-');
    expect(current()[0]!.scale).toBe(1.2);

    await user.keyboard(']');
    expect(current()[0]!.rotation).toBe(15);
    await user.keyboard('[[[[[['); // '[[' is one '[' to user-event
    expect(current()[0]!.rotation).toBe(-30);
  });

  it('keeps an element inside the frame and inside the scale and rotation bounds', async () => {
    const user = userEvent.setup();
    const { current } = renderEditor({ elements: [text({ x: 1, y: 0, scale: 5, rotation: 180 })] });
    screen.getByRole('button', { name: 'Text: Hej' }).focus();
    await user.keyboard('{ArrowRight}{ArrowUp}+]');
    expect(current()[0]).toMatchObject({ x: 1, y: 0, scale: 5, rotation: -165 });
    await user.keyboard('{ArrowLeft}');
    expect(current()[0]!.x).toBe(0.99);
  });

  it('removes the focused element with Delete and moves focus to the next one, then to the tools', async () => {
    const user = userEvent.setup();
    const { current } = renderEditor({ elements: [text(), text({ id: 'b', value: 'Då' })] });
    screen.getByRole('button', { name: 'Text: Hej' }).focus();
    await user.keyboard('{Delete}');
    expect(current()).toEqual([expect.objectContaining({ id: 'b' })]);
    expect(screen.queryByRole('button', { name: 'Text: Hej' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Text: Då' })).toHaveFocus();
    expect(screen.getByText('Text: Hej borttagen.')).toBeInTheDocument();
    await user.keyboard('{Backspace}');
    expect(current()).toEqual([]);
    expect(screen.getByRole('button', { name: 'Text' })).toHaveFocus();
  });

  it('offers the same steps as buttons for the selected element (no gesture needed)', async () => {
    const user = userEvent.setup();
    const { current } = renderEditor({ elements: [text()] });
    await user.click(screen.getByRole('button', { name: 'Text: Hej' }));
    const bar = screen.getByRole('group', { name: 'Valt: Text: Hej' });
    await user.click(within(bar).getByRole('button', { name: 'Större' }));
    await user.click(within(bar).getByRole('button', { name: 'Vrid åt höger' }));
    expect(current()[0]).toMatchObject({ scale: 1.1, rotation: 15 });
    await user.click(within(bar).getByRole('button', { name: 'Ta bort' }));
    expect(current()).toEqual([]);
  });
});

describe('pointers', () => {
  /** The editing layer measures 400 × 500 px at (0, 0). */
  function frame() {
    const layer = screen.getByRole('group', { name: 'Innehåll på bilden' });
    vi.spyOn(layer, 'getBoundingClientRect').mockReturnValue({ x: 0, y: 0, left: 0, top: 0, width: 400, height: 500, right: 400, bottom: 500, toJSON: () => ({}) });
    return layer;
  }

  it('drags an element: x and y follow the pointer as fractions of the frame', () => {
    const { current, changes } = renderEditor({ elements: [text()] });
    const layer = frame();
    const el = screen.getByRole('button', { name: 'Text: Hej' });
    fireEvent.pointerDown(el, { pointerId: 1, clientX: 200, clientY: 250 });
    expect(el).toHaveAttribute('aria-pressed', 'true');
    fireEvent.pointerMove(layer, { pointerId: 1, clientX: 240, clientY: 300 });
    expect(current()[0]).toMatchObject({ x: 0.6, y: 0.6, scale: 1, rotation: 0 });
    fireEvent.pointerMove(layer, { pointerId: 1, clientX: 100, clientY: 200 });
    expect(current()[0]).toMatchObject({ x: 0.25, y: 0.4 });
    fireEvent.pointerUp(layer, { pointerId: 1, clientX: 100, clientY: 200 });
    const count = changes.length;
    fireEvent.pointerMove(layer, { pointerId: 1, clientX: 0, clientY: 0 });
    expect(changes).toHaveLength(count);
  });

  it('pinches with two pointers: apart scales, turning rotates, the midpoint moves it', () => {
    const { current } = renderEditor({ elements: [text()] });
    const layer = frame();
    fireEvent.pointerDown(screen.getByRole('button', { name: 'Text: Hej' }), { pointerId: 1, clientX: 150, clientY: 250 });
    fireEvent.pointerDown(layer, { pointerId: 2, clientX: 250, clientY: 250 });
    fireEvent.pointerMove(layer, { pointerId: 2, clientX: 350, clientY: 250 });
    // 100 px apart → 200 px: twice the size; the midpoint moved 50 px right (50/400 of the width).
    expect(current()[0]).toMatchObject({ scale: 2, rotation: 0, x: 0.625, y: 0.5 });
    fireEvent.pointerMove(layer, { pointerId: 2, clientX: 150, clientY: 450 });
    // The line between the fingers now points down: a quarter turn clockwise, 200 px apart.
    expect(current()[0]).toMatchObject({ scale: 2, rotation: 90 });
  });

  it('tapping the empty frame clears the selection', () => {
    renderEditor({ elements: [text()] });
    const layer = frame();
    const el = screen.getByRole('button', { name: 'Text: Hej' });
    fireEvent.pointerDown(el, { pointerId: 1, clientX: 200, clientY: 250 });
    fireEvent.pointerUp(layer, { pointerId: 1 });
    expect(el).toHaveAttribute('aria-pressed', 'true');
    fireEvent.pointerDown(layer, { pointerId: 3, clientX: 10, clientY: 10 });
    expect(el).toHaveAttribute('aria-pressed', 'false');
  });
});

describe('limits', () => {
  it('takes at most 30 elements: the tools are disabled and the page says so', async () => {
    const thirty = Array.from({ length: 30 }, (_, i) => text({ id: `t${i}`, value: `T${i}` }));
    const { changes } = renderEditor({ elements: thirty });
    expect(screen.getByText('30 av 30 element')).toBeInTheDocument();
    expect(screen.getByText('Du har lagt till 30 element, så många får en greetie ha. Ta bort något för att lägga till mer.')).toBeInTheDocument();
    for (const name of ['Text', 'Emoji', 'Klistermärke', 'Animation', 'Bild']) expect(screen.getByRole('button', { name })).toBeDisabled();
    const user = userEvent.setup();
    screen.getByRole('button', { name: 'Text: T0' }).focus();
    await user.keyboard('{Delete}');
    expect(changes.at(-1)).toHaveLength(29);
    expect(screen.getByRole('button', { name: 'Text' })).toBeEnabled();
  });

  it('keeps a text to 200 characters and says so', async () => {
    const user = userEvent.setup();
    const { changes } = renderEditor();
    await user.click(screen.getByRole('button', { name: 'Text' }));
    expect(screen.getByText('Högst 200 tecken.')).toBeInTheDocument();
    const box = screen.getByRole('textbox', { name: 'Text' });
    expect(box).toHaveAttribute('maxlength', '200');
    expect(box).toHaveAccessibleDescription(/Högst 200 tecken\./);
    fireEvent.change(box, { target: { value: 'å'.repeat(250) } });
    expect(box).toHaveValue('å'.repeat(200));
    expect(screen.getByText('200/200 tecken')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Lägg till text' }));
    expect((changes.at(-1)![0]!.value as string).length).toBe(200);
  });
});

describe('names', () => {
  it('names every element by its kind and what it shows, in the shown language', () => {
    const elements = [
      text(),
      { id: 'e', type: 'emoji', value: '🎉', x: 0.2, y: 0.2, scale: 1, rotation: 0 },
      { id: 's', type: 'sticker', value: 'party-hat', x: 0.3, y: 0.3, scale: 1, rotation: 0 },
      { id: 'l', type: 'lottie', value: 'hearts', x: 0.4, y: 0.4, scale: 1, rotation: 0 },
      { id: 'p', type: 'picture', value: '/api/media/BBBBBBBBBBBBBBBBBBBBBBBB', x: 0.6, y: 0.6, scale: 1, rotation: 0 },
      { id: 'q', type: 'picture', value: '/api/media/CCCCCCCCCCCCCCCCCCCCCCCC', x: 0.7, y: 0.7, scale: 1, rotation: 0 },
    ] as ContentElement[];
    const sv = renderEditor({ elements });
    const names = (root: HTMLElement) =>
      within(within(root).getByRole('group', { name: /Innehåll på bilden|Content on the picture/ }))
        .getAllByRole('button')
        .map((b) => b.getAttribute('aria-label'));
    expect(names(sv.container)).toEqual(['Text: Hej', 'Emoji: 🎉', 'Klistermärke: partyhatt', 'Animation: hjärtan', 'Bild 1', 'Bild 2']);
    sv.unmount();
    const en = renderEditor({ elements, language: 'en' });
    expect(names(en.container)).toEqual(['Text: Hej', 'Emoji: 🎉', 'Sticker: party hat', 'Animation: hearts', 'Picture 1', 'Picture 2']);
  });

  it('describes the gestures and keys on every element', () => {
    renderEditor({ elements: [text()] });
    expect(screen.getByRole('button', { name: 'Text: Hej' })).toHaveAccessibleDescription(/Dra för att flytta/);
  });
});
