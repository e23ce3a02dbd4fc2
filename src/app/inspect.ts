import type { InspectionEvent } from 'xstate';
import { FLOWS_CHANNEL, TAB_ID, observeInspection, pageOf, type FlowsMessage } from '../inspect.ts';
import { forgetOnNewPage } from '../pageMemory.ts';

/**
 * Starts the viewers of the app's actors (src/inspect.ts is the observer they get), each loaded
 * only where it can be used:
 * - the /flows live view: this tab says hello on the channel and waits. The bridge
 *   (./flowsBridge.ts, a chunk of its own) is loaded when a /flows tab says hello — and /flows
 *   shows only with the sandbox on (or in development), so elsewhere it never loads.
 * - Stately's hosted inspector (@statelyai/inspect): development with `?inspect` in the URL; a
 *   dead branch in production builds.
 * Called once, by src/main.tsx.
 */
export function startInspection(): void {
  if (import.meta.env.DEV && typeof location !== 'undefined' && new URLSearchParams(location.search).has('inspect')) startStately();
  listenForFlowsViewers();
}

let channel: BroadcastChannel | null = null;
forgetOnNewPage(() => {
  channel?.close();
  channel = null;
});

function listenForFlowsViewers(): void {
  if (channel || typeof BroadcastChannel === 'undefined') return;
  const open = new BroadcastChannel(FLOWS_CHANNEL);
  channel = open;
  (open as unknown as { unref?: () => void }).unref?.();
  const post = (m: FlowsMessage) => open.postMessage(m);
  let bridge: Promise<(m: FlowsMessage) => void> | null = null;
  open.onmessage = (e: MessageEvent<FlowsMessage>) => {
    const m = e.data;
    if (!bridge) {
      if (m?.type !== 'viewer.hello') return;
      bridge = import('./flowsBridge.ts').then(({ startFlowsBridge }) => startFlowsBridge(post));
    }
    void bridge.then((receive) => receive(m));
  };
  // A /flows tab opened before this one answers this with its hello.
  post({ type: 'app.hello', tabId: TAB_ID, page: typeof location !== 'undefined' ? pageOf(location.pathname) : '' });
}

function startStately(): void {
  // Events before the inspector has loaded wait for it.
  const waiting: InspectionEvent[] = [];
  const early = observeInspection((e) => waiting.push(e));
  void import('@statelyai/inspect').then(({ createBrowserInspector }) => {
    const inspector = createBrowserInspector();
    early.stop();
    for (const e of waiting) inspector.inspect.next?.(e);
    observeInspection((e) => inspector.inspect.next?.(e));
  });
}
