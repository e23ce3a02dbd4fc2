import { assign, sendParent, setup, stopChild, type ActorRefFrom } from 'xstate';

/**
 * The toast queue: short messages shown top right.
 *
 * - at most `maxVisible` (5) toasts are visible; more wait in `queued` and appear as others leave;
 * - a message that is already visible or queued is not added again (duplicates suppressed);
 * - each visible toast hides itself after the named delay `toastDuration` (3000 ms), or earlier
 *   when the user dismisses it.
 *
 * Every visible toast has its own timer: a tiny child machine (`toastTimerMachine`) spawned with
 * the toast's id, which tells the queue `timer.expired` when its delay has passed. Dismissing a
 * toast stops its timer.
 *
 * Other machines show a toast with
 *   sendTo(({ system }) => system.get('toasts'), { type: 'toast.show', message, variant: 'error' })
 */

export type ToastVariant = 'info' | 'success' | 'error';

export interface Toast {
  id: string;
  message: string;
  variant: ToastVariant;
}

export type ToastsEvent =
  | { type: 'toast.show'; message: string; variant?: ToastVariant }
  | { type: 'user.dismiss'; id: string }
  | { type: 'timer.expired'; id: string };

export interface ToastsContext {
  visible: Toast[];
  queued: Toast[];
  /** Counter for toast ids (unique within one queue). */
  nextId: number;
}

export const MAX_VISIBLE_TOASTS = 5;
export const TOAST_DURATION_MS = 3000;

/** One visible toast's lifetime: waits `toastDuration`, then tells the queue it expired. */
export const toastTimerMachine = setup({
  types: {
    input: {} as { id: string },
    context: {} as { id: string },
  },
  delays: {
    toastDuration: TOAST_DURATION_MS,
  },
  actions: {
    notifyExpired: sendParent(({ context }) => ({ type: 'timer.expired' as const, id: context.id })),
  },
}).createMachine({
  id: 'toastTimer',
  description: 'The lifetime of one visible toast.',
  context: ({ input }) => ({ id: input.id }),
  initial: 'counting',
  states: {
    counting: {
      description: 'The toast is visible; its time is running.',
      after: {
        toastDuration: { target: 'expired', description: 'The toast has been visible long enough.' },
      },
    },
    expired: {
      description: 'The time is up; the queue has been told to hide the toast.',
      entry: 'notifyExpired',
      type: 'final',
    },
  },
});

const isSameMessage = (a: Toast, message: string) => a.message === message;

export const toastsMachine = setup({
  types: {
    context: {} as ToastsContext,
    events: {} as ToastsEvent,
  },
  actors: {
    toastTimer: toastTimerMachine,
  },
  guards: {
    isDuplicate: ({ context, event }) =>
      event.type === 'toast.show' &&
      [...context.visible, ...context.queued].some((t) => isSameMessage(t, event.message)),
    isEmptyMessage: ({ event }) => event.type === 'toast.show' && event.message.trim() === '',
  },
  actions: {
    enqueueToast: assign(({ context, event }) => {
      if (event.type !== 'toast.show') return {};
      const toast: Toast = {
        id: `toast-${context.nextId}`,
        message: event.message,
        variant: event.variant ?? 'info',
      };
      return { queued: [...context.queued, toast], nextId: context.nextId + 1 };
    }),
    removeToast: assign(({ context, event }) => {
      if (event.type !== 'user.dismiss' && event.type !== 'timer.expired') return {};
      return {
        visible: context.visible.filter((t) => t.id !== event.id),
        queued: context.queued.filter((t) => t.id !== event.id),
      };
    }),
    stopToastTimer: stopChild(({ event }) => (event.type === 'user.dismiss' ? event.id : '')),
    /** Moves queued toasts into free visible places and starts their timers. */
    showQueuedToasts: assign(({ context, spawn }) => {
      const free = Math.max(0, MAX_VISIBLE_TOASTS - context.visible.length);
      if (free === 0 || context.queued.length === 0) return {};
      const shown = context.queued.slice(0, free);
      for (const toast of shown) spawn('toastTimer', { id: toast.id, input: { id: toast.id } });
      return { visible: [...context.visible, ...shown], queued: context.queued.slice(free) };
    }),
  },
}).createMachine({
  id: 'toasts',
  description: 'The toast queue: at most 5 visible, duplicates suppressed, each hidden after 3000 ms.',
  context: { visible: [], queued: [], nextId: 1 },
  initial: 'active',
  states: {
    active: {
      description: 'Accepting toasts; shows up to 5 at once and queues the rest.',
      on: {
        'toast.show': [
          {
            guard: 'isEmptyMessage',
            description: 'Someone asked to show a toast with no text: ignored.',
          },
          {
            guard: 'isDuplicate',
            description: 'The same message is already visible or waiting: ignored.',
          },
          {
            actions: ['enqueueToast', 'showQueuedToasts'],
            description: 'Someone asked to show a message: queue it, and show it if there is room.',
          },
        ],
        'user.dismiss': {
          actions: ['stopToastTimer', 'removeToast', 'showQueuedToasts'],
          description: 'The user closed a toast: hide it now and let a waiting one in.',
        },
        'timer.expired': {
          actions: ['removeToast', 'showQueuedToasts'],
          description: "A toast's time is up: hide it and let a waiting one in.",
        },
      },
    },
  },
});

export type ToastsActorRef = ActorRefFrom<typeof toastsMachine>;
