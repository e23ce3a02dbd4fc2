import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import type { Failure } from '../contract/errors.ts';

/**
 * Loading one thing for a page: a merchant's details, the sandbox's demo codes, "is the sandbox
 * on?".
 *
 * `createLoader<Params, Data>()` makes a loader typed for what it loads. The page starts it with
 * the params as `input` (a page that loads something else, e.g. another merchant, starts a new
 * actor: key the component by the id) and reads it through `useLoader()`
 * (src/components/useLoader.ts), which gives `{ status, data, error, retry }` from the tags.
 *
 * A failure is kept as the Failure the `load` rejected with (contract/errors.ts), for the page to
 * show its message with a way to retry. "Not found" (one of the API's not-found codes) is a state
 * of its own, because pages say it differently from "something went wrong", and asking again
 * would get the same answer.
 *
 * The work itself is the named actor `load`, given by the page with `.provide()` (through
 * `fromCall`, so it rejects with a Failure): its input is `{ params }` and it resolves with the
 * data (its `signal` aborts when the page goes away).
 */

/** The codes the API answers a missing thing with (404); a missing route is one (the sandbox when it is off). */
export const NOT_FOUND_CODES: readonly Failure['code'][] = [
  'NOT_FOUND',
  'ROUTE_NOT_FOUND',
  'GREETIE_NOT_FOUND',
  'MERCHANT_NOT_FOUND',
  'PRODUCT_NOT_FOUND',
  'VOUCHER_NOT_FOUND',
  'PAYMENT_NOT_FOUND',
];

export interface LoaderContext<Params, Data> {
  /** What is loaded. */
  params: Params;
  /** The answer (null until it arrives). */
  data: Data | null;
  /** The failure; null while loading and after a success. */
  error: Failure | null;
}

export type LoaderEvent = { type: 'user.retry' };

/** What a page shows; every state has exactly one of these tags. */
export const LOADER_TAGS = ['loading', 'loaded', 'failed', 'notFound'] as const;
export type LoaderTag = (typeof LOADER_TAGS)[number];

/** A loader for `Data`, loaded with `Params`. */
export function createLoader<Params, Data>() {
  return setup({
    types: {
      context: {} as LoaderContext<Params, Data>,
      events: {} as LoaderEvent,
      input: {} as Params,
      tags: {} as LoaderTag,
    },
    actors: {
      // The params come wrapped ({ params }): xstate cannot tell whether a bare generic input may be undefined.
      load: fromPromise<Data, { params: Params }>(async () => {
        throw new Error('The "load" actor is given by the page with .provide().');
      }),
    },
    actions: {
      clearError: assign({ error: null }),
      storeData: assign((_, p: { data: Data }) => ({ data: p.data, error: null })),
      storeError: assign((_, p: { error: Failure }) => ({ error: p.error })),
    },
    guards: {
      isNotFound: (_, p: { error: Failure }) => NOT_FOUND_CODES.includes(p.error.code),
    },
  }).createMachine({
    id: 'loader',
    description: 'Hämtar en sak till en sida, med fel (och Försök igen) eller "finns inte".',
    context: ({ input }) => ({ params: input, data: null, error: null }),
    initial: 'loading',
    states: {
      loading: {
        description: 'Hämtningen pågår; ett tidigare fel tas bort.',
        tags: ['loading'],
        entry: 'clearError',
        invoke: {
          id: 'load',
          src: 'load',
          input: ({ context }) => ({ params: context.params }),
          onDone: {
            target: 'loaded',
            actions: { type: 'storeData', params: ({ event }) => ({ data: event.output }) },
            description: 'Uppgifterna kom.',
          },
          onError: [
            {
              guard: { type: 'isNotFound', params: ({ event }) => ({ error: event.error as Failure }) },
              target: 'notFound',
              actions: { type: 'storeError', params: ({ event }) => ({ error: event.error as Failure }) },
              description: 'Det finns ingen sådan sak (404).',
            },
            {
              target: 'failed',
              actions: { type: 'storeError', params: ({ event }) => ({ error: event.error as Failure }) },
              description: 'Hämtningen misslyckades; felmeddelandet sparas.',
            },
          ],
        },
      },
      loaded: {
        description: 'Uppgifterna visas.',
        tags: ['loaded'],
      },
      failed: {
        description: 'Hämtningen misslyckades; sidan visar felmeddelandet och ett sätt att försöka igen.',
        tags: ['failed'],
        on: {
          'user.retry': { target: 'loading', description: 'Personen försöker hämta samma sak igen.' },
        },
      },
      notFound: {
        description: 'Det som efterfrågades finns inte (att fråga igen ger samma svar).',
        tags: ['notFound'],
      },
    },
  });
}

/** Any loader made by `createLoader` (what `useLoader` accepts). */
export type LoaderMachine<Params, Data> = ReturnType<typeof createLoader<Params, Data>>;
export type LoaderSnapshot<Params, Data> = SnapshotFrom<LoaderMachine<Params, Data>>;

/** The chart every loader shares (for the flow docs, /flows and the model tests). */
export const loaderMachine = createLoader<unknown, unknown>();
