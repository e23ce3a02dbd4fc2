import { and, assign, setup, stateIn } from 'xstate';

/**
 * Which tool panel of the content editor is open (src/pages/greetie/editor/ContentEditor.tsx;
 * decision 129 for what a panel does as it opens, decision 134 for this chart).
 *
 * closed ⇄ one panel at a time: a new text, changing a text, emoji, stickers, animations, pictures.
 * - A tool's button opens its panel, switches from another, and closes its own panel when it is
 *   the one open; the panel opened is brought into view with focus in it (`revealPanel`).
 * - 'Stäng', 'Klar' and Escape close it, and focus goes back to where the person was: the tool's
 *   button, or the text being changed (`returnFocus`).
 * - Adding an element closes the panel (the editor moves focus to the new element); removing the
 *   text being changed closes its panel.
 *
 * The effects on the page (scroll, focus) are the named actions `revealPanel` and `returnFocus`,
 * given by the editor with `.provide()`. Each state has one of `EDITOR_PANELS` as its tag.
 */

export const EDITOR_TOOLS = ['text', 'emoji', 'sticker', 'lottie', 'picture'] as const;
export type EditorTool = (typeof EDITOR_TOOLS)[number];

/** What the editor shows, one per state: no panel, or which one. */
export const EDITOR_PANELS = ['closed', 'text', 'editingText', 'emoji', 'sticker', 'lottie', 'picture'] as const;
export type EditorPanel = (typeof EDITOR_PANELS)[number];

export interface EditorPanelContext {
  /** The tool whose panel is open (or was last): focus returns to its button. */
  tool: EditorTool | null;
  /** The key of the text being changed (its panel is 'editingText'), else null. */
  editing: string | null;
}

export type EditorPanelEvent =
  /** A tool's button in "Lägg till". */
  | { type: 'user.pickedTool'; tool: EditorTool }
  /** 'Ändra text' on the selected text. */
  | { type: 'user.editedText'; key: string }
  /** 'Stäng' on the panel, or 'Klar' when changing a text. */
  | { type: 'user.closed' }
  /** Escape inside the panel. */
  | { type: 'user.pressedEscape' }
  /** The panel added an element (a text, an emoji, a sticker, an animation, a picture). */
  | { type: 'element.added' }
  /** An element was removed. */
  | { type: 'element.removed'; key: string };

/** What `returnFocus` is told: the text being changed, else the tool. */
export interface FocusTarget {
  tool: EditorTool | null;
  editing: string | null;
}

const opens = (tool: EditorTool, description: string) => ({
  guard: { type: 'picksTool' as const, params: { tool } },
  target: `.open.${tool}`,
  actions: [{ type: 'storeTool' as const, params: { tool } }, 'revealPanel' as const],
  description,
});

const added = { 'element.added': { target: '#editorPanel.closed', description: 'Panelen lade till ett element: den stängs och fokus går till det nya elementet.' } };

export const editorPanelMachine = setup({
  types: {
    context: {} as EditorPanelContext,
    events: {} as EditorPanelEvent,
    tags: {} as EditorPanel,
  },
  actions: {
    storeTool: assign((_, p: { tool: EditorTool }) => ({ tool: p.tool, editing: null })),
    storeEditing: assign((_, p: { key: string }) => ({ tool: 'text' as const, editing: p.key })),
    /** Bring the panel just opened into view, with focus in it (given by the editor). */
    revealPanel: () => {},
    /** Focus back on the text being changed, or on the tool's button (given by the editor). */
    returnFocus: (_, _p: FocusTarget) => {},
  },
  guards: {
    isOpen: stateIn('#editorPanel.open'),
    /** The tool of the panel that is open (not while a text is being changed: 'Text' then opens a new one). */
    isToolOfPanel: ({ context, event }) => event.type === 'user.pickedTool' && context.editing === null && context.tool === event.tool,
    picksOpenTool: and(['isOpen', 'isToolOfPanel']),
    picksTool: ({ event }, p: { tool: EditorTool }) => event.type === 'user.pickedTool' && event.tool === p.tool,
    /** The element removed is the text being changed. */
    isEdited: ({ context, event }) => event.type === 'element.removed' && event.key === context.editing,
  },
}).createMachine({
  id: 'editorPanel',
  description: 'Vilken verktygspanel i redigeraren som är öppen: högst en åt gången, öppnad med sin knapp och stängd med Stäng, Klar eller Escape.',
  context: { tool: null, editing: null },
  initial: 'closed',
  on: {
    'user.pickedTool': [
      {
        guard: 'picksOpenTool',
        target: '.closed',
        actions: { type: 'returnFocus', params: ({ context }) => ({ tool: context.tool, editing: null }) },
        description: 'Knappen för panelen som är öppen: den stängs och fokus stannar på knappen.',
      },
      opens('text', "'Text': panelen för en ny text öppnas (eller byts till), syns och får fokus i textfältet."),
      opens('emoji', "'Emoji': emojipanelen öppnas (eller byts till) och syns."),
      opens('sticker', "'Klistermärke': klistermärkena öppnas (eller byts till) och syns."),
      opens('lottie', "'Animation': animationerna öppnas (eller byts till) och syns."),
      opens('picture', "'Bild': panelen för en egen bild öppnas (eller byts till) och syns."),
    ],
    'user.editedText': {
      target: '.open.editingText',
      actions: [{ type: 'storeEditing', params: ({ event }) => ({ key: event.key }) }, 'revealPanel'],
      description: "'Ändra text' på den valda texten: dess panel öppnas, syns och får fokus i textfältet.",
    },
  },
  states: {
    closed: {
      description: 'Ingen panel är öppen: bilden, elementen och verktygsknapparna.',
      tags: ['closed'],
    },
    open: {
      description: 'En panel är öppen under bilden.',
      // Always entered at the panel a tool or 'Ändra text' names.
      initial: 'text',
      on: {
        'user.closed': {
          target: 'closed',
          actions: { type: 'returnFocus', params: ({ context }) => ({ tool: context.tool, editing: context.editing }) },
          description: "'Stäng' (eller 'Klar'): panelen stängs och fokus går tillbaka till verktygets knapp, eller till texten som ändrades.",
        },
        'user.pressedEscape': {
          target: 'closed',
          actions: { type: 'returnFocus', params: ({ context }) => ({ tool: context.tool, editing: context.editing }) },
          description: 'Escape i panelen: den stängs och fokus går tillbaka till verktygets knapp, eller till texten som ändrades.',
        },
      },
      states: {
        text: { description: 'Skriv en ny text och välj typsnitt och färg.', tags: ['text'], on: added },
        editingText: {
          description: 'Ändra den valda texten; ändringarna syns medan personen skriver.',
          tags: ['editingText'],
          on: {
            'element.removed': {
              guard: 'isEdited',
              target: '#editorPanel.closed',
              description: 'Texten som ändras togs bort: panelen stängs (fokus går till elementet bredvid).',
            },
          },
        },
        emoji: { description: 'Välj en emoji (sök eller bläddra bland kategorierna).', tags: ['emoji'], on: added },
        sticker: { description: 'Välj ett klistermärke.', tags: ['sticker'], on: added },
        lottie: { description: 'Välj en animation.', tags: ['lottie'], on: added },
        picture: { description: 'Välj en egen bild; den laddas upp och läggs på greetien.', tags: ['picture'], on: added },
      },
    },
  },
});
