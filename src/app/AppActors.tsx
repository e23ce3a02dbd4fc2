import { createContext, useCallback, useContext, useState, type ReactNode } from 'react';
import { createActor, type Actor } from 'xstate';
import { useSelector } from '@xstate/react';
import { inspect } from '../inspect.ts';
import { forgetOnNewPage } from '../pageMemory.ts';
import { appMachine, type AppEvent, type AppInput } from '../../machines/app.ts';
import { toastsMachine, type Toast, type ToastsActorRef, type ToastVariant } from '../../machines/toasts.ts';

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

/**
 * `input.maySignIn`: whether the browser keeps a session start-up could restore (main.tsx reads it
 * with `maySignIn()`, src/app/storedSession.ts); unknown (tests) counts as yes.
 */
export function createAppActor(machine: typeof appMachine = appMachine, input: AppInput = {}): AppActor {
  const provided = machine.provide({ actors: { toasts: toastsMachine } });
  // `inspect`: the /flows page's live view, and Stately's inspector with ?inspect in development.
  return createActor(provided, { inspect, input });
}

/**
 * Long-lived actors whose code is not in the first load, each started in every running root once
 * its code is there (a root that has it already ignores the event), and in a root that starts after:
 * - the session (machines/auth.ts with src/app/auth.ts's implementations): main.tsx starts loading
 *   it beside the first render, and the route groups whose pages use it wait for it in their `lazy`
 *   (src/app/routes.tsx);
 * - the recipient's gifts (machines/vouchers.ts with src/app/vouchers.ts's implementations): the
 *   route groups that show gifts load it beside their pages.
 */
const roots = new Set<AppActor>();
const handOvers: (() => AppEvent | null)[] = [];
const forgets: (() => void)[] = [];

/** Tests: as on a new page, no late actor's code is loaded yet and no root is known. */
export function forgetLateActors(): void {
  roots.clear();
  forgets.forEach((forget) => forget());
}
forgetOnNewPage(forgetLateActors);

function giveLoaded(root: AppActor): void {
  if (root.getSnapshot().status !== 'active') {
    roots.delete(root);
    return;
  }
  for (const event of handOvers) {
    const e = event();
    if (e) root.send(e);
  }
}

/** Loads a long-lived actor's code once, then hands it to every root (`toEvent`). */
function lateActor<L>(load: () => Promise<L>, toEvent: (logic: L) => AppEvent): () => Promise<void> {
  let loading: Promise<L> | null = null;
  let loaded: L | null = null;
  handOvers.push(() => (loaded ? toEvent(loaded) : null));
  forgets.push(() => {
    loading = null;
    loaded = null;
  });
  return () => {
    loading ??= load().then(
      (logic) => (loaded = logic),
      (err: unknown) => {
        // A failed download may succeed on the next navigation.
        loading = null;
        throw err;
      },
    );
    return loading.then(() => roots.forEach(giveLoaded));
  };
}

/** Loads the session's code (once) and starts it in the app's roots. */
export const loadSession = lateActor(
  () => import('./sessionCode.ts').then((m) => m.sessionLogic),
  (auth) => ({ type: 'app.sessionLoaded', auth }),
);

/** Loads the voucher store's code (once) and starts it in the app's roots. */
export const loadVoucherStore = lateActor(
  () => import('./vouchers.ts').then((m) => m.voucherStore),
  (store) => ({ type: 'app.voucherStoreLoaded', store }),
);

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
    giveLoaded(started);
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
