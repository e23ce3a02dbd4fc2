import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { EventObject } from 'xstate';
import { expect, vi } from 'vitest';
import type { EditorTool } from '../../../machines/compose/editorPanel.ts';
import { loadEmoji } from '../../../src/pages/greetie/editor/emojiData.ts';
import { installDomStubs } from '../../client/shell/render.tsx';
import { renderEditor, text } from '../../client/editor/render.tsx';
import { defineUi } from '../harness/types.ts';

/**
 * The content editor's tool panels as a person meets them (ContentEditor.tsx runs its own
 * editorPanel actor): the tool buttons under "Lägg till", 'Stäng', Escape, 'Ändra text' on the
 * selected text, and adding from a panel. It starts with one text, "Hej" (key 'a').
 */
const TOOL: Record<EditorTool, string> = { text: 'Text', emoji: 'Emoji', sticker: 'Klistermärke', lottie: 'Animation', picture: 'Bild' };
const TITLE: Record<string, string> = { text: 'Ny text', editingText: 'Ändra text', emoji: 'Emoji', sticker: 'Klistermärken', lottie: 'Animationer', picture: 'Bild' };

const user = () => userEvent.setup();
const toolbar = () => screen.getByRole('group', { name: 'Lägg till' });
const toolButton = (tool: EditorTool) => within(toolbar()).getByRole('button', { name: TOOL[tool] });
const panel = () => screen.queryByRole('region');
/** The elements each panel was scrolled into view from (Element.scrollIntoView, stubbed: jsdom lays nothing out). */
let scrolled: Element[] = [];

/** Where focus belongs once the open panel closes: the text being changed, else the open tool's button. */
function focusHome(): HTMLElement {
  const changing = panel() && within(panel()!).queryByRole('heading', { name: 'Ändra text' });
  if (changing) return screen.getByRole('button', { name: 'Text: Hej' });
  return within(toolbar()).getAllByRole('button').find((b) => b.getAttribute('aria-expanded') === 'true')!;
}

function openPanel(name: string) {
  return async () => {
    const region = await screen.findByRole('region', { name });
    // Brought into view as it opened, with focus in it: the text field, or the panel's title.
    expect(scrolled.at(-1)).toBe(region);
    const field = within(region).queryByRole('textbox', { name: 'Text' });
    await waitFor(() => expect(field ?? within(region).getByRole('heading', { name })).toHaveFocus());
    expect(screen.getAllByRole('region')).toHaveLength(1);
  };
}

export default defineUi({
  async render() {
    // The emoji data is a large module: loaded once here, before the path's clock starts mattering.
    await loadEmoji('sv');
    installDomStubs({ viewport: 'mobile' });
    scrolled = [];
    vi.spyOn(Element.prototype, 'scrollIntoView').mockImplementation(function (this: Element) {
      scrolled.push(this);
    });
    // The animations' files are never answered here (lottie's own tests play them).
    vi.spyOn(globalThis, 'fetch').mockImplementation(() => new Promise<Response>(() => {}));
    renderEditor({ elements: [text({ id: 'a', value: 'Hej' })] });
  },
  events: {
    'user.pickedTool': async (_env, event) => {
      const tool = (event as EventObject & { tool: EditorTool }).tool;
      const closing = toolButton(tool).getAttribute('aria-expanded') === 'true';
      await user().click(toolButton(tool));
      // The tool of the open panel closes it; focus stays on the tool's button.
      if (closing) expect(toolButton(tool)).toHaveFocus();
    },
    'user.editedText': async () => {
      await user().click(screen.getByRole('button', { name: 'Text: Hej' }));
      await user().click(screen.getByRole('button', { name: 'Ändra text' }));
    },
    'user.closed': async () => {
      const home = focusHome();
      await user().click(within(panel()!).getByRole('button', { name: 'Stäng' }));
      expect(home).toHaveFocus();
    },
    'user.pressedEscape': async () => {
      const home = focusHome();
      await user().keyboard('{Escape}');
      expect(home).toHaveFocus();
    },
    'element.removed': async () => {
      await user().click(screen.getByRole('button', { name: 'Ta bort' }));
    },
    // Adding from the open panel, as each panel adds.
    'element.added': async () => {
      const region = panel()!;
      const name = region.getAttribute('aria-labelledby') && document.getElementById(region.getAttribute('aria-labelledby')!)?.textContent;
      const before = screen.getAllByRole('button', { name: /^(Text|Emoji|Klistermärke|Animation|Bild)/ }).length;
      if (name === 'Ny text') {
        await user().type(within(region).getByRole('textbox', { name: 'Text' }), 'Grattis');
        await user().click(within(region).getByRole('button', { name: 'Lägg till text' }));
      } else if (name === 'Emoji') {
        const grid = await within(region).findByRole('list', { name: 'Smileys och känslor' }, { timeout: 10_000 });
        await user().click(within(grid).getAllByRole('button')[0]!);
      } else if (name === 'Klistermärken') {
        await user().click(within(region).getByRole('button', { name: 'hjärta' }));
      } else if (name === 'Animationer') {
        await user().click(within(region).getByRole('button', { name: 'konfetti' }));
      } else {
        await user().upload(within(region).getByLabelText('Välj en bild'), new File(['x'], 'bild.jpg', { type: 'image/jpeg' }));
      }
      await waitFor(() => expect(screen.getAllByRole('button', { name: /^(Text|Emoji|Klistermärke|Animation|Bild)/ }).length).toBeGreaterThan(before));
    },
  },
  states: {
    closed: async () => {
      // The editor's words load with it (the first render waits for them).
      await screen.findByRole('group', { name: 'Lägg till' }, { timeout: 10_000 });
      expect(panel()).toBeNull();
      for (const tool of Object.keys(TOOL) as EditorTool[]) expect(toolButton(tool)).toHaveAttribute('aria-expanded', 'false');
    },
    'open.text': openPanel(TITLE.text!),
    'open.editingText': async () => {
      await openPanel(TITLE.editingText!)();
      expect(within(panel()!).getByRole('textbox', { name: 'Text' })).toHaveValue('Hej');
      expect(screen.getByRole('button', { name: 'Ändra text' })).toHaveAttribute('aria-expanded', 'true');
    },
    'open.emoji': openPanel(TITLE.emoji!),
    'open.sticker': openPanel(TITLE.sticker!),
    'open.lottie': openPanel(TITLE.lottie!),
    'open.picture': openPanel(TITLE.picture!),
    open: () => {},
  },
  cleanup: () => {
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  },
});
