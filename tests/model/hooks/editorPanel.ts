import { defineHooks } from '../harness/types.ts';

/** The editor's panels: each tool, and changing the text the editor starts with (its key 'a'). */
export default defineHooks({
  events: {
    'user.pickedTool': [{ tool: 'text' }, { tool: 'emoji' }, { tool: 'sticker' }, { tool: 'lottie' }, { tool: 'picture' }],
    'user.editedText': [{ key: 'a' }],
    'element.removed': [{ key: 'a' }],
  },
  // The state value is the whole story: an open panel's tool is its state's, and the text being
  // changed is always the one the editor starts with.
  serializeState: (s) => JSON.stringify(s.value),
});
