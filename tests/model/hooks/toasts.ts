import type { AnyMachineSnapshot } from 'xstate';
import { defineHooks } from '../harness/types.ts';
import { toastTimerMachine, type ToastsContext } from '../../../machines/toasts.ts';

// Six different messages fill the five visible places and queue one; an empty message and a repeat
// take the two "ignored" branches. Dismissing and expiring use the first toast's id.
const messages = ['Sparat', 'Kopierat', 'Skickat', 'Borttaget', 'Inloggad', 'Utloggad'];

export default defineHooks({
  // Real per-toast timers: at machine level they never fire (the clock only moves for the queue's
  // own delays, and it has none); in the UI the clock moves and a toast hides itself.
  actors: { toastTimer: toastTimerMachine },
  events: {
    'toast.show': [{ message: '' }, ...messages.map((message) => ({ message, variant: 'success' }))],
    'user.dismiss': [{ id: 'toast-1' }],
    'timer.expired': [{ id: 'toast-2' }],
  },
  // The same state for the paths: which messages are visible and which wait (ids only count up,
  // and the order does not change which branches a new message can take).
  serializeState: (s: AnyMachineSnapshot) => {
    const c = s.context as ToastsContext;
    const names = (ts: { message: string }[]) => ts.map((t) => t.message).sort();
    return JSON.stringify({ v: s.value, visible: names(c.visible), queued: names(c.queued) });
  },
  scenarios: {
    'Ett meddelande visas och personen stänger det': [
      { type: 'toast.show', message: 'Sparat', variant: 'success' },
      { type: 'user.dismiss', id: 'toast-1' },
    ],
    'Sex meddelanden: fem visas, det sjätte väntar; när ett går ut visas det sjätte': [
      ...messages.map((message) => ({ type: 'toast.show', message })),
      { type: 'timer.expired', id: 'toast-1' },
    ],
  },
  states: {
    active: (s) => {
      const c = s.context as ToastsContext;
      if (c.visible.length > 5) throw new Error(`${c.visible.length} toasts visible, at most 5 allowed`);
      if (c.queued.length && c.visible.length < 5) throw new Error('a toast waits although there is room');
      const all = [...c.visible, ...c.queued].map((t) => t.message);
      if (new Set(all).size !== all.length) throw new Error('a duplicate message was queued');
    },
  },
});
