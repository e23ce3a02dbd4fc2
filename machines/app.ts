import { enqueueActions, setup, spawnChild } from 'xstate';
import { toastsMachine } from './toasts.ts';
import type { authMachine } from './auth.ts';
import type { vouchersMachine } from './vouchers.ts';

/**
 * The root of the app's one actor system. It starts the long-lived actors once, each with a
 * `systemId`, so any actor can reach them with `system.get('<systemId>')` and components read them
 * through the small hooks in src/app/AppActors.tsx.
 *
 * The toasts start with the app: every page shows them. The session (machines/auth.ts with its
 * implementations and the API client) is not in the first load: the app starts loading its code
 * beside the first render and hands it to the root (`app.sessionLoaded`), which starts it once.
 * Until then the app knows only what the browser keeps (`maySignIn`, read at start from storage:
 * a visitor with nothing stored is signed out at once, the first screen need not wait). The
 * voucher store (machines/vouchers.ts) only matters on the pages that show gifts: the app loads it
 * with those pages and hands it over the same way (`app.voucherStoreLoaded`) (docs/decisions/011).
 *
 * HOW TO ADD A LONG-LIVED ACTOR (e.g. toasts):
 *   1. import its machine here and list it under `actors` (`toasts: toastsMachine`);
 *   2. add a named action `spawnToasts: spawnChild('toasts', { id: 'toasts', systemId: 'toasts' })`;
 *   3. add 'spawnToasts' to the `entry` list of the root;
 *   4. give it its real implementations in src/app/AppActors.tsx (`createAppActor`), with
 *      `appMachine.provide({ actors: { toasts: toastsMachine.provide({...}) } })`;
 *   5. add a selector hook next to `useToasts()` there.
 * One whose code should not be in the first load starts later, from an event that carries it, as
 * the session and the voucher store do.
 */

/** The voucher store as the app runs it: machines/vouchers.ts with its implementations. */
export type VoucherStoreLogic = typeof vouchersMachine;
/** The session as the app runs it: machines/auth.ts with its implementations. */
export type SessionLogic = typeof authMachine;

export type AppEvent = { type: 'app.voucherStoreLoaded'; store: VoucherStoreLogic } | { type: 'app.sessionLoaded'; auth: SessionLogic };

export interface AppInput {
  /**
   * Whether this browser keeps anything a start-up could restore a session from (a live access
   * token in the tab, or the signed-in hint): false means signed out until the person signs in.
   * Unknown means true (the session decides once its code is there).
   */
  maySignIn?: boolean;
}

export interface AppContext {
  maySignIn: boolean;
}

export const appMachine = setup({
  types: {
    context: {} as AppContext,
    events: {} as AppEvent,
  },
  actors: {
    toasts: toastsMachine,
  },
  actions: {
    spawnToasts: spawnChild('toasts', { id: 'toasts', systemId: 'toasts' }),
    // The session and the store come with their events, not from `actors` above (that would put
    // their code in the first load); spawnChild's types only know the listed actors, hence the casts.
    spawnAuth: enqueueActions(({ enqueue, event }) => {
      if (event.type === 'app.sessionLoaded') enqueue.spawnChild(event.auth as never, { id: 'auth', systemId: 'auth' });
    }),
    spawnVouchers: enqueueActions(({ enqueue, event }) => {
      if (event.type === 'app.voucherStoreLoaded') enqueue.spawnChild(event.store as never, { id: 'vouchers', systemId: 'vouchers' });
    }),
  },
}).createMachine({
  id: 'app',
  description: 'Appens grund: håller de delar som lever så länge appen är öppen (aviseringar, inloggning, gåvor).',
  // The input is optional (tests and tools start the root without one), so it is not typed in setup.
  context: ({ input }) => ({ maySignIn: (input as AppInput | undefined)?.maySignIn ?? true }),
  entry: ['spawnToasts'],
  initial: 'running',
  states: {
    running: {
      description: 'Appen är igång.',
      type: 'parallel',
      states: {
        session: {
          description: 'Inloggningen: dess kod hämtas efter den första skärmen.',
          initial: 'withoutSession',
          states: {
            withoutSession: {
              description:
                'Inloggningens kod är inte hämtad än. En besökare utan sparad inloggning är utloggad; annars väntar appen.',
              on: {
                'app.sessionLoaded': {
                  target: 'withSession',
                  actions: 'spawnAuth',
                  description: 'Inloggningens kod har hämtats: inloggningen startas, en gång.',
                },
              },
            },
            withSession: {
              description: 'Inloggningen är igång och avgör om personen är inloggad.',
            },
          },
        },
        gifts: {
          description: 'Gåvorna: deras kod hämtas med den första sidan som visar dem.',
          initial: 'withoutVoucherStore',
          states: {
            withoutVoucherStore: {
              description: 'Ingen sida har visat gåvor än: gåvornas kod är inte hämtad.',
              on: {
                'app.voucherStoreLoaded': {
                  target: 'withVoucherStore',
                  actions: 'spawnVouchers',
                  description: 'Koden för gåvorna har hämtats (med en sida som visar dem): gåvorna startas, en gång.',
                },
              },
            },
            withVoucherStore: {
              description: 'Gåvorna hålls för alla sidor som visar dem.',
            },
          },
        },
      },
    },
  },
});
