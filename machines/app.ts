import { enqueueActions, setup, spawnChild } from 'xstate';
import { toastsMachine } from './toasts.ts';
import { authMachine } from './auth.ts';
import type { vouchersMachine } from './vouchers.ts';

/**
 * The root of the app's one actor system. It starts the long-lived actors once, each with a
 * `systemId`, so any actor can reach them with `system.get('<systemId>')` and components read them
 * through the small hooks in src/app/AppActors.tsx.
 *
 * The toasts and the session start with the app: every page shows them. The voucher store
 * (machines/vouchers.ts) only matters on the pages that show gifts, so its code is not in the first
 * load: the app loads it with those pages and then hands it to the root (`app.voucherStoreLoaded`,
 * carrying the store with its implementations), which starts it once (docs/decisions/011).
 *
 * HOW TO ADD A LONG-LIVED ACTOR (e.g. auth):
 *   1. import its machine here and list it under `actors` (`auth: authMachine`);
 *   2. add a named action `spawnAuth: spawnChild('auth', { id: 'auth', systemId: 'auth' })`;
 *   3. add 'spawnAuth' to the `entry` list of the root;
 *   4. give it its real implementations in src/app/AppActors.tsx (`createAppActor`), with
 *      `appMachine.provide({ actors: { auth: authMachine.provide({...}) } })`;
 *   5. add a selector hook next to `useToasts()` there.
 * One that only some pages need can start later, as the voucher store does.
 */

/** The voucher store as the app runs it: machines/vouchers.ts with its implementations. */
export type VoucherStoreLogic = typeof vouchersMachine;

export type AppEvent = { type: 'app.voucherStoreLoaded'; store: VoucherStoreLogic };

export const appMachine = setup({
  types: {
    events: {} as AppEvent,
  },
  actors: {
    toasts: toastsMachine,
    auth: authMachine,
  },
  actions: {
    spawnToasts: spawnChild('toasts', { id: 'toasts', systemId: 'toasts' }),
    spawnAuth: spawnChild('auth', { id: 'auth', systemId: 'auth' }),
    // The store comes with the event, not from `actors` above (that would put its code in the
    // first load); spawnChild's types only know the listed actors, hence the cast.
    spawnVouchers: enqueueActions(({ enqueue, event }) => {
      enqueue.spawnChild(event.store as never, { id: 'vouchers', systemId: 'vouchers' });
    }),
  },
}).createMachine({
  id: 'app',
  description: 'Appens grund: håller de delar som lever så länge appen är öppen (aviseringar, inloggning, gåvor).',
  entry: ['spawnToasts', 'spawnAuth'],
  initial: 'running',
  states: {
    running: {
      description: 'Appen är igång.',
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
});
