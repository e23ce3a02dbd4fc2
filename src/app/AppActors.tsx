import { createContext, useCallback, useContext, useState, type ReactNode } from 'react';
import { createActor, type Actor } from 'xstate';
import { useSelector } from '@xstate/react';
import { inspect } from '../inspect.ts';
import { appMachine, type VoucherStoreLogic } from '../../machines/app.ts';
import { toastsMachine, type Toast, type ToastsActorRef, type ToastVariant } from '../../machines/toasts.ts';
import { authMachine } from '../../machines/auth.ts';
import { provideAuth, sessionEndedMessage } from './auth.ts';

/**
 * The app's one actor system. `createAppActor()` gives the root machine its real implementations
 * (machine.provide) and <AppActorsProvider> starts it once and shares it through React context.
 * Components read the long-lived actors through the small hooks below; they never reach into a
 * machine's context shape themselves.
 *
 * TO ADD A LONG-LIVED ACTOR (auth, stores…): spawn it in machines/app.ts (see the steps there),
 * give it its implementations in `createAppActor` below, and add a hook like `useToasts()` that
 * selects from `useSystemActor('<systemId>')`.
 */

export type AppActor = Actor<typeof appMachine>;

export function createAppActor(machine: typeof appMachine = appMachine): AppActor {
  const provided = machine.provide({
    actors: {
      toasts: toastsMachine,
      // The session: fetch-backed calls, sessionStorage, a toast in the shown language (src/app/auth.ts).
      auth: provideAuth(authMachine, { sessionEndedMessage }),
    },
  });
  // `inspect`: the /flows page's live view, and Stately's inspector with ?inspect in development.
  return createActor(provided, { inspect });
}

/**
 * The recipient's gifts (machines/vouchers.ts with src/app/vouchers.ts's implementations), kept for
 * every page that shows them. Their code is not in the first load: the route groups that show gifts
 * load it beside their pages (src/app/routes.tsx, `loadVoucherStore`), which starts it in every
 * running root (`app.voucherStoreLoaded`; a root that has it already ignores that), and in a root
 * that starts after it has loaded.
 */
let voucherStore: Promise<VoucherStoreLogic> | null = null;
let loadedVoucherStore: VoucherStoreLogic | null = null;
const roots = new Set<AppActor>();

function giveVoucherStore(root: AppActor): void {
  if (!loadedVoucherStore) return;
  if (root.getSnapshot().status === 'active') root.send({ type: 'app.voucherStoreLoaded', store: loadedVoucherStore });
  else roots.delete(root);
}

/** Loads the voucher store's code (once) and starts it in the app's roots. */
export function loadVoucherStore(): Promise<void> {
  voucherStore ??= import('./vouchers.ts').then(
    (m) => (loadedVoucherStore = m.voucherStore),
    (err: unknown) => {
      // A failed download may succeed on the next navigation.
      voucherStore = null;
      throw err;
    },
  );
  return voucherStore.then(() => roots.forEach(giveVoucherStore));
}

const AppActorContext = createContext<AppActor | null>(null);

/**
 * Starts the root actor once (or uses the one given, e.g. in tests) for everything inside. The root
 * lives as long as the page: it is not stopped on unmount, which keeps it safe under StrictMode's
 * mount-unmount-mount (a stopped xstate actor cannot be started again).
 */
export function AppActorsProvider({ actor, children }: { actor?: AppActor; children: ReactNode }) {
  const [root] = useState(() => {
    const started = (actor ?? createAppActor()).start();
    roots.add(started);
    giveVoucherStore(started);
    return started;
  });
  return <AppActorContext.Provider value={root}>{children}</AppActorContext.Provider>;
}

export function useAppActor(): AppActor {
  const root = useContext(AppActorContext);
  if (!root) throw new Error('useAppActor needs <AppActorsProvider> above it');
  return root;
}

/** A long-lived actor by its systemId (typed by the caller's hook). */
export function useSystemActor<T>(systemId: string): T {
  const actor = useAppActor().system.get(systemId) as T | undefined;
  if (!actor) throw new Error(`No actor with systemId '${systemId}' in the app system`);
  return actor;
}

const selectVisibleToasts = (s: ReturnType<ToastsActorRef['getSnapshot']>) => s.context.visible;

/** The toasts visible now (at most 5). */
export function useToasts(): Toast[] {
  return useSelector(useSystemActor<ToastsActorRef>('toasts'), selectVisibleToasts);
}

/** Shows a toast: `showToast('Sparat', 'success')`. */
export function useShowToast(): (message: string, variant?: ToastVariant) => void {
  const toasts = useSystemActor<ToastsActorRef>('toasts');
  return useCallback(
    (message, variant) => toasts.send({ type: 'toast.show', message, ...(variant ? { variant } : {}) }),
    [toasts],
  );
}

/** Hides a toast now. */
export function useDismissToast(): (id: string) => void {
  const toasts = useSystemActor<ToastsActorRef>('toasts');
  return useCallback((id) => toasts.send({ type: 'user.dismiss', id }), [toasts]);
}
