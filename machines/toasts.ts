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
  description: 'En synlig aviserings livstid.',
  context: ({ input }) => ({ id: input.id }),
  initial: 'counting',
  states: {
    counting: {
      description: 'Aviseringen syns; tiden går.',
      after: {
        toastDuration: { target: 'expired', description: 'Aviseringen har synts tillräckligt länge.' },
      },
    },
    expired: {
      description: 'Tiden är ute; kön har fått veta att aviseringen ska döljas.',
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
  description: 'Kön av aviseringar: högst 5 syns, dubbletter hoppas över, var och en döljs efter 3000 ms.',
  context: { visible: [], queued: [], nextId: 1 },
  initial: 'active',
  states: {
    active: {
      description: 'Tar emot aviseringar; visar upp till 5 åt gången och ställer resten i kö.',
      on: {
        'toast.show': [
          {
            guard: 'isEmptyMessage',
            description: 'Någon bad om en avisering utan text: hoppas över.',
          },
          {
            guard: 'isDuplicate',
            description: 'Samma meddelande syns redan eller väntar: hoppas över.',
          },
          {
            actions: ['enqueueToast', 'showQueuedToasts'],
            description: 'Någon bad om att visa ett meddelande: ställ det i kö, och visa det om det finns plats.',
          },
        ],
        'user.dismiss': {
          actions: ['stopToastTimer', 'removeToast', 'showQueuedToasts'],
          description: 'Personen stängde en avisering: dölj den nu och släpp in en som väntar.',
        },
        'timer.expired': {
          actions: ['removeToast', 'showQueuedToasts'],
          description: 'En aviserings tid är ute: dölj den och släpp in en som väntar.',
        },
      },
    },
  },
});

export type ToastsActorRef = ActorRefFrom<typeof toastsMachine>;
