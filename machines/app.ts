import { setup, spawnChild } from 'xstate';
import { toastsMachine } from './toasts.ts';
import { authMachine } from './auth.ts';
import { vouchersMachine } from './vouchers.ts';

/**
 * The root of the app's one actor system. It starts the long-lived actors once, each with a
 * `systemId`, so any actor can reach them with `system.get('<systemId>')` and components read them
 * through the small hooks in src/app/AppActors.tsx.
 *
 * HOW TO ADD A LONG-LIVED ACTOR (e.g. auth):
 *   1. import its machine here and list it under `actors` (`auth: authMachine`);
 *   2. add a named action `spawnAuth: spawnChild('auth', { id: 'auth', systemId: 'auth' })`;
 *   3. add 'spawnAuth' to the `entry` list of the root;
 *   4. give it its real implementations in src/app/AppActors.tsx (`createAppActor`), with
 *      `appMachine.provide({ actors: { auth: authMachine.provide({...}) } })`;
 *   5. add a selector hook next to `useToasts()` there.
 */

export const appMachine = setup({
  actors: {
    toasts: toastsMachine,
    auth: authMachine,
    vouchers: vouchersMachine,
  },
  actions: {
    spawnToasts: spawnChild('toasts', { id: 'toasts', systemId: 'toasts' }),
    spawnAuth: spawnChild('auth', { id: 'auth', systemId: 'auth' }),
    spawnVouchers: spawnChild('vouchers', { id: 'vouchers', systemId: 'vouchers' }),
  },
}).createMachine({
  id: 'app',
  description: 'Appens grund: håller de delar som lever så länge appen är öppen (aviseringar, inloggning, gåvor).',
  entry: ['spawnToasts', 'spawnAuth', 'spawnVouchers'],
  initial: 'running',
  states: {
    running: {
      description: 'Appen är igång.',
    },
  },
});
