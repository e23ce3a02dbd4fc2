import { assign, fromPromise, setup } from 'xstate';

/**
 * Loading something for a page: the merchant list, one merchant's details, the sandbox's codes.
 *
 * One load at a time, with a loading flag and an error; starting a load clears the earlier
 * error (and cancels a load still running: its answer is ignored). A failure keeps the error's
 * own message, for the page to show with a way to retry. "Not found" (status 404) is a state of
 * its own, because pages say it differently from "something went wrong". The data of the last
 * successful load stays while a newer load runs or fails, so a page can keep showing it.
 *
 * The work itself is the named actor `load`, given by the page with `loaderMachine.provide()`;
 * it receives the `params` of the load (what to load) and resolves with the data.
 */

export interface LoaderError {
  /** The error's own message, shown to a person. */
  message: string;
  /** The HTTP status when the error came from an answer (ApiError), else null. */
  status: number | null;
}

export interface LoaderContext {
  /** What the current (or last) load asked for. */
  params: unknown;
  /** The answer of the last successful load (null before the first). */
  data: unknown;
  /** True while a load runs. */
  loading: boolean;
  /** The last load's failure; null while loading and after a success. */
  error: LoaderError | null;
}

export type LoaderEvent =
  | { type: 'user.load'; params: unknown }
  | { type: 'user.loadLater'; params: unknown }
  | { type: 'user.retry' };

export const LOADER_DEBOUNCE_MS = 300;

/** An error's own message: a person-facing `userMessage` (ApiError) first, then `message`. */
export function loaderErrorOf(error: unknown): LoaderError {
  const e = error as { userMessage?: unknown; message?: unknown; status?: unknown } | null;
  const message =
    typeof e?.userMessage === 'string' && e.userMessage
      ? e.userMessage
      : typeof e?.message === 'string' && e.message
        ? e.message
        : String(error);
  return { message, status: typeof e?.status === 'number' ? e.status : null };
}

export const loaderMachine = setup({
  types: {
    context: {} as LoaderContext,
    events: {} as LoaderEvent,
  },
  actors: {
    load: fromPromise<unknown, unknown>(async () => {
      throw new Error('The "load" actor is given by the page with loaderMachine.provide().');
    }),
  },
  actions: {
    storeParams: assign({
      params: ({ event }) => (event.type === 'user.load' || event.type === 'user.loadLater' ? event.params : undefined),
    }),
    startLoading: assign({ loading: true, error: null }),
    storeData: assign(({ event }) => ({ data: (event as unknown as { output: unknown }).output, loading: false, error: null })),
    storeError: assign(({ event }) => ({ error: loaderErrorOf((event as unknown as { error: unknown }).error), loading: false })),
  },
  guards: {
    isNotFound: ({ event }) => loaderErrorOf((event as unknown as { error: unknown }).error).status === 404,
  },
  delays: {
    debounce: LOADER_DEBOUNCE_MS,
  },
}).createMachine({
  id: 'loader',
  description: 'Loads data for a page: one load at a time, with a loading flag, an error and retry.',
  context: { params: undefined, data: null, loading: false, error: null },
  initial: 'idle',
  on: {
    'user.load': {
      target: '.loading',
      reenter: true,
      actions: 'storeParams',
      description: 'Load now with these params (a load still running is dropped).',
    },
    'user.loadLater': {
      target: '.waiting',
      reenter: true,
      actions: 'storeParams',
      description: 'Load with these params once the person stops typing for a moment.',
    },
  },
  states: {
    idle: {
      description: 'Nothing asked for yet.',
    },
    waiting: {
      description: 'A load is due once the debounce delay passes without newer input.',
      after: {
        debounce: { target: 'loading', description: 'No newer input came: load now.' },
      },
    },
    loading: {
      description: 'The load runs; the earlier error is cleared.',
      entry: 'startLoading',
      invoke: {
        src: 'load',
        input: ({ context }: { context: LoaderContext }) => context.params,
        onDone: {
          target: 'loaded',
          actions: 'storeData',
          description: 'The data arrived.',
        },
        onError: [
          {
            guard: 'isNotFound',
            target: 'notFound',
            actions: 'storeError',
            description: 'There is no such thing (404).',
          },
          {
            target: 'failed',
            actions: 'storeError',
            description: 'The load failed; its message is kept.',
          },
        ],
      },
    },
    loaded: {
      description: 'The data is shown.',
    },
    failed: {
      description: 'The load failed; the page shows the message and a way to retry.',
      on: {
        'user.retry': { target: 'loading', description: 'Try the same load again.' },
      },
    },
    notFound: {
      // No retry here: asking again for something that does not exist gives the same answer.
      // A new load (another id, other filters) still starts from this state.
      description: 'What was asked for does not exist. A new load (user.load) starts over.',
    },
  },
});
