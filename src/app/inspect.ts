import type { AnyActorRef, AnyMachineSnapshot, AnyTransitionDefinition, InspectionEvent } from 'xstate';

/**
 * Inspection for the app's actors. Pass `inspect` when you create an actor:
 *
 *   createActor(machine, { inspect })            // the root actor (src/app/AppActors.tsx)
 *   useActor(machine, { inspect })               // a route-level actor (redeem, payment, …)
 *
 * It feeds two viewers:
 * - the /flows page (sandbox on), over a BroadcastChannel: every running machine's active states
 *   and the transitions it just took. Nothing is sent until a /flows tab says hello, so the cost
 *   is nil when nobody watches. Only state ids and event types are sent — never context or event
 *   payloads (they may hold codes or tokens).
 * - in development with `?inspect` in the URL, Stately's hosted inspector (@statelyai/inspect,
 *   loaded on demand and never part of a production build).
 */

export const FLOWS_CHANNEL = 'greetie-flows';

export interface LiveTransition {
  source: string;
  eventType: string;
  targets: string[];
  /** Position among the source state's transitions for that event (which guarded branch). */
  index: number;
}

/** This tab: a viewer ignores its own tab's actors. */
export const TAB_ID = Math.random().toString(36).slice(2);

export type FlowsMessage =
  | { type: 'app.hello'; tabId: string }
  | { type: 'app.bye'; tabId: string }
  | { type: 'viewer.hello'; viewerId: string }
  | { type: 'viewer.bye'; viewerId: string }
  | {
      type: 'actor.snapshot';
      tabId: string;
      /** Where that tab is (pathname only). */
      page: string;
      actorId: string;
      /** The machine's id (its root state id). */
      machineId: string;
      systemId?: string;
      states: string[];
      status: string;
      /** The event that led here and the transitions it took (none for a re-sent snapshot). */
      event?: string;
      transitions: LiveTransition[];
      at: number;
    };

const isMachineSnapshot = (s: unknown): s is AnyMachineSnapshot =>
  typeof s === 'object' && s !== null && 'machine' in s && '_nodes' in s;

function createFlowsBridge() {
  let channel: BroadcastChannel | null = null;
  const viewers = new Set<string>();
  const actors = new Map<string, AnyActorRef>();
  const pending = new Map<string, LiveTransition[]>();

  const post = (m: FlowsMessage) => channel?.postMessage(m);
  const describe = (ref: AnyActorRef, snapshot: AnyMachineSnapshot, event: string | undefined, transitions: LiveTransition[]): FlowsMessage => ({
    type: 'actor.snapshot',
    tabId: TAB_ID,
    page: typeof location !== 'undefined' ? location.pathname : '',
    actorId: ref.sessionId,
    machineId: snapshot.machine.root.id,
    systemId: (ref as unknown as { _systemId?: string })._systemId,
    states: (snapshot as unknown as { _nodes: { id: string }[] })._nodes.map((n) => n.id),
    status: snapshot.status,
    event,
    transitions,
    at: Date.now(),
  });

  const open = () => {
    if (channel || typeof BroadcastChannel === 'undefined') return;
    channel = new BroadcastChannel(FLOWS_CHANNEL);
    (channel as unknown as { unref?: () => void }).unref?.();
    channel.onmessage = (e: MessageEvent<FlowsMessage>) => {
      if (e.data?.type === 'viewer.hello') {
        viewers.add(e.data.viewerId);
        for (const ref of actors.values()) {
          const s = ref.getSnapshot() as unknown;
          if (isMachineSnapshot(s)) post(describe(ref, s, undefined, []));
        }
      } else if (e.data?.type === 'viewer.bye') {
        viewers.delete(e.data.viewerId);
      }
    };
    // A viewer opened before this tab answers this with its hello.
    post({ type: 'app.hello', tabId: TAB_ID });
    if (typeof window !== 'undefined') window.addEventListener('pagehide', () => viewers.size && post({ type: 'app.bye', tabId: TAB_ID }));
  };

  return (event: InspectionEvent) => {
    open();
    if (event.type === '@xstate.microstep') {
      const ts = (event as unknown as { _transitions?: AnyTransitionDefinition[] })._transitions ?? [];
      const list = pending.get(event.actorRef.sessionId) ?? [];
      for (const t of ts) {
        const group = (t.eventType === '' ? t.source.always : t.source.transitions.get(t.eventType)) ?? [];
        list.push({ source: t.source.id, eventType: String(t.eventType), targets: (t.target ?? []).map((n) => n.id), index: group.indexOf(t) });
      }
      pending.set(event.actorRef.sessionId, list);
      return;
    }
    if (event.type !== '@xstate.snapshot' || !isMachineSnapshot(event.snapshot)) return;
    const ref = event.actorRef as AnyActorRef;
    const transitions = pending.get(ref.sessionId) ?? [];
    pending.delete(ref.sessionId);
    if (event.snapshot.status === 'active') actors.set(ref.sessionId, ref);
    else actors.delete(ref.sessionId);
    if (viewers.size) post(describe(ref, event.snapshot, event.event.type, transitions));
  };
}

const flows = createFlowsBridge();

// Development only: `?inspect` connects Stately's inspector. Events before it has loaded wait.
let stately: ((e: InspectionEvent) => void) | null = null;
let waiting: InspectionEvent[] | null = null;
if (import.meta.env.DEV && typeof location !== 'undefined' && new URLSearchParams(location.search).has('inspect')) {
  waiting = [];
  void import('@statelyai/inspect').then(({ createBrowserInspector }) => {
    const inspector = createBrowserInspector();
    stately = (e) => inspector.inspect.next?.(e);
    for (const e of waiting ?? []) stately(e);
    waiting = null;
  });
}

/** The inspection observer to give every app actor (see above). */
export function inspect(event: InspectionEvent): void {
  flows(event);
  if (stately) stately(event);
  else waiting?.push(event);
}
